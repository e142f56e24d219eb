/** D7 of the stamp cache: the cached score of an address, optionally from an alternate scorer. */
import { internalScoreSchema, type InternalScore } from '../../schemas/stamp-cache.js'
import { normalizeAddress } from '../../utils/address.js'
import { checkScoreAddress, checkScorerId, requireAccessToken, type StampCacheContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getStampCacheScore}. */
export type GetStampCacheScoreParameters = {
  address: string
  /** Selects an alternate scorer (a non-negative integer). */
  alternateScorerId?: number | undefined
  signal?: AbortSignal | undefined
}

/** What {@link getStampCacheScore} returns: the address's cached score record. */
export type GetStampCacheScoreReturnType = InternalScore

/** What {@link getStampCacheScore} throws (see its `@throws`). */
export type GetStampCacheScoreErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads the cached score of an address (D7, `GET /stamp-cache/score/{address}`), optionally from
 * an alternate scorer.
 *
 * @throws {InvalidParameterError} before any request: no bearer token or a bad `alternateScorerId`.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {ResponseValidationError} when the record is malformed or is the score of another address.
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { getStampCacheScore } from 'personhood'
 * const { score, passing_score } = await getStampCacheScore(cache, { address })
 */
export async function getStampCacheScore(client: StampCacheContext, parameters: GetStampCacheScoreParameters): Promise<GetStampCacheScoreReturnType> {
  requireAccessToken(client, 'getScore')
  const address = normalizeAddress(parameters.address)
  const alternateScorerId = checkScorerId(parameters.alternateScorerId)
  const path = `/stamp-cache/score/${address}`
  const query = { alternate_scorer_id: alternateScorerId }
  const { data } = await client.transport.request({ method: 'GET', path, query, schema: internalScoreSchema, signal: parameters.signal })
  checkScoreAddress(data, address, 'GET', client.transport.buildUrl(path, query))
  return data
}
