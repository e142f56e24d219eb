/** D4 of the stamp cache: sets the save status of cached stamps. */
import { saveStatusPayloadSchema, saveStatusResponseSchema, type SaveStatus } from '../../schemas/stamp-cache.js'
import { checkBulk, requireAccessToken, type StampCacheContext } from './context.js'
import type { InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** A save-status update (D4). */
export type SaveStatusInput = { id: number; store_save_status: SaveStatus; store_stream_id?: string | null | undefined }

/** Parameters of {@link updateCachedStampSaveStatus}. */
export type UpdateCachedStampSaveStatusParameters = {
  /** `{ id, store_save_status: 'pending' | 'saved' | 'failed', store_stream_id? }`, at most 100. */
  items: readonly SaveStatusInput[]
  signal?: AbortSignal | undefined
}

/** The ids whose save status was updated. */
export type UpdateCachedStampSaveStatusReturnType = { updated: number[] }

/** What {@link updateCachedStampSaveStatus} throws (see its `@throws`). */
export type UpdateCachedStampSaveStatusErrorType = InvalidParameterErrorType | RequestErrorType

/**
 * Sets the save status of cached stamps (D4, `PATCH /stamp-cache/stamps/bulk/meta/store-db`).
 * Setting a status twice gives the same state, so this write is retried like a read.
 *
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 items, or a malformed item.
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { updateCachedStampSaveStatus } from 'personhood'
 * const { updated } = await updateCachedStampSaveStatus(cache, { items: [{ id: 7, store_save_status: 'saved' }] })
 */
export async function updateCachedStampSaveStatus(
  client: StampCacheContext,
  parameters: UpdateCachedStampSaveStatusParameters,
): Promise<UpdateCachedStampSaveStatusReturnType> {
  requireAccessToken(client, 'updateSaveStatus')
  const { body, signal } = checkBulk(parameters, 'items', saveStatusPayloadSchema)
  const { data } = await client.transport.request({
    method: 'PATCH',
    path: '/stamp-cache/stamps/bulk/meta/store-db',
    body,
    schema: saveStatusResponseSchema,
    idempotent: true,
    signal,
  })
  return data
}
