/**
 * The scoring engine (docs/interface.md §1), pure: given an address's cached stamps, a scorer, the trusted
 * issuers and the scorer's dedup claims, it computes the score and the claims to write. It never
 * mutates its inputs; the store applies the returned claims in the same synchronous step, which is
 * what makes first-claimant dedup safe under concurrent requests.
 */
import type { Address } from 'viem'
import { formatScaledDecimal, parseDecimal, v1DecimalPlaces, v2DecimalPlaces } from '../schemas/common.js'
import type { V2Score, V2StampScore } from '../schemas/passport.js'
import type { ThresholdScoreEvidence } from '../schemas/registry.js'
import { meetsPassportThreshold } from '../verify/passport.js'
import type { DedupClaim, Scorer, SubmissionResult } from './state/types.js'

/** Fixed-point scale weights are summed at: 18 decimals, far finer than any weight. */
export const weightScale = 18

/** The fields of a stamp credential the engine reads. */
export type CredentialFacts = {
  provider: string
  hash: string
  issuer: string
  /** Unix ms. */
  issuedAt: number
  /** Unix ms. */
  expiresAt: number
  /** Lowercase address of `credentialSubject.id` (did:pkh:eip155:<chain>:<address>). */
  subject: string
}

const factsCache = new WeakMap<object, CredentialFacts | null>()
const subjectPattern = /^did:pkh:eip155:\d+:(0x[0-9a-fA-F]{40})$/

/**
 * Reads the facts the engine needs from a cached stamp (a verifiable credential as D1 stores it);
 * undefined when the JSON is not a readable credential. Memoized per object.
 */
export function readCredentialFacts(stamp: unknown): CredentialFacts | undefined {
  if (!stamp || typeof stamp !== 'object') return undefined
  const cached = factsCache.get(stamp)
  if (cached !== undefined) return cached ?? undefined
  const facts = extractFacts(stamp as Record<string, unknown>)
  factsCache.set(stamp, facts ?? null)
  return facts
}

function extractFacts(credential: Record<string, unknown>): CredentialFacts | undefined {
  const subject = credential.credentialSubject as Record<string, unknown> | undefined
  if (!subject || typeof subject !== 'object') return undefined
  const { provider, hash, id } = subject
  const { issuer, issuanceDate, expirationDate } = credential
  if (typeof provider !== 'string' || typeof hash !== 'string' || typeof id !== 'string') return undefined
  if (typeof issuer !== 'string' || typeof issuanceDate !== 'string' || typeof expirationDate !== 'string') return undefined
  const issuedAt = Date.parse(issuanceDate)
  const expiresAt = Date.parse(expirationDate)
  const match = subjectPattern.exec(id)
  if (!match || Number.isNaN(issuedAt) || Number.isNaN(expiresAt)) return undefined
  return { provider, hash, issuer, issuedAt, expiresAt, subject: match[1]!.toLowerCase() }
}

/** One stamp that counts (the first valid one of its provider), or one listed at 0 because its proof fails. */
export type ScoredStamp = {
  provider: string
  hash: string
  /** Weight in units of 10^-{@link weightScale}; 0 for a provider without weight. */
  weight: bigint
  /** True when another address owns the credential in this scorer: it then earns 0. */
  dedup: boolean
  /** Unix ms: the credential's expiry, or the owner's when dedup'ed. */
  expiresAt: number
  /** Why a stored stamp earns 0 although it is readable: its proof does not verify (a stamp stored before proofs were checked). */
  rejected?: 'bad-proof' | 'unknown-issuer' | undefined
}

/** What {@link computeScore} returns. */
export type ScoreComputation = {
  /** Lowercase. */
  address: Address
  scorerId: number
  /** Unix ms the score was computed at. */
  at: number
  /** In stamp order, one per provider. */
  stamps: ScoredStamp[]
  /** Sum of the weights of the stamps that are not dedup'ed, in units of 10^-{@link weightScale}. */
  total: bigint
  threshold: bigint
  passing: boolean
  /** Earliest expiry among the stamps that count (not dedup'ed); null when none counts. */
  expiresAt: number | null
  error: string | null
  /** Claims to write into the scorer's claim map (new owners, extended expiries). */
  claims: Record<string, DedupClaim>
}

/** Parameters of {@link computeScore}. */
export type ComputeScoreParameters = {
  /** Lowercase. */
  address: Address
  /** The address's cached stamps (any JSON), oldest first. */
  stamps: readonly unknown[]
  scorer: Scorer
  /** Issuer DIDs whose stamps count. */
  trustedIssuers: ReadonlySet<string>
  /** The scorer's claims: credential hash to claim. Read only. */
  claims: Readonly<Record<string, DedupClaim>>
  /** Unix ms. */
  at: number
  /**
   * Checks a stamp's proof against its issuer's key: undefined when it holds, else why not. A stamp
   * whose proof fails never counts and claims nothing; it is listed at 0 with the reason.
   */
  checkProof: (stamp: unknown) => 'unreadable' | 'bad-proof' | 'unknown-issuer' | undefined
}

const weightCache = new WeakMap<object, Map<string, bigint>>()

function weightUnits(scorer: Scorer): Map<string, bigint> {
  let units = weightCache.get(scorer.weights)
  if (!units) {
    units = new Map(Object.entries(scorer.weights).map(([name, weight]) => [name, parseDecimal(weight, weightScale)]))
    weightCache.set(scorer.weights, units)
  }
  return units
}

