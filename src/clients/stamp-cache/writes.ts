/** Bulk writes of the stamp cache (D1-D4): cache, replace and delete stamps, set their save status. */
import type { z } from 'zod'
import { InvalidParameterError } from '../../errors/index.js'
import {
  cacheStampPayloadSchema,
  deleteStampPayloadSchema,
  maxBulkStamps,
  saveStatusPayloadSchema,
  saveStatusResponseSchema,
  stampsResponseSchema,
  stampsWithScoreResponseSchema,
  type SaveStatus,
  type StampsResponse,
  type StampsWithScoreResponse,
} from '../../schemas/stamp-cache.js'
import { normalizeAddress } from '../../utils/address.js'
import { requireAccessToken, type StampCacheContext, type StampCacheRequestOptions } from './context.js'

/** A stamp to cache (D1, D2): `provider`, optional `address`, and `stamp` (any JSON; absent in a D2 item means delete). */
export type CacheStampInput = { provider: string; address?: string | null | undefined; stamp?: unknown }
/** A stamp to delete (D3): `provider` and an optional `address`. Other keys are dropped. */
export type DeleteStampInput = { provider: string; address?: string | null | undefined }
/** A save-status update (D4). */
export type SaveStatusInput = { id: number; store_save_status: SaveStatus; store_stream_id?: string | null | undefined }

/**
 * Caches stamps (D1, `POST /stamp-cache/stamps/bulk`, 201) for the signed-in address, and returns
 * its stamps and score. Not repeated after a 5xx or a timeout (the write may have happened).
 *
 * @param stamps At most 100 items, each with a `provider` and a JSON `stamp`.
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 stamps, or a malformed item.
 * @throws {AuthenticationError} (401) when the server refuses the token; other {@link HttpRequestError}s as the server answers.
 * @example
 * import { addCachedStamps } from 'personhood'
 * const { score } = await addCachedStamps(cache, [{ provider: 'Google', stamp: credential }])
 */
export async function addCachedStamps(
  client: StampCacheContext,
  stamps: readonly CacheStampInput[],
  { signal }: StampCacheRequestOptions = {},
): Promise<StampsWithScoreResponse> {
  requireAccessToken(client, 'addStamps')
  const body = checkBulk(stamps, 'stamps', cacheStampPayloadSchema)
  const { data } = await client.transport.request({
    method: 'POST',
    path: '/stamp-cache/stamps/bulk',
    body,
    schema: stampsWithScoreResponseSchema,
    signal,
  })
  return data
}

/**
 * Replaces stamps (D2, `PATCH /stamp-cache/stamps/bulk`): an item with a `stamp` replaces that
 * provider's stamp, an item without one deletes it. Not repeated after a 5xx or a timeout.
 *
 * @param stamps At most 100 items.
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 stamps, or a malformed item.
 * @throws {AuthenticationError} (401) and other {@link HttpRequestError}s as the server answers.
 * @example
 * import { updateCachedStamps } from 'personhood'
 * await updateCachedStamps(cache, [{ provider: 'Google', stamp: renewed }, { provider: 'Discord' }])
 */
export async function updateCachedStamps(
  client: StampCacheContext,
  stamps: readonly CacheStampInput[],
  { signal }: StampCacheRequestOptions = {},
): Promise<StampsWithScoreResponse> {
  requireAccessToken(client, 'updateStamps')
  const body = checkBulk(stamps, 'stamps', cacheStampPayloadSchema)
  const { data } = await client.transport.request({
    method: 'PATCH',
    path: '/stamp-cache/stamps/bulk',
    body,
    schema: stampsWithScoreResponseSchema,
    signal,
  })
  return data
}

/**
 * Deletes stamps by provider (D3, `DELETE /stamp-cache/stamps/bulk`) and returns the stamps left.
 * Deleting nothing is a 404 ({@link NotFoundError}). Not repeated after a 5xx or a timeout.
 *
 * @param stamps At most 100 `{ provider, address? }` items.
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 stamps, or a malformed item.
 * @throws {NotFoundError} when none of the stamps existed; other {@link HttpRequestError}s as the server answers.
 * @example
 * import { deleteCachedStamps } from 'personhood'
 * await deleteCachedStamps(cache, [{ provider: 'Google' }])
 */
export async function deleteCachedStamps(
  client: StampCacheContext,
  stamps: readonly DeleteStampInput[],
  { signal }: StampCacheRequestOptions = {},
): Promise<StampsResponse> {
  requireAccessToken(client, 'deleteStamps')
  const body = checkBulk(stamps, 'stamps', deleteStampPayloadSchema)
  const { data } = await client.transport.request({
    method: 'DELETE',
    path: '/stamp-cache/stamps/bulk',
    body,
    schema: stampsResponseSchema,
    signal,
  })
  return data
}

/** The ids whose save status was updated. */
export type UpdateCachedStampSaveStatusReturnType = { updated: number[] }

/**
 * Sets the save status of cached stamps (D4, `PATCH /stamp-cache/stamps/bulk/meta/store-db`).
 * Setting a status twice gives the same state, so this write is retried like a read.
 *
 * @param items `{ id, store_save_status: 'pending' | 'saved' | 'failed', store_stream_id? }`, at most 100.
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 items, or a malformed item.
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { updateCachedStampSaveStatus } from 'personhood'
 * const { updated } = await updateCachedStampSaveStatus(cache, [{ id: 7, store_save_status: 'saved' }])
 */
export async function updateCachedStampSaveStatus(
  client: StampCacheContext,
  items: readonly SaveStatusInput[],
  { signal }: StampCacheRequestOptions = {},
): Promise<UpdateCachedStampSaveStatusReturnType> {
  requireAccessToken(client, 'updateSaveStatus')
  const body = checkBulk(items, 'items', saveStatusPayloadSchema)
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

function checkBulk<S extends z.ZodType>(items: unknown, name: string, schema: S): z.output<S>[] {
  if (!Array.isArray(items)) throw new InvalidParameterError({ parameter: name, reason: 'Expected an array.' })
  if (items.length > maxBulkStamps) {
    throw new InvalidParameterError({
      parameter: name,
      reason: `At most ${maxBulkStamps} items per call, got ${items.length}: split them into several calls.`,
    })
  }
  return items.map((item: unknown, index) => {
    const parsed = schema.safeParse(item)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue?.path.length ? `.${issue.path.map(String).join('.')}` : ''
      throw new InvalidParameterError({ parameter: `${name}[${index}]${where}`, reason: issue?.message ?? 'Invalid item.' })
    }
    const output = parsed.data as z.output<S> & { address?: string | null }
    if (typeof output.address === 'string') {
      return { ...output, address: normalizeAddress(output.address, `${name}[${index}].address`) }
    }
    return output
  })
}
