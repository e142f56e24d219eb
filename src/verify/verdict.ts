/**
 * One verdict shape for every source: the on-chain verifier, the Human ID service (E1-E6), the
 * attestation index (E8) and Passport score records (A1, A2, C4). Strategies and audits join these
 * and nothing else, so "verified", "why not" and "until when" mean the same whatever answered.
 *
 * Time is Unix seconds as a number everywhere in a verdict: the chain, E1-E3 and the index all count
 * in whole seconds, a block's timestamp is one, a number survives `JSON.stringify` (a bigint does
 * not), and it orders and compares with `<` (an ISO string does so only in one exact format).
 */
import type { Address, Hex } from 'viem'
import type { HumanCredential, HumanIdCircuit } from '../chain/constants.js'
import { InvalidParameterError } from '../errors/input.js'
import type { MalformedAttestationRow } from '../schemas/attestation.js'
import type { HumanIdCredential, VerificationResult } from '../schemas/human-id.js'
import type { V2Score } from '../schemas/passport.js'
import type { RegistryScore } from '../schemas/registry.js'
import { toPlainDecimal } from '../schemas/common.js'
import { describeValue, maxDateSeconds, parseActionId, parseAddress, parseTimestamp } from '../utils/parse.js'
import { judgeCleanHandsRows, type CleanHandsOptions, type CleanHandsRow, type CleanHandsRowReason, type OnchainCleanHandsReason } from './clean-hands.js'
import type { AttestationEvidence, AttestationIndexEvidence, CredentialEvidence, CredentialReason, LegacyStoreEvidence, VerifyCredentialsReturnType } from './credentials/index.js'
import type { SbtReason } from './sbt.js'
import { checkPassportScore, defaultPassportThreshold, type PassportReason } from './passport.js'
import { RuleParameterError } from '../rules/errors.js'
import * as rules from '../rules/fallback.js'
import * as match from '../rules/match.js'

/** What a verdict is about: a Human ID credential (gov-id, phone, biometrics, clean-hands) or a Passport score. */
export type VerdictCredential = HumanCredential | 'passport'

/** Every {@link VerdictCredential}, in the fallback policy's order. */
export const verdictCredentials = ['gov-id', 'phone', 'biometrics', 'clean-hands', 'passport'] as const satisfies readonly VerdictCredential[]

/**
 * Who answered: `chain` (the on-chain verifier at a block), `human-id-api` (E1-E6),
 * `attestation-index` (E8 rows judged by rule 6, not confirmed on chain), or a Passport score:
 * `passport-live` (A1, the score now), `passport-history` (A2, the score at a time), or
 * `passport-listing` (C4, the scorer's latest score of each address).
 */
export type VerdictSource = 'chain' | 'human-id-api' | 'attestation-index' | 'passport-live' | 'passport-history' | 'passport-listing' | 'passport-onchain'

/**
 * Why a verdict is what it is. The verifier's reasons ({@link CredentialReason}), the index rule's
 * (`wrong-recipient`... from {@link CleanHandsRowReason}), the Passport rule's
 * ({@link PassportReason}), and `not-verified`: the service said no without saying why (E1-E6).
 */
export type VerdictReason = CredentialReason | CleanHandsRowReason | PassportReason | 'not-verified'

/**
 * What a chain verdict rests on: the block and every read: the verifier's reads (see
 * {@link CredentialEvidence}), or the deployless reader's comparisons (see {@link ReaderEvidence}).
 */
export type ChainVerdictEvidence = {
  kind: 'chain'
  chainId: number
  network: string
  sandbox: boolean
  blockNumber: bigint
  blockHash?: Hex | undefined
  blockTimestamp?: bigint | undefined
  actionId: bigint
  reads: (CredentialEvidence | ReaderEvidence)[]
}

/**
 * One SBT as the deployless reader (strategies/human-id/reader.sol) read it inside the EVM at the
 * block: `getSBT`, or `sbtOwners` where `getSBT` reverted, compared there with what the rule
 * expects; the reader returns the comparisons, not the public values.
 */
