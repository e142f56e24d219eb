/**
 * score-api's `getProvider(network)` (`src/strategies/utils.ts`), answered in the test host by the
 * providers the test registers.
 */
export const providers = new Map<string, unknown>()

export function getProvider(network: string): never {
  const provider = providers.get(network)
  if (!provider) throw new Error(`The test host has no provider for network ${network}`)
  return provider as never
}
