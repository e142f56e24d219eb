/**
 * Typed client of interface C (the legacy v1 registry): one function per endpoint, usable alone
 * with a {@link RegistryContext} or bound by {@link createRegistryClient}.
 */
import { InvalidParameterError } from '../errors/input.js'
import { ScoreTimeoutError, ScoringError } from '../errors/scoring.js'
import { paginate, type PaginationGuards } from '../http/paginate.js'
import type { RateLimiter, RateLimitTier } from '../http/rate-limit.js'
import { defaultSleep, type Sleep } from '../http/sleep.js'
import type { Transport, TransportOptions } from '../http/transport.js'
import {
  registryScoreItemsResponseSchema,
  registryScorePageResponseSchema,
  registryScoreResponseSchema,
  registryStakeRecordSchema,
  signingMessageSchema,
  type RegistryScore,
  type RegistryScorePage,
  type RegistryStakeRecord,
  type SigningMessage,
} from '../schemas/registry.js'
import { stampMetadataListResponseSchema } from '../schemas/passport.js'
import { normalizeAddress } from '../utils/address.js'
import type { GetStampMetadataParameters, GetStampMetadataReturnType } from './passport.js'
import {
  iterateStampPages,
  requestStampPage,
  type IterateStampsParameters,
  type IterateStampsReturnType,
  type ListStampsParameters,
  type ListStampsReturnType,
} from './stamp-pages.js'
import {
  checkPaginationGuards,
  createApiKeyTransport,
  pathSegment,
  resolveRateLimiter,
  responseValidationError,
  toIsoTimestamp,
} from './shared.js'
import { parseDuration, parseInteger, parsePositiveIntegerId } from '../utils/parse.js'

const defaultBaseUrl = 'https://api.scorer.gitcoin.co'
const defaultTokenStakePath = '/registry/token-stake'

/**
 * What the interface C functions need: a transport that sends the API key, the scoring limiter
 * (shared with interface A), and for {@link waitForScore} a clock. A {@link RegistryClient} is one.
 */
export type RegistryContext = {
  readonly transport: Transport
  readonly rateLimiter?: RateLimiter | undefined
  /** Path of C7. Default `/registry/token-stake` (the spec); the public service uses `/registry/gtc-stake`. */
  readonly tokenStakePath?: string | undefined
  /** The clock of {@link waitForScore}'s elapsed time. Default Date.now. */
  readonly now?: (() => number) | undefined
  /** How {@link waitForScore} waits between polls. Default: a timer. */
  readonly sleep?: Sleep | undefined
}

// ---------------------------------------------------------------------------------------------
// C1: signing message
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link getSigningMessage} (all optional). */
export type GetSigningMessageParameters = { signal?: AbortSignal | undefined }
/** `{ message, nonce }`: the text to sign before submitting, and its single-use nonce. */
export type GetSigningMessageReturnType = SigningMessage

/**
 * Reads a message to sign and its nonce (C1, `GET /registry/signing-message`), for scorers that
 * require a signature on submit.
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient, getSigningMessage } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { message, nonce } = await getSigningMessage(registry)
 */
export async function getSigningMessage(
  context: RegistryContext,
  { signal }: GetSigningMessageParameters = {},
): Promise<GetSigningMessageReturnType> {
  const { data } = await context.transport.request({
    method: 'GET',
    path: '/registry/signing-message',
    schema: signingMessageSchema,
    rateLimiter: context.rateLimiter,
    signal,
  })
  return data
}

// ---------------------------------------------------------------------------------------------
// C2: submit
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link submitPassport}. */
export type SubmitPassportParameters = {
  /** The wallet to score; sent in lower case. */
  address: string
  /** A positive integer or a string of digits; sent as text. */
  scorerId: number | string
  /** An EIP-191 signature (0x hex) of the C1 message by `address`. Requires `nonce`. */
  signature?: string | undefined
  /** The nonce of that C1 message. Requires `signature`. */
  nonce?: string | undefined
  signal?: AbortSignal | undefined
}
/** The score record; it may still be `PROCESSING` with a null score (use {@link waitForScore}). */
export type SubmitPassportReturnType = RegistryScore

