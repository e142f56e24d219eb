/**
 * The reference server's state: one plain, JSON-serializable object. Everything the server knows
 * lives here (so `--data` persists all of it); the {@link Store} wraps it with typed reads and
 * `mutate`. Times are Unix milliseconds unless a field says otherwise; world records keep the
 * units of `src/world/types.ts`.
 */
import type { Address } from 'viem'
import type { V2Score } from '../../schemas/passport.js'
import type { SaveStatus } from '../../schemas/stamp-cache.js'
import type {
  ApiKey,
  AttestationRow,
  CleanHandsSbt,
  OnchainPassportPush,
  DemoAccount,
  ModelName,
  RoundStake,
  Scorer,
  Stake,
  StampIssuer,
  StampProvider,
  TosAcceptance,
  Verification,
  WorldChain,
} from '../../world/types.js'

export type {
  ApiKey,
  AttestationRow,
  CleanHandsSbt,
  DemoAccount,
  ModelName,
  RoundStake,
  Scorer,
  Stake,
  StampIssuer,
  StampProvider,
  TosAcceptance,
  Verification,
  WorldChain,
}

/**
 * Version of the state layout; {@link Store.fromJSON} refuses other versions. 2: the A2 history is
 * kept as runs ({@link HistoryRun}); a version 1 state (one event per read) is read and converted.
 */
export const stateVersion = 2

/**
 * A stamp in the cache: the one stamp store behind A3/C5 listings, scoring (A1, C2, D7/D8) and the
 * cache routes (D1-D4, D6). `stamp` is the full credential JSON (`{ provider, credential }` is NOT the
 * shape: `stamp` is the verifiable credential itself, as D1 writes it).
 */
export type StampRecord = {
  /** Increasing integer, unique across addresses. */
  id: number
  /** Lowercase. */
  address: Address
  provider: string
  /** The verifiable credential (any JSON a D1 caller wrote; world stamps are full credentials). */
  stamp: unknown
  store_save_status: SaveStatus
  store_stream_id: string | null
  /** Unix ms when the record was written. */
  createdAt: number
}

/** A dedup claim of one credential hash in one scorer: first claimant wins until `expiresAt`. */
export type DedupClaim = {
  /** Lowercase address of the owner. */
  owner: Address
  /** Unix ms: the owner's credential expiry (extended when the owner rescored with a renewal). */
  expiresAt: number
}

/** One A1 read: the score record it answered (what A2 answers). */
export type HistoryEvent = {
  /** Unix ms of the read (equals `Date.parse(record.last_score_timestamp)`). */
  at: number
  record: V2Score
}

/**
 * A run of A1 reads of one (scorer, address) that answered the same record but for
 * `last_score_timestamp`: the record is kept once, each read as one number. A score that does not
 * change costs one number per read (docs/server.md states the budget).
 */
export type HistoryRun = {
  /** The record of the run's first read (its `last_score_timestamp` is `start`). */
  record: V2Score
  /** Unix ms of the run's first read. */
  start: number
  /** Each read of the run as ms after `start`, ascending; the first is 0. */
  offsets: number[]
}

/** The computed v1 score of a submission (what C3/C4 answer once DONE). */
export type SubmissionResult = {
  /** 9-decimal sum of weights (the binary scorer's `rawScore`). */
  rawScore: string
  /** 9-decimal threshold of the scorer at submission time. */
  threshold: string
  passing: boolean
  /** Stamp name to 9-decimal earned points. */
  stampScores: Record<string, string>
  /** Unix ms, earliest expiry among counting stamps; null when none counts. */
  expiresAt: number | null
  error: string | null
}

/** A v1 submission (C2) of one address to one scorer. */
export type Submission = {
  /** Lowercase. */
  address: Address
  /** Order of first submission (C4 lists in this order). */
  seq: number
  /** Unix ms of the latest submit. */
  submittedAt: number
  /** Unix ms when the record reads DONE (submittedAt + processing delay). */
  doneAt: number
  result: SubmissionResult
}

/** A single-use nonce (C1 signing messages, terms of service, SIWE). */
export type NonceRecord = {
  /** Unix ms. */
  issuedAt: number
  /** Unix ms; null when it never expires. */
  expiresAt: number | null
  /** Unix ms when it was consumed; null while unused. */
  usedAt: number | null
  /** Lowercase address the nonce was issued for, when it was issued for one. */
  address?: Address | null
  /** Free-form purpose data (e.g. the ToS type). */
  purpose?: string
}

/** A model score per model (B1). Absent model: no data (-1). */
export type ModelScores = Partial<Record<ModelName, number>>

/** The whole server state. */
export type ServerState = {
  version: typeof stateVersion
  /**
   * Secrets kept with the state so that a restart from `--data` keeps tokens valid: the admin
   * bearer token and the HMAC secret of cache-interface JWTs (D13).
   */
  secrets: { adminToken: string; jwtSecret: string }
  /** Where the state came from (the world's seed and reference time), for humans. */
  origin: { seed: string | null; worldNow: string | null }
  /** The chain time base (block at t = floor((t - genesisTime) / blockTimeSeconds)). */
  chain: WorldChain
  /** Stamp metadata (A4, C6). */
  stampProviders: StampProvider[]
  /** Stamp issuers; stamps from an issuer not listed with `trusted: true` are dropped before scoring. */
  stampIssuers: StampIssuer[]
  /** The first scorer is the default (D7/D8 without an alternate). */
  scorers: Scorer[]
  apiKeys: ApiKey[]
  /** Stamp records by lowercase address, oldest first. */
  stamps: Record<string, StampRecord[]>
  /** The id the next stamp record gets. */
  nextStampId: number
  /** Dedup claims: scorer id -> credential hash -> claim. */
  claims: Record<string, Record<string, DedupClaim>>
  /** A1 history: scorer id -> lowercase address -> runs of identical records, oldest first. */
  history: Record<string, Record<string, HistoryRun[]>>
  /** v1 submissions: scorer id -> lowercase address -> submission. */
  submissions: Record<string, Record<string, Submission>>
  /** Order counter of v1 submissions. */
  nextSubmissionSeq: number
  /** C1 signing-message nonces. */
  signingNonces: Record<string, NonceRecord>
  /** Terms-of-service nonces (D11/D12). */
  tosNonces: Record<string, NonceRecord>
  /** SIWE nonces (D13). */
  siweNonces: Record<string, NonceRecord>
  /** B1: lowercase address -> model -> score. */
  modelScores: Record<string, ModelScores>
  /** D9 token stakes. */
  stakes: Stake[]
  /** C7 round stakes. */
  roundStakes: RoundStake[]
  /** D10-D12 accepted terms. */
  tosAcceptances: TosAcceptance[]
  /** E1-E6 Human ID verifications. */
  verifications: Verification[]
  /** E8 index rows (and E7's EVM view). */
  attestations: AttestationRow[]
  /** E7 clean-hands SBTs on non-EVM chains. */
  cleanHandsSbts: CleanHandsSbt[]
  /** Passport scores pushed on chain (the local chain's decoder); none in an empty state. */
  onchainPassports: OnchainPassportPush[]
  /** Accounts with known keys (demo only). */
  demoAccounts: DemoAccount[]
}
