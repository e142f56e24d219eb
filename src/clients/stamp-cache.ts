/**
 * Client of interface D, the bearer-authenticated stamp cache (path prefix `/stamp-cache`): wallet
 * sign-in (SIWE, D13), bulk stamp writes (D1-D4), reads (D5-D9) and terms of service (D10-D12).
 */
import type { Address, Hex } from 'viem'
import { getAddress } from 'viem'
import { createSiweMessage, SiweInvalidMessageFieldError } from 'viem/siwe'
import { z } from 'zod'
import { InvalidParameterError, ResponseValidationError } from '../errors/index.js'
import { createTransport, type Transport, type TransportOptions } from '../http/transport.js'
import {
  accessTokenSchema,
  cacheStampPayloadSchema,
  deleteStampPayloadSchema,
  internalScoreSchema,
  maxBulkStamps,
  saveStatusPayloadSchema,
  saveStatusResponseSchema,
  scorerWeightsSchema,
  stakeResponseSchema,
  stampsResponseSchema,
  stampsWithScoreResponseSchema,
  tosAcceptedSchema,
  tosToSignSchema,
  type InternalScore,
  type SaveStatus,
  type ScorerWeights,
  type SiweMessage,
  type StakeResponse,
  type StampsResponse,
  type StampsWithScoreResponse,
} from '../schemas/stamp-cache.js'
import { normalizeAddress } from '../utils/address.js'
import { parseInteger, parsePositiveInteger } from '../utils/parse.js'
import { checkBaseUrl } from './shared.js'

// ---------------------------------------------------------------------------------------------
// Client and context
// ---------------------------------------------------------------------------------------------

/** The one terms-of-service type in use (docs/interface.md §3). */
export const defaultTosType = 'IST'

/**
 * Path of the sign-in nonce endpoint. It is not in the spec: the public scorer API serves it there,
 * and our reference server mirrors it (`GET /account/nonce` answering `{ nonce }`).
 */
export const signInNoncePath = '/account/nonce'

/** What {@link createStampCacheClient} accepts. */
export type CreateStampCacheClientParameters = TransportOptions & {
  /** Where the cache lives (the spec gives no host), e.g. `http://127.0.0.1:8787`; paths carry `/stamp-cache`. */
  baseUrl: string
  /** A bearer token from an earlier sign-in (D13). Without one, call `signIn` before the bearer endpoints. */
  accessToken?: string | undefined
}

/**
 * What the stamp-cache actions need: a transport and the bearer token store. A
 * {@link StampCacheClient} is one; pass it to the standalone actions (`getStampCacheScore(client, ...)`).
 */
export type StampCacheContext = {
  readonly transport: Transport
  /** The clock in milliseconds (the SIWE `issuedAt` default). */
  readonly now: () => number
  /** The bearer token later calls carry, or undefined before sign-in. */
  getAccessToken(): string | undefined
  /**
   * Sets (or, with undefined, clears) the bearer token later calls carry.
   *
   * @throws {InvalidParameterError} when the token is not a non-empty string without whitespace.
   */
  setAccessToken(token: string | undefined): void
}

/** A signer: a viem `LocalAccount` (`privateKeyToAccount(...)`) or any object with `address` and EIP-191 `signMessage`. */
export type StampCacheSigner = {
  address: Address | string
  signMessage(args: { message: string }): Promise<Hex>
}

