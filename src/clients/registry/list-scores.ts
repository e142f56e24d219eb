/** C4 of the registry, one page: the scores of a scorer. */
import { registryScorePageResponseSchema, type RegistryScorePage } from '../../schemas/registry.js'
import { normalizeAddress } from '../../utils/address.js'
import { parseInteger, parsePositiveIntegerId } from '../../utils/parse.js'
import { responseValidationError, toIsoTimestamp } from '../shared.js'
import type { RegistryContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** The filters of {@link listScores} and {@link iterateScores}. */
export type ScoreFilters = {
  scorerId: number | string
  /** Only scores calculated after this moment (a Date or an ISO 8601 string). */
  lastScoreTimestampGt?: Date | string | undefined
  /** Only scores calculated at or after this moment (a Date or an ISO 8601 string). */
  lastScoreTimestampGte?: Date | string | undefined
  /**
   * Only the score of this address (sent in lower case): one record, or none when the scorer never
   * scored it. An answer that holds another address's record is refused (a server that ignores the
   * filter would otherwise pass another address's score for this one).
   */
  address?: string | undefined
  signal?: AbortSignal | undefined
}
/** Parameters of {@link listScores}. */
export type ListScoresParameters = ScoreFilters & {
  /** Page size, a positive integer. Server default when omitted. */
  limit?: number | undefined
  /** Start position, a non-negative integer. Default 0 (not sent). */
  offset?: number | undefined
}
/** `{ items, count }`: one page of score records and the number of records matching the filters. */
export type ListScoresReturnType = RegistryScorePage

/** The C4 query of the filters (checked: timestamps and address), in both spellings. */
export function scoreFilterQuery({ lastScoreTimestampGt, lastScoreTimestampGte, address }: ScoreFilters) {
  const gt = lastScoreTimestampGt === undefined ? undefined : toIsoTimestamp(lastScoreTimestampGt, 'lastScoreTimestampGt')
  const gte =
    lastScoreTimestampGte === undefined ? undefined : toIsoTimestamp(lastScoreTimestampGte, 'lastScoreTimestampGte')
  // The spec spells the filters with one underscore, the public service with two (Django lookups);
  // each ignores the other's spelling, so both are sent with the same value.
  return {
    last_score_timestamp_gt: gt,
    last_score_timestamp__gt: gt,
    last_score_timestamp_gte: gte,
    last_score_timestamp__gte: gte,
    address: address === undefined ? undefined : normalizeAddress(address),
  }
}

/** What {@link listScores} throws (see its `@throws`). */
export type ListScoresErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads one page of the scores submitted to a scorer (C4, `GET /registry/score/{scorer_id}`).
 * The timestamp filters are sent in both spellings: the spec's `last_score_timestamp_gt` / `_gte`
 * and the public service's `last_score_timestamp__gt` / `__gte`, with the same value. With `address`,
 * the page holds that address's one record or nothing (the public service's `address` filter).
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters `scorerId`, optional `lastScoreTimestampGt`, `lastScoreTimestampGte`, `address`, `limit`, `offset`.
 * @throws {InvalidParameterError} on a bad `scorerId`, timestamp, `limit` or `offset` (no request is sent).
 * @throws {InvalidAddressError} on a malformed `address` (no request is sent).
 * @throws {ResponseValidationError} when an answer filtered by `address` holds another address's record.
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient, listScores } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { items, count } = await listScores(registry, { scorerId: 335, lastScoreTimestampGte: '2024-10-01', limit: 100 })
 */
export async function listScores(client: RegistryContext, parameters: ListScoresParameters): Promise<ListScoresReturnType> {
  const id = parsePositiveIntegerId(parameters.scorerId, 'scorerId')
  const filters = scoreFilterQuery(parameters)
  const { limit, offset, signal } = parameters
  if (limit !== undefined) parseInteger(limit, 'limit', { min: 1 })
  if (offset !== undefined) parseInteger(offset, 'offset', { min: 0 })
  const request = { method: 'GET', path: `/registry/score/${id}`, query: { ...filters, limit, offset } } as const
  const { data } = await client.transport.request({ ...request, schema: registryScorePageResponseSchema, rateLimiter: client.rateLimiter, signal })
  const wanted = filters.address
  const stranger = wanted === undefined ? -1 : data.items.findIndex((item) => item.address.toLowerCase() !== wanted)
  if (stranger !== -1) {
    throw responseValidationError(client.transport, request, [
      { path: ['items', stranger, 'address'], message: `Expected only the score of ${wanted}, received one of ${data.items[stranger]?.address}` },
    ])
  }
  return data
}
