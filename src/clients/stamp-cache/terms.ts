/** Terms of service of the stamp cache (D10-D12): whether accepted, the text to sign, the signed acceptance. */
import type { Address, Hex } from 'viem'
import { InvalidParameterError } from '../../errors/index.js'
import { tosAcceptedSchema, tosToSignSchema } from '../../schemas/stamp-cache.js'
import { normalizeAddress } from '../../utils/address.js'
import { checkSigner, requireAccessToken, type StampCacheContext, type StampCacheSigner } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** The one terms-of-service type in use (docs/interface.md §3). */
export const defaultTosType = 'IST'

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

/** Parameters of {@link signAndAcceptStampCacheTos}. */
export type SignAndAcceptStampCacheTosParameters = {
  /** The signer; its address is the one that accepts. */
  account: StampCacheSigner
  tosType?: string | undefined
  signal?: AbortSignal | undefined
}

/** What {@link signAndAcceptStampCacheTos} returns: the text signed, its nonce and the signature sent. */
export type SignAndAcceptStampCacheTosReturnType = { text: string; nonce: string; signature: Hex }

/** What {@link signAndAcceptStampCacheTos} throws (see its `@throws`). */
export type SignAndAcceptStampCacheTosErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Accepts the terms of service in one call: reads the text to sign (D11), has `account` sign it
 * (EIP-191) and sends the signature (D12).
 *
 * @throws {InvalidParameterError} before any request: no bearer token, a bad account or `tosType`.
 * @throws {HttpRequestError} and subclasses as the server answers D11 or D12. Errors of `account.signMessage` propagate as they are.
 * @example
 * import { signAndAcceptStampCacheTos } from 'personhood'
 * import { privateKeyToAccount } from 'viem/accounts'
 * await signAndAcceptStampCacheTos(cache, { account: privateKeyToAccount(key) })
 */
export async function signAndAcceptStampCacheTos(
  client: StampCacheContext,
  parameters: SignAndAcceptStampCacheTosParameters,
): Promise<SignAndAcceptStampCacheTosReturnType> {
  requireAccessToken(client, 'signAndAcceptTos')
  const address = checkSigner(parameters.account)
  const tosType = parameters.tosType ?? defaultTosType
  const { signal } = parameters
  const { text, nonce } = await getStampCacheTosMessage(client, { address, tosType, signal })
  const signature = await parameters.account.signMessage({ message: text })
  await acceptStampCacheTos(client, { address, tosType, nonce, signature, signal })
  return { text, nonce, signature }
}

function checkTosTarget(parameters: { address: string; tosType?: string | undefined }): { address: Address; tosType: string } {
  const address = normalizeAddress(parameters.address)
  const tosType = parameters.tosType ?? defaultTosType
  // Letters, digits, _ and - only: the value is a path segment ("..", "/" or "?" would change the URL).
  if (typeof tosType !== 'string' || !/^[A-Za-z0-9_-]+$/.test(tosType)) {
    throw new InvalidParameterError({ parameter: 'tosType', reason: `Expected letters, digits, _ or - (such as "${defaultTosType}").` })
  }
  return { address, tosType }
}
