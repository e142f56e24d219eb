/** What every interface C action is called with, and the pieces of it the actions share. */
import { InvalidParameterError } from '../../errors/input.js'
import type { RateLimiter } from '../../http/rate-limit.js'
import type { Sleep } from '../../http/sleep.js'
import type { Transport } from '../../http/transport.js'

/** Path of C7 in the spec. */
export const defaultTokenStakePath = '/registry/token-stake'

/**
 * What the interface C functions need: a transport that sends the API key, the scoring limiter
 * (shared with interface A), and for {@link waitForScore} a clock. A {@link RegistryClient} is one.
 */
export type RegistryContext = {
  readonly transport: Transport
  readonly rateLimiter?: RateLimiter | undefined
  /** Path of C7. Default `/registry/token-stake` (the spec); the public service uses `/registry/gtc-stake`. */
  readonly tokenStakePath?: string | undefined
  /** The clock of {@link waitForScore}'s elapsed time. Default Date.now. */
  readonly now?: (() => number) | undefined
  /** How {@link waitForScore} waits between polls. Default: a timer. */
  readonly sleep?: Sleep | undefined
}

/** Checks a C7 path (a path starting with "/", no query) and drops its trailing slashes. */
export function checkTokenStakePath(path: unknown): string {
  if (typeof path !== 'string' || !/^\/[^?#]*$/.test(path)) {
    throw new InvalidParameterError({
      parameter: 'tokenStakePath',
      reason: 'Expected a path starting with "/" and without query, such as "/registry/gtc-stake".',
    })
  }
  return path.replace(/\/+$/, '')
}

/** The part of a {@link RegistryContext} the stamp pages (C5) read. */
export function stampPageContext(context: RegistryContext) {
  return { transport: context.transport, rateLimiter: context.rateLimiter }
}
