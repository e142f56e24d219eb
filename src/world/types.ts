/**
 * The demo world: a plain, JSON-serializable description of all the state a reference server (and a
 * local chain) needs. It is data, not a store: load it into whatever store you have. Every value is a
 * string, number, boolean, null, array or plain object, so `JSON.parse(JSON.stringify(world))` equals
 * `world`.
 *
 * Time units follow the services: stamp dates are ISO 8601 strings, Human ID times are Unix seconds,
 * attestation `attestTimestamp` is Unix milliseconds and `validUntil` Unix seconds.
 *
 * Fields named `kind`, `label`, `story` and the {@link World.sybilClusters} list are ground truth for
 * demos and tests ("why is this row here"); no service answers with them.
 */
import type { Address, Hex } from 'viem'

import type { HumanIdCredential, HumanIdNetwork } from '../schemas/human-id.js'
import type { ModelName } from '../schemas/model.js'

export type { HumanIdCredential, HumanIdNetwork, ModelName }

/**
 * The time base of the local chain: block `n` is mined at `genesisTime + n * blockTimeSeconds`.
 * The generator puts genesis at midnight UTC four years before `now`.
 *
 * @example
 * const blockAt = (t: number) => Math.floor((t - world.chain.genesisTime) / world.chain.blockTimeSeconds)
 * const timeOf = (n: number) => world.chain.genesisTime + n * world.chain.blockTimeSeconds
 */
export type WorldChain = {
  /** The chain the production contracts live on (Optimism, 10). */
  chainId: number
  /** Unix seconds of block 0; earlier than every timestamp in the world. */
  genesisTime: number
  /** Seconds between blocks (2 on Optimism). Block at time `t`: `floor((t - genesisTime) / blockTimeSeconds)`. */
  blockTimeSeconds: number
}

/** One stamp of a provider's metadata group (A4, C6). `name` is the stamp name that scorers weigh. */
export type StampMetadata = {
  name: string
  description: string
  /** A fixed identifier of the stamp type (keccak256 of its name); not a credential hash. */
  hash: Hex
}

/** A stamp provider (platform) with its metadata groups, as A4 and C6 list them. */
export type StampProvider = {
  id: string
  icon: string
  name: string
  description: string
  connectMessage: string
  groups: Array<{ name: string; stamps: StampMetadata[] }>
}

/** A stamp scorer. Type `binary` fills the v1 `evidence` object; both types have a threshold in v2. */
export type Scorer = {
  id: number
  name: string
  type: 'unique-humanity' | 'binary'
  /** Decimal string, "20" by default; `passing_score` is `score >= threshold`. */
  threshold: string
  /** Stamp name to weight (decimal string). A stamp without a weight counts 0 but is still listed. */
  weights: Record<string, string>
}

/** An API key of interfaces A, B and C, with its rate-limit tier and whether A2 (history) is allowed. */
export type ApiKey = {
  key: string
  name: string
  tier: 1 | 2 | 3 | 4
  historyAllowlisted: boolean
}

/**
 * A DID that signs stamp credentials, with its key so a server can sign demo credentials. Stamps
 * from an issuer with `trusted: false` are dropped before scoring.
 */
export type StampIssuer = {
  /** `did:key:z6Mk...`: the Ed25519 public key of `privateKey` (see `stampIssuerDid`). */
  did: string
  trusted: boolean
  /**
   * The Ed25519 private key (32 bytes). Demo only: derived from the seed. Absent for an issuer the
   * server trusts (or not) without holding its key: it cannot issue its stamps.
   */
  privateKey?: Hex
}

/**
 * A stamp credential held by a wallet: what a server needs to build the full verifiable credential
 * (`credentialSubject.id` is `did:pkh:eip155:1:<address>`).
 *
 * @example
 * const expired = Date.parse(stamp.expirationDate) < Date.parse(world.now)
 */
