// Generated from personhood src/rules/passport.ts
// by `npm run strategies:rules`: change the source, not this copy.

/**
 * The Passport rule: a score meets the threshold (20 by default) exactly, has not expired and was
 * scored without error. How a verdict becomes voting power: ./passport-weighting.ts.
 *
 * It imports only the decimals beside it: `npm run strategies:rules` copies it into each score-api folder
 * that uses it, with the copies it imports. Written in score-api's prettier style; compiles under
 * TypeScript 4.7 (CommonJS) as under the package's own settings.
 */

import { compareDecimals } from './decimals';

/** The recommended threshold of a stamp scorer: 20. */
export const defaultPassportThreshold = '20';

/**
 * Why a Passport score passes or not: `valid`; `below-threshold`; `expired` (its expiry is at or
 * before the time judged); `error` (scored with an error); `never-scored`.
 */
export type PassportReason = 'valid' | PassportFailure | 'never-scored';
type PassportFailure = 'below-threshold' | 'expired' | 'error';

/** `score >= threshold`, compared exactly as decimals ("19.99999" < "20" <= "20.00000"). */
export function meetsPassportThreshold(
  score: number | string | bigint,
  threshold: number | string | bigint
): boolean {
  return compareDecimals(score, threshold) >= 0;
}

/** A score whose expiry (Unix seconds, null for none) is at or before `at` has expired. */
export function isPassportScoreExpired(
  expiresAt: number | null,
  at: number
): boolean {
  return expiresAt !== null && expiresAt <= at;
}

/** What {@link checkPassportScore} reads. */
export type CheckPassportScoreParameters = {
  /** The score, a decimal. */
  score: number | string | bigint;
  /** The threshold to meet. */
  threshold: number | string | bigint;
  /** Unix seconds the score expires at; null when it has no expiry. */
  expiresAt: number | null;
  /** The service's error text; null when it scored without error. */
  error?: string | null | undefined;
  /** Unix seconds the score is judged at (the snapshot's time). */
  at: number;
};

/**
 * Judges one Passport score: `error` when scored with an error, then `below-threshold` (exact
 * decimals), then `expired` (`expiresAt <= at`), else `valid`.
 */
export function checkPassportScore(
  parameters: CheckPassportScoreParameters
): Exclude<PassportReason, 'never-scored'> {
  if (parameters.error !== undefined && parameters.error !== null) {
    return 'error';
  }
  if (!meetsPassportThreshold(parameters.score, parameters.threshold)) {
    return 'below-threshold';
  }
  if (isPassportScoreExpired(parameters.expiresAt, parameters.at)) {
    return 'expired';
  }
  return 'valid';
}
