/**
 * The Passport rule: a score passes when it is at least the threshold (exact decimals, never
 * floating point) and has not expired at the time judged. Written once in src/rules/passport.ts (copied into
 * the score-api folders); these are the library's documented names for it.
 */
import * as rules from '../rules/passport.js'
import * as weightingRules from '../rules/passport-weighting.js'

/** The recommended threshold of a stamp scorer (interface A): 20 (declared in src/rules/passport.ts). */
export const defaultPassportThreshold: '20' = rules.defaultPassportThreshold

/**
 * Why a Passport score passes or not: `valid`; `below-threshold`; `expired` (its
 * `expiration_timestamp` is at or before the time judged); `error` (the service scored with an
 * error); `never-scored` (the scorer has no score for the address).
 */
export type PassportReason = rules.PassportReason

/**
 * Tells whether a score meets a threshold: `score >= threshold`, compared exactly as decimals
 * ("19.99999" < "20" <= "20.00000").
 *
 * @throws {RangeError} when either is not a decimal.
 * @example
 * import { meetsPassportThreshold } from 'personhood'
 * meetsPassportThreshold('20.00000', '20') // true
 * meetsPassportThreshold('19.99999', 20) // false
 */
export function meetsPassportThreshold(score: number | string | bigint, threshold: number | string | bigint): boolean {
  return rules.meetsPassportThreshold(score, threshold)
}

/**
 * Tells whether a score whose expiry is `expiresAt` (Unix seconds; null when it has none) has
 * expired at `at`: an expiry at or before the time judged does not pass.
 *
 * @example
 * import { isPassportScoreExpired } from 'personhood'
 * isPassportScoreExpired(1_700_000_000, 1_700_000_000) // true
 */
export function isPassportScoreExpired(expiresAt: number | null, at: number): boolean {
  return rules.isPassportScoreExpired(expiresAt, at)
}

/** Parameters of {@link checkPassportScore}. */
export type CheckPassportScoreParameters = rules.CheckPassportScoreParameters

/**
 * Judges one Passport score at a time: `error` when the service scored with an error, then
 * `below-threshold` (`score < threshold`, exact decimals), then `expired` (`expiresAt <= at`),
 * else `valid`.
 *
 * @throws {RangeError} when the score or the threshold is not a decimal.
 * @example
 * import { checkPassportScore } from 'personhood'
 * checkPassportScore({ score: '21.50000', threshold: '20', expiresAt: 1_800_000_000, at: 1_750_000_000 }) // 'valid'
 */
export function checkPassportScore(parameters: CheckPassportScoreParameters): Exclude<PassportReason, 'never-scored'> {
  return rules.checkPassportScore(parameters)
}

/** How a Passport verdict becomes voting power (see {@link passportVerdictValue}). */
export type PassportWeighting = weightingRules.PassportWeighting

/**
 * The voting power of a Passport verdict. A weighted score that had expired at the time judged
 * counts 0 like a gated one: its stamps no longer held, so the recorded number is not what the
 * score was then. A weighted score is taken at the v2 API's precision (5 decimals, half to even),
 * so the same score weighs the same whether a v1 record (C4, 9 decimals) or a v2 one (A1, A2)
 * told it.
 *
 * @example
 * import { passportVerdictValue, verdictFromScore } from 'personhood'
 * const verdict = verdictFromScore({ record, origin: 'listing', at: 1_750_000_000 })
 * passportVerdictValue(verdict, { mode: 'weighted', cap: 50 }) // e.g. 23.5
 */
export function passportVerdictValue(
  verdict: { valid: boolean; reason: PassportReason; evidence: { score: string | null; expirationTimestamp: number | null; at: number } },
  weighting: PassportWeighting,
): number {
  return weightingRules.passportVerdictValue(verdict, weighting)
}
