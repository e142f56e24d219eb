/**
 * What `personhood serve` prints: the URLs, keys and environment variables of a running server
 * (started by `startServe` of `personhood/server`), and the notices a demo world needs.
 */
import type { RunningServe } from '../server/start.js'

/** Tells whether a bind address only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare) || bare === '::ffff:127.0.0.1'
}

/**
 * What `serve` must say about the keys it serves: a demo world's API keys, admin-free account keys
 * and issuer keys are derived from a public seed, the same on every machine; served beyond this
 * machine, anyone who can reach the port can use them.
 */
export function serveNotices(parameters: { host: string; demoWorld: boolean }): string[] {
  if (!parameters.demoWorld) return []
  const notices = ['  Demo world: its API keys and account keys are public and the same on every machine. Use it to try things out, never for real scores.']
  if (!isLoopbackHost(parameters.host)) {
    notices.push(`  WARNING: bound to ${parameters.host}, which other machines can reach, with the demo world's public keys. Bind to 127.0.0.1 unless that is what you want.`)
  }
  return notices
}

/** One variable `serve` asks the user to export, for the README's examples. */
export type ServeVariable = { name: string; value: string; note?: string }

/**
 * The environment variables the README's examples read, with the values of a running server: base
 * URLs, the API key, the default scorer, a demo account and its private key (demo worlds only),
 * and the local chain's JSON-RPC URL (with `chain`).
 *
 * @example
 * for (const { name, value } of serveEnvironment(running)) process.env[name] = value
 */
export function serveEnvironment(running: RunningServe): ServeVariable[] {
  const state = running.app.context.store.state
  const key = state.apiKeys.find((candidate) => candidate.key === running.apiKey)
  const scorer = state.scorers[0]
  const account = (story: string) => state.demoAccounts.find((candidate) => candidate.story === story)
  const passing = account('passing-stamps')
  const verified = account('gov-id-verified')
  return [
    { name: 'PERSONHOOD_BASE_URL', value: running.urls.passport, note: 'stamp scores, model scores, registry, stamp cache' },
    { name: 'PERSONHOOD_HUMAN_ID_URL', value: running.urls.humanId, note: 'Human ID verifications' },
    { name: 'PERSONHOOD_ATTESTATION_INDEX_URL', value: running.urls.attestationIndex, note: 'clean-hands attestation index' },
    ...(key ? [{ name: 'PERSONHOOD_API_KEY', value: key.key, note: `tier ${key.tier}${key.historyAllowlisted ? ', may read score history' : ''}` }] : []),
    // The CLI paces the key by this tier; without it a tier-3 key would be paced as tier 1.
    ...(key ? [{ name: 'PERSONHOOD_API_TIER', value: String(key.tier), note: 'the key\'s rate tier, read by score, verify and audit' }] : []),
    ...(scorer ? [{ name: 'PERSONHOOD_SCORER_ID', value: String(scorer.id), note: `scorer "${scorer.name}", threshold ${scorer.threshold}` }] : []),
    ...(passing ? [{ name: 'DEMO_ADDRESS', value: passing.address, note: 'passes the scorer with stamps alone' }] : []),
    ...(passing ? [{ name: 'DEMO_PRIVATE_KEY', value: passing.privateKey, note: "that account's key, to sign in" }] : []),
    ...(verified ? [{ name: 'DEMO_VERIFIED_ADDRESS', value: verified.address, note: 'holds a valid government-ID verification' }] : []),
    ...(running.chain?.rpcUrl ? [{ name: 'PERSONHOOD_RPC_URL', value: running.chain.rpcUrl, note: 'the local chain' }] : []),
  ]
}

function table(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)
}

/** The lines `serve` prints. */
export function describeServe(running: RunningServe): string[] {
  const urls = running.urls
  const store = running.app.context.store
  const origin = store.state.origin
  const from =
    running.source === 'data'
      ? `state from ${running.persistence?.file ?? 'file'}`
      : running.source === 'demo'
        ? `demo world "${origin.seed}" at ${origin.worldNow} (${Object.keys(store.state.stamps).length} wallets with stamps)`
        : 'empty state'
  const environment = serveEnvironment(running)
  const width = Math.max(...environment.map(({ name, value }) => name.length + value.length + 1))
  const demo = store.state.demoAccounts
  const storyWidth = Math.max(0, ...demo.map((account) => account.story.length))
  return [
    `personhood reference server listening on ${running.url} (${from}; ready in ${Math.round(running.startupMs)} ms)`,
    '',
    ...table([
      ['Stamp scores v2, model scores (A, B)', urls.passport],
      ['Legacy registry (C)', urls.registry],
      ['Stamp cache (D, paths /stamp-cache/...)', urls.stampCache],
      ['Human ID verifications (E1-E7)', urls.humanId],
      ['Attestation index (E8)', urls.attestationIndex],
      ['Admin API', urls.admin],
      ...(running.chain ? [[`Local chain, JSON-RPC (chain ${running.chain.network.chainId}, ${running.chain.network.name})`, running.chain.rpcUrl ?? ''] as [string, string]] : []),
    ]),
    '  (Letters and numbers in parentheses name the interfaces and endpoints: see docs/interface.md.)',
    '',
    ...(origin.seed !== null ? [...serveNotices({ host: running.host, demoWorld: true }), ''] : []),
    `  API key (X-API-KEY): ${running.apiKey}`,
    `  Admin token (Authorization: Bearer): ${running.adminToken}`,
    ...(running.persistence ? [`  State file: ${running.persistence.file} (saved on every change and on exit)`] : []),
    '',
    demo.length > 0
      ? "  For the README's examples, export these in the shell that runs them:"
      : "  For your own calls, export these (the README's examples need the demo world: --seed demo):",
    '',
    ...environment.map(({ name, value, note }) => `    export ${`${name}=${value}`.padEnd(width)}${note ? `  # ${note}` : ''}`),
    ...(running.chain ? [] : ['    # and start with --chain for PERSONHOOD_RPC_URL (the on-chain verifier)']),
    ...(demo.length > 0
      ? ['', '  Demo accounts:', ...demo.map((account) => `    ${account.story.padEnd(storyWidth)}  ${account.address}  ${account.description}`)]
      : []),
  ]
}
