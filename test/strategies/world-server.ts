/**
 * The demo world as `personhood serve --seed demo` serves it on a fixed day, bound to a real port,
 * with a clock the tests move, and a provider whose blocks follow the world's chain clock (block n
 * at genesis + n * block time; the head is the block at the server's now).
 */
import { keccak256, numberToHex, toHex, type Address } from 'viem'
import { startServe, type RunningServe } from '../../src/server/start.js'
import type { Eip1193ProviderLike } from '../../src/index.js'

/** The day of the world the conformance examples are written for. */
export const conformanceWorldNow = '2025-06-01T00:00:00.000Z'

/** A provider whose blocks follow a chain clock, its head the block at `now()`. */
export function chainClockProvider(clock: { genesisTime: number; blockTimeSeconds: number; chainId: number; now: () => number }): Eip1193ProviderLike & { head(): bigint } {
  const head = () => BigInt(Math.floor((Math.floor(clock.now() / 1000) - clock.genesisTime) / clock.blockTimeSeconds))
  const block = (number: bigint) => ({
    number: numberToHex(number),
    hash: keccak256(toHex(`block:${number}`)),
    parentHash: keccak256(toHex(`block:${number - 1n}`)),
    timestamp: numberToHex(BigInt(clock.genesisTime) + number * BigInt(clock.blockTimeSeconds)),
    // The rest of a header, so that ethers v5 (snapshot.js's getProvider) can format the block.
    gasLimit: '0x1c9c380',
    gasUsed: '0x0',
    baseFeePerGas: '0x0',
    difficulty: '0x0',
    nonce: '0x0000000000000000',
    miner: '0x0000000000000000000000000000000000000000',
    extraData: '0x',
    transactions: [],
  })
  return {
    head,
    async request({ method, params }) {
      const list = (params ?? []) as unknown[]
      switch (method) {
        case 'eth_chainId':
          return numberToHex(clock.chainId)
        case 'eth_blockNumber':
          return numberToHex(head())
        case 'eth_getBlockByNumber': {
          const tag = list[0]
          const number = tag === 'latest' ? head() : BigInt(tag as string)
          return number > head() || number < 0n ? null : block(number)
        }
        default:
          throw new Error(`chainClockProvider: ${method} is not served`)
      }
    },
  }
}

/** The running demo world: its server, clock, keys and a chain-clock provider. */
export type WorldServer = {
  running: RunningServe
  url: string
  store: RunningServe['app']['context']['store']
  clock: { now(): number; advance(ms: number): void }
  keys: Record<'demo' | 'partner' | 'analytics' | 'indexer', string>
  provider: ReturnType<typeof chainClockProvider>
  /** The block of the world's chain at a time (Unix ms). */
  blockAt(ms: number): bigint
  /** Every wallet address of the world (lower case), in the world's order. */
  wallets(): Address[]
  close(): Promise<void>
}

/** Starts the demo world on a free port of 127.0.0.1. */
export async function startWorldServer(): Promise<WorldServer> {
  let ms = Date.parse(conformanceWorldNow)
  const clock = { now: () => ms, advance: (by: number) => void (ms += by) }
  const running = await startServe({ port: 0, seed: 'demo', worldNow: conformanceWorldNow, now: clock.now })
  const { store } = running.app.context
  const { chain, apiKeys } = store.state
  const key = (name: string) => (apiKeys.find((apiKey) => apiKey.name === name) as { key: string }).key
  return {
    running,
    url: running.url,
    store,
    clock,
    keys: { demo: key('demo'), partner: key('partner'), analytics: key('analytics'), indexer: key('indexer') },
    provider: chainClockProvider({ ...chain, now: clock.now }),
    blockAt: (at: number) => BigInt(Math.floor((Math.floor(at / 1000) - chain.genesisTime) / chain.blockTimeSeconds)),
    wallets: () => [...new Set([...store.state.demoAccounts.map((account) => account.address), ...Object.keys(store.state.stamps)])].map((address) => address.toLowerCase() as Address),
    close: () => running.close(),
  }
}
