/** A3 of the passport API, one page: an address's stamps (the page logic, shared with C5, is in ../stamp-pages.ts). */
import { requestStampPage, type ListStampsParameters, type ListStampsReturnType } from '../stamp-pages.js'
import { stampPageContext, type PassportContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

export type { ListStampsParameters, ListStampsReturnType } from '../stamp-pages.js'

/** What {@link listStamps} throws (see its `@throws`). */
export type ListStampsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads one page of an address's stamps (A3, `GET /v2/stamps/{address}`), newest first. `next` and
 * `prev` are returned as bare tokens: the public service sends them inside absolute links, and only
 * the token is ever followed, never the link's host.
 *
 * @param client A {@link PassportContext} (a {@link PassportClient} is one).
 * @param parameters `address`, optional `includeMetadata`, `limit` (1-1,000) and `token`.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} on a `limit` out of range or an empty token (no request is sent).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createPassportClient, listStamps } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const page = await listStamps(client, { address: '0x52908400098527886e0f7030069857d2e4169ee7', limit: 100 })
 * const nextPage = page.next ? await listStamps(client, { address: '0x52908400098527886e0f7030069857d2e4169ee7', limit: 100, token: page.next }) : null
 */
export function listStamps(client: PassportContext, parameters: ListStampsParameters): Promise<ListStampsReturnType> {
  return requestStampPage(stampPageContext(client), '/v2/stamps', parameters)
}
