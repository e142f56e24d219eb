/** C6 of the registry: the metadata of every stamp. */
import { stampMetadataListResponseSchema } from '../../schemas/passport.js'
import type { GetStampMetadataParameters, GetStampMetadataReturnType } from '../passport/get-stamp-metadata.js'
import type { RegistryContext } from './context.js'
import type { RequestErrorType } from '../../http/transport.js'


/** Parameters of {@link getRegistryStampMetadata} (all optional). */
export type GetRegistryStampMetadataParameters = GetStampMetadataParameters
/** Every stamp platform with its groups of stamps. */
export type GetRegistryStampMetadataReturnType = GetStampMetadataReturnType

/** What {@link getRegistryStampMetadata} throws (see its `@throws`). */
export type GetRegistryStampMetadataErrorType = RequestErrorType

/**
 * Reads the metadata of every available stamp (C6, `GET /registry/stamp-metadata`).
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient, getRegistryStampMetadata } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const platforms = await getRegistryStampMetadata(registry)
 */
export async function getRegistryStampMetadata(
  client: RegistryContext,
  { signal }: GetRegistryStampMetadataParameters = {},
): Promise<GetRegistryStampMetadataReturnType> {
  const { data } = await client.transport.request({
    method: 'GET',
    path: '/registry/stamp-metadata',
    schema: stampMetadataListResponseSchema,
    rateLimiter: client.rateLimiter,
    signal,
  })
  return data
}
