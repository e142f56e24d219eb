/** C5 of the registry, one page: an address's stamps. */
import { requestStampPage, type ListStampsParameters, type ListStampsReturnType } from '../stamp-pages.js'
import { stampPageContext, type RegistryContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'


/** Parameters of {@link listRegistryStamps}: as {@link listStamps}. */
export type ListRegistryStampsParameters = ListStampsParameters
/** One page of stamps; `next` and `prev` are bare page tokens (null at the ends). */
export type ListRegistryStampsReturnType = ListStampsReturnType

/** What {@link listRegistryStamps} throws (see its `@throws`). */
export type ListRegistryStampsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads one page of an address's stamps (C5, `GET /registry/stamps/{address}`). `next` and `prev`
 * come back as bare tokens; only the token is ever followed, never a link's host.
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters `address`, optional `includeMetadata`, `limit` (1-1,000) and `token`.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} on a `limit` out of range or an empty token (no request is sent).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient, listRegistryStamps } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const page = await listRegistryStamps(registry, { address: '0x52908400098527886e0f7030069857d2e4169ee7', includeMetadata: true })
 */
export function listRegistryStamps(
  client: RegistryContext,
  parameters: ListRegistryStampsParameters,
): Promise<ListRegistryStampsReturnType> {
  return requestStampPage(stampPageContext(client), '/registry/stamps', parameters)
}
