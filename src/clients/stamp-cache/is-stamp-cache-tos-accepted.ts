/** D10 of the stamp cache: whether an address has accepted the terms of service. */
import { tosAcceptedSchema } from '../../schemas/stamp-cache.js'
import { checkTosTarget, requireAccessToken, type StampCacheContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link isStampCacheTosAccepted}. */
export type IsStampCacheTosAcceptedParameters = {
  address: string
  /** Letters, digits, `_` or `-`. Default `IST`, the one type in use. */
  tosType?: string | undefined
  signal?: AbortSignal | undefined
}

/** What {@link isStampCacheTosAccepted} returns: whether the address has accepted the terms. */
export type IsStampCacheTosAcceptedReturnType = boolean

/** What {@link isStampCacheTosAccepted} throws (see its `@throws`). */
export type IsStampCacheTosAcceptedErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Tells whether an address has accepted the terms of service (D10,
 * `GET /stamp-cache/tos/accepted/{tos_type}/{address}`).
 *
 * @throws {InvalidParameterError} before any request: no bearer token or a bad `tosType`.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {InvalidRequestError} (400 `{ detail }`) and other {@link HttpRequestError}s as the server answers.
 * @example
 * import { isStampCacheTosAccepted } from 'personhood'
 * if (!(await isStampCacheTosAccepted(cache, { address }))) await cache.signAndAcceptTos({ account })
 */
export async function isStampCacheTosAccepted(client: StampCacheContext, parameters: IsStampCacheTosAcceptedParameters): Promise<IsStampCacheTosAcceptedReturnType> {
  requireAccessToken(client, 'isTosAccepted')
  const { address, tosType } = checkTosTarget(parameters)
  const { data } = await client.transport.request({
    method: 'GET',
    path: `/stamp-cache/tos/accepted/${tosType}/${address}`,
    schema: tosAcceptedSchema,
    signal: parameters.signal,
  })
  return data.accepted
}
