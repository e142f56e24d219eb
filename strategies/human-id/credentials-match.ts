// Generated from personhood src/rules/credentials-match.ts
// by `npm run strategies:rules`: change the source, not this copy.

/** Any or all: whether a voter's credentials match, the decision match.ts makes with verdicts. */

/** With `any`, whether one of the credentials holds; with `all`, whether each does. */
export function credentialsMatch(
  held: readonly boolean[],
  match: 'any' | 'all'
): boolean {
  return match === 'any' ? held.includes(true) : !held.includes(false);
}
