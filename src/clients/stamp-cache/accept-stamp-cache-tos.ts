/** D12 of the stamp cache: records the signed acceptance of the terms of service. */
import type { Hex } from 'viem'
import { InvalidParameterError } from '../../errors/index.js'
import { checkTosTarget, requireAccessToken, type StampCacheContext } from './context.js'
import type { IsStampCacheTosAcceptedParameters } from './is-stamp-cache-tos-accepted.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link acceptStampCacheTos}. */
export type AcceptStampCacheTosParameters = IsStampCacheTosAcceptedParameters & {
  /** The nonce of the message to sign (D11). */
  nonce: string
  /** The EIP-191 signature of the message text by `address` (0x-prefixed hex). */
  signature: Hex | string
}

/** What {@link acceptStampCacheTos} returns: nothing (the server answers without a body). */
export type AcceptStampCacheTosReturnType = void

/** What {@link acceptStampCacheTos} throws (see its `@throws`). */
export type AcceptStampCacheTosErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Records the acceptance of the terms of service (D12,
 * `POST /stamp-cache/tos/signed-message/{tos_type}/{address}` with `{ tos_type, nonce, signature }`;
 * the server answers 200 without a body). Not repeated after a 5xx or a timeout (the nonce is single use).
 *
 * @throws {InvalidParameterError} before any request: no bearer token, a bad `tosType`, an empty nonce or a non-hex signature.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {InvalidRequestError} (400: bad or reused nonce, wrong signature) and other {@link HttpRequestError}s.
 * @example
 * import { acceptStampCacheTos } from 'personhood'
 * await acceptStampCacheTos(cache, { address, nonce, signature: await account.signMessage({ message: text }) })
 */
export async function acceptStampCacheTos(client: StampCacheContext, parameters: AcceptStampCacheTosParameters): Promise<AcceptStampCacheTosReturnType> {
  requireAccessToken(client, 'acceptTos')
  const { address, tosType } = checkTosTarget(parameters)
  const { nonce, signature } = parameters
  if (typeof nonce !== 'string' || nonce === '') {
    throw new InvalidParameterError({ parameter: 'nonce', reason: 'Expected the non-empty nonce of the terms-of-service message (getTosMessage).' })
  }
  if (typeof signature !== 'string' || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) {
    throw new InvalidParameterError({ parameter: 'signature', reason: 'Expected a 0x-prefixed hex signature.' })
  }
  await client.transport.request({
    method: 'POST',
    path: `/stamp-cache/tos/signed-message/${tosType}/${address}`,
    body: { tos_type: tosType, nonce, signature },
    schema: null,
    signal: parameters.signal,
  })
}
