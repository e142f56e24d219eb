/** C3 of the registry: one address's score. */
import { registryScoreItemsResponseSchema, type RegistryScore } from '../../schemas/registry.js'
import { normalizeAddress } from '../../utils/address.js'
import { parsePositiveIntegerId } from '../../utils/parse.js'
import { responseValidationError } from '../shared.js'
import type { RegistryContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getRegistryScore}. */
export type GetRegistryScoreParameters = {
  scorerId: number | string
  address: string
  signal?: AbortSignal | undefined
}
/** The one score record of the address (normalized: evidence decimals as strings, nulls for absent fields). */
export type GetRegistryScoreReturnType = RegistryScore

/** What {@link getRegistryScore} throws (see its `@throws`). */
export type GetRegistryScoreErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads the score of a submitted address (C3, `GET /registry/score/{scorer_id}/{address}`) and
 * returns its one record (the spec wraps it in `{ items: [...] }`; a bare record is accepted too).
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters `scorerId` and `address`.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} on a bad `scorerId` (no request is sent).
 * @throws {InvalidRequestError} (400) when the address was never submitted to the scorer.
 * @throws {ResponseValidationError} when the answer holds no record.
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError} or {@link ResponseParseError}
 * when the request fails otherwise.
 * @example
 * import { createRegistryClient, getRegistryScore } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { status, score } = await getRegistryScore(registry, { scorerId: 335, address: '0x52908400098527886e0f7030069857d2e4169ee7' })
 */
export async function getRegistryScore(
  client: RegistryContext,
  { scorerId, address, signal }: GetRegistryScoreParameters,
): Promise<GetRegistryScoreReturnType> {
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  const normalized = normalizeAddress(address)
  const request = { method: 'GET', path: `/registry/score/${id}/${normalized}` } as const
  const { data } = await client.transport.request({
    ...request,
    schema: registryScoreItemsResponseSchema,
    rateLimiter: client.rateLimiter,
    signal,
  })
  // Only the record of the address asked: a record about anyone else is never this address's score.
  const record = data.items.find((item) => item.address.toLowerCase() === normalized)
  if (record === undefined) {
    throw responseValidationError(client.transport, request, [
      {
        path: ['items'],
        message: data.items.length
          ? `Expected the score record of ${normalized}, received only ${data.items.map((item) => item.address.slice(0, 42)).join(', ')}`
          : 'Expected one score record, received an empty list',
      },
    ])
  }
  return record
}