export type ReaderSbtEvidence = {
  kind: 'reader-sbt'
  circuit: HumanIdCircuit
  /** The Hub. */
  contract: Address
  subject: Address
  circuitId: Hex
  /** `getSBT` (it answered) or `sbtOwners` (getSBT reverted). */
  call: 'getSBT' | 'sbtOwners'
  revoked: boolean
  /** The SBT's expiry, when the reader was asked for it: at most 2^48 - 1 (a later one reads as that). */
  expiry?: bigint | undefined
  /** `getSBT`: whether `publicValues[4]`, `[2]` and `[1]` are the issuer, action id and subject; undefined with fewer than five values. */
  publicValues?: { issuer: boolean; actionId: boolean; subject: boolean } | undefined
  expected: { actionId: bigint; issuer: bigint }
  reason: SbtReason
}

/**
 * One attestation-index row and the rule's verdict on it; when it passed, the attestation as the
 * deployless reader found it on Sign Protocol at the block (compared there, as for SBTs).
 */
export type ReaderAttestationEvidence = Pick<AttestationEvidence, 'attestationId' | 'row' | 'rowReason'> & {
  kind: 'reader-attestation'
  onchain?:
    | {
        contract: Address
        call: 'getAttestation'
        attestationId: bigint
        exists: boolean
        schemaId: boolean
        attester: boolean
        revoked: boolean
        /** When the reader was asked for it: at most 2^48 - 1. */
        validUntil?: bigint | undefined
        /** `recipients[0]` is the ABI string of the address (any letter case). */
        recipient: boolean
        /**
         * `getAttestation` reverted (an id Sign Protocol does not hold at the block): this
         * attestation alone is unconfirmed (reason `none`); the voter's other rows still count.
         */
        reverted?: true | undefined
        reason: OnchainCleanHandsReason
      }
    | undefined
}

/**
 * What the deployless reader's verdicts rest on: each SBT's comparisons, the permanent store's
 * answer, the index's rows and each attestation's comparisons.
 */
export type ReaderEvidence = ReaderSbtEvidence | LegacyStoreEvidence | AttestationIndexEvidence | ReaderAttestationEvidence

/** What a Human ID service verdict rests on: the endpoint and its answer. */
export type HumanIdApiVerdictEvidence =
  | { kind: 'human-id-verification'; endpoint: 'E1' | 'E2' | 'E3'; network: string; actionId: bigint; result: VerificationResult }
  | { kind: 'human-id-voting-strategy'; endpoint: 'E4' | 'E5' | 'E6'; chainId: number; snapshot: bigint | 'latest'; actionId: bigint; score: 0 | 1 }

/** What an index verdict rests on: the rows, each with the rule's reason, judged at `at`. */
export type AttestationIndexVerdictEvidence = {
  kind: 'attestation-index'
  at: number
  rows: Array<{ row: CleanHandsRow | MalformedAttestationRow; reason: CleanHandsRowReason }>
}

/** What a Passport verdict rests on: the score record as read, and how it was judged. */
export type PassportVerdictEvidence = {
  kind: 'passport-score'
  /** Where the record came from: A1 (live), A2 (history), C4 (listing), or Passport's decoder on chain. */
  origin: 'live' | 'history' | 'listing' | 'onchain'
  /** The record's interface: v2 (A1, A2), v1 (C4), or the decoder's `getScore` (4 decimals). */
  api: 'v2' | 'v1' | 'onchain'
  /** The score as an exact decimal string (v1 binary scorers: the evidence's `rawScore`); null when never scored. */
  score: string | null
  /** The same score as a number (for weighting); null when never scored. */
  scoreValue: number | null
  /** The threshold the score was judged against (an override, else the record's, else 20). */
  threshold: string
  /** The service's own pass flag (`passing_score`, or the v1 evidence's `success`); null when it gave none. */
  servicePassing: boolean | null
  /** Unix seconds of the record's `last_score_timestamp`; null when it has none. */
  lastScoreTimestamp: number | null
  /** Unix seconds of the record's expiry (`expiration_timestamp`, v1 `expiration_date`); null when none. */
  expirationTimestamp: number | null
  error: string | null
  /** Unix seconds the score was judged at. */
  at: number
}

/** Fields every verdict has. */
type VerdictBase = {
  /** EIP-55 checksummed. */
  address: Address
  valid: boolean
  /**
   * Unix seconds when the credential or score stops counting: set when the source says and it is
   * within a Date's range (an expiry of 2^256-1, a sandbox SBT's, is null: it never expires in
   * practice; the exact value stays in the evidence). Null when the source does not say or there
   * is no expiry (a permanent store).
   */
  expiresAt: number | null
}

