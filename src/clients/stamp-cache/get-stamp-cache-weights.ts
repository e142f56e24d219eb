/** D5 of the stamp cache: the scorer's stamp weights. */
import { scorerWeightsSchema, type ScorerWeights } from '../../schemas/stamp-cache.js'
import type { StampCacheContext, StampCacheRequestOptions } from './context.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getStampCacheWeights}. */
export type GetStampCacheWeightsParameters = StampCacheRequestOptions

/** What {@link getStampCacheWeights} returns: stamp name to weight. */
export type GetStampCacheWeightsReturnType = ScorerWeights

/** What {@link getStampCacheWeights} throws (see its `@throws`). */
export type GetStampCacheWeightsErrorType = RequestErrorType

/**
 * Reads the scorer's stamp weights (D5, `GET /stamp-cache/weights`): stamp name to weight (weights
 * sent as decimal strings become numbers). Needs no token.
 *
 * @throws {HttpRequestError} and subclasses as the server answers; {@link ResponseValidationError} for a malformed map.
 * @example
 * import { getStampCacheWeights } from 'personhood'
 * const weights = await getStampCacheWeights(cache) // { Google: 0.525, ... }
 */
export async function getStampCacheWeights(client: StampCacheContext, { signal }: GetStampCacheWeightsParameters = {}): Promise<GetStampCacheWeightsReturnType> {
  const { data } = await client.transport.request({ method: 'GET', path: '/stamp-cache/weights', schema: scorerWeightsSchema, signal })
  return data
}
