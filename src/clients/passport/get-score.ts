/** A1 of the passport API: an address's current score for a scorer. */
import { v2ScoreResponseSchema, type V2Score } from '../../schemas/passport.js'
import { normalizeAddress } from '../../utils/address.js'
import { parsePositiveIntegerId } from '../../utils/parse.js'
import { checkAnsweredAddress, checkPassingScore } from '../shared.js'
import type { PassportContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getScore}. */
export type GetScoreParameters = {
  /** The scorer: a positive integer or a string of digits. */
  scorerId: number | string
  /** The wallet: 0x + 40 hex; mixed case must be a valid EIP-55 checksum. Sent in lower case. */
  address: string
  /** Aborts the request (and any wait for the rate limit). */
  signal?: AbortSignal | undefined
}
/** The score record of {@link getScore}: decimals as exact strings, `stamps` by name. */
export type GetScoreReturnType = V2Score

/** What {@link getScore} throws (see its `@throws`). */
export type GetScoreErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads the current score of an address for a scorer (A1, `GET /v2/stamps/{scorer_id}/score/{address}`).
 * The answer is normalized: the earlier revision's `pass` / `stamp_scores` become
 * `passing_score` / `stamps`, and absent nullable fields become null. A scoring failure is a
 * success with `error` set.
 *
 * @param client A {@link PassportContext} (a {@link PassportClient} is one).
 * @param parameters `scorerId` and `address`.
 * @throws {InvalidAddressError} when the address is malformed or its checksum is wrong (no request is sent).
 * @throws {InvalidParameterError} when `scorerId` is not a positive integer (no request is sent).
 * @throws {HttpRequestError} (and its subclasses), {@link TimeoutError}, {@link NetworkError},
 * {@link ResponseParseError} or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createPassportClient, getScore } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { score, passing_score } = await getScore(client, { scorerId: 335, address: '0x52908400098527886e0f7030069857d2e4169ee7' })
 */
export async function getScore(
  client: PassportContext,
  { scorerId, address, signal }: GetScoreParameters,
): Promise<GetScoreReturnType> {
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  const normalized = normalizeAddress(address)
  const request = { method: 'GET', path: `/v2/stamps/${id}/score/${normalized}` } as const
  const { data } = await client.transport.request({
    ...request,
    schema: v2ScoreResponseSchema,
    rateLimiter: client.rateLimiters?.scoring,
    signal,
  })
  checkAnsweredAddress(client.transport, request, normalized, data.address, ['address'])
  checkPassingScore(client.transport, request, data, [])
  return data
}
