// Generated from personhood src/rules/fallback.ts
// by `npm run strategies:rules`. Do not edit: change the source and run the
// command again. The library, its reference server and this folder decide with
// this same code, and a test fails when this copy differs from its source.

/**
 * Matching credentials, and the fallback policy: Human ID first (any or all of the credentials),
 * then a passing Passport score only when Human ID does not hold.
 *
 * It imports only the rules' error beside it: `npm run strategies:rules` copies it into each score-api folder
 * that uses it, with the copies it imports. Written in score-api's prettier style; compiles under
 * TypeScript 4.7 (CommonJS) as under the package's own settings.
 */

import { RuleParameterError } from './errors';

/** The parts of a verdict the match reads. */
export type VerdictLike = {
  address: string;
  credential: string;
  valid: boolean;
  /** Unix seconds the verdict stops holding; null when unknown or never. */
  expiresAt: number | null;
};

/** What {@link matchCredentials} answers. */
export type CredentialMatchOf<V extends VerdictLike> = {
  address: string;
  valid: boolean;
  match: 'any' | 'all';
  /**
   * `any`: the valid verdicts. `all` when valid: one valid verdict per credential; when not: the
   * verdicts of the credentials that do not hold.
   */
  verdicts: V[];
  /** `any`: the latest expiry of the valid verdicts; `all`: the earliest; null when unknown. */
  expiresAt: number | null;
};

function sameAddress(verdicts: readonly VerdictLike[]): string {
  const first = verdicts[0];
  if (!first) {
    throw new RuleParameterError(
      'verdicts',
      'Expected the verdicts of one address, got none.'
    );
  }
  for (const verdict of verdicts) {
    if (verdict.address !== first.address) {
      throw new RuleParameterError(
        'verdicts',
        `Expected the verdicts of one address, got ${first.address} and ${verdict.address}: join them with joinVerdicts first.`
      );
    }
  }
  return first.address;
}

/**
 * Matches one address's verdicts against credentials: `any` holds when at least one credential has
 * a valid verdict; `all` when every one does. A credential with verdicts from several sources
 * holds when one of them is valid. Throws a RuleParameterError when the verdicts are about several
 * addresses, `credentials` is empty, or a credential has no verdict at all (a missing answer is
 * never read as no).
 */
export function matchCredentials<V extends VerdictLike>(parameters: {
  verdicts: readonly V[];
  credentials: readonly string[];
  match: 'any' | 'all';
}): CredentialMatchOf<V> {
  const { verdicts, credentials, match } = parameters;
  if (credentials.length === 0) {
    throw new RuleParameterError(
      'credentials',
      'Expected at least one credential to match.'
    );
  }
  if (match !== 'any' && match !== 'all') {
    throw new RuleParameterError(
      'match',
      `Expected 'any' or 'all', got ${String(match)}.`
    );
  }
  const address = sameAddress(verdicts);
  const held: V[] = [];
  const failing: V[] = [];
  for (const credential of Array.from(new Set(credentials))) {
    const mine = verdicts.filter(verdict => verdict.credential === credential);
    if (mine.length === 0) {
      throw new RuleParameterError(
        'verdicts',
        `No verdict on ${credential} for ${address}: it was not checked.`
      );
    }
    const valid = mine.find(verdict => verdict.valid);
    if (valid) held.push(valid);
    else failing.push(...mine);
  }
  const valid = match === 'any' ? held.length > 0 : failing.length === 0;
  if (!valid) {
    return { address, valid, match, verdicts: failing, expiresAt: null };
  }
  const expiries = held.map(verdict => verdict.expiresAt);
  const known = expiries.filter((expiry): expiry is number => expiry !== null);
  let expiresAt: number | null;
  if (match === 'any') {
    expiresAt = known.length === expiries.length ? Math.max(...known) : null;
  } else {
    expiresAt = known.length > 0 ? Math.min(...known) : null;
  }
  return { address, valid, match, verdicts: held, expiresAt };
}

/** What {@link applyFallbackPolicy} answers for one address. */
export type FallbackDecisionOf<V extends VerdictLike> = {
  address: string;
  /** Whether the address counts as a unique human. */
  eligible: boolean;
  /** The first credential of the policy that holds, or `passport`; null when none. */
  method: string | null;
  /** The Human ID match (always computed first). */
  humanId: CredentialMatchOf<V>;
  /** The Passport verdict, when Human ID did not hold and Passport was consulted. */
  passport?: V | undefined;
};

/**
 * The fallback policy for one address: Human ID first (any or all of `credentials`); only when it
 * does not hold, a passing Passport score (the verdicts whose credential is `passport`). Throws a
 * RuleParameterError when a needed verdict is missing.
 */
export function applyFallbackPolicy<V extends VerdictLike>(parameters: {
  verdicts: readonly V[];
  credentials: readonly string[];
  match: 'any' | 'all';
  /** Fall back on Passport when Human ID does not hold. Default true. */
  passport?: boolean | undefined;
}): FallbackDecisionOf<V> {
  const { verdicts, credentials, match } = parameters;
  const human = verdicts.filter(verdict => verdict.credential !== 'passport');
  const humanId = matchCredentials({
    verdicts: human.length > 0 ? human : verdicts,
    credentials,
    match
  });
  const { address } = humanId;
  if (humanId.valid) {
    const method =
      credentials.find(credential =>
        humanId.verdicts.some(verdict => verdict.credential === credential)
      ) ?? null;
    return { address, eligible: true, method, humanId };
  }
  if (parameters.passport === false) {
    return { address, eligible: false, method: null, humanId };
  }
  const scores = verdicts.filter(verdict => verdict.credential === 'passport');
  const passport = scores.find(verdict => verdict.valid) ?? scores[0];
  if (passport === undefined) {
    throw new RuleParameterError(
      'verdicts',
      `No Passport verdict for ${address}, whose Human ID credentials do not hold: it was not checked.`
    );
  }
  return {
    address,
    eligible: passport.valid,
    method: passport.valid ? 'passport' : null,
    humanId,
    passport
  };
}
