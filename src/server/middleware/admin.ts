/**
 * Bearer-token guard of the admin API: `Authorization: Bearer <admin token>`, compared in constant
 * time. Otherwise 401 with `WWW-Authenticate: Bearer realm="admin"`.
 */
import type { MiddlewareHandler } from 'hono'
import { HttpError } from '../errors.js'
import { secretsEqual } from '../state/store.js'
import { InvalidParameterError } from '../../errors/input.js'

/** Options of {@link adminAuth}. */
export type AdminAuthOptions = {
  /** The token, read on each request (it lives in the state and may be replaced). */
  token: () => string
}

/**
 * Creates the admin guard.
 *
 * @throws {InvalidParameterError} at creation when `token` is not a function.
 * @example
 * app.use('/admin/*', adminAuth({ token: () => store.state.secrets.adminToken }))
 */
export function adminAuth(options: AdminAuthOptions): MiddlewareHandler {
  if (typeof options?.token !== 'function') throw new InvalidParameterError({ parameter: 'token', reason: 'adminAuth needs a function returning the admin token.' })
  return async (c, next) => {
    const header = c.req.header('Authorization') ?? ''
    const match = /^Bearer\s+(.+)$/i.exec(header)
    const expected = options.token()
    if (!match || !expected || !secretsEqual(match[1]!.trim(), expected)) {
      throw new HttpError(401, 'Invalid or missing admin token.', { 'WWW-Authenticate': 'Bearer realm="admin"' })
    }
    await next()
  }
}
