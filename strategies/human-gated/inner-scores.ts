// Generated from personhood src/rules/inner-scores.ts
// by `npm run strategies:rules`: change the source, not this copy.

/**
 * An inner strategy's answer read as one score per voter. A voter the answer leaves out counts 0
 * (score-api's convention); one address under several casings must carry one score (rows.ts's
 * rule); a score that is not a finite number is named, never counted.
 */
import { ConflictingRowsError } from './rows-error';

/**
 * A source's scores by address (an inner strategy's answer, say), keyed by the lower-cased
 * address: the same address under several casings must carry the same score, else a
 * {@link ConflictingRowsError}.
 */
export function uniqueScoresByAddress(
  scores: Readonly<Record<string, number>>,
  source: string
): Map<string, number> {
  const unique = new Map<string, number>();
  const named = new Map<string, string>();
  for (const address of Object.keys(scores)) {
    const key = address.toLowerCase();
    const score = scores[address] as number;
    const seen = unique.get(key);
    if (seen === undefined) {
      unique.set(key, score);
      named.set(key, address);
    } else if (seen !== score) {
      throw new ConflictingRowsError(
        source,
        named.get(key) as string,
        `${seen} under ${named.get(key)} and ${score} under ${address}.`
      );
    }
  }
  return unique;
}

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
