/**
 * What a strategy's answer for one address rests on, read from its per-address detail: the
 * verdicts, and the strategy's own decision when it makes one. The audit's judge, `personhood
 * verify` and the strategy server's voter page all read a strategy's answer through this, so they
 * show what the strategy decided, never a judgment of their own.
 */
import { InvalidParameterError } from '../errors/input.js'
import { verdictCredentials, type Verdict, type VerdictCredential } from '../verify/verdict.js'

/**
 * What a strategy's answer for one voter says: every verdict it rests on, and, when the strategy
 * decides eligibility itself (a fallback policy), that decision.
 */
export type StrategyExplanation = {
  verdicts: readonly Verdict[]
  /** The strategy's own decision; when absent, a voter is eligible when its score is above 0. */
  eligible?: boolean | undefined
  method?: VerdictCredential | null | undefined
}

/**
 * Reads what a strategy's per-address detail says: a list of verdicts, one verdict (Passport), or
 * an object carrying `verdicts` (and optionally `eligible` and `method`).
 *
 * @throws {InvalidParameterError} for a detail of another shape (a strategy that cannot be explained).
 * @example
 * import { explainStrategyDetail } from './explain.js'
 * const run = await runStrategy(humanVerificationStrategy, { network: '10', provider, addresses: [address], options, snapshot })
 * explainStrategyDetail(run.results.get(address)!.detail).eligible
 */
export function explainStrategyDetail(detail: unknown): StrategyExplanation {
  if (Array.isArray(detail)) return { verdicts: detail as Verdict[] }
  if (isVerdict(detail)) return { verdicts: [detail] }
  if (detail && typeof detail === 'object' && Array.isArray((detail as { verdicts?: unknown }).verdicts)) {
    const { verdicts, eligible, method } = detail as { verdicts: Verdict[]; eligible?: unknown; method?: unknown }
    return {
      verdicts,
      ...(typeof eligible === 'boolean' ? { eligible } : {}),
      ...(method === null || (typeof method === 'string' && (verdictCredentials as readonly string[]).includes(method)) ? { method: method as VerdictCredential | null } : {}),
    }
  }
  throw new InvalidParameterError({ parameter: 'strategy', reason: 'The strategy answered a detail the audit cannot read: it needs its verdicts.' })
}

function isVerdict(value: unknown): value is Verdict {
  return !!value && typeof value === 'object' && 'credential' in value && 'source' in value && 'valid' in value && 'address' in value
}
