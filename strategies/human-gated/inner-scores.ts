// Generated from personhood src/rules/inner-scores.ts
// by `npm run strategies:rules`: change the source, not this copy.

/**
 * human-gated: an inner strategy's answer read as one score per voter. A voter the answer leaves
 * out counts 0 (score-api's convention); one address under several casings must carry one score
 * (rows.ts's rule); a score that is not a finite number is named, never counted.
 *
 * It imports only other rules: `npm run strategies:rules` copies it verbatim into each score-api
 * folder that uses it. Written in score-api's prettier style; compiles under TypeScript 4.7.
 */
import { uniqueScoresByAddress } from './rows';

/** What {@link readInnerScores} answers. */
export type InnerScores = {
  /** By voter, as given: the score, 0 when the answer leaves the voter out. */
  scores: Map<string, number>;
  /** The voters whose score is not a finite number. */
  notNumbers: string[];
};

/**
 * Reads an inner strategy's answer for `voters`; undefined when the answer is not scores by
 * address (not an object, or an array).
 *
 * @throws ConflictingRowsError (rows.ts) when one address is in the answer twice with two scores.
 */
export function readInnerScores(
  answer: unknown,
  voters: readonly string[],
  source: string
): InnerScores | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
    return undefined;
  }
  const byVoter = uniqueScoresByAddress(
    answer as Record<string, number>,
    source
  );
  const scores = new Map<string, number>();
  const notNumbers: string[] = [];
  for (const voter of voters) {
    const score: unknown = byVoter.get(voter.toLowerCase());
    if (score === undefined) scores.set(voter, 0);
    else if (typeof score === 'number' && Number.isFinite(score)) {
      scores.set(voter, score);
    } else notNumbers.push(voter);
  }
  return { scores, notNumbers };
}
