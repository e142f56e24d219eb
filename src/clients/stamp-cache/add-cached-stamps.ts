/** D1 of the stamp cache: caches stamps for the signed-in address. */
import { cacheStampPayloadSchema, stampsWithScoreResponseSchema, type StampsWithScoreResponse } from '../../schemas/stamp-cache.js'
import { checkBulk, requireAccessToken, type CacheStampInput, type StampCacheContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link addCachedStamps}. */
export type AddCachedStampsParameters = {
  /** At most 100 items, each with a `provider` and a JSON `stamp`. */
  stamps: readonly CacheStampInput[]
  signal?: AbortSignal | undefined
}

/** What {@link addCachedStamps} returns: the address's stamps and score after the call. */
export type AddCachedStampsReturnType = StampsWithScoreResponse

/** What {@link addCachedStamps} throws (see its `@throws`). */
export type AddCachedStampsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Caches stamps (D1, `POST /stamp-cache/stamps/bulk`, 201) for the signed-in address, and returns
 * its stamps and score. Not repeated after a 5xx or a timeout (the write may have happened).
 *
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 stamps, or a malformed item.
 * @throws {AuthenticationError} (401) when the server refuses the token; other {@link HttpRequestError}s as the server answers.
 * @example
 * import { addCachedStamps } from 'personhood'
 * const { score } = await addCachedStamps(cache, { stamps: [{ provider: 'Google', stamp: credential }] })
 */
export async function addCachedStamps(client: StampCacheContext, parameters: AddCachedStampsParameters): Promise<AddCachedStampsReturnType> {
  requireAccessToken(client, 'addStamps')
  const { body, signal } = checkBulk(parameters, 'stamps', cacheStampPayloadSchema)
  const { data } = await client.transport.request({
    method: 'POST',
    path: '/stamp-cache/stamps/bulk',
    body,
    schema: stampsWithScoreResponseSchema,
    signal,
  })
  return data
}