export type Stamp = {
  /** The stamp name (the key of scorer weights and of the score's `stamps` map). */
  provider: string
  /** Versioned unique credential identifier, `v0.0.0:<base64 of 32 bytes>`; shared hashes are sybils. */
  hash: string
  /** The issuer DID (see {@link World.stampIssuers}). */
  issuer: string
  issuanceDate: string
  /** Expired when before {@link World.now}. */
  expirationDate: string
}

/**
 * A wallet of the stamp-scoring service. Stamps are in the order the wallet holds them, oldest first
 * (the first per provider counts).
 *
 * @example
 * const wallet = world.wallets.find((w) => w.address === address.toLowerCase())
 */
export type Wallet = {
  /** Lowercase. */
  address: Address
  /** Why this wallet is notable (demo accounts, sybil clusters, adversarial cases). */
  label?: string
  stamps: Stamp[]
}

/** Why a Human ID verification exists, and so whether it should count. */
export type VerificationKind =
  /** Hub SBT, default action, right issuer, not expired, not revoked: counts. */
  | 'valid'
  /** `expiresAt` before now. */
  | 'expired'
  /** Revoked on the hub (`revoked: true`). */
  | 'revoked'
  /** Valid, but for a custom action id: counts only when asked with that action id. */
  | 'custom-action'
  /** A sandbox SBT on Base Sepolia with public values: counts for the base-sepolia network only. */
  | 'sandbox'
  /** A sandbox SBT minted with empty public values and expiry 2^256-1: never counts. */
  | 'sandbox-empty-public-values'
  /** An entry of the older permanent stores (no expiry, no revocation): counts for its action. */
  | 'legacy-store'
  /** A zk-passport SBT (its own circuit and issuer): counts as gov-id. */
  | 'zk-passport'
  /** An SBT whose `publicValues[4]` is not the credential's issuer: never counts. */
  | 'wrong-issuer'

/**
 * A Human ID verification: an SBT on a hub (`source` hub or zk-passport) or an entry of a legacy
 * store. On a hub, the SBT's public values are `[expiry, address, actionId, nullifier, issuer]`:
 * `hubSbtOf` (`world/hub-state.ts`) maps a record to the SBT the Hub holds, for the reference server
 * and the local chain alike.
 *
 * @example
 * // The SBT a local hub holds for it; its id is keccak256(abi.encodePacked(address, circuitId)).
 * import { hubSbtOf } from './hub-state.js'
 * const { expiry, publicValues, revokedAt } = hubSbtOf(v)
 */
export type Verification = {
  /** Lowercase. */
  address: Address
  credential: HumanIdCredential
  network: HumanIdNetwork
  source: 'hub' | 'legacy-store' | 'zk-passport'
  /** The circuit of the SBT; null for a legacy-store entry. */
  circuitId: Hex | null
  /** Decimal string; `defaultActionIdText` ("123456789") unless kind is `custom-action`. */
  actionId: string
  /** `publicValues[4]`; null for a legacy-store entry or an SBT with empty public values. */
  issuer: Hex | null
  /** `publicValues[3]`, decimal; null for a legacy-store entry or an SBT with empty public values. */
  nullifier: string | null
  /** True when the SBT is minted with `publicValues = []` (sandbox only). */
  emptyPublicValues: boolean
  /** Unix seconds. */
  issuedAt: number
  /** Unix seconds; null when it never expires (legacy store; sandbox SBT with expiry 2^256-1). */
  expiresAt: number | null
  revoked: boolean
  /** Unix seconds; null unless revoked. */
  revokedAt: number | null
  kind: VerificationKind
}

