/** A2 of the passport API: the score an address had at a moment. */
import { v2ScoreHistoryResponseSchema, type V2ScoreHistory } from '../../schemas/passport.js'
import { normalizeAddress } from '../../utils/address.js'
import { parsePositiveIntegerId } from '../../utils/parse.js'
import { checkAnsweredAddress, checkPassingScore, toIsoTimestamp } from '../shared.js'
import type { PassportContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getScoreHistory}. */
export type GetScoreHistoryParameters = {
  scorerId: number | string
  address: string
  /**
   * The moment to look back to: a Date (sent as `toISOString()`), a date-only `YYYY-MM-DD` string
   * (midnight UTC, sent as given) or an ISO 8601 date-time string (sent as `toISOString()`; without
   * an offset it is read as UTC).
   */
  createdAt: Date | string
  signal?: AbortSignal | undefined
}
/** `{ items }`: the latest score at or before `createdAt` (one record), whichever shape the server sent. */
export type GetScoreHistoryReturnType = V2ScoreHistory

/** What {@link getScoreHistory} throws (see its `@throws`). */
export type GetScoreHistoryErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads the score an address had at a moment (A2, `GET /v2/stamps/{scorer_id}/score/{address}/history`):
 * the latest score requested through A1 at or before `createdAt`. The spec answers `{ items: [...] }`
 * and the public service one bare score object; both come back as `{ items }`. Only allowlisted API
 * keys may use it.
 *
 * @param client A {@link PassportContext} (a {@link PassportClient} is one).
 * @param parameters `scorerId`, `address` and `createdAt`.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} on a bad `scorerId` or `createdAt` (no request is sent).
 * @throws {PermissionDeniedError} (403) when the API key is not allowlisted for history.
 * @throws {NotFoundError} (404) when there is no score at or before `createdAt`, or the scorer is unknown.
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails otherwise.
 * @example
 * import { createPassportClient, getScoreHistory } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { items } = await getScoreHistory(client, { scorerId: 335, address: '0x52908400098527886e0f7030069857d2e4169ee7', createdAt: '2024-10-26' })
 */
export async function getScoreHistory(
  client: PassportContext,
  { scorerId, address, createdAt, signal }: GetScoreHistoryParameters,
): Promise<GetScoreHistoryReturnType> {
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  const normalized = normalizeAddress(address)
  const createdAtText = toIsoTimestamp(createdAt, 'createdAt')
  const request = { method: 'GET', path: `/v2/stamps/${id}/score/${normalized}/history`, query: { created_at: createdAtText } } as const
  const { data } = await client.transport.request({
    ...request,
    schema: v2ScoreHistoryResponseSchema,
    rateLimiter: client.rateLimiters?.scoring,
    signal,
  })
  data.items.forEach((item, index) => {
    checkAnsweredAddress(client.transport, request, normalized, item.address, ['items', index, 'address'])
    checkPassingScore(client.transport, request, item, ['items', index])
  })
  return data
}
