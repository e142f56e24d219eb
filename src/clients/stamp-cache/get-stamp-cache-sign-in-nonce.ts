/** The sign-in nonce the stamp cache's SIWE sign-in (D13) needs (`GET /account/nonce`, not in the spec). */
import { z } from 'zod'
import type { StampCacheContext, StampCacheRequestOptions } from './context.js'
import type { RequestErrorType } from '../../http/transport.js'

/**
 * Path of the sign-in nonce endpoint. It is not in the spec: the public scorer API serves it there,
 * and our reference server mirrors it (`GET /account/nonce` answering `{ nonce }`).
 */
export const signInNoncePath = '/account/nonce'

/** A fresh SIWE nonce from {@link getStampCacheSignInNonce}. */
export type GetStampCacheSignInNonceReturnType = { nonce: string }

const signInNonceSchema = z.object({
  nonce: z.string().regex(/^[a-zA-Z0-9]{8,}$/, 'Expected a SIWE nonce of at least 8 letters or digits'),
})

/** Parameters of {@link getStampCacheSignInNonce}. */
export type GetStampCacheSignInNonceParameters = StampCacheRequestOptions

/** What {@link getStampCacheSignInNonce} throws (see its `@throws`). */
export type GetStampCacheSignInNonceErrorType = RequestErrorType

/**
 * Asks the server for a fresh sign-in nonce: `GET /account/nonce` answering `{ nonce }`. Not in the
 * spec: the public scorer API serves it at this path and our reference server mirrors it.
 *
 * @throws {HttpRequestError} and subclasses when the server refuses; {@link ResponseValidationError}
 * when the nonce is not 8+ letters or digits (a SIWE message could not carry it).
 * @example
 * import { createStampCacheClient, getStampCacheSignInNonce } from 'personhood'
 * const { nonce } = await getStampCacheSignInNonce(createStampCacheClient({ baseUrl }))
 */
export async function getStampCacheSignInNonce(
  client: StampCacheContext,
  { signal }: GetStampCacheSignInNonceParameters = {},
): Promise<GetStampCacheSignInNonceReturnType> {
  const { data } = await client.transport.request({ method: 'GET', path: signInNoncePath, schema: signInNonceSchema, signal })
  return { nonce: data.nonce }
}
