/** A4 of the passport API: the metadata of every stamp. */
import { stampMetadataListResponseSchema, type StampMetadataList } from '../../schemas/passport.js'
import type { PassportContext } from './context.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getStampMetadata} (all optional). */
export type GetStampMetadataParameters = { signal?: AbortSignal | undefined }
/** Every stamp platform with its groups of stamps. */
export type GetStampMetadataReturnType = StampMetadataList

/** What {@link getStampMetadata} throws (see its `@throws`). */
export type GetStampMetadataErrorType = RequestErrorType

/**
 * Reads the metadata of every available stamp (A4, `GET /v2/stamps/metadata`).
 *
 * @param client A {@link PassportContext} (a {@link PassportClient} is one).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createPassportClient, getStampMetadata } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const platforms = await getStampMetadata(client)
 */
export async function getStampMetadata(
  client: PassportContext,
  { signal }: GetStampMetadataParameters = {},
): Promise<GetStampMetadataReturnType> {
  const { data } = await client.transport.request({
    method: 'GET',
    path: '/v2/stamps/metadata',
    schema: stampMetadataListResponseSchema,
    rateLimiter: client.rateLimiters?.scoring,
    signal,
  })
  return data
}
