/**
 * A folder's params as the library reads the same strategy. The folders read Passport's own score
 * on chain (their only Passport source); the library's default is Passport's API, so its on-chain
 * source is named: `source` for passport-v2, `passportSource` for the human tests, inner strategies
 * too. The conformance, parity and host tests compare the two forms through it.
 */
export function asLibraryParams(name: string, params: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(params)
  if (name === 'passport-v2') return { ...copy, source: 'onchain' }
  if (name === 'human-verification') return { ...copy, passportSource: 'onchain' }
  if (name === 'human-gated') {
    const inner = (copy.strategies ?? []) as { name: string; params?: Record<string, unknown> }[]
    return { ...copy, passportSource: 'onchain', strategies: inner.map((entry) => ({ ...entry, params: asLibraryParams(entry.name, entry.params ?? {}) })) }
  }
  return copy
}
