/**
 * Rate limits per API key in fixed windows (15 minutes by default): the window of time `t` is
 * `floor(t / windowMs)`. Every request counts, rejected ones too. Over the limit: 429 with
 * `Retry-After` (seconds to the end of the window) and `{ detail }`. Runs after {@link apiKeyAuth}.
 */
import type { MiddlewareHandler } from 'hono'
import type { RateLimitTable } from '../context.js'
import { HttpError } from '../errors.js'
import type { ApiKeyVariables } from './api-key.js'
import { InvalidParameterError } from '../../errors/input.js'
import { parseDuration, parsePositiveInteger } from '../../utils/parse.js'

/** Counters of one budget: API key -> { window index, count }. Share it to share the budget. */
export type RateLimitCounter = Map<string, { window: number; count: number }>

/** Options of {@link rateLimit}. */
export type RateLimitOptions = {
  /** Requests per window by tier. */
  limits: RateLimitTable
  /** Window length (ms). */
  windowMs: number
  /** The clock (Unix ms). */
  now: () => number
  /** The budget's counters; pass the same map to several routes to make them share one budget. */
  counter?: RateLimitCounter
}

/** Creates an empty budget. */
export function createRateLimitCounter(): RateLimitCounter {
  return new Map()
}

/**
 * Creates the fixed-window rate-limit middleware.
 *
 * @throws {InvalidParameterError} at creation when a limit is not a positive integer, `windowMs` is not positive or `now` is not a function.
 * @example
 * const budget = createRateLimitCounter()
 * app.use('/v2/stamps/*', apiKeyAuth({ store }), rateLimit({ limits, windowMs, now, counter: budget }))
 * app.use('/registry/*', apiKeyAuth({ store }), rateLimit({ limits, windowMs, now, counter: budget }))
 */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<{ Variables: ApiKeyVariables }> {
  const { limits, windowMs, now, counter = createRateLimitCounter() } = options
  for (const tier of [1, 2, 3, 4] as const) {
    parsePositiveInteger(limits?.[tier], `limits[${tier}]`)
  }
  parseDuration(windowMs, 'windowMs', { positive: true })
  if (typeof now !== 'function') throw new InvalidParameterError({ parameter: 'now', reason: 'Expected a function returning Unix milliseconds.' })
  return async (c, next) => {
    const apiKey = c.get('apiKey')
    if (!apiKey) throw new Error('internal: rateLimit runs after apiKeyAuth.')
    const at = now()
    const window = Math.floor(at / windowMs)
    let entry = counter.get(apiKey.key)
    if (!entry || entry.window !== window) {
      entry = { window, count: 0 }
      counter.set(apiKey.key, entry)
    }
    entry.count += 1
    const limit = limits[apiKey.tier]
    if (entry.count > limit) {
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * windowMs - at) / 1000))
      throw new HttpError(429, `Request was throttled. Expected available in ${retryAfter} seconds.`, { 'Retry-After': String(retryAfter) })
    }
    await next()
  }
}
