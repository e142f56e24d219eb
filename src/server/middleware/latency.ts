/** An artificial delay before each request (`--latency-ms`), to exercise client timeouts and pacing. */
import type { MiddlewareHandler } from 'hono'

/**
 * Creates the latency middleware.
 *
 * @throws {TypeError} at creation when `ms` is negative or not finite.
 */
export function latency(options: { ms: number; sleep?: (ms: number) => Promise<void> }): MiddlewareHandler {
  const { ms, sleep = (delay: number) => new Promise<void>((resolve) => setTimeout(resolve, delay)) } = options
  if (!Number.isFinite(ms) || ms < 0) throw new TypeError('latency: ms must be a non-negative number.')
  return async (_c, next) => {
    if (ms > 0) await sleep(ms)
    await next()
  }
}