/** Why a clean-hands attestation row exists, and so whether it satisfies rule 6 of E. */
export type AttestationKind =
  /** Satisfies every condition of rule 6. */
  | 'valid'
  /** Valid, with the attester written in another letter case (compare case-insensitively). */
  | 'valid-attester-case'
  /** Signed by another attester. */
  | 'wrong-attester'
  /** Another schema on the right chain (`onchain_evm_10_0x80`, `onchain_evm_10_0x9`). */
  | 'wrong-schema'
  /** Schema 0x8 on another chain (`onchain_evm_8453_0x8`). */
  | 'wrong-chain-schema'
  /** `revoked: true`. */
  | 'revoked'
  /** `validUntil` before now. */
  | 'expired'
  /** `validUntil` equal to now: fails `validUntil > now`. */
  | 'valid-until-now'
  /** `validUntil` "0" (no expiry on-chain), which fails `validUntil > now`. */
  | 'valid-until-zero'
  /** Listed on the address's page, but the address is not the receiver (`isReceiver: false`). */
  | 'not-receiver'

/**
 * A clean-hands attestation row as the attestation index (E8) lists it on the page of `address`,
 * plus `kind`. One on-chain attestation (one `attestationId`) may be listed on several pages.
 *
 * @example
 * // The E8 page of an address: its rows without the world's own fields.
 * const rows = world.attestations.filter((a) => a.address === address).map(({ address, kind, ...row }) => row)
 */
export type AttestationRow = {
  /** The Sign Protocol attestation id (uint64) in hex, e.g. `0x1a4`. */
  attestationId: Hex
  /** The address whose index page lists the row (lowercase). */
  address: Address
  fullSchemaId: string
  schemaId: string
  /** As the index shows it: letter case varies. */
  attester: string
  isReceiver: boolean
  revoked: boolean
  /** Unix seconds, as the index shows it: a number or a decimal string; "0" means no expiry on-chain. */
  validUntil: number | string
  /** Unix milliseconds. */
  attestTimestamp: number
  recipients: string[]
  kind: AttestationKind
}

/** A clean-hands SBT held by an address on a non-EVM chain (what E7 answers about). */
export type CleanHandsSbt = {
  chain: 'near' | 'aptos'
  /** The address on that chain: a NEAR account id or an Aptos address (0x + 64 hex). */
  address: string
  /** Decimal string. */
  actionId: string
  circuitId: Hex
  /** Unix seconds. */
  issuedAt: number
  /** Unix seconds; still valid at this very second, as an SBT on the Hub. */
  expiresAt: number
  revoked: boolean
  /**
   * Unix seconds from which it is revoked; null unless revoked (a revoked SBT without a time, such
   * as one of a state saved before this field was kept, is revoked from its issuance).
   */
  revokedAt: number | null
  kind: 'valid' | 'expired' | 'revoked' | 'custom-action'
}

/** A model score (B1). An address with no entry for a model has no data for it. */
export type ModelScore = {
  address: Address
  model: ModelName
  /** Integer from -1 (insufficient data) to 100. */
  score: number
}

/** A token stake as D9 returns it (self stake when staker equals stakee). */
export type Stake = {
  chain: number
  staker: Address
  stakee: Address
  /** Token units, decimal string. */
  amount: string
  /** ISO 8601. */
  lock_time: string
  /** ISO 8601; may be in the past (unlocked). */
  unlock_time: string
  last_updated_in_block: number
}

/** The deprecated v1 stake record of one address in one round (C7): self stakes and community stakes. */
export type RoundStake = {
  address: Address
  roundId: string
  stakes: Array<{ stake: string; round: { id: string } }>
  xstakeAggregates: Array<{ total: string; round: { id: string } }>
}

/**
 * A past score request, to be replayed in order when the world is loaded: it fixes who claimed a
 * shared credential first (dedup is first-claimant-wins, per scorer) and fills the history (A2) and the
 * v1 listings (C3, C4). Replay it as a read at `at` with the wallet's stamps issued at or before `at`.
 *
 * @example
 * for (const event of world.scoreEvents) store.score(event.scorerId, event.address, { at: event.at })
 */