/**
 * Submits an address for scoring (C2, `POST /registry/submit-passport`). Not idempotent: after a
 * 5xx, a timeout or a network error the request is not repeated (it may have been applied); only a
 * 429, which the server refuses before doing anything, is retried.
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters `address`, `scorerId`, and `signature` with `nonce` when the scorer requires them.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} on a bad `scorerId`, a signature that is not 0x hex, or a signature
 * without nonce (or the reverse) (no request is sent).
 * @throws {InvalidRequestError} (400) on a signature that does not match or a reused nonce.
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const submitted = await registry.submitPassport({ address: '0x52908400098527886e0f7030069857d2e4169ee7', scorerId: 335 })
 * const record = submitted.status === 'DONE' ? submitted : await registry.waitForScore({ address: submitted.address, scorerId: 335 })
 */
export async function submitPassport(
  context: RegistryContext,
  { address, scorerId, signature, nonce, signal }: SubmitPassportParameters,
): Promise<SubmitPassportReturnType> {
  const normalized = normalizeAddress(address)
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  if (signature !== undefined && (typeof signature !== 'string' || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature))) {
    throw new InvalidParameterError({ parameter: 'signature', reason: 'Expected 0x followed by hex bytes.' })
  }
  if (nonce !== undefined && (typeof nonce !== 'string' || nonce === '')) {
    throw new InvalidParameterError({ parameter: 'nonce', reason: 'Expected the non-empty nonce of the signing message.' })
  }
  if ((signature === undefined) !== (nonce === undefined)) {
    throw new InvalidParameterError({
      parameter: signature === undefined ? 'signature' : 'nonce',
      reason: 'A signature and the nonce of the message it signs go together: give both or neither.',
    })
  }
  const { data } = await context.transport.request({
    method: 'POST',
    path: '/registry/submit-passport',
    body: { address: normalized, scorer_id: id, ...(signature !== undefined ? { signature, nonce } : {}) },
    schema: registryScoreResponseSchema,
    idempotent: false,
    rateLimiter: context.rateLimiter,
    signal,
  })
  return data
}

// ---------------------------------------------------------------------------------------------
// C3: one score, and waiting for it
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link getRegistryScore}. */
export type GetRegistryScoreParameters = {
  scorerId: number | string
  address: string
  signal?: AbortSignal | undefined
}
/** The one score record of the address (normalized: evidence decimals as strings, nulls for absent fields). */
export type GetRegistryScoreReturnType = RegistryScore

