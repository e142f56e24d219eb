/** An artificial delay before each request (`--latency-ms`), to exercise client timeouts and pacing. */
import type { MiddlewareHandler } from 'hono'
import { parseDuration } from '../../utils/parse.js'

/**
 * Creates the latency middleware.
 *
 * @throws {InvalidParameterError} at creation when `ms` is negative or not finite.
 */
export function latency(options: { ms: number; sleep?: (ms: number) => Promise<void> }): MiddlewareHandler {
  const { ms, sleep = (delay: number) => new Promise<void>((resolve) => setTimeout(resolve, delay)) } = options
  parseDuration(ms, 'ms')
  return async (_c, next) => {
    if (ms > 0) await sleep(ms)
    await next()
  }
}