/** The stamp-cache client: {@link StampCacheContext} plus every D action bound to it. */
export type StampCacheClient = StampCacheContext & {
  /** D13: see {@link signInToStampCache}. */
  signIn(parameters: SignInToStampCacheParameters): Promise<SignInToStampCacheReturnType>
  /** `GET /account/nonce` (not in the spec): see {@link getStampCacheSignInNonce}. */
  getSignInNonce(options?: StampCacheRequestOptions): Promise<GetStampCacheSignInNonceReturnType>
  /** D1: see {@link addCachedStamps}. */
  addStamps(stamps: readonly CacheStampInput[], options?: StampCacheRequestOptions): Promise<StampsWithScoreResponse>
  /** D2: see {@link updateCachedStamps}. */
  updateStamps(stamps: readonly CacheStampInput[], options?: StampCacheRequestOptions): Promise<StampsWithScoreResponse>
  /** D3: see {@link deleteCachedStamps}. */
  deleteStamps(stamps: readonly DeleteStampInput[], options?: StampCacheRequestOptions): Promise<StampsResponse>
  /** D4: see {@link updateCachedStampSaveStatus}. */
  updateSaveStatus(items: readonly SaveStatusInput[], options?: StampCacheRequestOptions): Promise<UpdateCachedStampSaveStatusReturnType>
  /** D5: see {@link getStampCacheWeights}. */
  getWeights(options?: StampCacheRequestOptions): Promise<ScorerWeights>
  /** D6: see {@link getCachedStamps}. */
  getStamps(parameters: GetCachedStampsParameters): Promise<StampsResponse>
  /** D7: see {@link getStampCacheScore}. */
  getScore(parameters: GetStampCacheScoreParameters): Promise<InternalScore>
  /** D8: see {@link calculateStampCacheScore}. */
  calculateScore(parameters: CalculateStampCacheScoreParameters): Promise<InternalScore>
  /** D9: see {@link getStampCacheStakes}. */
  getStakes(options?: StampCacheRequestOptions): Promise<StakeResponse>
  /** D10: see {@link isStampCacheTosAccepted}. */
  isTosAccepted(parameters: IsStampCacheTosAcceptedParameters): Promise<boolean>
  /** D11: see {@link getStampCacheTosMessage}. */
  getTosMessage(parameters: GetStampCacheTosMessageParameters): Promise<GetStampCacheTosMessageReturnType>
  /** D12: see {@link acceptStampCacheTos}. */
  acceptTos(parameters: AcceptStampCacheTosParameters): Promise<void>
  /** D11, sign, D12: see {@link signAndAcceptStampCacheTos}. */
  signAndAcceptTos(parameters: SignAndAcceptStampCacheTosParameters): Promise<SignAndAcceptStampCacheTosReturnType>
}

/** Options of the stamp-cache calls that take no other parameter. */
export type StampCacheRequestOptions = {
  /** Aborts the request. */
  signal?: AbortSignal | undefined
}

/**
 * Creates a client of the stamp cache (interface D). The bearer token (from `accessToken`, `signIn`
 * or `setAccessToken`) goes in `Authorization: Bearer <token>` and never appears in an error.
 * Reads and the idempotent writes (D4, D8) are retried; the other writes never are.
 *
 * @param config `baseUrl` (required: the spec names no host), an optional `accessToken`, and the
 * transport options (`fetch`, `timeoutMs`, `retry`, `concurrency`, `now`, `sleep`, `headers`).
 * @throws {InvalidParameterError} when `baseUrl` is not an http(s) URL or `accessToken` is malformed.
 * @example
 * import { createStampCacheClient } from 'personhood'
 * import { privateKeyToAccount } from 'viem/accounts'
 * const account = privateKeyToAccount(key)
 * const cache = createStampCacheClient({ baseUrl: 'http://127.0.0.1:8787' })
 * await cache.signIn({ account, domain: 'app.example.org', uri: 'https://app.example.org' })
 * const score = await cache.getScore({ address: account.address })
 */
export function createStampCacheClient(config: CreateStampCacheClientParameters): StampCacheClient {
  const { baseUrl, accessToken: initialToken, ...transportOptions } = config
  checkBaseUrl(baseUrl)
  let accessToken = initialToken === undefined ? undefined : checkAccessToken(initialToken)
  const transport = createTransport({
    ...transportOptions,
    baseUrl,
    authHeaders: (): Record<string, string> => (accessToken === undefined ? {} : { Authorization: `Bearer ${accessToken}` }),
    secrets: () => [accessToken],
  })
  const context: StampCacheContext = {
    transport,
    now: transportOptions.now ?? Date.now,
    getAccessToken: () => accessToken,
    setAccessToken: (token) => {
      accessToken = token === undefined ? undefined : checkAccessToken(token)
    },
  }
  return {
    ...context,
    signIn: (parameters) => signInToStampCache(context, parameters),
    getSignInNonce: (options) => getStampCacheSignInNonce(context, options),
    addStamps: (stamps, options) => addCachedStamps(context, stamps, options),
    updateStamps: (stamps, options) => updateCachedStamps(context, stamps, options),
    deleteStamps: (stamps, options) => deleteCachedStamps(context, stamps, options),
    updateSaveStatus: (items, options) => updateCachedStampSaveStatus(context, items, options),
    getWeights: (options) => getStampCacheWeights(context, options),
    getStamps: (parameters) => getCachedStamps(context, parameters),
    getScore: (parameters) => getStampCacheScore(context, parameters),
    calculateScore: (parameters) => calculateStampCacheScore(context, parameters),
    getStakes: (options) => getStampCacheStakes(context, options),
    isTosAccepted: (parameters) => isStampCacheTosAccepted(context, parameters),
    getTosMessage: (parameters) => getStampCacheTosMessage(context, parameters),
    acceptTos: (parameters) => acceptStampCacheTos(context, parameters),
    signAndAcceptTos: (parameters) => signAndAcceptStampCacheTos(context, parameters),
  }
}

