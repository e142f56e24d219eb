/** D3 of the stamp cache: deletes stamps by provider. */
import { deleteStampPayloadSchema, stampsResponseSchema, type StampsResponse } from '../../schemas/stamp-cache.js'
import { checkBulk, requireAccessToken, type StampCacheContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** A stamp to delete (D3): `provider` and an optional `address`. Other keys are dropped. */
export type DeleteStampInput = { provider: string; address?: string | null | undefined }

/** Parameters of {@link deleteCachedStamps}. */
export type DeleteCachedStampsParameters = {
  /** At most 100 `{ provider, address? }` items. */
  stamps: readonly DeleteStampInput[]
  signal?: AbortSignal | undefined
}

/** What {@link deleteCachedStamps} returns: the stamps left. */
export type DeleteCachedStampsReturnType = StampsResponse

/** What {@link deleteCachedStamps} throws (see its `@throws`). */
export type DeleteCachedStampsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Deletes stamps by provider (D3, `DELETE /stamp-cache/stamps/bulk`) and returns the stamps left.
 * Deleting nothing is a 404 ({@link NotFoundError}). Not repeated after a 5xx or a timeout.
 *
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 stamps, or a malformed item.
 * @throws {NotFoundError} when none of the stamps existed; other {@link HttpRequestError}s as the server answers.
 * @example
 * import { deleteCachedStamps } from 'personhood'
 * await deleteCachedStamps(cache, { stamps: [{ provider: 'Google' }] })
 */
export async function deleteCachedStamps(client: StampCacheContext, parameters: DeleteCachedStampsParameters): Promise<DeleteCachedStampsReturnType> {
  requireAccessToken(client, 'deleteStamps')
  const { body, signal } = checkBulk(parameters, 'stamps', deleteStampPayloadSchema)
  const { data } = await client.transport.request({
    method: 'DELETE',
    path: '/stamp-cache/stamps/bulk',
    body,
    schema: stampsResponseSchema,
    signal,
  })
  return data
}
