/**
 * Typed client of interface A (stamp scoring v2) and interface B (model scoring): one function per
 * endpoint, usable alone with a {@link PassportContext} or bound by {@link createPassportClient}.
 */
import { InvalidParameterError } from '../errors/input.js'
import type { RateLimiter, RateLimitTier } from '../http/rate-limit.js'
import type { Transport, TransportOptions } from '../http/transport.js'
import { defaultModelName, modelNames, modelScoreResponseSchema, type ModelName } from '../schemas/model.js'
import {
  stampMetadataListResponseSchema,
  v2ScoreHistoryResponseSchema,
  v2ScoreResponseSchema,
  type StampMetadataList,
  type V2Score,
  type V2ScoreHistory,
} from '../schemas/passport.js'
import { normalizeAddress } from '../utils/address.js'
import {
  iterateStampPages,
  requestStampPage,
  type IterateStampsParameters,
  type IterateStampsReturnType,
  type ListStampsParameters,
  type ListStampsReturnType,
  type StampPageContext,
} from './stamp-pages.js'
import {
  createApiKeyTransport,
  resolveRateLimiter,
  checkAnsweredAddress,
  checkPassingScore,
  responseValidationError,
  toIsoTimestamp,
} from './shared.js'
import { parsePositiveIntegerId } from '../utils/parse.js'

const defaultBaseUrl = 'https://api.passport.xyz'

/**
 * What the interface A and B functions need: a transport that sends the API key, and the limiters
 * of the two budgets (`scoring` for A, shared with C; `model` for B). A {@link PassportClient} is one.
 */
export type PassportContext = {
  readonly transport: Transport
  readonly rateLimiters?:
    | { readonly scoring?: RateLimiter | undefined; readonly model?: RateLimiter | undefined }
    | undefined
}

// ---------------------------------------------------------------------------------------------
// A1: score
// ---------------------------------------------------------------------------------------------

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

/**
 * Reads the current score of an address for a scorer (A1, `GET /v2/stamps/{scorer_id}/score/{address}`).
 * The answer is normalized: the earlier revision's `pass` / `stamp_scores` become
 * `passing_score` / `stamps`, and absent nullable fields become null. A scoring failure is a
 * success with `error` set.
 *
 * @param context A {@link PassportContext} (a {@link PassportClient} is one).
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
  context: PassportContext,
  { scorerId, address, signal }: GetScoreParameters,
): Promise<GetScoreReturnType> {
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  const normalized = normalizeAddress(address)
  const request = { method: 'GET', path: `/v2/stamps/${id}/score/${normalized}` } as const
  const { data } = await context.transport.request({
    ...request,
    schema: v2ScoreResponseSchema,
    rateLimiter: context.rateLimiters?.scoring,
    signal,
  })
  checkAnsweredAddress(context.transport, request, normalized, data.address, ['address'])
  checkPassingScore(context.transport, request, data, [])
  return data
}

// ---------------------------------------------------------------------------------------------
// A2: score history
// ---------------------------------------------------------------------------------------------

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

/**
 * Reads the score an address had at a moment (A2, `GET /v2/stamps/{scorer_id}/score/{address}/history`):
 * the latest score requested through A1 at or before `createdAt`. The spec answers `{ items: [...] }`
 * and the public service one bare score object; both come back as `{ items }`. Only allowlisted API
 * keys may use it.
 *
 * @param context A {@link PassportContext} (a {@link PassportClient} is one).
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
  context: PassportContext,
  { scorerId, address, createdAt, signal }: GetScoreHistoryParameters,
): Promise<GetScoreHistoryReturnType> {
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  const normalized = normalizeAddress(address)
  const createdAtText = toIsoTimestamp(createdAt, 'createdAt')
  const request = { method: 'GET', path: `/v2/stamps/${id}/score/${normalized}/history`, query: { created_at: createdAtText } } as const
  const { data } = await context.transport.request({
    ...request,
    schema: v2ScoreHistoryResponseSchema,
    rateLimiter: context.rateLimiters?.scoring,
    signal,
  })
  data.items.forEach((item, index) => {
    checkAnsweredAddress(context.transport, request, normalized, item.address, ['items', index, 'address'])
    checkPassingScore(context.transport, request, item, ['items', index])
  })
  return data
}

// ---------------------------------------------------------------------------------------------
// A3: stamps (the page logic, shared with C5, is in stamp-pages.ts)
// ---------------------------------------------------------------------------------------------

export type { IterateStampsParameters, IterateStampsReturnType, ListStampsParameters, ListStampsReturnType } from './stamp-pages.js'

/**
 * Reads one page of an address's stamps (A3, `GET /v2/stamps/{address}`), newest first. `next` and
 * `prev` are returned as bare tokens: the public service sends them inside absolute links, and only
 * the token is ever followed, never the link's host.
 *
 * @param context A {@link PassportContext} (a {@link PassportClient} is one).
 * @param parameters `address`, optional `includeMetadata`, `limit` (1-1,000) and `token`.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} on a `limit` out of range or an empty token (no request is sent).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createPassportClient, listStamps } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const page = await listStamps(client, { address: '0x52908400098527886e0f7030069857d2e4169ee7', limit: 100 })
 * const nextPage = page.next ? await listStamps(client, { address: '0x52908400098527886e0f7030069857d2e4169ee7', limit: 100, token: page.next }) : null
 */
