import { BaseError, type BaseErrorParameters } from './base.js'

/** One problem with a strategy's options: where (`path`) and what. */
export type StrategyOptionIssue = { path: (string | number)[]; message: string }

function listAddresses(addresses: readonly string[]): string {
  const shown = addresses.slice(0, 5).join(', ')
  return `Addresses (${addresses.length}): ${shown}${addresses.length > 5 ? ', ...' : ''}`
}

/**
 * A strategy's options (or the configuration it needs, such as an API key or a scorer id) are
 * missing or invalid. Thrown before any request.
 */
export class StrategyOptionsError extends BaseError {
  override name = 'StrategyOptionsError' as const
  /** The strategy (its folder name, e.g. `passport-v2`). */
  readonly strategy: string
  readonly issues: StrategyOptionIssue[]
  constructor(parameters: BaseErrorParameters & { strategy: string; issues: StrategyOptionIssue[] }) {
    const shown = parameters.issues.slice(0, 8).map((issue) => `- ${issue.path.join('.') || '(options)'}: ${issue.message}`)
    super(`The options of strategy "${parameters.strategy}" are invalid.`, {
      ...parameters,
      code: 'STRATEGY_OPTIONS_INVALID',
      details: parameters.details ?? `${parameters.issues.length} issue(s)`,
      metaMessages: [
        'Issues:',
        ...shown,
        ...(parameters.issues.length > 8 ? [`- ... and ${parameters.issues.length - 8} more`] : []),
        ...(parameters.metaMessages ?? []),
      ],
    })
    this.strategy = parameters.strategy
    this.issues = parameters.issues
  }
}

/** {@link StrategyOptionsError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type StrategyOptionsErrorType = StrategyOptionsError & { name: 'StrategyOptionsError' }

/**
 * A source a strategy reads (a Passport endpoint, the chain, an index) failed: the addresses named
 * have no answer. A strategy never answers 0 for an address it could not check; the original error
 * is the `cause`.
 */
export class StrategySourceError extends BaseError {
  override name: string = 'StrategySourceError'
  /** The source, in words with its label (e.g. `Passport score listing (C4)`). */
  readonly source: string
  /** The addresses left without an answer (EIP-55). */
  readonly addresses: readonly string[]
  constructor(parameters: BaseErrorParameters & { source: string; addresses: readonly string[]; reason?: string | undefined }, code = 'STRATEGY_SOURCE_FAILED') {
    super(parameters.reason ?? `The strategy could not read ${parameters.source}.`, {
      ...parameters,
      code,
      metaMessages: [`Source: ${parameters.source}`, listAddresses(parameters.addresses), ...(parameters.metaMessages ?? [])],
    })
    this.source = parameters.source
    this.addresses = parameters.addresses
  }
}

/** {@link StrategySourceError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type StrategySourceErrorType = StrategySourceError & { name: 'StrategySourceError' }

/**
 * The Passport API key may not read score history (A2 answered 403: only keys Passport has
 * allowlisted may), and voters were rescored after the snapshot: their score at the snapshot can be
 * read nowhere else. A {@link StrategySourceError} naming the history endpoint and those voters; the
 * 403 is the `cause`.
 */
export class PassportHistoryDeniedError extends StrategySourceError {
  override name = 'PassportHistoryDeniedError' as const
  constructor(parameters: BaseErrorParameters & { source: string; addresses: readonly string[]; reason?: string | undefined }) {
    super(parameters, 'PASSPORT_HISTORY_DENIED')
  }
}

/** {@link PassportHistoryDeniedError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type PassportHistoryDeniedErrorType = PassportHistoryDeniedError & { name: 'PassportHistoryDeniedError' }

/** The strategy ran out of time: its deadline passed while a source was still answering. */
export class StrategyDeadlineError extends BaseError {
  override name = 'StrategyDeadlineError' as const
  readonly deadlineMs: number
  readonly source: string
  readonly addresses: readonly string[]
  constructor(parameters: BaseErrorParameters & { deadlineMs: number; source: string; addresses: readonly string[] }) {
    super(`The strategy ran past its deadline of ${formatSeconds(parameters.deadlineMs)} while reading ${parameters.source}.`, {
      ...parameters,
      code: 'STRATEGY_DEADLINE',
      details: parameters.details ?? 'Score fewer addresses per call, or raise the deadline where the caller allows more time.',
      metaMessages: [listAddresses(parameters.addresses), ...(parameters.metaMessages ?? [])],
    })
    this.deadlineMs = parameters.deadlineMs
    this.source = parameters.source
    this.addresses = parameters.addresses
  }
}

/** {@link StrategyDeadlineError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type StrategyDeadlineErrorType = StrategyDeadlineError & { name: 'StrategyDeadlineError' }

/**
 * A rate budget (an API key's requests per window) cannot serve a strategy's requests before its
 * deadline. Thrown instead of waiting in silence: it names the budget and when it returns.
 */
export class RateBudgetError extends BaseError {
  override name = 'RateBudgetError' as const
  /** The budget, in words (e.g. `Passport API key, tier 1: 125 requests per 15 min (A and C)`). */
  readonly budget: string
  /** Requests the call still needs. */
  readonly needed: number
  /** Requests the budget allows now. */
  readonly available: number
  /** Unix ms when the budget allows the requests needed (by the limiter's clock). */
  readonly returnsAt: number
  readonly addresses: readonly string[]
  constructor(
    parameters: BaseErrorParameters & { budget: string; needed: number; available: number; returnsAt: number; addresses: readonly string[] },
  ) {
    super(`The rate budget cannot serve this call before its deadline: ${parameters.budget}.`, {
      ...parameters,
      code: 'RATE_BUDGET_EXHAUSTED',
      details:
        parameters.details ??
        `${parameters.needed} request(s) needed, ${parameters.available} available now; the budget allows them again at ${new Date(parameters.returnsAt).toISOString()}.`,
      metaMessages: [listAddresses(parameters.addresses), ...(parameters.metaMessages ?? [])],
    })
    this.budget = parameters.budget
    this.needed = parameters.needed
    this.available = parameters.available
    this.returnsAt = parameters.returnsAt
    this.addresses = parameters.addresses
  }
}

/** {@link RateBudgetError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type RateBudgetErrorType = RateBudgetError & { name: 'RateBudgetError' }

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`
}
