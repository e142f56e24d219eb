/** C1 of the registry: the message to sign before a submit. */
import { signingMessageSchema, type SigningMessage } from '../../schemas/registry.js'
import type { RegistryContext } from './context.js'

/** Parameters of {@link getSigningMessage} (all optional). */
export type GetSigningMessageParameters = { signal?: AbortSignal | undefined }
/** `{ message, nonce }`: the text to sign before submitting, and its single-use nonce. */
export type GetSigningMessageReturnType = SigningMessage

/**
 * Reads a message to sign and its nonce (C1, `GET /registry/signing-message`), for scorers that
 * require a signature on submit.
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient, getSigningMessage } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { message, nonce } = await getSigningMessage(registry)
 */
export async function getSigningMessage(
  context: RegistryContext,
  { signal }: GetSigningMessageParameters = {},
): Promise<GetSigningMessageReturnType> {
  const { data } = await context.transport.request({
    method: 'GET',
    path: '/registry/signing-message',
    schema: signingMessageSchema,
    rateLimiter: context.rateLimiter,
    signal,
  })
  return data
}