/**
 * Reads the score of a submitted address (C3, `GET /registry/score/{scorer_id}/{address}`) and
 * returns its one record (the spec wraps it in `{ items: [...] }`; a bare record is accepted too).
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
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
  context: RegistryContext,
  { scorerId, address, signal }: GetRegistryScoreParameters,
): Promise<GetRegistryScoreReturnType> {
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  const normalized = normalizeAddress(address)
  const request = { method: 'GET', path: `/registry/score/${id}/${normalized}` } as const
  const { data } = await context.transport.request({
    ...request,
    schema: registryScoreItemsResponseSchema,
    rateLimiter: context.rateLimiter,
    signal,
  })
  // Only the record of the address asked: a record about anyone else is never this address's score.
  const record = data.items.find((item) => item.address.toLowerCase() === normalized)
  if (record === undefined) {
    throw responseValidationError(context.transport, request, [
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

/** Parameters of {@link waitForScore}. */
export type WaitForScoreParameters = {
  scorerId: number | string
  address: string
  /** Reads of the score, the first one included. Default 10. */
  maxAttempts?: number | undefined
  /** Wait before the second read; doubled before each further one. Default 1,000 ms. */
  intervalMs?: number | undefined
  /** Cap of one wait. Default 10,000 ms. */
  maxIntervalMs?: number | undefined
  /** Aborts the current read or wait; the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined
}
/** The record once its status is `DONE`. */
export type WaitForScoreReturnType = RegistryScore

/**
 * Reads a submitted address's score (C3) until its status is `DONE`, waiting `intervalMs`,
 * then twice as long before each further read, up to `maxIntervalMs` (no jitter: one caller,
 * one address). `PROCESSING`, `BULK_PROCESSING` and any status it does not know keep it polling
 * (an unknown status is taken as not finished yet; `maxAttempts` bounds the wait and the
 * {@link ScoreTimeoutError} names the last status seen).
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one); its `sleep` and `now` are used.
 * @param parameters `scorerId`, `address`, and optional `maxAttempts`, `intervalMs`, `maxIntervalMs`, `signal`.
 * @throws {ScoringError} when the status becomes `ERROR`.
 * @throws {ScoreTimeoutError} when the score is not `DONE` after `maxAttempts` reads.
 * @throws {InvalidAddressError} or {@link InvalidParameterError} on bad arguments (no request is sent).
 * @throws The errors of {@link getRegistryScore} for each read.
 * @example
 * import { createRegistryClient, waitForScore } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * await registry.submitPassport({ address: '0x52908400098527886e0f7030069857d2e4169ee7', scorerId: 335 })
 * const { score } = await waitForScore(registry, { scorerId: 335, address: '0x52908400098527886e0f7030069857d2e4169ee7' })
 */
export async function waitForScore(
  context: RegistryContext,
  { scorerId, address, maxAttempts = 10, intervalMs = 1000, maxIntervalMs = 10_000, signal }: WaitForScoreParameters,
): Promise<WaitForScoreReturnType> {
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  const normalized = normalizeAddress(address)
  parseInteger(maxAttempts, 'maxAttempts', { min: 1 })
  parseDuration(intervalMs, 'intervalMs')
  parseDuration(maxIntervalMs, 'maxIntervalMs')
  const { now = Date.now, sleep = defaultSleep } = context
  const started = now()
  let lastStatus = ''
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (attempt > 1) await sleep(Math.min(maxIntervalMs, intervalMs * 2 ** (attempt - 2)), signal)
    const record = await getRegistryScore(context, { scorerId: id, address: normalized, signal })
    if (record.status === 'DONE') return record
    if (record.status === 'ERROR') throw new ScoringError({ address: normalized, scorerId: id, error: record.error })
    lastStatus = record.status
  }
  throw new ScoreTimeoutError({ address: normalized, scorerId: id, attempts: maxAttempts, elapsedMs: now() - started, lastStatus })
}

// ---------------------------------------------------------------------------------------------
// C4: scores of a scorer
// ---------------------------------------------------------------------------------------------

/** The filters of {@link listScores} and {@link iterateScores}. */
export type ScoreFilters = {
  scorerId: number | string
  /** Only scores calculated after this moment (a Date or an ISO 8601 string). */
  lastScoreTimestampGt?: Date | string | undefined
  /** Only scores calculated at or after this moment (a Date or an ISO 8601 string). */
  lastScoreTimestampGte?: Date | string | undefined
  /**
   * Only the score of this address (sent in lower case): one record, or none when the scorer never
   * scored it. An answer that holds another address's record is refused (a server that ignores the
   * filter would otherwise pass another address's score for this one).
   */
  address?: string | undefined
  signal?: AbortSignal | undefined
}
/** Parameters of {@link listScores}. */
export type ListScoresParameters = ScoreFilters & {
  /** Page size, a positive integer. Server default when omitted. */
  limit?: number | undefined
  /** Start position, a non-negative integer. Default 0 (not sent). */
  offset?: number | undefined
}
/** `{ items, count }`: one page of score records and the number of records matching the filters. */
export type ListScoresReturnType = RegistryScorePage