// ---------------------------------------------------------------------------------------------
// D13 sign-in
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link signInToStampCache}: the signer and the EIP-4361 fields. */
export type SignInToStampCacheParameters = {
  /** Who signs in: a viem local account or any `{ address, signMessage }`. */
  account: StampCacheSigner
  /** The RFC 3986 authority asking for the sign-in (`app.example.org`); the server must allow it. */
  domain: string
  /** The RFC 3986 URI of the resource the sign-in is for (`https://app.example.org/login`). */
  uri: string
  /** A fresh nonce (8+ letters or digits, single use). Default: one from {@link getStampCacheSignInNonce}. */
  nonce?: string | undefined
  /** The EIP-155 chain id of the session. Default 1 (the token's `did` names chain 1). */
  chainId?: number | undefined
  /** A one-line statement shown to the user. */
  statement?: string | undefined
  /** Default: the client's `now()`. */
  issuedAt?: Date | undefined
  expirationTime?: Date | undefined
  notBefore?: Date | undefined
  requestId?: string | undefined
  resources?: string[] | undefined
  signal?: AbortSignal | undefined
}

/** What {@link signInToStampCache} returns: the token, and the message and signature that were sent. */
export type SignInToStampCacheReturnType = {
  /** The JWT the client now sends as its bearer token. */
  accessToken: string
  supportUserHash?: string | null | undefined
  /** The SIWE message as sent: the object whose EIP-4361 text (`createSiweMessage`) was signed. */
  message: SiweMessage
  /** The EIP-191 signature of the message text. */
  signature: Hex
}

/**
 * Signs in with Ethereum (D13, `POST /stamp-cache/authenticate/v2`): builds an EIP-4361 message,
 * has `account` sign its text (EIP-191), sends `{ message, signature }` and keeps the returned token
 * for the later calls of this client.
 *
 * @throws {InvalidParameterError} for a bad account, domain, uri, nonce, chain id or date (before signing).
 * @throws {InvalidAddressError} when the account's address is malformed.
 * @throws {AuthenticationError} (401), {@link InvalidRequestError} (400/422) when the server refuses the sign-in.
 * @throws {ResponseValidationError} when the answer has no `access` token. Errors of `account.signMessage` propagate as they are.
 * @example
 * import { createStampCacheClient, signInToStampCache } from 'personhood'
 * import { privateKeyToAccount } from 'viem/accounts'
 * const cache = createStampCacheClient({ baseUrl: 'http://127.0.0.1:8787' })
 * const { accessToken } = await signInToStampCache(cache, {
 *   account: privateKeyToAccount(key),
 *   domain: 'app.example.org',
 *   uri: 'https://app.example.org',
 * })
 */
