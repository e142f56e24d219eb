/** D11 of the stamp cache: the terms-of-service text an address must sign. */
import { tosToSignSchema } from '../../schemas/stamp-cache.js'
import { checkTosTarget, requireAccessToken, type StampCacheContext } from './context.js'
import type { IsStampCacheTosAcceptedParameters } from './is-stamp-cache-tos-accepted.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getStampCacheTosMessage}. */
export type GetStampCacheTosMessageParameters = IsStampCacheTosAcceptedParameters

/** The terms-of-service text to sign (it ends in `Nonce: <nonce>`) and its nonce. */
export type GetStampCacheTosMessageReturnType = { text: string; nonce: string }

/** What {@link getStampCacheTosMessage} throws (see its `@throws`). */
export type GetStampCacheTosMessageErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads the terms-of-service text an address must sign (D11,
 * `GET /stamp-cache/tos/message-to-sign/{tos_type}/{address}`).
 *
 * @throws {InvalidParameterError} before any request: no bearer token or a bad `tosType`.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {InvalidRequestError} (400 `{ detail }`) and other {@link HttpRequestError}s as the server answers.
 * @example
 * import { getStampCacheTosMessage } from 'personhood'
 * const { text, nonce } = await getStampCacheTosMessage(cache, { address })
 */
export async function getStampCacheTosMessage(
  client: StampCacheContext,
  parameters: GetStampCacheTosMessageParameters,
): Promise<GetStampCacheTosMessageReturnType> {
  requireAccessToken(client, 'getTosMessage')
  const { address, tosType } = checkTosTarget(parameters)
  const { data } = await client.transport.request({
    method: 'GET',
    path: `/stamp-cache/tos/message-to-sign/${tosType}/${address}`,
    schema: tosToSignSchema,
    signal: parameters.signal,
  })
  return { text: data.text, nonce: data.nonce }
}
