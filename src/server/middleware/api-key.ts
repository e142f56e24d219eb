/**
 * API-key authentication of interfaces A, B and C: the `X-API-KEY` header must name a known key.
 * Unknown or missing: 401 with `WWW-Authenticate: ApiKey header="X-API-KEY"`.
 */
import type { MiddlewareHandler } from 'hono'
import { HttpError } from '../errors.js'
import type { ApiKey } from '../state/types.js'
import type { Store } from '../state/store.js'
import { InvalidParameterError } from '../../errors/input.js'

/** What the middleware puts in the context (`c.get('apiKey')`). */
export type ApiKeyVariables = { apiKey: ApiKey }

/** Options of {@link apiKeyAuth}. */
export type ApiKeyAuthOptions = {
  store: Store
  /** Header to read. Default `X-API-KEY` (case-insensitive). */
  header?: string
}

/** The 401 body and header of a missing or unknown API key. */
export const invalidApiKeyDetail = 'Invalid API Key.'

/**
 * Creates the API-key middleware. Keys are compared by sha256 digest in constant time.
 *
 * @throws {InvalidParameterError} at creation when `store` is missing or `header` is empty.
 * @example
 * app.use('/v2/*', apiKeyAuth({ store }))
 */
export function apiKeyAuth(options: ApiKeyAuthOptions): MiddlewareHandler<{ Variables: ApiKeyVariables }> {
  const { store, header = 'X-API-KEY' } = options
  if (!store || typeof store.findApiKey !== 'function') throw new InvalidParameterError({ parameter: 'store', reason: 'apiKeyAuth needs a store with findApiKey.' })
  if (typeof header !== 'string' || !header.trim()) throw new InvalidParameterError({ parameter: 'header', reason: 'apiKeyAuth needs a non-empty header name.' })
  const challenge = `ApiKey header="${header}"`
  return async (c, next) => {
    const presented = c.req.header(header)
    const apiKey = presented ? store.findApiKey(presented) : undefined
    if (!apiKey) throw new HttpError(401, invalidApiKeyDetail, { 'WWW-Authenticate': challenge })
    c.set('apiKey', apiKey)
    await next()
  }
}