/** A verdict on a Human ID credential or clean hands. */
export type HumanIdVerdict = VerdictBase & {
  credential: HumanCredential
  source: 'chain' | 'human-id-api' | 'attestation-index'
  reason: CredentialReason | CleanHandsRowReason | 'not-verified'
  evidence: ChainVerdictEvidence | HumanIdApiVerdictEvidence | AttestationIndexVerdictEvidence
}

/** A verdict on a Passport score: valid when the score passed at the time judged. */
export type PassportVerdict = VerdictBase & {
  credential: 'passport'
  source: 'passport-live' | 'passport-history' | 'passport-listing' | 'passport-onchain'
  reason: PassportReason
  evidence: PassportVerdictEvidence
}

/**
 * One source's answer about one address and one credential, normalized.
 *
 * @example
 * import type { Verdict } from 'personhood'
 * const verdict: Verdict = {
 *   address: '0x52908400098527886E0F7030069857D2E4169EE7',
 *   credential: 'gov-id',
 *   source: 'human-id-api',
 *   valid: true,
 *   reason: 'valid',
 *   expiresAt: 1_767_225_600,
 *   evidence: { kind: 'human-id-verification', endpoint: 'E1', network: 'optimism', actionId: 123456789n, result: { result: true, expirationDate: 1_767_225_600 } },
 * }
 */
export type Verdict = HumanIdVerdict | PassportVerdict

/**
 * An expiry as verdicts carry it: whole Unix seconds as a number, or null (none given, or beyond a
 * Date's range: never in practice).
 */
export function toVerdictExpiry(value: bigint | number | null | undefined): number | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'number' && !Number.isFinite(value)) return null
  const seconds = typeof value === 'bigint' ? value : BigInt(Math.floor(value))
  if (seconds < 0n || seconds > BigInt(maxDateSeconds)) return null
  return Number(seconds)
}

// ---------------------------------------------------------------------------------------------
// Adapters
// ---------------------------------------------------------------------------------------------

/**
 * The verdicts of one {@link verifyCredentials} call: one per address and credential, source
 * `chain`, in the order of `results`.
 *
 * @example
 * import { verdictsFromVerifier, verifyCredentials } from 'personhood'
 * const verdicts = verdictsFromVerifier(await verifyCredentials(client, { addresses, credentials: ['gov-id'] }))
 */
export function verdictsFromVerifier<credential extends HumanCredential>(result: VerifyCredentialsReturnType<credential>): HumanIdVerdict[] {
  const verdicts: HumanIdVerdict[] = []
  for (const [address, byCredential] of Object.entries(result.results) as [string, Record<string, VerifyCredentialsReturnType['results'][Address][HumanCredential]>][]) {
    for (const [credential, entry] of Object.entries(byCredential)) {
      verdicts.push({
        address: parseAddress(address),
        credential: credential as HumanCredential,
        source: 'chain',
        valid: entry.valid,
        reason: entry.reason,
        expiresAt: toVerdictExpiry(entry.expiresAt),
        evidence: {
          kind: 'chain',
          chainId: result.chainId,
          network: result.network,
          sandbox: result.sandbox,
          blockNumber: result.blockNumber,
          ...(result.blockHash === undefined ? {} : { blockHash: result.blockHash }),
          ...(result.blockTimestamp === undefined ? {} : { blockTimestamp: result.blockTimestamp }),
          actionId: result.actionId,
          reads: entry.evidence,
        },
      })
    }
  }
  return verdicts
}

const verificationEndpoints: Record<HumanIdCredential, 'E1' | 'E2' | 'E3'> = { 'gov-id': 'E1', phone: 'E2', biometrics: 'E3' }
const votingStrategyEndpoints: Record<HumanIdCredential, 'E4' | 'E5' | 'E6'> = { 'gov-id': 'E4', phone: 'E5', biometrics: 'E6' }

/**
 * The verdict of an E1-E3 answer (`getHumanIdVerification`). The service does not say why a
 * result is false: the reason is then `not-verified`.
 *
 * @throws {InvalidAddressError} for a malformed address.
 * @example
 * import { verdictFromVerification } from 'personhood'
 * const result = await humanId.getVerification({ credential: 'gov-id', address })
 * verdictFromVerification({ address, credential: 'gov-id', network: 'optimism', result })
 */
