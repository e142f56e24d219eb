/** Clean hands from all of an address's index rows, for the library's API path. */
import {
  checkCleanHandsRow,
  cleanHandsRowRank,
  parseValidUntil
} from './clean-hands.js';

// clean-hands.ts's types, named here: score-api's lint forbids type-only imports.
type CleanHandsRowReason = ReturnType<typeof checkCleanHandsRow>;
type CleanHandsRuleOptions = Parameters<typeof checkCleanHandsRow>[1];

/** What {@link judgeCleanHandsRows} answers. */
export type CleanHandsRowsJudgment = {
  /** `valid` when a row passes; else the most telling failure; `none` without rows. */
  reason: CleanHandsRowReason | 'none';
  /** The latest `validUntil` among the rows that pass; undefined when none does. */
  expiresAt: bigint | undefined;
  /** Each row's reason, in the rows' order. */
  rows: CleanHandsRowReason[];
};

/**
 * Judges all of an address's index rows: valid when one row passes (expiring with the latest of
 * them), else the most telling failure (the row that got furthest).
 */
export function judgeCleanHandsRows(
  rows: readonly unknown[],
  options: CleanHandsRuleOptions
): CleanHandsRowsJudgment {
  const reasons = rows.map(row => checkCleanHandsRow(row, options));
  let reason: CleanHandsRowReason | 'none' = 'none';
  let expiresAt: bigint | undefined;
  reasons.forEach((rowReason, index) => {
    if (
      reason === 'none' ||
      cleanHandsRowRank[rowReason] > cleanHandsRowRank[reason]
    ) {
      reason = rowReason;
    }
    if (rowReason === 'valid') {
      const row = rows[index] as { validUntil: unknown };
      const validUntil = parseValidUntil(row.validUntil) as bigint;
      if (expiresAt === undefined || validUntil > expiresAt) {
        expiresAt = validUntil;
      }
    }
  });
  return { reason, expiresAt, rows: reasons };
}
