/**
 * Passport's on-chain source in the library (passport-v2 `source: 'onchain'`, human-verification
 * `passportSource: 'onchain'`) on the demo world's local chain, whose decoder is seeded from the
 * world: the requests it reports are the requests the node saw, and the sandbox (no decoder) is
 * refused before any request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StrategyOptionsError } from '../../src/errors/strategy.js'
import type { Eip1193ProviderLike } from '../../src/index.js'
import { onchainPassportSourceName } from '../../src/strategy/passport-onchain.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import { passportV2Strategy } from '../../src/strategy/passport-v2.js'
import type { ExampleServer } from '../strategies/conformance.js'
import { humanIdServing } from '../strategies/human-id-serving.js'

let server: ExampleServer
beforeAll(async () => {
  server = await humanIdServing.start()
}, 300_000)
afterAll(() => server?.close())

/** The world's local chain, counting the eth_calls it answers. */
function counting(): { provider: Eip1193ProviderLike; calls: () => number } {
  const inner = server.provider('10') as Eip1193ProviderLike
  let calls = 0
  return {
    calls: () => calls,
    provider: {
      request: (arguments_: { method: string; params?: unknown }) => {
        if (arguments_.method === 'eth_call') calls++
        return inner.request(arguments_ as never)
      },
    } as Eip1193ProviderLike,
  }
}

describe("Passport's decoder on chain, in the library", () => {
  it.each([1, 500])('%i voters: the requests it reports are the eth_calls the node answered, one for up to 500 voters as in the folder', async (count) => {
    const { provider, calls } = counting()
    const snapshot = Number(await server.latestBlock('10')) - 100
    const run = await runStrategy(passportV2Strategy, { network: '10', provider, addresses: server.voters(count), options: { source: 'onchain', mode: 'gated' }, snapshot, context: server.context() })
    expect(Object.keys(run.scores)).toHaveLength(count)
    expect(run.requests[onchainPassportSourceName]).toBe(calls())
    expect(calls()).toBe(1)
  }, 120_000)

  it('the sandbox has no decoder: refused before any request, naming passportScore', async () => {
    const { provider, calls } = counting()
    const run = runStrategy(humanVerificationStrategy, { network: '10', provider, addresses: server.voters(2), options: { passportSource: 'onchain', sandbox: true }, snapshot: 1_000, context: server.context() })
    await expect(run).rejects.toBeInstanceOf(StrategyOptionsError)
    await expect(run).rejects.toMatchObject({ issues: [expect.objectContaining({ path: ['passportScore'] })] })
    expect(calls()).toBe(0)
  })
})