export function verdictFromVerification(parameters: {
  address: string
  credential: HumanIdCredential
  network: string
  actionId?: bigint | number | string | undefined
  result: VerificationResult
}): HumanIdVerdict {
  const { credential, result } = parameters
  return {
    address: parseAddress(parameters.address),
    credential,
    source: 'human-id-api',
    valid: result.result,
    reason: result.result ? 'valid' : 'not-verified',
    expiresAt: result.result ? toVerdictExpiry(result.expirationDate) : null,
    evidence: {
      kind: 'human-id-verification',
      endpoint: verificationEndpoints[credential],
      network: parameters.network,
      actionId: parseActionId(parameters.actionId),
      result,
    },
  }
}

/**
 * The verdicts of an E4-E6 answer (`getVotingStrategyScores`: address to 0 or 1, keyed as the
 * caller passed the addresses), one per distinct address (EIP-55), in the answer's order. E4-E6
 * give no expiry.
 *
 * @throws {InvalidAddressError} for a malformed address.
 * @throws {InvalidParameterError} when two keys are the same address with different scores.
 */
export function verdictsFromVotingStrategy(parameters: {
  credential: HumanIdCredential
  scores: Readonly<Record<string, 0 | 1>>
  chainId: number
  snapshot: bigint | 'latest'
  actionId?: bigint | number | string | undefined
}): HumanIdVerdict[] {
  const actionId = parseActionId(parameters.actionId)
  const byAddress = new Map<Address, HumanIdVerdict>()
  for (const [key, score] of Object.entries(parameters.scores)) {
    const address = parseAddress(key)
    const seen = byAddress.get(address)
    if (seen) {
      if ((seen.valid ? 1 : 0) !== score) {
        throw new InvalidParameterError({ parameter: 'scores', reason: `${address} is answered both 0 and 1.` })
      }
      continue
    }
    byAddress.set(address, {
      address,
      credential: parameters.credential,
      source: 'human-id-api',
      valid: score === 1,
      reason: score === 1 ? 'valid' : 'not-verified',
      expiresAt: null,
      evidence: {
        kind: 'human-id-voting-strategy',
        endpoint: votingStrategyEndpoints[parameters.credential],
        chainId: parameters.chainId,
        snapshot: parameters.snapshot,
        actionId,
        score,
      },
    })
  }
  return [...byAddress.values()]
}

/**
 * The clean-hands verdict of an address's attestation-index rows (E8) by rule 6 at `now`: valid
 * when a row passes (expiring with the latest), else the most telling failure, `none` without
 * rows. Not confirmed on chain, and the index's `revoked` flag is today's: for a past block use
 * the verifier (`chain` verdicts).
 *
 * @throws {InvalidAddressError} for a malformed address or attester.
 * @throws {InvalidParameterError} for an invalid `now` or schema id.
 */
export function verdictFromAttestationRows(parameters: { address: string; rows: readonly (CleanHandsRow | MalformedAttestationRow)[] } & CleanHandsOptions): HumanIdVerdict {
  const { address, rows, ...options } = parameters
  const judged = judgeCleanHandsRows(rows, options)
  return {
    address: parseAddress(address),
    credential: 'clean-hands',
    source: 'attestation-index',
    valid: judged.reason === 'valid',
    reason: judged.reason,
    expiresAt: toVerdictExpiry(judged.expiresAt),
    evidence: {
      kind: 'attestation-index',
      at: parseTimestamp(options.now, 'now'),
      rows: rows.map((row, index) => ({ row, reason: judged.rows[index] as CleanHandsRowReason })),
    },
  }
}

/** Parameters of {@link verdictFromScore}. */
export type VerdictFromScoreParameters = {
  /** An A1/A2 score record (v2) or a C4 score record (v1). */
  record: V2Score | RegistryScore
  /** Where it came from: A1 (`live`), A2 (`history`) or C4 (`listing`). */
  origin: 'live' | 'history' | 'listing'
  /** The time to judge at (the snapshot's): Unix seconds, an ISO string or a Date. */
  at: number | string | Date
  /** A threshold that overrides the record's (a strategy option). */
  threshold?: number | string | undefined
}

const passportSources = { live: 'passport-live', history: 'passport-history', listing: 'passport-listing' } as const

