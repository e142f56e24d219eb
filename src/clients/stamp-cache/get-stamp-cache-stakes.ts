/** D9 of the stamp cache: the signed-in address's token stakes. */
import { stakeResponseSchema, type StakeResponse } from '../../schemas/stamp-cache.js'
import { requireAccessToken, type StampCacheContext, type StampCacheRequestOptions } from './context.js'
import type { InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getStampCacheStakes}. */
export type GetStampCacheStakesParameters = StampCacheRequestOptions

/** What {@link getStampCacheStakes} returns: the signed-in address's stakes. */
export type GetStampCacheStakesReturnType = StakeResponse

/** What {@link getStampCacheStakes} throws (see its `@throws`). */
export type GetStampCacheStakesErrorType = InvalidParameterErrorType | RequestErrorType

/**
 * Reads the signed-in address's token stakes (D9, `GET /stamp-cache/stake/token`).
 *
 * @throws {InvalidParameterError} before any request when there is no bearer token.
 * @throws {InvalidRequestError} (400 `{ detail }`) and other {@link HttpRequestError}s as the server answers.
 * @example
 * import { getStampCacheStakes } from 'personhood'
 * const { items } = await getStampCacheStakes(cache)
 */
export async function getStampCacheStakes(client: StampCacheContext, { signal }: GetStampCacheStakesParameters = {}): Promise<GetStampCacheStakesReturnType> {
  requireAccessToken(client, 'getStakes')
  const { data } = await client.transport.request({ method: 'GET', path: '/stamp-cache/stake/token', schema: stakeResponseSchema, signal })
  return data
}
