// Generated from personhood src/rules/match.ts
// by `npm run strategies:rules`: change the source, not this copy.

/** Matching one address's credentials: any or all of them, with the expiry that holds. */
import { credentialsMatch } from './credentials-match';
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
  const holds: boolean[] = [];
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
    holds.push(valid !== undefined);
  }
  const valid = credentialsMatch(holds, match);
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
