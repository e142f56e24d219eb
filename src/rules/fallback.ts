/** The fallback policy: Human ID first, then a passing Passport score only when it does not hold. */
import { RuleParameterError } from './errors.js';
import { matchCredentials } from './match.js';

// match.ts's types, named here: score-api's lint forbids type-only imports.
type VerdictLike = Parameters<typeof matchCredentials>[0]['verdicts'][number];
type CredentialMatchOf<V> = Omit<
  ReturnType<typeof matchCredentials>,
  'verdicts'
> & {
  verdicts: V[];
};

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