/** Parameters of {@link iterateScores}: the filters, the page size and guards. */
export type IterateScoresParameters = ScoreFilters & { limit?: number | undefined } & PaginationGuards
/** One page of {@link iterateScores}: the records, the total `count` and the page's `offset`. */
export type IterateScoresPage = RegistryScorePage & { offset: number }
/** The pages of {@link iterateScores}, in order. */
export type IterateScoresReturnType = AsyncGenerator<IterateScoresPage, void, undefined>

function scoreFilterQuery({ lastScoreTimestampGt, lastScoreTimestampGte, address }: ScoreFilters) {
  const gt = lastScoreTimestampGt === undefined ? undefined : toIsoTimestamp(lastScoreTimestampGt, 'lastScoreTimestampGt')
  const gte =
    lastScoreTimestampGte === undefined ? undefined : toIsoTimestamp(lastScoreTimestampGte, 'lastScoreTimestampGte')
  // The spec spells the filters with one underscore, the public service with two (Django lookups);
  // each ignores the other's spelling, so both are sent with the same value.
  return {
    last_score_timestamp_gt: gt,
    last_score_timestamp__gt: gt,
    last_score_timestamp_gte: gte,
    last_score_timestamp__gte: gte,
    address: address === undefined ? undefined : normalizeAddress(address),
  }
}

/**
 * Reads one page of the scores submitted to a scorer (C4, `GET /registry/score/{scorer_id}`).
 * The timestamp filters are sent in both spellings: the spec's `last_score_timestamp_gt` / `_gte`
 * and the public service's `last_score_timestamp__gt` / `__gte`, with the same value. With `address`,
 * the page holds that address's one record or nothing (the public service's `address` filter).
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters `scorerId`, optional `lastScoreTimestampGt`, `lastScoreTimestampGte`, `address`, `limit`, `offset`.
 * @throws {InvalidParameterError} on a bad `scorerId`, timestamp, `limit` or `offset` (no request is sent).
 * @throws {InvalidAddressError} on a malformed `address` (no request is sent).
 * @throws {ResponseValidationError} when an answer filtered by `address` holds another address's record.
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient, listScores } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const { items, count } = await listScores(registry, { scorerId: 335, lastScoreTimestampGte: '2024-10-01', limit: 100 })
 */
export async function listScores(context: RegistryContext, parameters: ListScoresParameters): Promise<ListScoresReturnType> {
  const id = parsePositiveIntegerId(parameters.scorerId, 'scorerId')
  const filters = scoreFilterQuery(parameters)
  const { limit, offset, signal } = parameters
  if (limit !== undefined) parseInteger(limit, 'limit', { min: 1 })
  if (offset !== undefined) parseInteger(offset, 'offset', { min: 0 })
  const request = { method: 'GET', path: `/registry/score/${id}`, query: { ...filters, limit, offset } } as const
  const { data } = await context.transport.request({ ...request, schema: registryScorePageResponseSchema, rateLimiter: context.rateLimiter, signal })
  const wanted = filters.address
  const stranger = wanted === undefined ? -1 : data.items.findIndex((item) => item.address.toLowerCase() !== wanted)
  if (stranger !== -1) {
    throw responseValidationError(context.transport, request, [
      { path: ['items', stranger, 'address'], message: `Expected only the score of ${wanted}, received one of ${data.items[stranger]?.address}` },
    ])
  }
  return data
}

/**
 * Iterates over every score of a scorer (C4) by offset: from 0, each page starts where the last
 * one ended, until the offset reaches `count` or a page is empty. Arguments are checked when it
 * is called, before any request.
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters The filters of {@link listScores}, `limit`, `maxPages` (default 1,000) and `maxItems` (default 100,000).
 * @throws {InvalidParameterError} at once on bad arguments.
 * @throws {PaginationLimitError} (while iterating) when a guard trips.
 * @throws The errors of {@link listScores} for each page.
 * @example
 * import { createRegistryClient, iterateScores } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * for await (const page of iterateScores(registry, { scorerId: 335, limit: 500 })) {
 *   for (const record of page.items) console.log(record.address, record.score)
 * }
 */