export async function signInToStampCache(
  client: StampCacheContext,
  parameters: SignInToStampCacheParameters,
): Promise<SignInToStampCacheReturnType> {
  const { account, domain, uri, chainId = 1, statement, expirationTime, notBefore, requestId, resources, signal } = parameters
  const address = checkSigner(account)
  parsePositiveInteger(chainId, 'chainId')
  const issuedAt = checkDate(parameters.issuedAt ?? new Date(client.now()), 'issuedAt')
  for (const [name, value] of [['expirationTime', expirationTime], ['notBefore', notBefore]] as const) {
    if (value !== undefined) checkDate(value, name)
  }
  if (parameters.nonce !== undefined) checkNonce(parameters.nonce)
  // Check every field before asking the server for a nonce (a nonce is single use).
  const fields = { address, chainId, domain, uri, version: '1' as const, statement, issuedAt, expirationTime, notBefore, requestId, resources }
  buildSiweText({ ...fields, nonce: parameters.nonce ?? 'checkonly' })
  const nonce = parameters.nonce ?? (await getStampCacheSignInNonce(client, { signal })).nonce
  const text = buildSiweText({ ...fields, nonce })
  const signature = await account.signMessage({ message: text })

  const message: SiweMessage = {
    domain,
    address,
    ...(statement !== undefined && { statement }),
    uri,
    version: '1',
    chainId,
    nonce,
    issuedAt: issuedAt.toISOString(),
    ...(expirationTime !== undefined && { expirationTime: expirationTime.toISOString() }),
    ...(notBefore !== undefined && { notBefore: notBefore.toISOString() }),
    ...(requestId !== undefined && { requestId }),
    ...(resources !== undefined && { resources }),
  }
  const { data } = await client.transport.request({
    method: 'POST',
    path: '/stamp-cache/authenticate/v2',
    body: { message, signature },
    schema: accessTokenSchema,
    signal,
  })
  if (data.access === '' || /\s/.test(data.access)) {
    throw new ResponseValidationError({
      method: 'POST',
      url: client.transport.buildUrl('/stamp-cache/authenticate/v2'),
      issues: [{ path: ['access'], message: 'Expected a bearer token: a non-empty string without whitespace' }],
    })
  }
  client.setAccessToken(data.access)
  return {
    accessToken: data.access,
    ...(data.support_user_hash !== undefined && { supportUserHash: data.support_user_hash }),
    message,
    signature,
  }
}

/** A fresh SIWE nonce from {@link getStampCacheSignInNonce}. */
export type GetStampCacheSignInNonceReturnType = { nonce: string }

const signInNonceSchema = z.object({
  nonce: z.string().regex(/^[a-zA-Z0-9]{8,}$/, 'Expected a SIWE nonce of at least 8 letters or digits'),
})

/**
 * Asks the server for a fresh sign-in nonce: `GET /account/nonce` answering `{ nonce }`. Not in the
 * spec: the public scorer API serves it at this path and our reference server mirrors it.
 *
 * @throws {HttpRequestError} and subclasses when the server refuses; {@link ResponseValidationError}
 * when the nonce is not 8+ letters or digits (a SIWE message could not carry it).
 * @example
 * import { createStampCacheClient, getStampCacheSignInNonce } from 'personhood'
 * const { nonce } = await getStampCacheSignInNonce(createStampCacheClient({ baseUrl }))
 */
export async function getStampCacheSignInNonce(
  client: StampCacheContext,
  { signal }: StampCacheRequestOptions = {},
): Promise<GetStampCacheSignInNonceReturnType> {
  const { data } = await client.transport.request({ method: 'GET', path: signInNoncePath, schema: signInNonceSchema, signal })
  return { nonce: data.nonce }
}

// ---------------------------------------------------------------------------------------------
// D1-D4 bulk writes
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// D5-D9 reads and score calculation
// ---------------------------------------------------------------------------------------------

/**
 * Reads the scorer's stamp weights (D5, `GET /stamp-cache/weights`): stamp name to weight (weights
 * sent as decimal strings become numbers). Needs no token.
 *
 * @throws {HttpRequestError} and subclasses as the server answers; {@link ResponseValidationError} for a malformed map.
 * @example
 * import { getStampCacheWeights } from 'personhood'
 * const weights = await getStampCacheWeights(cache) // { Google: 0.525, ... }
 */
export async function getStampCacheWeights(client: StampCacheContext, { signal }: StampCacheRequestOptions = {}): Promise<ScorerWeights> {
  const { data } = await client.transport.request({ method: 'GET', path: '/stamp-cache/weights', schema: scorerWeightsSchema, signal })
  return data
}

