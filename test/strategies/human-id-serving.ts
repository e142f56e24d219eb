/**
 * How `strategies/human-id` and `strategies/human-verification` examples are served: the reference
 * server and the local chain seeded from one demo world. Network 10 is the local chain (the hub
 * chain itself); network 1 is a chain clock of 12 s blocks over the same time (Ethereum's since the
 * Merge), so a space on Ethereum is judged on the local chain's block at its snapshot's time.
 */
import type { Address } from 'viem'
import { startServe } from '../../src/server/start.js'
import type { StrategyContext } from '../../src/strategy/context.js'
import type { ExampleServer, ExampleServing } from './conformance.js'
import { chainClockProvider, conformanceWorldNow } from './world-server.js'

/** Ethereum's clock since the Merge, as block 0 + n * 12 s: block 15,537,394 at 1663224179. */
export const ethereumClock = { genesisTime: 1_663_224_179 - 15_537_394 * 12, blockTimeSeconds: 12, chainId: 1 }

const year = 365 * 24 * 60 * 60 * 1000

/**
 * Starts the demo world with its local chain; the server's clock stands at the world's day until
 * `changeAfterSnapshot` moves it three years on (every SBT of the world has expired by then).
 */
export async function startChainWorld(): Promise<ExampleServer & { humanIdContext: () => StrategyContext; apiKey: string; baseUrl: string; admin: { url: string; token: string } }> {
  let ms = Date.parse(conformanceWorldNow)
  const now = () => ms
  const running = await startServe({ port: 0, seed: 'demo', worldNow: conformanceWorldNow, now, chain: { port: 0 } })
  const chain = running.chain!
  const { state } = running.app.context.store
  const hubClock = { anchor: { blockNumber: 0n, timestamp: BigInt(state.chain.genesisTime) }, blockTimeSeconds: state.chain.blockTimeSeconds, exact: true }
  const ethereum = chainClockProvider({ ...ethereumClock, now })
  const humanId = { hubChain: chain.rpcUrl!, hubClock, baseUrl: running.urls.humanId, attestationIndexBaseUrl: running.urls.attestationIndex }
  const apiKey = (state.apiKeys.find((key) => key.name === 'analytics') as { key: string }).key
  return {
    env: { HUMAN_ID_RPC_URL: chain.rpcUrl!, HUMAN_ID_API_URL: running.urls.humanId, ATTESTATION_INDEX_URL: running.urls.attestationIndex },
    // The score-api form reads no clock from the environment: on network 1 it finds the hub block
    // by Optimism's real clock, which misses the local chain's, and searches (a few more header reads).
    context: () => ({ humanId, cache: false, now }),
    humanIdContext: () => ({ humanId, cache: false, now }),
    apiKey,
    baseUrl: running.url,
    admin: { url: running.urls.admin, token: running.adminToken },
    provider: (network) => (network === '10' ? chain.provider : ethereum),
    latestBlock: async (network) => (network === '10' ? chain.blockAt(new Date(ms).toISOString()) : ethereum.head()),
    voters: (count) => [...new Set([...state.demoAccounts.map((account) => account.address), ...Object.keys(state.stamps)])].slice(0, count) as Address[],
    async changeAfterSnapshot() {
      ms += 3 * year
    },
    close: () => running.close(),
  }
}

export const humanIdServing: ExampleServing = {
  description: 'the reference server and the local chain seeded from one demo world; network 1 a 12 s chain clock over the same time',
  start: startChainWorld,
}

/** human-verification: the same, plus the world's history-allowlisted tier-3 Passport key (scorer 1). */
export const humanVerificationServing: ExampleServing = {
  description: 'the local chain and the reference server of one demo world, with an allowlisted tier-3 Passport key (scorer 1)',
  async start() {
    const world = await startChainWorld()
    const passport = { apiKey: world.apiKey, baseUrl: world.baseUrl, tier: 3 as const, scorerId: '1', rateLimiter: false as const }
    return {
      ...world,
      env: { ...world.env, PASSPORT_API_KEY: world.apiKey, PASSPORT_API_URL: world.baseUrl, PASSPORT_API_TIER: '3', PASSPORT_SCORER_ID: '1' },
      context: () => ({ ...world.humanIdContext(), passport }),
    }
  },
}
