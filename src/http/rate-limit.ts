import { sha256, stringToHex } from 'viem'
import { InvalidParameterError } from '../errors/input.js'
import { defaultSleep, type Sleep } from './sleep.js'
import { parsePositiveInteger } from '../utils/parse.js'

/** Fifteen minutes: the window of every published rate limit. */
export const rateLimitWindowMs = 15 * 60 * 1000

/**
 * A tier of the scoring services, or a custom `{ limit, windowMs }`. Tiers 1-3 are the published
 * limits; tier 4 ("more than 2,000") paces at 2,000 unless you give your own limit.
 */
export type RateLimitTier = 1 | 2 | 3 | 4 | { limit: number; windowMs?: number }

/** Requests per 15 minutes for interfaces A and C (one shared budget per API key). */
export const scoringTierLimits = { 1: 125, 2: 350, 3: 2000, 4: 2000 } as const
/** Requests per 15 minutes for interface B (a budget of its own per API key). */
export const modelTierLimits = { 1: 15, 2: 350, 3: 2000, 4: 2000 } as const

/** Which budget a request draws on: `scoring` (A and C together) or `model` (B). */
export type RateLimitBudget = 'scoring' | 'model'

/** Paces requests so that no window of `windowMs` ever holds more than `limit` of them. */
export type RateLimiter = {
  readonly limit: number
  readonly windowMs: number
  /**
   * Resolves when one more request may start now; records it. With `maxWaitMs`, a request whose
   * turn would come later than that from the call rejects at once with a {@link RateBudgetWaitError}
   * (nothing recorded); `onWait` hears of every wait before it starts.
   */
  acquire(signal?: AbortSignal, options?: AcquireOptions): Promise<void>
  /** How many requests were recorded in the window ending now. */
  inWindow(): number
  /**
   * Milliseconds from now until `count` more requests could all have started (0 when they can
   * start at once), counting the requests already recorded but not callers still waiting in line.
   * Lets a caller with a deadline refuse at once instead of waiting. Optional for custom limiters.
   */
  waitTimeMs?(count?: number): number
}

/** A wait for the rate budget, as {@link AcquireOptions.onWait} hears of it. */
export type RateLimitWait = { waitMs: number; until: number; limit: number; windowMs: number }

/** Options of one {@link RateLimiter.acquire}. */
export type AcquireOptions = {
  /** Longest the caller accepts to wait for budget, from the call. Default: no bound. */
  maxWaitMs?: number | undefined
  /** Hears of each wait for budget before it starts (to show progress, or log it). */
  onWait?: ((wait: RateLimitWait) => void) | undefined
}

/** The budget would hold a request longer than its `maxWaitMs`; `until` is when it returns (Unix ms). */
export class RateBudgetWaitError extends Error {
  override name = 'RateBudgetWaitError'
  constructor(
    readonly waitMs: number,
    readonly until: number,
    readonly maxWaitMs: number,
  ) {
    super(`The rate budget returns in ${Math.ceil(waitMs / 1000)} s, past maxWaitMs (${maxWaitMs} ms).`)
  }
}

/** Parameters of {@link createRateLimiter}. */
export type CreateRateLimiterParameters = {
  /** Requests that may start in any window. */
  limit: number
  /** The window, ms. Default {@link rateLimitWindowMs} (15 minutes, the services' own). */
  windowMs?: number
  /** The clock, ms. Default Date.now. */
  now?: () => number
  /** How to wait for budget. Default: a timer. */
  sleep?: Sleep
}

/**
 * Creates a sliding-window rate limiter: a request may start only if fewer than `limit` started in
 * the `windowMs` before it, so no window of that length, wherever it falls, ever holds more than
 * `limit` requests. Callers are served in order.
 *
 * @throws {InvalidParameterError} when limit or windowMs is not a positive number.
 * @example
 * import { createRateLimiter } from 'personhood'
 * const limiter = createRateLimiter({ limit: 125 })
 * await limiter.acquire() // resolves at once for the first 125 calls in 15 minutes
 */
