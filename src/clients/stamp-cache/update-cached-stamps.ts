/** D2 of the stamp cache: replaces (or, without a stamp, deletes) stamps of the signed-in address. */
import { cacheStampPayloadSchema, stampsWithScoreResponseSchema, type StampsWithScoreResponse } from '../../schemas/stamp-cache.js'
import { checkBulk, requireAccessToken, type CacheStampInput, type StampCacheContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link updateCachedStamps}. */
export type UpdateCachedStampsParameters = {
  /** At most 100 items; an item without `stamp` deletes that provider's stamp. */
  stamps: readonly CacheStampInput[]
  signal?: AbortSignal | undefined
}

/** What {@link updateCachedStamps} returns: the address's stamps and score after the call. */
export type UpdateCachedStampsReturnType = StampsWithScoreResponse

/** What {@link updateCachedStamps} throws (see its `@throws`). */
export type UpdateCachedStampsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Replaces stamps (D2, `PATCH /stamp-cache/stamps/bulk`): an item with a `stamp` replaces that
 * provider's stamp, an item without one deletes it. Not repeated after a 5xx or a timeout.
 *
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 stamps, or a malformed item.
 * @throws {AuthenticationError} (401) and other {@link HttpRequestError}s as the server answers.
 * @example
 * import { updateCachedStamps } from 'personhood'
 * await updateCachedStamps(cache, { stamps: [{ provider: 'Google', stamp: renewed }, { provider: 'Discord' }] })
 */
export async function updateCachedStamps(client: StampCacheContext, parameters: UpdateCachedStampsParameters): Promise<UpdateCachedStampsReturnType> {
  requireAccessToken(client, 'updateStamps')
  const { body, signal } = checkBulk(parameters, 'stamps', cacheStampPayloadSchema)
  const { data } = await client.transport.request({
    method: 'PATCH',
    path: '/stamp-cache/stamps/bulk',
    body,
    schema: stampsWithScoreResponseSchema,
    signal,
  })
  return data
}