/** Parameters of {@link getCachedStamps}. */
export type GetCachedStampsParameters = { address: string; signal?: AbortSignal | undefined }

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
export async function getCachedStamps(client: StampCacheContext, parameters: GetCachedStampsParameters): Promise<StampsResponse> {
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

/** Parameters of {@link getStampCacheScore}. */
export type GetStampCacheScoreParameters = {
  address: string
  /** Selects an alternate scorer (a non-negative integer). */
  alternateScorerId?: number | undefined
  signal?: AbortSignal | undefined
}

/**
 * Reads the cached score of an address (D7, `GET /stamp-cache/score/{address}`), optionally from
 * an alternate scorer.
 *
 * @throws {InvalidParameterError} before any request: no bearer token or a bad `alternateScorerId`.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {ResponseValidationError} when the record is malformed or is the score of another address.
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { getStampCacheScore } from 'personhood'
 * const { score, passing_score } = await getStampCacheScore(cache, { address })
 */
export async function getStampCacheScore(client: StampCacheContext, parameters: GetStampCacheScoreParameters): Promise<InternalScore> {
  requireAccessToken(client, 'getScore')
  const address = normalizeAddress(parameters.address)
  const alternateScorerId = checkScorerId(parameters.alternateScorerId)
  const path = `/stamp-cache/score/${address}`
  const query = { alternate_scorer_id: alternateScorerId }
  const { data } = await client.transport.request({ method: 'GET', path, query, schema: internalScoreSchema, signal: parameters.signal })
  checkScoreAddress(data, address, 'GET', client.transport.buildUrl(path, query))
  return data
}

/** Parameters of {@link calculateStampCacheScore}. */
export type CalculateStampCacheScoreParameters = GetStampCacheScoreParameters

/**
 * Recalculates and returns the score of an address (D8, `POST /stamp-cache/score/{address}` with
 * `{ alternate_scorer_id? }`). Recalculating twice gives the same score, so it is retried like a read.
 *
 * @throws {InvalidParameterError} before any request: no bearer token or a bad `alternateScorerId`.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {ResponseValidationError} when the record is malformed or is the score of another address.
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { calculateStampCacheScore } from 'personhood'
 * const record = await calculateStampCacheScore(cache, { address, alternateScorerId: 7 })
 */
export async function calculateStampCacheScore(
  client: StampCacheContext,
  parameters: CalculateStampCacheScoreParameters,
): Promise<InternalScore> {
  requireAccessToken(client, 'calculateScore')
  const address = normalizeAddress(parameters.address)
  const alternateScorerId = checkScorerId(parameters.alternateScorerId)
  const path = `/stamp-cache/score/${address}`
  const { data } = await client.transport.request({
    method: 'POST',
    path,
    body: alternateScorerId === undefined ? {} : { alternate_scorer_id: alternateScorerId },
    schema: internalScoreSchema,
    idempotent: true,
    signal: parameters.signal,
  })
  checkScoreAddress(data, address, 'POST', client.transport.buildUrl(path))
  return data
}

/**
 * Reads the signed-in address's token stakes (D9, `GET /stamp-cache/stake/token`).
 *
 * @throws {InvalidParameterError} before any request when there is no bearer token.
 * @throws {InvalidRequestError} (400 `{ detail }`) and other {@link HttpRequestError}s as the server answers.
 * @example
 * import { getStampCacheStakes } from 'personhood'
 * const { items } = await getStampCacheStakes(cache)
 */
export async function getStampCacheStakes(client: StampCacheContext, { signal }: StampCacheRequestOptions = {}): Promise<StakeResponse> {
  requireAccessToken(client, 'getStakes')
  const { data } = await client.transport.request({ method: 'GET', path: '/stamp-cache/stake/token', schema: stakeResponseSchema, signal })
  return data
}

// ---------------------------------------------------------------------------------------------
// D10-D12 terms of service
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link isStampCacheTosAccepted}. */
export type IsStampCacheTosAcceptedParameters = {
  address: string
  /** Letters, digits, `_` or `-`. Default `IST`, the one type in use. */
  tosType?: string | undefined
  signal?: AbortSignal | undefined
}

/**
 * Tells whether an address has accepted the terms of service (D10,
 * `GET /stamp-cache/tos/accepted/{tos_type}/{address}`).
 *
 * @throws {InvalidParameterError} before any request: no bearer token or a bad `tosType`.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {InvalidRequestError} (400 `{ detail }`) and other {@link HttpRequestError}s as the server answers.
 * @example
 * import { isStampCacheTosAccepted } from 'personhood'
 * if (!(await isStampCacheTosAccepted(cache, { address }))) await cache.signAndAcceptTos({ account })
 */
export async function isStampCacheTosAccepted(client: StampCacheContext, parameters: IsStampCacheTosAcceptedParameters): Promise<boolean> {
  requireAccessToken(client, 'isTosAccepted')
  const { address, tosType } = checkTosTarget(parameters)
  const { data } = await client.transport.request({
    method: 'GET',
    path: `/stamp-cache/tos/accepted/${tosType}/${address}`,
    schema: tosAcceptedSchema,
    signal: parameters.signal,
  })
  return data.accepted
}

