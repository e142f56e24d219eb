/** How a Passport verdict becomes voting power (passport-v2's `gated` and `weighted` modes). */
import { formatDecimal, v2DecimalPlaces } from './decimals.js';
import { isPassportScoreExpired } from './passport.js';

/** How a Passport verdict becomes voting power. */
export type PassportWeighting =
  /** `score` for a score that passes, else 0. */
  | { mode: 'gated'; score: number }
  /**
   * The score itself, up to `cap`; 0 for a score that had expired, was scored with an error or
   * never scored. With `gate`, also 0 below the threshold.
   */
  | { mode: 'weighted'; cap?: number | undefined; gate?: boolean | undefined };

/** The parts of a Passport verdict {@link passportVerdictValue} reads. */
export type PassportVerdictLike = {
  valid: boolean;
  /** A PassportReason (./passport.ts). */
  reason: string;
  evidence: {
    score: string | null;
    expirationTimestamp: number | null;
    at: number;
  };
};

/**
 * The voting power of a Passport verdict. A weighted score that had expired counts 0 like a gated
 * one. A weighted score is taken at the v2 precision (5 decimals, half to even), so the same score
 * weighs the same from a v1 record (9 decimals) or a v2 one.
 */
export function passportVerdictValue(
  verdict: PassportVerdictLike,
  weighting: PassportWeighting
): number {
  if (weighting.mode === 'gated') return verdict.valid ? weighting.score : 0;
  const { reason, evidence } = verdict;
  if (reason === 'error' || reason === 'never-scored') return 0;
  if (evidence.score === null) return 0;
  if (isPassportScoreExpired(evidence.expirationTimestamp, evidence.at)) {
    return 0;
  }
  if (weighting.gate && !verdict.valid) return 0;
  const value = Math.max(
    0,
    Number(formatDecimal(evidence.score, v2DecimalPlaces))
  );
  return weighting.cap === undefined ? value : Math.min(value, weighting.cap);
}
