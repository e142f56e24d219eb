/**
 * The world of the human-gated tests: the demo world's hub chain and reference server (Human ID
 * and Passport), and a real token vote beside it: a TestToken on an Ethereum chain (12 s blocks,
 * the space's network) and one on a Base chain (2 s blocks), balances minted by transactions
 * before the snapshot, and 1,000 more to everyone after it (a read at the wrong block counts them).
 * The library test and the score-api host test run on the same world.
 */
import { getAddress, numberToHex, type Address } from 'viem'
import type { Eip1193ProviderLike } from '../../src/chain/provider.js'
import type { StrategyContext } from '../../src/strategy/context.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import type { ExampleServer } from '../strategies/conformance.js'
import { humanVerificationServing } from '../strategies/human-id-serving.js'
import { erc20BalanceOf, startTokenChain, type Mint, type TokenChain } from './token-chain.js'

/** Hundredths of a token (on Ethereum, Base) by voter index modulo 5. */
export const gatedPlan: readonly [number, number][] = [
  [0, 0], // nothing: never put to the human test
  [625, 0], // 6.25
  [1, 0], // 0.01: dust
  [250, 150], // 2.5 + 1.5 on two networks
  [0, 10_000], // 100 on Base only
]

export type GatedWorld = {
  server: ExampleServer
  /** Checksummed; index modulo 5 is the voter's row of {@link gatedPlan}. */
  voters: Address[]
  ethereum: TokenChain
  base: TokenChain
  /** The snapshot block on Ethereum (network 1), the space's network. */
  snapshot: bigint
  /** Each voter's power at the snapshot by the plan (not a read): Ethereum plus Base, in tokens. */
  power(voter: Address): number
  /** The inner strategies: the Ethereum token (space's network) and the Base token (network 8453). */
  inner(): { name: string; network?: string; params: Record<string, unknown> }[]
  /** The server's context plus the registry (erc20-balance-of) and the Base network. */
  context(overrides?: Partial<StrategyContext>): StrategyContext
  close(): Promise<void>
}

/** Starts the world: 80 voters of the demo world, the two token chains, the snapshot at hub block 136,566,811's time. */
export async function startGatedWorld(): Promise<GatedWorld> {
  const server = await humanVerificationServing.start()
  const world = (server.voters(80) as Address[]).map((voter) => getAddress(voter))
  // The snapshot's time: the hub chain's block 136,566,811 (the human-verification tests' snapshot).
  const hubBlock = (await (server.provider('10') as Eip1193ProviderLike).request({ method: 'eth_getBlockByNumber', params: [numberToHex(136_566_811), false] })) as { timestamp: string }
  const time = Number(BigInt(hubBlock.timestamp))
  // Each row of the plan gets Human ID humans, Passport-only humans and others alike: the voters are
  // dealt to the rows group by group (the groups as human-verification judges them on the hub chain).
  const { scores: groups } = await runStrategy(humanVerificationStrategy, {
    network: '10',
    provider: server.provider('10'),
    addresses: world,
    options: { verifiedScore: 2, passportScore: 1, scorerId: 1 },
    snapshot: 136_566_811,
    context: server.context(),
  })
  const voters = [2, 1, 0].flatMap((group) => world.filter((voter) => groups[voter] === group))
  const row = (index: number) => gatedPlan[index % gatedPlan.length]!
  const mints = (decimals: number, pick: (row: readonly [number, number]) => number) => {
    const list: Mint[] = []
    voters.forEach((to, index) => {
      const hundredths = pick(row(index))
      if (hundredths > 0) list.push({ to, amount: BigInt(hundredths) * 10n ** BigInt(decimals - 2), at: time - 3_600 + index * 30 })
      list.push({ to, amount: 1_000n * 10n ** BigInt(decimals), at: time + 60 + index * 2 })
    })
    return list
  }
  const [ethereum, base] = await Promise.all([
    startTokenChain({ chainId: 1, genesisTime: time - 12 * 1_000, blockTimeSeconds: 12, decimals: 18, mints: mints(18, ([onEthereum]) => onEthereum), readAt: [time] }),
    startTokenChain({ chainId: 8453, genesisTime: time - 2 * 5_000 - 1, blockTimeSeconds: 2, decimals: 6, mints: mints(6, ([, onBase]) => onBase), readAt: [time] }),
  ])
  const planned = new Map(voters.map((voter, index) => [voter, row(index)] as const))
  return {
    server,
    voters,
    ethereum,
    base,
    snapshot: ethereum.blockAt(time),
    power(voter) {
      const [onEthereum, onBase] = planned.get(voter)!
      return 0 + onEthereum / 100 + onBase / 100
    },
    inner: () => [
      { name: 'erc20-balance-of', params: { address: ethereum.token, decimals: 18 } },
      { name: 'erc20-balance-of', network: '8453', params: { address: base.token, decimals: 6 } },
    ],
    context: (overrides = {}) => ({
      ...server.context(),
      strategies: { 'erc20-balance-of': erc20BalanceOf },
      networks: { '8453': { provider: base.provider, clock: base.clock } },
      ...overrides,
    }),
    close: () => server.close(),
  }
}
