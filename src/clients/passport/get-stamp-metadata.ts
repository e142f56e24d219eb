/** A4 of the passport API: the metadata of every stamp. */
import { stampMetadataListResponseSchema, type StampMetadataList } from '../../schemas/passport.js'
import type { PassportContext } from './context.js'

/** Parameters of {@link getStampMetadata} (all optional). */
export type GetStampMetadataParameters = { signal?: AbortSignal | undefined }
/** Every stamp platform with its groups of stamps. */
export type GetStampMetadataReturnType = StampMetadataList

/**
 * Reads the metadata of every available stamp (A4, `GET /v2/stamps/metadata`).
 *
 * @param context A {@link PassportContext} (a {@link PassportClient} is one).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createPassportClient, getStampMetadata } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const platforms = await getStampMetadata(client)
 */
export async function getStampMetadata(
  context: PassportContext,
  { signal }: GetStampMetadataParameters = {},
): Promise<GetStampMetadataReturnType> {
  const { data } = await context.transport.request({
    method: 'GET',
    path: '/v2/stamps/metadata',
    schema: stampMetadataListResponseSchema,
    rateLimiter: context.rateLimiters?.scoring,
    signal,
  })
  return data
}