/** Parameters of {@link getStampCacheTosMessage}. */
export type GetStampCacheTosMessageParameters = IsStampCacheTosAcceptedParameters

/** The terms-of-service text to sign (it ends in `Nonce: <nonce>`) and its nonce. */
export type GetStampCacheTosMessageReturnType = { text: string; nonce: string }

/**
 * Reads the terms-of-service text an address must sign (D11,
 * `GET /stamp-cache/tos/message-to-sign/{tos_type}/{address}`).
 *
 * @throws {InvalidParameterError} before any request: no bearer token or a bad `tosType`.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {InvalidRequestError} (400 `{ detail }`) and other {@link HttpRequestError}s as the server answers.
 * @example
 * import { getStampCacheTosMessage } from 'personhood'
 * const { text, nonce } = await getStampCacheTosMessage(cache, { address })
 */
export async function getStampCacheTosMessage(
  client: StampCacheContext,
  parameters: GetStampCacheTosMessageParameters,
): Promise<GetStampCacheTosMessageReturnType> {
  requireAccessToken(client, 'getTosMessage')
  const { address, tosType } = checkTosTarget(parameters)
  const { data } = await client.transport.request({
    method: 'GET',
    path: `/stamp-cache/tos/message-to-sign/${tosType}/${address}`,
    schema: tosToSignSchema,
    signal: parameters.signal,
  })
  return { text: data.text, nonce: data.nonce }
}

/** Parameters of {@link acceptStampCacheTos}. */
export type AcceptStampCacheTosParameters = IsStampCacheTosAcceptedParameters & {
  /** The nonce of the message to sign (D11). */
  nonce: string
  /** The EIP-191 signature of the message text by `address` (0x-prefixed hex). */
  signature: Hex | string
}

/**
 * Records the acceptance of the terms of service (D12,
 * `POST /stamp-cache/tos/signed-message/{tos_type}/{address}` with `{ tos_type, nonce, signature }`;
 * the server answers 200 without a body). Not repeated after a 5xx or a timeout (the nonce is single use).
 *
 * @throws {InvalidParameterError} before any request: no bearer token, a bad `tosType`, an empty nonce or a non-hex signature.
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {InvalidRequestError} (400: bad or reused nonce, wrong signature) and other {@link HttpRequestError}s.
 * @example
 * import { acceptStampCacheTos } from 'personhood'
 * await acceptStampCacheTos(cache, { address, nonce, signature: await account.signMessage({ message: text }) })
 */
export async function acceptStampCacheTos(client: StampCacheContext, parameters: AcceptStampCacheTosParameters): Promise<void> {
  requireAccessToken(client, 'acceptTos')
  const { address, tosType } = checkTosTarget(parameters)
  const { nonce, signature } = parameters
  if (typeof nonce !== 'string' || nonce === '') {
    throw new InvalidParameterError({ parameter: 'nonce', reason: 'Expected the non-empty nonce of the terms-of-service message (getTosMessage).' })
  }
  if (typeof signature !== 'string' || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature)) {
    throw new InvalidParameterError({ parameter: 'signature', reason: 'Expected a 0x-prefixed hex signature.' })
  }
  await client.transport.request({
    method: 'POST',
    path: `/stamp-cache/tos/signed-message/${tosType}/${address}`,
    body: { tos_type: tosType, nonce, signature },
    schema: null,
    signal: parameters.signal,
  })
}

/** Parameters of {@link signAndAcceptStampCacheTos}. */
export type SignAndAcceptStampCacheTosParameters = {
  /** The signer; its address is the one that accepts. */
  account: StampCacheSigner
  tosType?: string | undefined
  signal?: AbortSignal | undefined
}

/** What {@link signAndAcceptStampCacheTos} returns: the text signed, its nonce and the signature sent. */
export type SignAndAcceptStampCacheTosReturnType = { text: string; nonce: string; signature: Hex }