/**
 * Scores an address with a scorer (docs/interface.md §1): drops stamps that are unreadable, issued to
 * another subject, not yet issued, expired (`expirationDate < at`) or from an untrusted issuer;
 * lists at 0 a stamp whose proof does not verify against its issuer's key (unless a valid stamp of
 * the same provider counts);
 * keeps the first stamp per provider; deduplicates first-claimant-wins (an unclaimed or lapsed hash
 * is claimed, the owner's renewal extends its claim, another owner's live claim makes the stamp
 * dedup'ed); sums the weights exactly.
 *
 * @example
 * const result = computeScore({ address, stamps, scorer, trustedIssuers, claims: state.claims['1'] ?? {}, at: Date.now() })
 * Object.assign(state.claims['1'], result.claims)
 */
export function computeScore(parameters: ComputeScoreParameters): ScoreComputation {
  const { address, stamps, scorer, trustedIssuers, claims, at, checkProof } = parameters
  const weights = weightUnits(scorer)
  const seen = new Set<string>()
  const scored: ScoredStamp[] = []
  const rejected = new Map<string, ScoredStamp>()
  const newClaims: Record<string, DedupClaim> = {}
  let total = 0n
  let expiresAt: number | null = null
  for (const stamp of stamps) {
    const facts = readCredentialFacts(stamp)
    if (!facts || facts.subject !== address) continue
    if (facts.expiresAt < at || facts.issuedAt > at || !trustedIssuers.has(facts.issuer)) continue
    if (seen.has(facts.provider)) continue
    const weight = weights.get(facts.provider) ?? 0n
    const problem = checkProof(stamp)
    if (problem) {
      if (!rejected.has(facts.provider)) {
        rejected.set(facts.provider, { provider: facts.provider, hash: facts.hash, weight: 0n, dedup: false, expiresAt: facts.expiresAt, rejected: problem === 'unknown-issuer' ? 'unknown-issuer' : 'bad-proof' })
      }
      continue
    }
    seen.add(facts.provider)
    const claim = newClaims[facts.hash] ?? claims[facts.hash]
    if (claim && claim.owner !== address && claim.expiresAt >= at) {
      scored.push({ provider: facts.provider, hash: facts.hash, weight, dedup: true, expiresAt: claim.expiresAt })
      continue
    }
    const owned = claim && claim.owner === address ? Math.max(claim.expiresAt, facts.expiresAt) : facts.expiresAt
    if (!claim || claim.owner !== address || claim.expiresAt !== owned) newClaims[facts.hash] = { owner: address, expiresAt: owned }
    scored.push({ provider: facts.provider, hash: facts.hash, weight, dedup: false, expiresAt: facts.expiresAt })
    total += weight
    if (expiresAt === null || facts.expiresAt < expiresAt) expiresAt = facts.expiresAt
  }
  for (const [provider, stamp] of rejected) if (!seen.has(provider)) scored.push(stamp)
  const threshold = parseDecimal(scorer.threshold, weightScale)
  return {
    address,
    scorerId: scorer.id,
    at,
    stamps: scored,
    total,
    threshold,
    // The Passport rule of src/verify (score >= threshold), on both values at the same scale.
    passing: meetsPassportThreshold(total, threshold),
    expiresAt,
    error: null,
    claims: newClaims,
  }
}

const iso = (ms: number): string => new Date(ms).toISOString()

/** The `reason` of a stamp listed at 0 because its proof fails. */
export const rejectionReasons = {
  'bad-proof': 'The credential was not counted: its proof does not verify against its issuer\u2019s key.',
  'unknown-issuer': 'The credential was not counted: its issuer has no key on this server, so its proof cannot be checked.',
} as const
const v2 = (units: bigint): string => formatScaledDecimal(units, weightScale, v2DecimalPlaces)
const v1 = (units: bigint): string => formatScaledDecimal(units, weightScale, v1DecimalPlaces)

/** The A1 score record of a computation (5 decimals, half-even). */
export function toV2Score(result: ScoreComputation): V2Score {
  const stamps: Record<string, V2StampScore> = {}
  for (const stamp of result.stamps) {
    stamps[stamp.provider] = {
      score: stamp.dedup || stamp.rejected ? v2(0n) : v2(stamp.weight),
      dedup: stamp.dedup,
      expiration_date: iso(stamp.expiresAt),
      ...(stamp.rejected ? { reason: rejectionReasons[stamp.rejected] } : {}),
    }
  }
  return {
    address: result.address,
    score: v2(result.total),
    passing_score: result.passing,
    threshold: v2(result.threshold),
    last_score_timestamp: iso(result.at),
    expiration_timestamp: result.expiresAt === null ? null : iso(result.expiresAt),
    error: result.error,
    stamps,
  }
}

/** The v1 result of a computation (9 decimals), kept with a submission. */
export function toSubmissionResult(result: ScoreComputation): SubmissionResult {
  return {
    rawScore: v1(result.total),
    threshold: v1(result.threshold),
    passing: result.passing,
    stampScores: Object.fromEntries(result.stamps.map((stamp) => [stamp.provider, v1(stamp.dedup || stamp.rejected ? 0n : stamp.weight)])),
    expiresAt: result.expiresAt,
    error: result.error,
  }
}

/** Binary scorer evidence (strings, as the spec shows them). */
export function toEvidence(result: SubmissionResult): ThresholdScoreEvidence {
  return { type: 'ThresholdScoreCheck', success: result.passing, rawScore: result.rawScore, threshold: result.threshold }
}