export function listStamps(context: PassportContext, parameters: ListStampsParameters): Promise<ListStampsReturnType> {
  return requestStampPage(stampPageContext(context), '/v2/stamps', parameters)
}

/**
 * Iterates over all stamp pages of an address (A3), following `next` tokens until there are none.
 * Arguments are checked when it is called, before any request.
 *
 * @param context A {@link PassportContext} (a {@link PassportClient} is one).
 * @param parameters Those of {@link listStamps} without `token`, plus `maxPages` (default 1,000) and
 * `maxItems` (default 100,000).
 * @throws {InvalidAddressError} or {@link InvalidParameterError} at once on bad arguments.
 * @throws {PaginationLimitError} (while iterating) when a guard trips or the server repeats a token.
 * @throws The errors of {@link listStamps} for each page.
 * @example
 * import { createPassportClient, iterateStamps } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * for await (const page of iterateStamps(client, { address: '0x52908400098527886e0f7030069857d2e4169ee7', limit: 1000 })) {
 *   for (const stamp of page.items) console.log(stamp.credential.credentialSubject.provider)
 * }
 */
export function iterateStamps(context: PassportContext, parameters: IterateStampsParameters): IterateStampsReturnType {
  return iterateStampPages(stampPageContext(context), '/v2/stamps', parameters)
}

function stampPageContext(context: PassportContext): StampPageContext {
  return { transport: context.transport, rateLimiter: context.rateLimiters?.scoring }
}

// ---------------------------------------------------------------------------------------------
// A4: stamp metadata
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link getStampMetadata} (all optional). */
export type GetStampMetadataParameters = { signal?: AbortSignal | undefined }
/** Every stamp platform with its groups of stamps. */
export type GetStampMetadataReturnType = StampMetadataList

/**
 * Reads the metadata of every available stamp (A4, `GET /v2/stamps/metadata`).
 *
 * @param context A {@link PassportContext} (a {@link PassportClient} is one).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createPassportClient, getStampMetadata } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const platforms = await getStampMetadata(client)
 */
export async function getStampMetadata(
  context: PassportContext,
  { signal }: GetStampMetadataParameters = {},
): Promise<GetStampMetadataReturnType> {
  const { data } = await context.transport.request({
    method: 'GET',
    path: '/v2/stamps/metadata',
    schema: stampMetadataListResponseSchema,
    rateLimiter: context.rateLimiters?.scoring,
    signal,
  })
  return data
}

// ---------------------------------------------------------------------------------------------
// B1: model score
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link getModelScore}. */
export type GetModelScoreParameters = {
  address: string
  /** One of {@link modelNames}. Default `aggregate`; always sent. */
  model?: ModelName | undefined
  signal?: AbortSignal | undefined
}
/** One model's score of an address: -1 (insufficient data) or 0 to 100. */
export type GetModelScoreReturnType = { address: string; model: ModelName; score: number }

/**
 * Scores any EVM address with a model (B1, `GET /v2/models/score/{address}?model=`), stamps or not.
 * Draws on the model budget (separate from A and C).
 *
 * @param context A {@link PassportContext} (a {@link PassportClient} is one).
 * @param parameters `address` and optional `model` (default `aggregate`).
 * @returns `{ address, model, score }`, the score read from `details.models[model]`.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} when `model` is not one of the eight model names (no request is sent).
 * @throws {ResponseValidationError} when the answer has no score for the requested model.
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError} or {@link ResponseParseError}
 * when the request fails.
 * @example
 * import { createPassportClient, getModelScore } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { score } = await getModelScore(client, { address: '0x52908400098527886e0f7030069857d2e4169ee7', model: 'ethereum_activity' })
 */
