/**
 * How `strategies/human-id`'s examples are served: the reference server and the local chain seeded
 * from one demo world. Network 10 is the local chain (the hub chain itself); network 1 is a chain
 * clock of 12 s blocks over the same time (Ethereum's since the Merge), so a space on Ethereum is
 * judged on the local chain's block at its snapshot's time.
 */
import type { Address } from 'viem'
import { startServe } from '../../src/cli/serve.js'
import type { ExampleServing } from './conformance.js'
import { chainClockProvider, conformanceWorldNow } from './world-server.js'

/** Ethereum's clock since the Merge, as block 0 + n * 12 s: block 15,537,394 at 1663224179. */
export const ethereumClock = { genesisTime: 1_663_224_179 - 15_537_394 * 12, blockTimeSeconds: 12, chainId: 1 }

const year = 365 * 24 * 60 * 60 * 1000

export const humanIdServing: ExampleServing = {
  description: 'the reference server and the local chain seeded from one demo world; network 1 a 12 s chain clock over the same time',
  async start() {
    let ms = Date.parse(conformanceWorldNow)
    const now = () => ms
    const running = await startServe({ port: 0, seed: 'demo', worldNow: conformanceWorldNow, now, chain: { port: 0 } })
    const chain = running.chain!
    const { state } = running.app.context.store
    const hubClock = { anchor: { blockNumber: 0n, timestamp: BigInt(state.chain.genesisTime) }, blockTimeSeconds: state.chain.blockTimeSeconds, exact: true }
    const ethereum = chainClockProvider({ ...ethereumClock, now })
    const humanId = { hubChain: chain.rpcUrl!, hubClock, baseUrl: running.urls.humanId, attestationIndexBaseUrl: running.urls.attestationIndex }
    return {
      env: { HUMAN_ID_RPC_URL: chain.rpcUrl!, HUMAN_ID_API_URL: running.urls.humanId, ATTESTATION_INDEX_URL: running.urls.attestationIndex },
      // The score-api form reads no clock from the environment: on network 1 it finds the hub block
      // by Optimism's real clock, which misses the local chain's, and searches (a few more header reads).
      context: () => ({ humanId, cache: false, now }),
      provider: (network) => (network === '10' ? chain.provider : ethereum),
      latestBlock: async (network) => (network === '10' ? chain.blockAt(new Date(ms).toISOString()) : ethereum.head()),
      voters: (count) => [...new Set([...state.demoAccounts.map((account) => account.address), ...Object.keys(state.stamps)])].slice(0, count) as Address[],
      // Three years on, every SBT of the world has expired: today's answers differ, the snapshot's must not.
      async changeAfterSnapshot() {
        ms += 3 * year
      },
      close: () => running.close(),
    }
  },
}
