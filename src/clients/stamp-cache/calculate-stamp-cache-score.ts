/** D8 of the stamp cache: recalculates the score of an address. */
import { internalScoreSchema, type InternalScore } from '../../schemas/stamp-cache.js'
import { normalizeAddress } from '../../utils/address.js'
import { checkScoreAddress, checkScorerId, requireAccessToken, type StampCacheContext } from './context.js'
import type { GetStampCacheScoreParameters } from './get-stamp-cache-score.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link calculateStampCacheScore}. */
export type CalculateStampCacheScoreParameters = GetStampCacheScoreParameters

/** What {@link calculateStampCacheScore} returns: the recalculated score record. */
export type CalculateStampCacheScoreReturnType = InternalScore

/** What {@link calculateStampCacheScore} throws (see its `@throws`). */
export type CalculateStampCacheScoreErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Recalculates and returns the score of an address (D8, `POST /stamp-cache/score/{address}` with
 * `{ alternate_scorer_id? }`). Recalculating twice gives the same score, so it is retried like a read.
 *
 * @throws {InvalidParameterError} before any request: no bearer token or a bad `alternateScorerId`.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {ResponseValidationError} when the record is malformed or is the score of another address.
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { calculateStampCacheScore } from 'personhood'
 * const record = await calculateStampCacheScore(cache, { address, alternateScorerId: 7 })
 */
export async function calculateStampCacheScore(
  client: StampCacheContext,
  parameters: CalculateStampCacheScoreParameters,
): Promise<InternalScore> {
  requireAccessToken(client, 'calculateScore')
  const address = normalizeAddress(parameters.address)
  const alternateScorerId = checkScorerId(parameters.alternateScorerId)
  const path = `/stamp-cache/score/${address}`
  const { data } = await client.transport.request({
    method: 'POST',
    path,
    body: alternateScorerId === undefined ? {} : { alternate_scorer_id: alternateScorerId },
    schema: internalScoreSchema,
    idempotent: true,
    signal: parameters.signal,
  })
  checkScoreAddress(data, address, 'POST', client.transport.buildUrl(path))
  return data
}