/** A threshold override as an exact decimal string; undefined when none is given. */
function checkThreshold(value: number | string | undefined): string | undefined {
  if (value === undefined) return undefined
  try {
    return toPlainDecimal(value)
  } catch {
    throw new InvalidParameterError({ parameter: 'threshold', reason: `Expected a decimal number or string, got ${describeValue(value)}.` })
  }
}

function optionalTime(value: string | null, parameter: string): number | null {
  return value === null ? null : parseTimestamp(value, parameter)
}

/**
 * The verdict of a Passport score record at a time: valid when the score (v1 binary scorers: the
 * evidence's `rawScore`) is at least the threshold (exact decimals) and has not expired at `at`
 * (see {@link checkPassportScore}); a record with an error is `error`.
 *
 * A `history` or `listing` record scored after `at` does not tell the score at `at` (read A2 at
 * that time instead): it is refused, never judged. A `live` record is the score now, whenever
 * `at` is.
 *
 * @throws {InvalidAddressError} for a malformed address in the record.
 * @throws {InvalidParameterError} for a v1 record still processing, a record scored after `at`
 * (history, listing), or a bad time or threshold.
 * @example
 * import { verdictFromScore } from 'personhood'
 * const record = await passport.getScore({ scorerId, address })
 * verdictFromScore({ record, origin: 'live', at: new Date() }).valid
 */
export function verdictFromScore(parameters: VerdictFromScoreParameters): PassportVerdict {
  const { record, origin } = parameters
  const at = parseTimestamp(parameters.at, 'at')
  const address = parseAddress(record.address)
  const v2 = 'passing_score' in record
  let score: string | null
  let recordThreshold: string | undefined
  let servicePassing: boolean | null
  let expiration: string | null
  if (v2) {
    score = record.score
    recordThreshold = record.threshold
    servicePassing = record.passing_score
    expiration = record.expiration_timestamp
  } else {
    if (record.status !== 'DONE' && record.status !== 'ERROR') {
      throw new InvalidParameterError({ parameter: 'record', reason: `The score of ${address} is ${record.status}, not scored yet: it cannot be judged.` })
    }
    score = record.evidence?.rawScore ?? record.score
    recordThreshold = record.evidence?.threshold
    servicePassing = record.evidence?.success ?? null
    expiration = record.expiration_date
  }
  const lastScoreTimestamp = optionalTime(record.last_score_timestamp, 'last_score_timestamp')
  if (origin !== 'live' && lastScoreTimestamp !== null && lastScoreTimestamp > at) {
    throw new InvalidParameterError({
      parameter: 'record',
      reason: `The ${origin} score of ${address} was computed at ${lastScoreTimestamp}, after the time judged (${at}): read its history at that time instead.`,
    })
  }
  const threshold = checkThreshold(parameters.threshold) ?? recordThreshold ?? defaultPassportThreshold
  const expirationTimestamp = optionalTime(expiration, 'expiration_timestamp')
  const reason = checkPassportScore({ score: score ?? '0', threshold, expiresAt: expirationTimestamp, error: record.error ?? (score === null ? 'no score' : null), at })
  return {
    address,
    credential: 'passport',
    source: passportSources[origin],
    valid: reason === 'valid',
    reason,
    expiresAt: expirationTimestamp,
    evidence: {
      kind: 'passport-score',
      origin,
      api: v2 ? 'v2' : 'v1',
      score,
      scoreValue: score === null ? null : Number(score),
      threshold,
      servicePassing,
      lastScoreTimestamp,
      expirationTimestamp,
      error: record.error,
      at,
    },
  }
}

/**
 * The verdict for an address the scorer has no score for (absent from its listing, or no A2 event
 * at or before `at`): not valid, `never-scored`.
 *
 * @throws {InvalidAddressError} for a malformed address.
 */