export function iterateScores(context: RegistryContext, parameters: IterateScoresParameters): IterateScoresReturnType {
  const { maxPages, maxItems, limit, ...filters } = parameters
  const scorerId = parsePositiveIntegerId(filters.scorerId, 'scorerId')
  scoreFilterQuery(filters) // checks the timestamps now
  if (limit !== undefined) parseInteger(limit, 'limit', { min: 1 })
  const guards = checkPaginationGuards({ maxPages, maxItems })
  const pages = paginate<RegistryScore, IterateScoresPage & { next: string | null }>(async (cursor) => {
    const offset = cursor === undefined ? 0 : Number(cursor)
    const page = await listScores(context, { ...filters, scorerId, limit, offset })
    const end = offset + page.items.length
    return { ...page, offset, next: page.items.length === 0 || end >= page.count ? null : String(end) }
  }, guards)
  return (async function* () {
    for await (const { items, count, offset } of pages) yield { items, count, offset }
  })()
}

// ---------------------------------------------------------------------------------------------
// C5, C6: stamps and stamp metadata
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link listRegistryStamps}: as {@link listStamps}. */
export type ListRegistryStampsParameters = ListStampsParameters
/** One page of stamps; `next` and `prev` are bare page tokens (null at the ends). */
export type ListRegistryStampsReturnType = ListStampsReturnType
/** Parameters of {@link iterateRegistryStamps}: as {@link iterateStamps}. */
export type IterateRegistryStampsParameters = IterateStampsParameters
/** The pages of {@link iterateRegistryStamps}, in order. */
export type IterateRegistryStampsReturnType = IterateStampsReturnType

/**
 * Reads one page of an address's stamps (C5, `GET /registry/stamps/{address}`). `next` and `prev`
 * come back as bare tokens; only the token is ever followed, never a link's host.
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters `address`, optional `includeMetadata`, `limit` (1-1,000) and `token`.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} on a `limit` out of range or an empty token (no request is sent).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient, listRegistryStamps } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const page = await listRegistryStamps(registry, { address: '0x52908400098527886e0f7030069857d2e4169ee7', includeMetadata: true })
 */
export function listRegistryStamps(
  context: RegistryContext,
  parameters: ListRegistryStampsParameters,
): Promise<ListRegistryStampsReturnType> {
  return requestStampPage(stampPageContext(context), '/registry/stamps', parameters)
}

/**
 * Iterates over all stamp pages of an address (C5), following `next` tokens until there are none.
 * Arguments are checked when it is called, before any request.
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters Those of {@link listRegistryStamps} without `token`, plus `maxPages` and `maxItems`.
 * @throws {InvalidAddressError} or {@link InvalidParameterError} at once on bad arguments.
 * @throws {PaginationLimitError} (while iterating) when a guard trips or the server repeats a token.
 * @throws The errors of {@link listRegistryStamps} for each page.
 * @example
 * import { createRegistryClient, iterateRegistryStamps } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * for await (const page of iterateRegistryStamps(registry, { address: '0x52908400098527886e0f7030069857d2e4169ee7' })) console.log(page.items.length)
 */
export function iterateRegistryStamps(
  context: RegistryContext,
  parameters: IterateRegistryStampsParameters,
): IterateRegistryStampsReturnType {
  return iterateStampPages(stampPageContext(context), '/registry/stamps', parameters)
}

function stampPageContext(context: RegistryContext) {
  return { transport: context.transport, rateLimiter: context.rateLimiter }
}

/** Parameters of {@link getRegistryStampMetadata} (all optional). */
export type GetRegistryStampMetadataParameters = GetStampMetadataParameters
/** Every stamp platform with its groups of stamps. */
export type GetRegistryStampMetadataReturnType = GetStampMetadataReturnType

/**
 * Reads the metadata of every available stamp (C6, `GET /registry/stamp-metadata`).
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient, getRegistryStampMetadata } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const platforms = await getRegistryStampMetadata(registry)
 */
