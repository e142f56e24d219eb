/**
 * A strategy call's time limit. score-api gives a call 20 s (for 500 addresses): a strategy never
 * waits past it, on a slow source or on a rate budget. A budget that cannot serve the call in time is
 * refused at once with a {@link RateBudgetError} that says when it returns.
 */
import type { BaseError } from '../errors/base.js'
import { RateBudgetError, StrategyDeadlineError, StrategySourceError } from '../errors/strategy.js'
import type { RateLimiter } from '../http/rate-limit.js'

/** A call's deadline: how much time is left, and a signal that aborts every request when it passes. */
export type Deadline = {
  /** The time the call was given, ms (Infinity: none). */
  readonly deadlineMs: number
  /** Aborts when the deadline passes (or the caller's own signal aborts). */
  readonly signal: AbortSignal
  /** Milliseconds left, by the context's clock. */
  remainingMs(): number
  /** Stops the timer (call when the work is done). */
  dispose(): void
}

/** Why a deadline's signal aborted: the deadline passed. */
class DeadlinePassed extends Error {
  override name = 'DeadlinePassed'
}

/**
 * Starts a deadline of `deadlineMs` from now. Its signal aborts on a timer when the time is up, or
 * when `signal` (the caller's) aborts.
 *
 * @example
 * import { createDeadline } from './deadline.js'
 * const deadline = createDeadline({ deadlineMs: 20_000 })
 * try { await fetch(url, { signal: deadline.signal }) } finally { deadline.dispose() }
 */
export function createDeadline({
  deadlineMs,
  now = Date.now,
  signal,
}: {
  deadlineMs: number
  now?: (() => number) | undefined
  signal?: AbortSignal | undefined
}): Deadline {
  const end = now() + deadlineMs
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  if (Number.isFinite(deadlineMs)) {
    timer = setTimeout(() => controller.abort(new DeadlinePassed(`deadline of ${deadlineMs} ms passed`)), Math.max(0, deadlineMs))
    ;(timer as { unref?: () => void }).unref?.()
  }
  const combined = signal ? AbortSignal.any([signal, controller.signal]) : controller.signal
  return {
    deadlineMs,
    signal: combined,
    remainingMs: () => end - now(),
    dispose: () => clearTimeout(timer),
  }
}

/** A rate budget a strategy draws on: the limiter, and how to name it in an error. */
export type RateBudget = {
  limiter: RateLimiter
  /** In words, e.g. `Passport API key, tier 1 (A and C together)`. */
  name: string
}

/**
 * Checks that `budget` can start `count` more requests before the deadline (with `reserveMs` left for
 * the requests themselves). A limiter that cannot tell its wait (no `waitTimeMs`) is not checked:
 * the deadline's signal still stops the wait.
 *
 * @throws {RateBudgetError} when it cannot: names the budget, the requests needed and available, and
 * when the budget returns.
 */
export function checkRateBudget(parameters: {
  budget: RateBudget | undefined
  count: number
  deadline: Deadline
  addresses: readonly string[]
  now: () => number
  reserveMs?: number | undefined
}): void {
  const { budget, count, deadline } = parameters
  if (budget === undefined || count <= 0 || budget.limiter.waitTimeMs === undefined) return
  const waitMs = budget.limiter.waitTimeMs(count)
  if (waitMs === 0 || waitMs + (parameters.reserveMs ?? 0) <= deadline.remainingMs()) return
  const { limiter } = budget
  throw new RateBudgetError({
    budget: `${budget.name}: ${limiter.limit} requests per ${formatWindow(limiter.windowMs)}`,
    needed: count,
    available: Math.max(0, limiter.limit - limiter.inWindow()),
    returnsAt: parameters.now() + waitMs,
    addresses: parameters.addresses,
  })
}

/**
 * Reads a source for some addresses: a failure becomes a {@link StrategySourceError} naming the
 * source and the addresses (the original error is its `cause`); the deadline passing becomes a
 * {@link StrategyDeadlineError}. Errors this package already raises about the call as a whole
 * (a {@link RateBudgetError}, another strategy error) pass through.
 *
 * @throws {StrategySourceError} or {@link StrategyDeadlineError}.
 */
export async function readSource<T>(
  context: SourceContext,
  read: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { deadline } = context
  try {
    return await read(deadline.signal)
  } catch (error) {
    throw toStrategyError(error, context)
  }
}

/** What a source read names in its errors. */
export type SourceContext = {
  /** The source, in words with its label (e.g. `Passport score listing (C4)`). */
  source: string
  addresses: readonly string[]
  deadline: Deadline
  /** A sentence saying what a failure means here (e.g. for a 404, "scorer 7 is unknown"); undefined for the default. */
  describe?: ((error: unknown) => string | undefined) | undefined
}

/** Maps an error of a source read to the strategy's error (see {@link readSource}). */
export function toStrategyError(error: unknown, context: SourceContext): BaseError {
  if (error instanceof RateBudgetError || error instanceof StrategyDeadlineError || error instanceof StrategySourceError) return error
  const reason = context.deadline.signal.aborted ? context.deadline.signal.reason : undefined
  if (reason instanceof DeadlinePassed) {
    return new StrategyDeadlineError({ deadlineMs: context.deadline.deadlineMs, source: context.source, addresses: context.addresses, cause: error })
  }
  return new StrategySourceError({ source: context.source, addresses: context.addresses, cause: error, reason: context.describe?.(error) })
}

function formatWindow(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`
}
