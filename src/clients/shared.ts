/**
 * Small helpers the API-key clients share: building the transport, resolving rate limiters and
 * checking arguments before any request. Nothing here is specific to one interface.
 */
import { ResponseValidationError, type ValidationIssue } from '../errors/http.js'
import { InvalidParameterError } from '../errors/input.js'
import type { PaginationGuards } from '../http/paginate.js'
import { getSharedRateLimiter, resolveTier, type RateLimitBudget, type RateLimiter, type RateLimitTier } from '../http/rate-limit.js'
import type { Sleep } from '../http/sleep.js'
import { createTransport, type Transport, type TransportOptions } from '../http/transport.js'
import { compareDecimals } from '../schemas/common.js'
import { parseDate, parsePositiveInteger } from '../utils/parse.js'
import { redactUrl } from '../utils/redact.js'

/** Printable ASCII, no leading or trailing blank: what fits in a header without surprises. */
const headerValuePattern = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/

/**
 * Checks an API key (without ever echoing it) and creates a transport that sends it in `headerName`
 * on every request and removes it from every error.
 *
 * @throws {InvalidParameterError} when the key is missing, empty or not a header-safe string, or
 * `baseUrl` is not an http(s) URL.
 */
export function createApiKeyTransport({
  apiKey,
  baseUrl,
  headerName = 'X-API-KEY',
  ...options
}: TransportOptions & { apiKey: string; baseUrl: string; headerName?: string }): Transport {
  if (typeof apiKey !== 'string' || apiKey === '') {
    throw new InvalidParameterError({ parameter: 'apiKey', reason: 'An API key is required (a non-empty string).' })
  }
  if (!headerValuePattern.test(apiKey)) {
    throw new InvalidParameterError({
      parameter: 'apiKey',
      reason: 'The API key must be printable ASCII without leading or trailing whitespace.',
    })
  }
  checkBaseUrl(baseUrl)
  return createTransport({
    ...options,
    baseUrl,
    authHeaders: () => ({ [headerName]: apiKey }),
    secrets: () => [apiKey],
  })
}

/**
 * Checks that `baseUrl` is an absolute http(s) URL.
 *
 * @throws {InvalidParameterError} otherwise (credentials in the URL are not shown).
 */
export function checkBaseUrl(baseUrl: unknown, parameter = 'baseUrl'): void {
  let protocol: string | undefined
  try {
    protocol = typeof baseUrl === 'string' ? new URL(baseUrl).protocol : undefined
  } catch {
    protocol = undefined
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    const shown = typeof baseUrl === 'string' ? `"${redactUrl(baseUrl).slice(0, 100)}"` : typeof baseUrl
    throw new InvalidParameterError({ parameter, reason: `Expected an absolute http(s) URL, got ${shown}.` })
  }
}

/**
 * Resolves the limiter a budget draws on: `false` means no pacing, a limiter is used as given, and
 * `undefined` means the process-wide limiter of this API key and budget at `tier`.
 *
 * @throws {InvalidParameterError} when `tier` is not a known tier or a valid `{ limit, windowMs }`.
 */
export function resolveRateLimiter({
  limiter,
  apiKey,
  budget,
  tier,
  now,
  sleep,
}: {
  limiter: RateLimiter | false | undefined
  apiKey: string
  budget: RateLimitBudget
  tier: RateLimitTier
  now?: (() => number) | undefined
  sleep?: Sleep | undefined
}): RateLimiter | undefined {
  resolveTier(tier, budget) // checks the tier even when it is not used
  if (limiter === false) return undefined
  if (limiter !== undefined) return limiter
  return getSharedRateLimiter({ apiKey, budget, tier, ...(now ? { now } : {}), ...(sleep ? { sleep } : {}) })
}

/**
 * Reads a timestamp argument (anything {@link parseDate} takes: a Date, an ISO 8601 string, Unix
 * seconds) for the wire: a date-only `YYYY-MM-DD` string is sent as given (midnight UTC); anything
 * else as `toISOString()` (a date-time without offset is read as UTC).
 *
 * @throws {InvalidParameterError} on an invalid Date, a string that is not ISO 8601, a day that
 * does not exist, or any other type.
 */
export function toIsoTimestamp(value: unknown, parameter: string): string {
  const date = parseDate(value, parameter)
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : date.toISOString()
}

/**
 * Checks the guards of a paginated read (each a positive integer when given).
 *
 * @throws {InvalidParameterError} otherwise.
 */
export function checkPaginationGuards({ maxPages, maxItems }: PaginationGuards): PaginationGuards {
  return {
    ...(maxPages !== undefined ? { maxPages: parsePositiveInteger(maxPages, 'maxPages') } : {}),
    ...(maxItems !== undefined ? { maxItems: parsePositiveInteger(maxItems, 'maxItems') } : {}),
  }
}

/** Encodes one path segment (an id or a token a caller gave) so it cannot change the path. */
export function pathSegment(value: string | number): string {
  return encodeURIComponent(String(value))
}

/**
 * The error for an answer that passed its schema but not a check that depends on the request
 * (a missing model key, an empty list where one record was due).
 */
export function responseValidationError(
  transport: Transport,
  request: { method: string; path: string; query?: Parameters<Transport['buildUrl']>[1] },
  issues: ValidationIssue[],
): ResponseValidationError {
  return new ResponseValidationError({
    method: request.method,
    url: redactUrl(transport.buildUrl(request.path, request.query)),
    issues,
  })
}
type AnsweredRequest = { method: string; path: string; query?: Parameters<Transport['buildUrl']>[1] }

/**
 * Refuses an answer about another address than the one asked (compared case-insensitively): a
 * proxy, a cache or a faulty service that answers for someone else must not become this voter's score.
 *
 * @throws {ResponseValidationError} naming both addresses.
 */
export function checkAnsweredAddress(transport: Transport, request: AnsweredRequest, asked: string, answered: string, path: (string | number)[]): void {
  if (answered.toLowerCase() === asked.toLowerCase()) return
  throw responseValidationError(transport, request, [{ path, message: `The answer is about ${answered.slice(0, 60)}, not the address asked (${asked}).` }])
}

/**
 * Refuses a score record whose `passing_score` contradicts `score >= threshold`. The services round
 * both to a few decimals and decide on the exact values, so equal shown values may pass or not; a
 * shown score above the shown threshold must pass, and one below must not. A record with `error`
 * set is a scoring failure and is not judged.
 *
 * @throws {ResponseValidationError} naming the three values.
 */
export function checkPassingScore(
  transport: Transport,
  request: AnsweredRequest,
  record: { score: string; threshold: string; passing_score: boolean; error: string | null },
  path: (string | number)[],
): void {
  if (record.error !== null) return
  const order = compareDecimals(record.score, record.threshold)
  if (order === 0 || order > 0 === record.passing_score) return
  throw responseValidationError(transport, request, [
    { path: [...path, 'passing_score'], message: `passing_score is ${record.passing_score}, but score ${record.score} is ${order > 0 ? 'above' : 'below'} threshold ${record.threshold}.` },
  ])
}
