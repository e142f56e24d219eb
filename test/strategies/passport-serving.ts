/**
 * How `strategies/passport-v2`'s examples are served: the reference server with the demo world
 * (A1, A2 and the C4 listing) on a real port, read with the world's history-allowlisted tier-3 key,
 * and a provider on the world's chain clock (Optimism, chain id 10).
 */
import type { Address } from 'viem'
import type { ExampleServing } from './conformance.js'
import { startWorldServer } from './world-server.js'

const hour = 60 * 60 * 1000

export const passportServing: ExampleServing = {
  description: 'the reference server with the demo world (scorer 1 by default), an allowlisted tier-3 key, the world chain clock',
  async start() {
    const world = await startWorldServer()
    const apiKey = world.keys.analytics
    return {
      env: { PASSPORT_API_KEY: apiKey, PASSPORT_API_URL: world.url, PASSPORT_API_TIER: '3', PASSPORT_SCORER_ID: '1' },
      context: () => ({ passport: { apiKey, baseUrl: world.url, scorerId: '1', rateLimiter: false }, cache: false, now: world.clock.now }),
      provider: () => world.provider,
      latestBlock: async () => world.provider.head(),
      voters: (count) => world.wallets().slice(0, count),
      // An hour later, every example voter loses its stamps and is rescored (A1): those that passed
      // now score 0, and the listing holds the new scores; the answer at the snapshot must not move.
      async changeAfterSnapshot({ addresses, params }) {
        world.clock.advance(hour)
        const scorerId = typeof params.scorerId === 'number' ? params.scorerId : 1
        for (const address of addresses) {
          const providers = world.store.stampRecords(address).map((record) => record.provider)
          world.store.deleteStamps(address, providers)
          world.store.score(address.toLowerCase() as Address, { scorerId, at: world.clock.now(), recordHistory: true })
        }
        // Then one block time on: the chain's latest block (at or before now) is after the rescoring.
        world.clock.advance(2_000)
      },
      close: () => world.close(),
    }
  },
}