export function createRateLimiter({
  limit,
  windowMs = rateLimitWindowMs,
  now = Date.now,
  sleep = defaultSleep,
}: CreateRateLimiterParameters): RateLimiter {
  parsePositiveInteger(limit, 'limit')
  if (!(windowMs > 0)) {
    throw new InvalidParameterError({ parameter: 'windowMs', reason: `Expected a positive number, got ${windowMs}.` })
  }
  const starts: number[] = []
  let queue: Promise<void> = Promise.resolve()

  const prune = (t: number) => {
    let drop = 0
    while (drop < starts.length && (starts[drop] as number) <= t - windowMs) drop++
    if (drop) starts.splice(0, drop)
  }

  const take = async (signal: AbortSignal | undefined, options: AcquireOptions | undefined, deadline: number) => {
    for (;;) {
      signal?.throwIfAborted()
      const t = now()
      prune(t)
      if (starts.length < limit) {
        starts.push(t)
        return
      }
      const waitMs = (starts[0] as number) + windowMs - t
      if (t + waitMs > deadline) throw new RateBudgetWaitError(waitMs, t + waitMs, options?.maxWaitMs ?? 0)
      options?.onWait?.({ waitMs, until: t + waitMs, limit, windowMs })
      await sleep(waitMs, signal)
      // A sleep that returned without the clock moving (a no-op test sleep paired with the real
      // clock) would spin forever: wait on a real timer instead.
      if (now() === t) await defaultSleep(waitMs, signal)
    }
  }

  return {
    limit,
    windowMs,
    acquire(signal, options) {
      const deadline = options?.maxWaitMs === undefined ? Number.POSITIVE_INFINITY : now() + options.maxWaitMs
      const turn = queue.then(() => take(signal, options, deadline))
      queue = turn.catch(() => undefined)
      return turn
    },
    inWindow() {
      prune(now())
      return starts.length
    },
    waitTimeMs(count = 1) {
      const t = now()
      prune(t)
      // Place each of the `count` requests at the earliest moment the window allows it.
      const planned = [...starts]
      let last = t
      for (let i = 0; i < count; i++) {
        const blocking = planned.length - limit
        last = blocking >= 0 ? Math.max(t, (planned[blocking] as number) + windowMs) : t
        planned.push(last)
      }
      return last - t
    },
  }
}

/**
 * Resolves a tier to its `{ limit, windowMs }` for a budget.
 *
 * @throws {InvalidParameterError} for an unknown tier.
 * @example
 * import { resolveTier } from './rate-limit.js'
 * resolveTier(1, 'scoring') // { limit: 125, windowMs: 900000 }
 */
export function resolveTier(tier: RateLimitTier, budget: RateLimitBudget): { limit: number; windowMs: number } {
  if (typeof tier === 'object') return { limit: tier.limit, windowMs: tier.windowMs ?? rateLimitWindowMs }
  const table = budget === 'scoring' ? scoringTierLimits : modelTierLimits
  const limit = table[tier]
  if (limit === undefined) {
    throw new InvalidParameterError({ parameter: 'tier', reason: `Expected 1, 2, 3, 4 or { limit }, got ${String(tier)}.` })
  }
  return { limit, windowMs: rateLimitWindowMs }
}

const sharedLimiters = new Map<string, RateLimiter>()

/**
 * The process-wide limiter of one API key and budget. Every client created with the same key
 * draws on it, so a passport client (A) and a registry client (C) share one scoring budget, as the
 * services count them. The key itself is not kept: the map is indexed by its hash. The first client
 * of a key sets its tier and clock; a later client that names another tier for the same key is a
 * configuration error (one key has one tier), and tests that need their own clock pass their own
 * limiter instead.
 *
 * @throws {InvalidParameterError} when the key is already paced in this process at another limit.
 * @example
 * import { getSharedRateLimiter } from './rate-limit.js'
 * const limiter = getSharedRateLimiter({ apiKey: process.env.PASSPORT_API_KEY!, budget: 'scoring', tier: 2 })
 */
export function getSharedRateLimiter({
  apiKey,
  budget,
  tier = 1,
  now,
  sleep,
}: {
  apiKey: string
  budget: RateLimitBudget
  tier?: RateLimitTier
  now?: () => number
  sleep?: Sleep
}): RateLimiter {
  const { limit, windowMs } = resolveTier(tier, budget)
  const id = `${budget}:${sha256(stringToHex(apiKey))}`
  const existing = sharedLimiters.get(id)
  if (existing) {
    if (existing.limit !== limit || existing.windowMs !== windowMs) {
      throw new InvalidParameterError({
        parameter: 'tier',
        reason:
          `This API key is already paced in this process at ${existing.limit} requests per ${existing.windowMs / 60_000} min ` +
          `(${budget} budget); a second client asked for ${limit}. Give every client of one key the same tier.`,
      })
    }
    return existing
  }
  const limiter = createRateLimiter({ limit, windowMs, ...(now ? { now } : {}), ...(sleep ? { sleep } : {}) })
  sharedLimiters.set(id, limiter)
  return limiter
}