export function verdictNeverScored(parameters: {
  address: string
  origin: 'live' | 'history' | 'listing'
  at: number | string | Date
  threshold?: number | string | undefined
}): PassportVerdict {
  const at = parseTimestamp(parameters.at, 'at')
  return {
    address: parseAddress(parameters.address),
    credential: 'passport',
    source: passportSources[parameters.origin],
    valid: false,
    reason: 'never-scored',
    expiresAt: null,
    evidence: {
      kind: 'passport-score',
      origin: parameters.origin,
      api: parameters.origin === 'listing' ? 'v1' : 'v2',
      score: null,
      scoreValue: null,
      threshold: checkThreshold(parameters.threshold) ?? defaultPassportThreshold,
      servicePassing: null,
      lastScoreTimestamp: null,
      expirationTimestamp: null,
      error: null,
      at,
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Joining
// ---------------------------------------------------------------------------------------------

/**
 * Groups verdicts from any sources by address (EIP-55), keeping each address's verdicts in the
 * order given and the addresses in order of first appearance.
 *
 * @example
 * import { joinVerdicts } from 'personhood'
 * const byAddress = joinVerdicts([...chainVerdicts, ...passportVerdicts])
 * byAddress.get('0x52908400098527886E0F7030069857D2E4169EE7') // every verdict on that address
 */
export function joinVerdicts(verdicts: Iterable<Verdict>): Map<Address, Verdict[]> {
  const byAddress = new Map<Address, Verdict[]>()
  for (const verdict of verdicts) {
    const list = byAddress.get(verdict.address)
    if (list) list.push(verdict)
    else byAddress.set(verdict.address, [verdict])
  }
  return byAddress
}

/** What {@link matchCredentials} answers. */
export type CredentialMatch = {
  address: Address
  valid: boolean
  match: 'any' | 'all'
  /**
   * For `any`: the valid verdicts (every credential that holds). For `all` when valid: one valid
   * verdict per credential; when not: the verdicts of the credentials that do not hold.
   */
  verdicts: Verdict[]
  /**
   * Unix seconds until which the match holds, when known: `any` the latest expiry of the valid
   * verdicts, `all` the earliest; null when a deciding verdict has none (or the match fails).
   */
  expiresAt: number | null
}

/**
 * Matches one address's verdicts against credentials: `any` holds when at least one credential has
 * a valid verdict; `all` when every one does. A credential with verdicts from several sources
 * holds when one of them is valid.
 *
 * @throws {InvalidParameterError} when the verdicts are about several addresses, `credentials` is
 * empty, or a credential has no verdict at all (not being asked is not "not verified": a missing
 * answer is never read as no).
 * @example
 * import { matchCredentials } from 'personhood'
 * matchCredentials({ verdicts, credentials: ['gov-id', 'phone'], match: 'any' }).valid
 */
export function matchCredentials(parameters: {
  verdicts: readonly Verdict[]
  credentials: readonly VerdictCredential[]
  match: 'any' | 'all'
}): CredentialMatch {
  return asParameterError(() => match.matchCredentials(parameters) as CredentialMatch)
}

/** What {@link applyFallbackPolicy} answers for one address. */
export type FallbackDecision = {
  address: Address
  /** Whether the address counts as a unique human. */
  eligible: boolean
  /** What made it eligible: the first credential of the policy that holds, or `passport`; null when none. */
  method: VerdictCredential | null
  /** The Human ID match (always computed first). */
  humanId: CredentialMatch
  /** The Passport verdict, when Human ID did not hold and Passport was consulted. */
  passport?: PassportVerdict | undefined
}

/**
 * The fallback policy for one address: Human ID first (any or all of `credentials`); only when it
 * does not hold, a passing Passport score. Ask Passport only about the addresses whose Human ID
 * match failed: a verdict on `passport` is needed only then.
 *
 * @throws {InvalidParameterError} when a needed verdict is missing (a Human ID credential, or
 * Passport when Human ID does not hold and `passport` is on), or verdicts are about several addresses.
 * @example
 * import { applyFallbackPolicy } from 'personhood'
 * const decision = applyFallbackPolicy({ verdicts, credentials: ['gov-id', 'phone'], match: 'any', passport: true })
 * decision.eligible // true
 * decision.method // 'gov-id' | 'phone' | 'passport' | null
 */
export function applyFallbackPolicy(parameters: {
  verdicts: readonly Verdict[]
  credentials: readonly HumanCredential[]
  match: 'any' | 'all'
  /** Fall back on Passport when Human ID does not hold. Default true. */
  passport?: boolean | undefined
}): FallbackDecision {
  return asParameterError(() => rules.applyFallbackPolicy(parameters) as FallbackDecision)
}

/** Runs a rule of src/rules/, giving an input it refuses the library's error type. */
function asParameterError<T>(judge: () => T): T {
  try {
    return judge()
  } catch (error) {
    if (error instanceof RuleParameterError) throw new InvalidParameterError({ parameter: error.parameter, reason: error.reason })
    throw error
  }
}
