/** C1 of the registry: the message to sign before a submit. */
import { signingMessageSchema, type SigningMessage } from '../../schemas/registry.js'
import type { RegistryContext } from './context.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getSigningMessage} (all optional). */
export type GetSigningMessageParameters = { signal?: AbortSignal | undefined }
/** `{ message, nonce }`: the text to sign before submitting, and its single-use nonce. */
export type GetSigningMessageReturnType = SigningMessage

/** What {@link getSigningMessage} throws (see its `@throws`). */
export type GetSigningMessageErrorType = RequestErrorType

/**
 * Reads a message to sign and its nonce (C1, `GET /registry/signing-message`), for scorers that
 * require a signature on submit.
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient, getSigningMessage } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { message, nonce } = await getSigningMessage(registry)
 */
export async function getSigningMessage(
  client: RegistryContext,
  { signal }: GetSigningMessageParameters = {},
): Promise<GetSigningMessageReturnType> {
  const { data } = await client.transport.request({
    method: 'GET',
    path: '/registry/signing-message',
    schema: signingMessageSchema,
    rateLimiter: client.rateLimiter,
    signal,
  })
  return data
}
