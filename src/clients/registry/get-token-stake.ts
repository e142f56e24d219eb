/** C7 of the registry (deprecated): an address's token stakes in a round. */
import { InvalidParameterError } from '../../errors/input.js'
import { registryStakeRecordSchema, type RegistryStakeRecord } from '../../schemas/registry.js'
import { normalizeAddress } from '../../utils/address.js'
import { pathSegment } from '../shared.js'
import { checkTokenStakePath, defaultTokenStakePath, type RegistryContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getTokenStake}. */
export type GetTokenStakeParameters = {
  address: string
  /** The round: a non-negative integer or a non-empty string. */
  roundId: number | string
  signal?: AbortSignal | undefined
}
/** `{ users: [{ stakes, xstakeAggregates }] }`: self stakes and community stakes per round. */
export type GetTokenStakeReturnType = RegistryStakeRecord

/** What {@link getTokenStake} throws (see its `@throws`). */
export type GetTokenStakeErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads the token stakes of an address in a round (C7, deprecated; `GET {tokenStakePath}/{address}/{round_id}`).
 * The path comes from the context: the spec's `/registry/token-stake` by default, the public
 * service's `/registry/gtc-stake` when configured.
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters `address` and `roundId`.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} on a bad `roundId` or `tokenStakePath` (no request is sent).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY!, tokenStakePath: '/registry/gtc-stake' })
 * const { users } = await registry.getTokenStake({ address: '0x52908400098527886e0f7030069857d2e4169ee7', roundId: 1 })
 */
export async function getTokenStake(
  client: RegistryContext,
  { address, roundId, signal }: GetTokenStakeParameters,
): Promise<GetTokenStakeReturnType> {
  const normalized = normalizeAddress(address)
  const validRound =
    (typeof roundId === 'number' && Number.isSafeInteger(roundId) && roundId >= 0) ||
    (typeof roundId === 'string' && roundId.trim() !== '')
  if (!validRound) {
    throw new InvalidParameterError({ parameter: 'roundId', reason: 'Expected a non-negative integer or a non-empty string.' })
  }
  const basePath = checkTokenStakePath(client.tokenStakePath ?? defaultTokenStakePath)
  const { data } = await client.transport.request({
    method: 'GET',
    path: `${basePath}/${normalized}/${pathSegment(roundId)}`,
    schema: registryStakeRecordSchema,
    rateLimiter: client.rateLimiter,
    signal,
  })
  return data
}
