/** What every interface A and B action is called with. */
import type { RateLimiter } from '../../http/rate-limit.js'
import type { Transport } from '../../http/transport.js'
import type { StampPageContext } from '../stamp-pages.js'

/**
 * What the interface A and B functions need: a transport that sends the API key, and the limiters
 * of the two budgets (`scoring` for A, shared with C; `model` for B). A {@link PassportClient} is one.
 */
export type PassportContext = {
  readonly transport: Transport
  readonly rateLimiters?:
    | { readonly scoring?: RateLimiter | undefined; readonly model?: RateLimiter | undefined }
    | undefined
}

/** The part of a {@link PassportContext} the stamp pages (A3) read: the scoring budget. */
export function stampPageContext(context: PassportContext): StampPageContext {
  return { transport: context.transport, rateLimiter: context.rateLimiters?.scoring }
}