export async function getModelScore(
  context: PassportContext,
  { address, model = defaultModelName, signal }: GetModelScoreParameters,
): Promise<GetModelScoreReturnType> {
  const normalized = normalizeAddress(address)
  if (!(modelNames as readonly unknown[]).includes(model)) {
    throw new InvalidParameterError({
      parameter: 'model',
      reason: `Expected one of ${modelNames.join(', ')}, got ${typeof model === 'string' ? `"${model.slice(0, 60)}"` : typeof model}.`,
    })
  }
  const request = { method: 'GET', path: `/v2/models/score/${normalized}`, query: { model } } as const
  const { data } = await context.transport.request({
    ...request,
    schema: modelScoreResponseSchema,
    rateLimiter: context.rateLimiters?.model,
    signal,
  })
  checkAnsweredAddress(context.transport, request, normalized, data.address, ['address'])
  const entry = Object.hasOwn(data.details.models, model) ? data.details.models[model] : undefined
  if (entry === undefined) {
    const present = Object.keys(data.details.models)
    throw responseValidationError(context.transport, request, [
      {
        path: ['details', 'models', model],
        message: `Expected a score for model "${model}", received ${present.length ? `only ${present.join(', ')}` : 'no model'}`,
      },
    ])
  }
  return { address: data.address, model, score: entry.score }
}

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link createPassportClient}: the API key, where and how fast to call, and transport options. */
export type CreatePassportClientParameters = TransportOptions & {
  /** The API key, sent as `X-API-KEY` and never shown in an error. */
  apiKey: string
  /** Default `https://api.passport.xyz`. */
  baseUrl?: string | undefined
  /** The key's tier for A (and C): 1 = 125, 2 = 350, 3 = 2,000 requests per 15 minutes, or `{ limit, windowMs }`. Default 1. */
  tier?: RateLimitTier | undefined
  /** The key's tier for B: 1 = 15, 2 = 350, 3 = 2,000 requests per 15 minutes, or `{ limit, windowMs }`. Default 1. */
  modelTier?: RateLimitTier | undefined
  /**
   * Limiters to draw on instead of the process-wide ones of this API key (`scoring` for A, `model`
   * for B); `false` (for both, or for one budget) sends without pacing.
   */
  rateLimiters?: { scoring?: RateLimiter | false | undefined; model?: RateLimiter | false | undefined } | false | undefined
}

/** A client of interfaces A and B: the {@link PassportContext} and its functions bound to it. */
export type PassportClient = {
  readonly transport: Transport
  readonly rateLimiters: { readonly scoring: RateLimiter | undefined; readonly model: RateLimiter | undefined }
  /** A1: see {@link getScore}. */
  getScore(parameters: GetScoreParameters): Promise<GetScoreReturnType>
  /** A2: see {@link getScoreHistory}. */
  getScoreHistory(parameters: GetScoreHistoryParameters): Promise<GetScoreHistoryReturnType>
  /** A3, one page: see {@link listStamps}. */
  listStamps(parameters: ListStampsParameters): Promise<ListStampsReturnType>
  /** A3, every page: see {@link iterateStamps}. */
  iterateStamps(parameters: IterateStampsParameters): IterateStampsReturnType
  /** A4: see {@link getStampMetadata}. */
  getStampMetadata(parameters?: GetStampMetadataParameters): Promise<GetStampMetadataReturnType>
  /** B1: see {@link getModelScore}. */
  getModelScore(parameters: GetModelScoreParameters): Promise<GetModelScoreReturnType>
}

/**
 * Creates a client of interfaces A (stamp scoring v2) and B (model scoring). Requests draw on the
 * API key's budgets: by default the process-wide limiters of the key, so every client with the
 * same key (a registry client included) shares the scoring budget, paced to the configured tier.
 *
 * @param parameters `apiKey`, optional `baseUrl`, `tier`, `modelTier`, `rateLimiters` and
 * transport options (`fetch`, `timeoutMs`, `retry`, `concurrency`, `now`, `sleep`, `random`, `headers`).
 * @throws {InvalidParameterError} when `apiKey` is missing or empty, `baseUrl` is not an http(s)
 * URL, or a tier is not valid.
 * @example
 * import { createPassportClient } from 'personhood'
 * const passport = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY!, tier: 2 })
 * const { score, passing_score } = await passport.getScore({ scorerId: 335, address: '0x52908400098527886e0f7030069857d2e4169ee7' })
 */
export function createPassportClient({
  apiKey,
  baseUrl = defaultBaseUrl,
  tier = 1,
  modelTier = 1,
  rateLimiters,
  ...transportOptions
}: CreatePassportClientParameters): PassportClient {
  const transport = createApiKeyTransport({ ...transportOptions, apiKey, baseUrl })
  const pacing = { now: transportOptions.now, sleep: transportOptions.sleep }
  const context = {
    transport,
    rateLimiters: {
      scoring: resolveRateLimiter({
        limiter: rateLimiters === false ? false : rateLimiters?.scoring,
        apiKey,
        budget: 'scoring',
        tier,
        ...pacing,
      }),
      model: resolveRateLimiter({
        limiter: rateLimiters === false ? false : rateLimiters?.model,
        apiKey,
        budget: 'model',
        tier: modelTier,
        ...pacing,
      }),
    },
  }
  return {
    ...context,
    getScore: (parameters) => getScore(context, parameters),
    getScoreHistory: (parameters) => getScoreHistory(context, parameters),
    listStamps: (parameters) => listStamps(context, parameters),
    iterateStamps: (parameters) => iterateStamps(context, parameters),
    getStampMetadata: (parameters) => getStampMetadata(context, parameters),
    getModelScore: (parameters) => getModelScore(context, parameters),
  }
}