export async function getRegistryStampMetadata(
  context: RegistryContext,
  { signal }: GetRegistryStampMetadataParameters = {},
): Promise<GetRegistryStampMetadataReturnType> {
  const { data } = await context.transport.request({
    method: 'GET',
    path: '/registry/stamp-metadata',
    schema: stampMetadataListResponseSchema,
    rateLimiter: context.rateLimiter,
    signal,
  })
  return data
}

// ---------------------------------------------------------------------------------------------
// C7: token stake (deprecated)
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link getTokenStake}. */
export type GetTokenStakeParameters = {
  address: string
  /** The round: a non-negative integer or a non-empty string. */
  roundId: number | string
  signal?: AbortSignal | undefined
}
/** `{ users: [{ stakes, xstakeAggregates }] }`: self stakes and community stakes per round. */
export type GetTokenStakeReturnType = RegistryStakeRecord

function checkTokenStakePath(path: unknown): string {
  if (typeof path !== 'string' || !/^\/[^?#]*$/.test(path)) {
    throw new InvalidParameterError({
      parameter: 'tokenStakePath',
      reason: 'Expected a path starting with "/" and without query, such as "/registry/gtc-stake".',
    })
  }
  return path.replace(/\/+$/, '')
}

/**
 * Reads the token stakes of an address in a round (C7, deprecated; `GET {tokenStakePath}/{address}/{round_id}`).
 * The path comes from the context: the spec's `/registry/token-stake` by default, the public
 * service's `/registry/gtc-stake` when configured.
 *
 * @param context A {@link RegistryContext} (a {@link RegistryClient} is one).
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
  context: RegistryContext,
  { address, roundId, signal }: GetTokenStakeParameters,
): Promise<GetTokenStakeReturnType> {
  const normalized = normalizeAddress(address)
  const validRound =
    (typeof roundId === 'number' && Number.isSafeInteger(roundId) && roundId >= 0) ||
    (typeof roundId === 'string' && roundId.trim() !== '')
  if (!validRound) {
    throw new InvalidParameterError({ parameter: 'roundId', reason: 'Expected a non-negative integer or a non-empty string.' })
  }
  const basePath = checkTokenStakePath(context.tokenStakePath ?? defaultTokenStakePath)
  const { data } = await context.transport.request({
    method: 'GET',
    path: `${basePath}/${normalized}/${pathSegment(roundId)}`,
    schema: registryStakeRecordSchema,
    rateLimiter: context.rateLimiter,
    signal,
  })
  return data
}

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link createRegistryClient}: the API key, where and how fast to call, and transport options. */
export type CreateRegistryClientParameters = TransportOptions & {
  /** The API key, sent as `X-API-KEY` and never shown in an error. */
  apiKey: string
  /** Default `https://api.scorer.gitcoin.co`. */
  baseUrl?: string | undefined
  /** The key's tier (shared with interface A): 1 = 125, 2 = 350, 3 = 2,000 requests per 15 minutes, or `{ limit, windowMs }`. Default 1. */
  tier?: RateLimitTier | undefined
  /** Path of C7. Default `/registry/token-stake` (the spec); the public service uses `/registry/gtc-stake`. */
  tokenStakePath?: string | undefined
  /** A limiter to draw on instead of the process-wide scoring limiter of this API key; `false` sends without pacing. */
  rateLimiter?: RateLimiter | false | undefined
}

/** A client of interface C: the {@link RegistryContext} and its functions bound to it. */
export type RegistryClient = {
  readonly transport: Transport
  readonly rateLimiter: RateLimiter | undefined
  readonly tokenStakePath: string
  readonly now: () => number
  readonly sleep: Sleep
  /** C1: see {@link getSigningMessage}. */
  getSigningMessage(parameters?: GetSigningMessageParameters): Promise<GetSigningMessageReturnType>
  /** C2: see {@link submitPassport}. */
  submitPassport(parameters: SubmitPassportParameters): Promise<SubmitPassportReturnType>
  /** C3: see {@link getRegistryScore}. */
  getScore(parameters: GetRegistryScoreParameters): Promise<GetRegistryScoreReturnType>
  /** C3, polled until done: see {@link waitForScore}. */
  waitForScore(parameters: WaitForScoreParameters): Promise<WaitForScoreReturnType>
  /** C4, one page: see {@link listScores}. */
  listScores(parameters: ListScoresParameters): Promise<ListScoresReturnType>
  /** C4, every page: see {@link iterateScores}. */
  iterateScores(parameters: IterateScoresParameters): IterateScoresReturnType
  /** C5, one page: see {@link listRegistryStamps}. */
  listStamps(parameters: ListRegistryStampsParameters): Promise<ListRegistryStampsReturnType>
  /** C5, every page: see {@link iterateRegistryStamps}. */
  iterateStamps(parameters: IterateRegistryStampsParameters): IterateRegistryStampsReturnType
  /** C6: see {@link getRegistryStampMetadata}. */
  getStampMetadata(parameters?: GetRegistryStampMetadataParameters): Promise<GetRegistryStampMetadataReturnType>
  /** C7: see {@link getTokenStake}. */
  getTokenStake(parameters: GetTokenStakeParameters): Promise<GetTokenStakeReturnType>
}

/**
 * Creates a client of interface C (the legacy v1 registry). By default its requests draw on the
 * process-wide scoring limiter of the API key, the same one a passport client (interface A) with
 * that key uses, as the services count A and C together.
 *
 * @param parameters `apiKey`, optional `baseUrl`, `tier`, `tokenStakePath`, `rateLimiter` and
 * transport options (`fetch`, `timeoutMs`, `retry`, `concurrency`, `now`, `sleep`, `random`, `headers`).
 * @throws {InvalidParameterError} when `apiKey` is missing or empty, `baseUrl` is not an http(s)
 * URL, `tokenStakePath` is not a path, or `tier` is not valid.
 * @example
 * import { createRegistryClient } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY!, tokenStakePath: '/registry/gtc-stake' })
 * await registry.submitPassport({ address: '0x52908400098527886e0f7030069857d2e4169ee7', scorerId: 335 })
 * const { score } = await registry.waitForScore({ address: '0x52908400098527886e0f7030069857d2e4169ee7', scorerId: 335 })
 */
export function createRegistryClient({
  apiKey,
  baseUrl = defaultBaseUrl,
  tier = 1,
  tokenStakePath = defaultTokenStakePath,
  rateLimiter,
  ...transportOptions
}: CreateRegistryClientParameters): RegistryClient {
  const transport = createApiKeyTransport({ ...transportOptions, apiKey, baseUrl })
  const context = {
    transport,
    rateLimiter: resolveRateLimiter({
      limiter: rateLimiter,
      apiKey,
      budget: 'scoring',
      tier,
      now: transportOptions.now,
      sleep: transportOptions.sleep,
    }),
    tokenStakePath: checkTokenStakePath(tokenStakePath),
    now: transportOptions.now ?? Date.now,
    sleep: transportOptions.sleep ?? defaultSleep,
  }
  return {
    ...context,
    getSigningMessage: (parameters) => getSigningMessage(context, parameters),
    submitPassport: (parameters) => submitPassport(context, parameters),
    getScore: (parameters) => getRegistryScore(context, parameters),
    waitForScore: (parameters) => waitForScore(context, parameters),
    listScores: (parameters) => listScores(context, parameters),
    iterateScores: (parameters) => iterateScores(context, parameters),
    listStamps: (parameters) => listRegistryStamps(context, parameters),
    iterateStamps: (parameters) => iterateRegistryStamps(context, parameters),
    getStampMetadata: (parameters) => getRegistryStampMetadata(context, parameters),
    getTokenStake: (parameters) => getTokenStake(context, parameters),
  }
}
