/**
 * Limits for routes that need no key: requests per client address in fixed windows, so one client
 * cannot exhaust the server through the open routes (nonces, sign-in, verifications, the index).
 * The address is the connection's (never a header a client could forge); in-process requests,
 * which have no connection, share the key `in-process`.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { InvalidParameterError } from '../../errors/input.js'
import { parseDuration, parsePositiveInteger } from '../../utils/parse.js'
import { HttpError } from '../errors.js'

/** The address of the client behind a request: the socket's remote address when bound to a port. */
export function clientAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
  return incoming?.socket?.remoteAddress ?? 'in-process'
}

/** Parameters of {@link clientRateLimit}. */
export type ClientRateLimitOptions = {
  /** Requests per client per window. */
  limit: number
  windowMs: number
  now: () => number
  /** Name of the budget, in the 429 detail. */
  name: string
}

/**
 * A fixed-window limit per client address. The counters of a window are dropped at once when the
 * next begins, so memory is bounded by the clients of one window.
 *
 * @throws {InvalidParameterError} when `limit` or `windowMs` is not positive, or `now` is not a function.
 */
export function clientRateLimit(options: ClientRateLimitOptions): MiddlewareHandler {
  const { limit, windowMs, now, name } = options
  parsePositiveInteger(limit, 'limit')
  parseDuration(windowMs, 'windowMs', { positive: true })
  if (typeof now !== 'function') throw new InvalidParameterError({ parameter: 'now', reason: 'Expected a function returning Unix milliseconds.' })
  let window = -1
  let counts = new Map<string, number>()
  return async (c, next) => {
    const at = now()
    const current = Math.floor(at / windowMs)
    if (current !== window) {
      window = current
      counts = new Map()
    }
    const client = clientAddress(c)
    const count = (counts.get(client) ?? 0) + 1
    counts.set(client, count)
    if (count > limit) {
      const retryAfter = Math.max(1, Math.ceil(((window + 1) * windowMs - at) / 1000))
      throw new HttpError(429, `Too many requests to ${name} from this address. Expected available in ${retryAfter} seconds.`, { 'Retry-After': String(retryAfter) })
    }
    await next()
  }
}
