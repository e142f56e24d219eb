/**
 * The world being generated: the draft every record family of the generator reads and fills, the
 * time units it counts in and the helpers to reach a wallet.
 */
import { keccak256, toBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { normalizeAddress } from '../../utils/address.js'
import { verificationLifetimeSeconds } from '../constants.js'
import { createRandom, type Random } from '../random.js'
import type { AttestationRow, DemoAccount, DemoStory, ScoreEvent, StampIssuer, SybilCluster, Verification, Wallet } from '../types.js'
import type { worldMix } from './mix.js'
import { stampIssuer } from './stamp-issuer.js'
import { hubClocks } from '../../rules/hub.js'

/**
 * OP Mainnet's clock run back to block 0 (1475598777): block n of the world's Optimism is at
 * `optimismGenesisTime + 2n`, the time OP Mainnet's block n has had since Bedrock (105,235,063 at
 * 1686068903). A snapshot block of the demo world is then a block number OP Mainnet had at that
 * time, and a strategy that maps a time to Optimism's block by the clock finds it here as there.
 */
const optimismGenesisTime = hubClocks['10'].timestamp - hubClocks['10'].block * hubClocks['10'].seconds

/** A persona of a generated wallet outside the sybil clusters (see `worldMix.personas`). */
export type Persona = keyof typeof worldMix.personas
/** What the generator knows of a wallet beyond the world's record: its persona and when it refreshed its stamps. */
export type WalletMeta = { persona: Persona | 'sybil' | 'demo'; refreshMs: number }

/** Milliseconds in a second, an hour, a day; seconds in a verification's year. */
export const second = 1000
export const hour = 3600 * second
export const day = 24 * hour
export const yearSeconds = verificationLifetimeSeconds

const demoStories: ReadonlyArray<{ story: DemoStory; description: string }> = [
  {
    story: 'passing-stamps',
    description:
      'Passes the default scorer (threshold 20) with stamps alone. Has one past score in the score history (A2), a self stake, a stake in a v1 funding round and accepted terms.',
  },
  {
    story: 'gov-id-verified',
    description:
      'Fails the default scorer (a few light stamps), but holds a valid government-ID SBT on Optimism for the default action: verified by the Human ID verification (E1) and voting-strategy (E4) endpoints.',
  },
  {
    story: 'clean-hands-only',
    description: 'No stamps and no SBT: one attestation that passes the clean-hands rule is all it has.',
  },
  {
    story: 'sybil',
    description:
      'Presents the same credentials as an earlier-scored wallet of its farm: every stamp is dedup\'ed, so it scores 0 although its weights sum above 20.',
  },
  { story: 'nothing', description: 'Nothing anywhere: no stamps, verifications, attestations, model scores or stakes.' },
]

/** The world being generated. Each record family (`wallets.ts`, `human-id.ts`, ...) reads it and fills its part. */
export type Draft = {
  readonly seed: string
  readonly walletCount: number
  readonly nowMs: number
  readonly rng: Random
  readonly nowSec: number
  /** Block 0 of the world's Optimism: OP Mainnet's clock run back, so the world's blocks carry OP Mainnet's numbers. */
  readonly genesisTime: number
  /** Four years before now, at midnight: where the world's other chains' plausible heights count from. */
  readonly startTime: number
  readonly blockTimeSeconds: number
  readonly wallets: Wallet[]
  readonly meta: WalletMeta[]
  readonly issuers: StampIssuer[]
  readonly demoAccounts: DemoAccount[]
  readonly verifications: Verification[]
  readonly attestations: AttestationRow[]
  readonly scoreEvents: ScoreEvent[]
  readonly sybilClusters: SybilCluster[]
  nextAttestationId: number
  /** Indices of generated wallets outside the clusters and the fixed cases: the random population. */
  readonly ordinary: number[]
  readonly fixedVerificationWallets: number[]
  readonly fixedAttestationWallets: number[]
  clusterPlans: Array<{ kind: 'demo' | 'expired-owner' | 'normal'; members: number[] }>
}

/** An empty draft: the random source, the clock, the chain's genesis, the stamp issuers and the demo accounts. */
export function createDraft(seed: string, walletCount: number, nowMs: number): Draft {
  const nowSec = Math.floor(nowMs / second)
  return {
    seed,
    walletCount,
    nowMs,
    rng: createRandom(`personhood-world:v1:${seed}`),
    nowSec,
    genesisTime: optimismGenesisTime,
    startTime: Math.floor((nowSec - 4 * 365 * 86400) / 86400) * 86400,
    blockTimeSeconds: 2,
    wallets: [],
    meta: [],
    issuers: [stampIssuer(seed, 'current', true), stampIssuer(seed, 'rotated', true), stampIssuer(seed, 'untrusted', false)],
    demoAccounts: demoStories.map(({ story, description }) => {
      const privateKey = keccak256(toBytes(`${seed}:demo-account:${story}`))
      const address = normalizeAddress(privateKeyToAccount(privateKey).address)
      return { story, description, address, privateKey }
    }),
    verifications: [],
    attestations: [],
    scoreEvents: [],
    sybilClusters: [],
    nextAttestationId: 0x1a0,
    ordinary: [],
    fixedVerificationWallets: [],
    fixedAttestationWallets: [],
    clusterPlans: [],
  }
}

/** The index of a demo account's wallet. */
export function demoIndex(d: Draft, story: DemoStory): number {
  return d.demoAccounts.findIndex((a) => a.story === story)
}

/** The wallet at `index`. */
export function wallet(d: Draft, index: number): Wallet {
  return d.wallets[index]!
}

/** What the generator knows of the wallet at `index`. */
export function walletMeta(d: Draft, index: number): WalletMeta {
  return d.meta[index]!
}
