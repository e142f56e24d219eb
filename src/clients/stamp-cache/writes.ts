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
import { requireAccessToken, type StampCacheContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** A stamp to cache (D1, D2): `provider`, optional `address`, and `stamp` (any JSON; absent in a D2 item means delete). */
export type CacheStampInput = { provider: string; address?: string | null | undefined; stamp?: unknown }
/** A stamp to delete (D3): `provider` and an optional `address`. Other keys are dropped. */
export type DeleteStampInput = { provider: string; address?: string | null | undefined }
/** A save-status update (D4). */
export type SaveStatusInput = { id: number; store_save_status: SaveStatus; store_stream_id?: string | null | undefined }

/** Parameters of {@link addCachedStamps}. */
export type AddCachedStampsParameters = {
  /** At most 100 items, each with a `provider` and a JSON `stamp`. */
  stamps: readonly CacheStampInput[]
  signal?: AbortSignal | undefined
}

/** What {@link addCachedStamps} returns: the address's stamps and score after the call. */
export type AddCachedStampsReturnType = StampsWithScoreResponse

/** What {@link addCachedStamps} throws (see its `@throws`). */
export type AddCachedStampsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Caches stamps (D1, `POST /stamp-cache/stamps/bulk`, 201) for the signed-in address, and returns
 * its stamps and score. Not repeated after a 5xx or a timeout (the write may have happened).
 *
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 stamps, or a malformed item.
 * @throws {AuthenticationError} (401) when the server refuses the token; other {@link HttpRequestError}s as the server answers.
 * @example
 * import { addCachedStamps } from 'personhood'
 * const { score } = await addCachedStamps(cache, { stamps: [{ provider: 'Google', stamp: credential }] })
 */
export async function addCachedStamps(client: StampCacheContext, parameters: AddCachedStampsParameters): Promise<AddCachedStampsReturnType> {
  requireAccessToken(client, 'addStamps')
  const { body, signal } = checkBulk(parameters, 'stamps', cacheStampPayloadSchema)
  const { data } = await client.transport.request({
    method: 'POST',
    path: '/stamp-cache/stamps/bulk',
    body,
    schema: stampsWithScoreResponseSchema,
    signal,
  })
  return data
}

/** Parameters of {@link updateCachedStamps}. */
export type UpdateCachedStampsParameters = {
  /** At most 100 items; an item without `stamp` deletes that provider's stamp. */
  stamps: readonly CacheStampInput[]
  signal?: AbortSignal | undefined
}

/** What {@link updateCachedStamps} returns: the address's stamps and score after the call. */
export type UpdateCachedStampsReturnType = StampsWithScoreResponse

/** What {@link updateCachedStamps} throws (see its `@throws`). */
export type UpdateCachedStampsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Replaces stamps (D2, `PATCH /stamp-cache/stamps/bulk`): an item with a `stamp` replaces that
 * provider's stamp, an item without one deletes it. Not repeated after a 5xx or a timeout.
 *
 * @throws {InvalidParameterError} before any request: no bearer token, more than 100 stamps, or a malformed item.
 * @throws {AuthenticationError} (401) and other {@link HttpRequestError}s as the server answers.
 * @example
 * import { updateCachedStamps } from 'personhood'
 * await updateCachedStamps(cache, { stamps: [{ provider: 'Google', stamp: renewed }, { provider: 'Discord' }] })
 */
export async function updateCachedStamps(client: StampCacheContext, parameters: UpdateCachedStampsParameters): Promise<UpdateCachedStampsReturnType> {
  requireAccessToken(client, 'updateStamps')
  const { body, signal } = checkBulk(parameters, 'stamps', cacheStampPayloadSchema)
  const { data } = await client.transport.request({
    method: 'PATCH',
    path: '/stamp-cache/stamps/bulk',
    body,
    schema: stampsWithScoreResponseSchema,
    signal,
  })
  return data
}

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

/**
 * Reads the items (`parameters[name]`) of a bulk call: an array of at most 100, each of `schema`,
 * addresses normalized; and the call's signal.
 */
function checkBulk<S extends z.ZodType>(
  parameters: unknown,
  name: 'stamps' | 'items',
  schema: S,
): { body: z.output<S>[]; signal: AbortSignal | undefined } {
  if (Array.isArray(parameters)) throw new InvalidParameterError({ parameter: name, reason: `Pass the items as { ${name}: [...] }.` })
  const { [name]: items, signal } = (parameters ?? {}) as { stamps?: unknown; items?: unknown; signal?: AbortSignal | undefined }
  if (!Array.isArray(items)) throw new InvalidParameterError({ parameter: name, reason: 'Expected an array.' })
  if (items.length > maxBulkStamps) {
    throw new InvalidParameterError({
      parameter: name,
      reason: `At most ${maxBulkStamps} items per call, got ${items.length}: split them into several calls.`,
    })
  }
  const body = items.map((item: unknown, index) => {
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
  return { body, signal }
}