export type ScoreEvent = {
  scorerId: number
  address: Address
  /** ISO 8601, before {@link World.now}. */
  at: string
  /** `A1` (v2 read) or `C2` (v1 submit). */
  via: 'A1' | 'C2'
}

/** An accepted terms-of-service (D10). */
export type TosAcceptance = {
  tosType: string
  address: Address
  acceptedAt: string
}

/**
 * Ground truth of a sybil cluster: wallets presenting the same credentials. `members` are in claim
 * order for the first scorer: `members[0]` is the first claimant unless `ownerExpired`, in which case
 * its claim has lapsed and `members[1]` claimed after it (see {@link World.scoreEvents}).
 */
export type SybilCluster = {
  id: string
  members: Address[]
  /** The shared credentials: one hash per provider. */
  credentials: Array<{ provider: string; hash: string }>
  ownerExpired: boolean
}

/** The stories of the demo accounts. */
/**
 * A Passport score pushed on chain (Passport's EAS attestation, read by the decoder's
 * `getScore(address)`): Passport's own model, not a space's scorer. The decoder answers it from
 * `pushedAt` until `expiresAt` (then it reverts AttestationExpired), and reverts AttestationNotFound
 * before the push and from `revokedAt` on.
 */
export type OnchainPassportPush = {
  /** Lowercase. */
  address: Address
  /** The score, a decimal with 4 places ("23.4567"), as the resolver stores it. */
  score: string
  /** Unix seconds. */
  pushedAt: number
  /** Unix seconds: 90 days after the push, as Passport's IAM sets it. */
  expiresAt: number
  /** Unix seconds; null when never revoked. */
  revokedAt: number | null
}

export type DemoStory = 'passing-stamps' | 'gov-id-verified' | 'clean-hands-only' | 'sybil' | 'nothing'

/**
 * An account with a known private key, so demos can sign in (SIWE) and sign messages.
 *
 * @example
 * import { privateKeyToAccount } from 'viem/accounts'
 * const account = privateKeyToAccount(world.demoAccounts[0].privateKey)
 * const signature = await account.signMessage({ message: 'Nonce: 0123' })
 */
export type DemoAccount = {
  story: DemoStory
  /** What a demo should show with it. */
  description: string
  /** Lowercase; also in {@link World.wallets}. */
  address: Address
  /** Demo only: derived from the seed; never hold funds with it. */
  privateKey: Hex
}

/**
 * The demo world. Generated deterministically from `seed` and `now` by `generateWorld`.
 *
 * @example
 * import { writeFileSync } from 'node:fs'
 * import { generateWorld, type World } from 'personhood/world'
 * const world: World = generateWorld({ now: '2025-06-01T00:00:00.000Z' })
 * writeFileSync('world.json', JSON.stringify(world)) // a server or a chain seeder loads it back with JSON.parse
 */
export type World = {
  version: 1
  seed: string
  /** The reference time (ISO 8601) every date in the world is relative to. */
  now: string
  chain: WorldChain
  /** Stamp metadata (A4, C6). */
  stampProviders: StampProvider[]
  /** Stamp issuers (trusted and not). */
  stampIssuers: StampIssuer[]
  /** The first scorer is the default; the others are alternates (D7 `alternate_scorer_id`). */
  scorers: Scorer[]
  apiKeys: ApiKey[]
  wallets: Wallet[]
  verifications: Verification[]
  attestations: AttestationRow[]
  cleanHandsSbts: CleanHandsSbt[]
  /** Passport scores pushed on chain (the decoder of the local chain is seeded from them), in push order. */
  onchainPassports: OnchainPassportPush[]
  modelScores: ModelScore[]
  stakes: Stake[]
  roundStakes: RoundStake[]
  /** Sorted by `at`. */
  scoreEvents: ScoreEvent[]
  tosAcceptances: TosAcceptance[]
  sybilClusters: SybilCluster[]
  demoAccounts: DemoAccount[]
}
