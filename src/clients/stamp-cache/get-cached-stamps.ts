/** D6 of the stamp cache: the cached stamps of an address. */
import { ResponseValidationError } from '../../errors/index.js'
import { stampsResponseSchema, type StampsResponse } from '../../schemas/stamp-cache.js'
import { normalizeAddress } from '../../utils/address.js'
import type { StampCacheContext } from './context.js'
import type { InvalidAddressErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

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
