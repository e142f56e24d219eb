/**
 * The shapes of an audit: what each voter was judged by, and what the whole vote looks like when
 * only verified humans count.
 */
import type { Address } from 'viem'
import type { VerdictSource } from '../verify/verdict.js'
import type { HumanGateMode } from '../verify/human-gate.js'
import type { VoteChoice } from './votes.js'

/** What can make a voter eligible, in the fallback policy's order. */
export const verificationMethods = ['gov-id', 'phone', 'biometrics', 'clean-hands', 'passport'] as const
/** One of {@link verificationMethods}. */
export type VerificationMethod = (typeof verificationMethods)[number]

/** Where a Passport score came from: the scorer's listing, the score history, a live read, or nowhere (never scored). */
export type PassportOrigin = 'listing' | 'history' | 'live' | 'onchain' | 'absent'

/** One source's verdict on one voter, with what it rests on. */
export type AuditSourceVerdict = {
  /** The source: `human-id` or `passport`. */
  source: 'human-id' | 'passport'
  /**
   * Who answered: the chain at the snapshot block, the Human ID service, the attestation index, or
   * a Passport score from the listing, the history or a live read.
   */
  via?: VerdictSource | undefined
  /** The credential (gov-id, phone, biometrics, clean-hands) or `passport`. */
  credential: VerificationMethod
  valid: boolean
  /** Why: `valid`, `none`, `expired`, `revoked`, `below-threshold`, `never-scored`... */
  reason: string
  /** Unix seconds, when the credential or score expires. */
  expiresAt?: number | null | undefined
  /** Everything the verdict rests on (SBT expiry, attestation id, score record...), JSON-safe. */
  evidence?: unknown
}

/** A sign that a wallet shares its identity with another: a stamp deduplicated against another address. */
export type LinkedWalletSignal = {
  kind: 'dedup-stamp'
  /** The stamp (provider) that was deduplicated. */
  provider: string
  /** The other wallet that presented the same credential, when it is known. */
  otherAddress?: Address | undefined
  /**
   * How the other wallet is known: the service named it (`source_wallet`), or another voter
   * presented a stamp of the same provider and expiry (the expiry a deduplicated stamp reports is
   * that of the other wallet's copy).
   */
  basis?: 'named-by-service' | 'same-credential' | undefined
}

/** One voter's line in the audit. */
export type AuditVoter = {
  address: Address
  choice: VoteChoice
  votingPower: number
  /** Whether the strategy counts this voter as a unique human at the snapshot. */
  eligible: boolean
  /** What made the voter eligible (the first method of the policy that held); null when not eligible. */
  method: VerificationMethod | null
  /** The strategy's score for the voter. */
  score: number
  /** The Passport score at the snapshot, when Passport was asked. */
  passport?:
    | {
        /** The numeric score; null when the address was never scored. */
        score: number | null
        passing: boolean
        threshold: number
        origin: PassportOrigin
      }
    | undefined
  verdicts: AuditSourceVerdict[]
  linked: LinkedWalletSignal[]
}

/** Everything needed to run the same audit again and get the same answer. */
export type AuditRun = {
  packageVersion: string
  strategy: string
  options: unknown
  /** The space's network (chain id as a string). */
  network: string
  /** The snapshot block on that network. */
  snapshot: string
  /** Unix seconds of the snapshot block. */
  blockTimestamp: number
  proposal?: { id: string; title: string; type: string; choices: string[]; space: string } | undefined
  /** Where the votes came from: a file's name or the hub's URL. */
  votesSource: string
  /** Choice labels and voting system of a votes file (`--choices`, `--type`); a proposal carries its own. */
  choices?: string[] | undefined
  type?: string | undefined
}

/** Voters and voting power of one method (or of the unverified). */
export type MethodTally = { method: VerificationMethod | 'unverified'; voters: number; votingPower: number }

/** One bin of the Passport score histogram, `[from, to)`; `to` null for the last, open bin. */
export type ScoreBin = { from: number; to: number | null; count: number }

/** One choice's voting power counting every voter, and counting only eligible ones. */
export type ChoiceTally = { choice: string; all: number; verified: number }

/** The audit at a glance. */
export type AuditSummary = {
  voters: number
  votingPower: number
  eligibleVoters: number
  eligibleVotingPower: number
  /** Percent of voters that are not eligible (0-100). */
  unverifiedShare: number
  /** Percent of voting power held by voters that are not eligible (0-100). */
  unverifiedPowerShare: number
  byMethod: MethodTally[]
  passport: {
    threshold: number
    scored: number
    neverScored: number
    notAsked: number
    bins: ScoreBin[]
    /**
     * Voters whose score is at or above their threshold but did not pass (it had expired at the
     * snapshot, or was scored with an error): the histogram shows them at their score, the method
     * chart does not count them as verified by Passport.
     */
    notPassingAtThreshold: number
  }
  outcome: {
    /** The proposal's voting system, or `unknown` for a votes file without one. */
    type: string
    choices: ChoiceTally[]
    /** Index into `choices` of the leader counting all power, and counting only verified power; null on a tie or no votes. */
    leaderAll: number | null
    leaderVerified: number | null
    /** How votes were counted, when the voting system needs saying (approval, ranked-choice, weighted...). */
    note?: string | undefined
  }
  /** Groups of voters linked to each other by deduplicated stamps. */
  clusters: { addresses: Address[]; voters: number; votingPower: number }[]
}

/**
 * Every voter's verdict evidence, by the voter's place in `voters`, packed apart from the lines
 * (see `lines.ts`): `voters` holds each verdict without it.
 */
export type AuditEvidence = {
  /** Voters held. */
  readonly size: number
  /** Bytes the packed evidence takes. */
  readonly bytes: number
  /**
   * The evidence of each verdict of the voter at `index`, in the order of its verdicts (undefined
   * for a verdict that has none), as JSON values (bigints as decimal strings).
   */
  of(index: number): unknown[]
}

/** The whole audit. */
export type AuditResult = {
  run: AuditRun
  /** Every voter's line; with `evidence`, the verdicts' evidence is there, not in the lines (see `auditVoterLine`). */
  voters: AuditVoter[]
  /** The verdicts' evidence, packed (an audit returns it; a result built by hand may carry evidence in its lines instead). */
  evidence?: AuditEvidence | undefined
  summary: AuditSummary
  /** SHA-256 of the run and the voters' lines: the same on every re-run of the same audit. */
  digest: string
  /** For a `human-gated` configuration: the recorded power under each mode. */
  gated?: GatedOutcome | undefined
}

/** One voter's power as recorded and under each mode. */
export type GatedVoterOutcome = {
  address: Address
  /** The voting power the export recorded (taken as the inner power). */
  recorded: number
  /** What the human test gave: 1 (Human ID), `passportScore` (a passing Passport only) or 0. */
  weight: number
  gate: number
  quadratic: number
  /** Null when the configuration has no cap (its mode is not `cap`). */
  cap: number | null
}

/** The vote's outcome under one way of counting. */
export type GatedTally = {
  /** `recorded`, or a mode. */
  counting: 'recorded' | HumanGateMode
  totalPower: number
  /** Power per choice, in the order of the choices. */
  choices: { choice: string; power: number }[]
  /** Index of the leading choice; null on a tie or no votes. */
  leader: number | null
}

/** The audit's `human-gated` section. */
export type GatedOutcome = {
  mode: HumanGateMode
  cap: number | null
  inner: { name: string; network?: string | undefined }[]
  /** Recorded first, then each mode (cap only when a cap is configured). */
  tallies: GatedTally[]
  voters: GatedVoterOutcome[]
}
