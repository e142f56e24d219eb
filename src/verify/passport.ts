/**
 * The Passport rule: a score passes when it is at least the threshold (exact decimals, never
 * floating point) and has not expired at the time judged.
 */
import { compareDecimals } from '../schemas/common.js'

/** The recommended threshold of a stamp scorer (interface A): 20. */
export const defaultPassportThreshold = '20'

/**
 * Why a Passport score passes or not: `valid`; `below-threshold`; `expired` (its
 * `expiration_timestamp` is at or before the time judged); `error` (the service scored with an
 * error); `never-scored` (the scorer has no score for the address).
 */
export type PassportReason = 'valid' | 'below-threshold' | 'expired' | 'error' | 'never-scored'

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
  return compareDecimals(score, threshold) >= 0
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
  return expiresAt !== null && expiresAt <= at
}

/** Parameters of {@link checkPassportScore}. */
export type CheckPassportScoreParameters = {
  /** The score, a decimal (string, number or bigint). */
  score: number | string | bigint
  /** The threshold to meet. */
  threshold: number | string | bigint
  /** Unix seconds the score expires at; null when it has no expiry. */
  expiresAt: number | null
  /** The service's error text; null when it scored without error. */
  error?: string | null | undefined
  /** Unix seconds the score is judged at (the snapshot's time). */
  at: number
}

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
  if (parameters.error !== undefined && parameters.error !== null) return 'error'
  if (!meetsPassportThreshold(parameters.score, parameters.threshold)) return 'below-threshold'
  if (isPassportScoreExpired(parameters.expiresAt, parameters.at)) return 'expired'
  return 'valid'
}
