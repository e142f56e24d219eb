/** Reads of the stamp cache (D5-D9): weights, cached stamps, the score (read or recalculated), stakes. */
import type { Address } from 'viem'
import { ResponseValidationError } from '../../errors/index.js'
import {
  internalScoreSchema,
  scorerWeightsSchema,
  stakeResponseSchema,
  stampsResponseSchema,
  type InternalScore,
  type ScorerWeights,
  type StakeResponse,
  type StampsResponse,
} from '../../schemas/stamp-cache.js'
import { normalizeAddress } from '../../utils/address.js'
import { parseInteger } from '../../utils/parse.js'
import { requireAccessToken, type StampCacheContext, type StampCacheRequestOptions } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
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

/** Parameters of {@link getCachedStamps}. */
export type GetCachedStampsParameters = { address: string; signal?: AbortSignal | undefined }

/** What {@link getCachedStamps} returns: the address's cached stamps. */
export type GetCachedStampsReturnType = StampsResponse

/** What {@link getCachedStamps} throws (see its `@throws`). */
export type GetCachedStampsErrorType = InvalidAddressErrorType | RequestErrorType

/**
 * Reads the cached stamps of an address (D6, `GET /stamp-cache/stamp?address=`). Needs no token.
 *
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {ResponseValidationError} when the answer is malformed or holds a stamp of another address.
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { getCachedStamps } from 'personhood'
 * const { stamps } = await getCachedStamps(cache, { address: '0x52908400098527886E0F7030069857D2E4169EE7' })
 */
export async function getCachedStamps(client: StampCacheContext, parameters: GetCachedStampsParameters): Promise<GetCachedStampsReturnType> {
  const address = normalizeAddress(parameters.address)
  const query = { address }
  const { data } = await client.transport.request({
    method: 'GET',
    path: '/stamp-cache/stamp',
    query,
    schema: stampsResponseSchema,
    signal: parameters.signal,
  })
  const issues = data.stamps.flatMap((stamp, index) =>
    stamp.address.toLowerCase() === address
      ? []
      : [{ path: ['stamps', index, 'address'], message: `Expected a stamp of ${address}, got one of ${stamp.address}` }],
  )
  if (issues.length) {
    throw new ResponseValidationError({ method: 'GET', url: client.transport.buildUrl('/stamp-cache/stamp', query), issues })
  }
  return data
}

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

function checkScorerId(value: unknown): number | undefined {
  if (value === undefined) return undefined
  return parseInteger(value, 'alternateScorerId', { min: 0 })
}

function checkScoreAddress(score: InternalScore, address: Address, method: string, url: string): void {
  if (score.address.toLowerCase() !== address) {
    throw new ResponseValidationError({
      method,
      url,
      issues: [{ path: ['address'], message: `Expected the score of ${address}, got the score of ${score.address}` }],
    })
  }
}