/**
 * Accepts the terms of service in one call: reads the text to sign (D11), has `account` sign it
 * (EIP-191) and sends the signature (D12).
 *
 * @throws {InvalidParameterError} before any request: no bearer token, a bad account or `tosType`.
 * @throws {HttpRequestError} and subclasses as the server answers D11 or D12. Errors of `account.signMessage` propagate as they are.
 * @example
 * import { signAndAcceptStampCacheTos } from 'personhood'
 * import { privateKeyToAccount } from 'viem/accounts'
 * await signAndAcceptStampCacheTos(cache, { account: privateKeyToAccount(key) })
 */
export async function signAndAcceptStampCacheTos(
  client: StampCacheContext,
  parameters: SignAndAcceptStampCacheTosParameters,
): Promise<SignAndAcceptStampCacheTosReturnType> {
  requireAccessToken(client, 'signAndAcceptTos')
  const address = checkSigner(parameters.account)
  const tosType = parameters.tosType ?? defaultTosType
  const { signal } = parameters
  const { text, nonce } = await getStampCacheTosMessage(client, { address, tosType, signal })
  const signature = await parameters.account.signMessage({ message: text })
  await acceptStampCacheTos(client, { address, tosType, nonce, signature, signal })
  return { text, nonce, signature }
}

// ---------------------------------------------------------------------------------------------
// Checks (all before any request)
// ---------------------------------------------------------------------------------------------

function checkAccessToken(token: unknown): string {
  if (typeof token !== 'string' || token === '' || /\s/.test(token)) {
    throw new InvalidParameterError({
      parameter: 'accessToken',
      reason: 'Expected the bearer token (a JWT from signIn) as a non-empty string without whitespace.',
    })
  }
  return token
}

function requireAccessToken(client: StampCacheContext, action: string): void {
  if (client.getAccessToken() === undefined) {
    throw new InvalidParameterError({
      parameter: 'accessToken',
      reason: `${action} needs a bearer token: call signIn first, or pass accessToken to createStampCacheClient or setAccessToken.`,
    })
  }
}

function checkSigner(account: unknown): Address {
  const value = account as Partial<StampCacheSigner> | null | undefined
  if (typeof value !== 'object' || value === null || typeof value.signMessage !== 'function') {
    throw new InvalidParameterError({
      parameter: 'account',
      reason: 'Expected a viem account (privateKeyToAccount) or an object with address and signMessage.',
    })
  }
  return getAddress(normalizeAddress(value.address, 'account address'))
}

function checkDate(value: unknown, name: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new InvalidParameterError({ parameter: name, reason: 'Expected a valid Date.' })
  }
  return value
}

function checkNonce(nonce: unknown): void {
  if (typeof nonce !== 'string' || !/^[a-zA-Z0-9]{8,}$/.test(nonce)) {
    throw new InvalidParameterError({ parameter: 'nonce', reason: 'A SIWE nonce is at least 8 letters or digits (EIP-4361).' })
  }
}

function buildSiweText(fields: Parameters<typeof createSiweMessage>[0]): string {
  try {
    return createSiweMessage(fields)
  } catch (error) {
    if (error instanceof SiweInvalidMessageFieldError) {
      const field = /field "([^"]+)"/.exec(error.shortMessage)?.[1] ?? 'message'
      const reason = error.metaMessages?.filter((line) => line.startsWith('- ')).map((line) => line.slice(2)).join(' ')
      throw new InvalidParameterError({ parameter: field, reason: reason || error.shortMessage, cause: error })
    }
    throw error
  }
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

function checkScorerId(value: unknown): number | undefined {
  if (value === undefined) return undefined
  return parseInteger(value, 'alternateScorerId', { min: 0 })
}

function checkTosTarget(parameters: { address: string; tosType?: string | undefined }): { address: Address; tosType: string } {
  const address = normalizeAddress(parameters.address)
  const tosType = parameters.tosType ?? defaultTosType
  // Letters, digits, _ and - only: the value is a path segment ("..", "/" or "?" would change the URL).
  if (typeof tosType !== 'string' || !/^[A-Za-z0-9_-]+$/.test(tosType)) {
    throw new InvalidParameterError({ parameter: 'tosType', reason: `Expected letters, digits, _ or - (such as "${defaultTosType}").` })
  }
  return { address, tosType }
}

function checkScoreAddress(score: InternalScore, address: Address, method: string, url: string): void {
  if (score.address.toLowerCase() !== address) {
    throw new ResponseValidationError({
      method,
      url,
      issues: [{ path: ['address'], message: `Expected the score of ${address}, got the score of ${score.address}` }],
    })
  }
}
