import type { z } from 'zod'
import {
  AuthenticationError,
  HttpRequestError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectRefusedError,
  ResponseParseError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  type AuthenticationErrorType,
  type HttpRequestErrorParameters,
  type HttpRequestErrorType,
  type InvalidRequestErrorType,
  type NetworkErrorType,
  type NotFoundErrorType,
  type PermissionDeniedErrorType,
  type RateLimitErrorType,
  type RedirectRefusedErrorType,
  type ResponseParseErrorType,
  type ResponseTooLargeErrorType,
  type ResponseValidationErrorType,
  type TimeoutErrorType,
} from '../errors/http.js'
import { BaseError } from '../errors/base.js'
import { readErrorMessage } from '../schemas/common.js'
import { redact } from '../utils/redact.js'
import { createSemaphore } from './concurrency.js'
import { RateBudgetWaitError, type RateLimiter, type RateLimitWait } from './rate-limit.js'
import { defaultSleep, type Sleep } from './sleep.js'

/** How failed attempts are retried. */
export type RetryOptions = {
  /** Retries after the first attempt. Default 3. */
  limit?: number
  /** Delay before the first retry, doubled for each further one. Default 500 ms. */
  baseDelayMs?: number
  /** Cap of one backoff delay. Default 30 s. */
  maxDelayMs?: number
  /** A Retry-After longer than this is not waited for: the error is thrown with `retryAfterMs`. Default 60 s. */
  maxRetryAfterMs?: number
  /** Statuses worth another attempt. Default 408, 429, 500, 502, 503, 504. */
  statusCodes?: readonly number[]
}

/** What every client accepts to shape its transport. All optional. */
export type TransportOptions = {
  /** The fetch to use (inject one in tests, or a proxying fetch). Default: global fetch. */
  fetch?: typeof fetch
  /** Timeout of one attempt. Default 60,000 ms (the services' own limit). */
  timeoutMs?: number
  /**
   * Starts the timeout of one attempt: calls `fire` after `ms`, unless the function it returns is
   * called first. Default: a timer (setTimeout). Tests inject their own to time an attempt out
   * when they choose, never by racing a real timer.
   */
  timer?: (ms: number, fire: () => void) => () => void
  /** Retry policy, or `false` for a single attempt. */
  retry?: RetryOptions | false
  /** Requests in flight at once, per client. Default 4. */
  concurrency?: number
  /** The clock, in milliseconds (for Retry-After dates and rate pacing). Default Date.now. */
  now?: () => number
  /** How to wait between attempts. Default: a timer. Tests inject their own. */
  sleep?: Sleep
  /** Random numbers in [0, 1) for jitter. Default Math.random. */
  random?: () => number
  /** Extra headers for every request (for example a User-Agent). */
  headers?: Record<string, string>
  /** Largest response body read, in bytes; a larger one is a {@link ResponseTooLargeError}. Default 16 MiB. */
  maxResponseBytes?: number
  /** Most same-origin redirects followed for one request. Default 5. A redirect to another origin is never followed. */
  maxRedirects?: number
  /**
   * Longest a request may wait for its key's rate budget. Past it, the request is not sent and
   * fails at once with a {@link RateLimitError} whose `retryAfterMs` says when budget returns.
   * Default: no bound (a tier-1 key can then wait up to 15 minutes).
   */
  maxWaitMs?: number
  /** Hears of each wait for rate budget before it starts: `{ waitMs, until, limit, windowMs }`. */
  onWait?: (wait: RateLimitWait) => void
}

export type TransportConfig = TransportOptions & {
  baseUrl: string
  /** Auth headers, computed per request (a bearer token may change after sign-in). */
  authHeaders?: () => Record<string, string>
  /** Secrets to remove from every error and message. */
  secrets?: () => readonly (string | undefined)[]
}

type Query = Record<string, string | number | boolean | bigint | null | undefined | readonly (string | number)[]>

export type RequestParameters<S extends z.ZodType | null> = {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD'
  path: string
  query?: Query
  body?: unknown
  /** Schema of the success body; `null` for an answer without body. */
  schema: S
  /** Safe to retry on any failure. Default: true for GET and HEAD, false otherwise. */
  idempotent?: boolean
  /** The rate limiter this request draws on. */
  rateLimiter?: RateLimiter | undefined
  signal?: AbortSignal
  /** Statuses other than 2xx to hand back as a successful answer (e.g. 404 meaning "none"). */
  acceptStatus?: readonly number[]
}

export type TransportResponse<T> = { status: number; data: T; headers: Headers }

/** A configured HTTP transport: every client request goes through `request`. */
export type Transport = {
  readonly baseUrl: string
  request<S extends z.ZodType | null>(
    parameters: RequestParameters<S>,
  ): Promise<TransportResponse<S extends z.ZodType ? z.output<S> : undefined>>
  /** The URL a request would use (secrets never appear in URLs). */
  buildUrl(path: string, query?: Query): string
}

/**
 * What a transport's `request` throws, and so every HTTP action: a status that is not a success
 * (its own class for 400/422, 401, 403, 404 and 429), no answer within the timeout, no answer at
 * all, a refused redirect, a body over the size cap, a body that is not JSON, or JSON that is not
 * the spec's shape. An aborted `signal` rethrows its own reason.
 */
export type RequestErrorType =
  | HttpRequestErrorType
  | InvalidRequestErrorType
  | AuthenticationErrorType
  | PermissionDeniedErrorType
  | NotFoundErrorType
  | RateLimitErrorType
  | TimeoutErrorType
  | NetworkErrorType
  | RedirectRefusedErrorType
  | ResponseTooLargeErrorType
  | ResponseParseErrorType
  | ResponseValidationErrorType

/**
 * The transport's defaults, in one object like ky's: what every client of the package uses unless
 * its configuration says otherwise. Read them; pass your own in a client's config to change one.
 *
 * @example
 * import { transportDefaults } from 'personhood'
 * transportDefaults.retry.limit // 3
 */
export const transportDefaults = Object.freeze({
  /** Each attempt's timeout, ms. */
  timeoutMs: 60_000,
  /** Requests in flight at once, per client. */
  concurrency: 4,
  /** Redirects followed on the same origin. */
  maxRedirects: 5,
  /** The cap of a response body: 16 MiB, far above any answer of the spec (a 1,000-row page is about 1 MB). */
  maxResponseBytes: 16 * 1024 * 1024,
  retry: Object.freeze({
    /** Retries after the first attempt. */
    limit: 3,
    /** The first backoff, ms (doubled each retry, with jitter). */
    baseDelayMs: 500,
    /** The longest backoff, ms. */
    maxDelayMs: 30_000,
    /** The longest Retry-After honoured, ms. */
    maxRetryAfterMs: 60_000,
    /** Statuses retried (besides network errors). */
    statusCodes: Object.freeze([408, 429, 500, 502, 503, 504] as const),
  }),
})

const redirectStatuses = new Set([301, 302, 303, 307, 308])

/** Thrown inside an attempt for an answer that must not be retried; rethrown as is. */
class FinalError {
  constructor(readonly error: Error) {}
}

/** Reads a body up to `limit` bytes; over it, cancels the stream and answers undefined. */
async function readLimited(response: Response, limit: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {})
    return undefined
  }
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

/**
 * Creates the transport the clients share: auth headers, a timeout per attempt, retries with
 * exponential backoff and jitter (Retry-After honoured), rate pacing, bounded concurrency, and
 * validation of every answer against its schema. Errors are typed and never carry a secret.
 *
 * @example
 * import { createTransport } from './transport.js'
 * const transport = createTransport({ baseUrl: 'http://127.0.0.1:8787', authHeaders: () => ({ 'X-API-KEY': key }) })
 */
export function createTransport(config: TransportConfig): Transport {
  const {
    fetch: fetchFn = globalThis.fetch,
    timeoutMs = transportDefaults.timeoutMs,
    concurrency = transportDefaults.concurrency,
    now = Date.now,
    sleep = defaultSleep,
    random = Math.random,
    maxResponseBytes = transportDefaults.maxResponseBytes,
    maxRedirects = transportDefaults.maxRedirects,
    timer = realTimer,
  } = config
  const retry = config.retry === false ? { limit: 0 } : (config.retry ?? {})
  const defaults = transportDefaults.retry
  const retryLimit = retry.limit ?? defaults.limit
  const baseDelayMs = retry.baseDelayMs ?? defaults.baseDelayMs
  const maxDelayMs = retry.maxDelayMs ?? defaults.maxDelayMs
  const maxRetryAfterMs = retry.maxRetryAfterMs ?? defaults.maxRetryAfterMs
  const retryStatusCodes = new Set<number>(retry.statusCodes ?? defaults.statusCodes)
  const baseUrl = config.baseUrl.replace(/\/+$/, '')
  const origin = new URL(baseUrl).origin
  const semaphore = createSemaphore(concurrency)
  const secrets = () => config.secrets?.() ?? []

  const buildUrl = (path: string, query?: Query) => {
    const url = new URL(baseUrl + (path.startsWith('/') ? path : `/${path}`))
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue
      url.searchParams.set(name, Array.isArray(value) ? value.join(',') : String(value))
    }
    return url.toString()
  }

  const backoff = (attempt: number) => {
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1))
    return delay / 2 + random() * (delay / 2)
  }

  async function attempt<S extends z.ZodType | null>(parameters: RequestParameters<S>, url: string) {
    const controller = new AbortController()
    const cancelTimeout = timer(timeoutMs, () => controller.abort(new DOMException('timeout', 'TimeoutError')))
    const signal = parameters.signal ? AbortSignal.any([parameters.signal, controller.signal]) : controller.signal
    try {
      const headers: Record<string, string> = { Accept: 'application/json', ...config.headers, ...config.authHeaders?.() }
      let body: string | undefined
      if (parameters.body !== undefined) {
        headers['Content-Type'] = 'application/json'
        body = JSON.stringify(parameters.body)
      }
      // Redirects are followed here, never by fetch: fetch drops Authorization across origins but
      // not X-API-KEY. Only a redirect within the configured origin is followed.
      let method: string = parameters.method
      let target = url
      let response: Response
      for (let hop = 0; ; hop++) {
        response = await fetchFn(target, { method, headers, body, signal, redirect: 'manual' })
        if (!redirectStatuses.has(response.status)) break
        const location = response.headers.get('location')
        await response.body?.cancel().catch(() => {})
        const shown = redact(url, secrets())
        if (!location) throw new FinalError(new HttpRequestError({ method, url: shown, status: response.status, body: '', serverMessage: 'A redirect without a Location header.' }))
        const next = new URL(location, target)
        if (next.origin !== origin) {
          throw new FinalError(new RedirectRefusedError({ method, url: shown, status: response.status, location: next.origin }))
        }
        if (hop >= maxRedirects) {
          throw new FinalError(new RedirectRefusedError({ method, url: shown, status: response.status, location: next.origin, reason: `More than ${maxRedirects} redirects.` }))
        }
        // 303 (and 301/302 after a POST, as browsers do) turn into a GET without body.
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method !== 'GET' && method !== 'HEAD')) {
          method = 'GET'
          body = undefined
          delete headers['Content-Type']
        }
        target = next.toString()
      }
      const text = await readLimited(response, maxResponseBytes)
      if (text === undefined) {
        throw new FinalError(new ResponseTooLargeError({ method, url: redact(url, secrets()), status: response.status, limitBytes: maxResponseBytes }))
      }
      return { kind: 'response' as const, response, text }
    } catch (error) {
      if (error instanceof FinalError) throw error.error
      if (parameters.signal?.aborted) throw parameters.signal.reason
      if (controller.signal.aborted) return { kind: 'timeout' as const, error }
      return { kind: 'network' as const, error }
    } finally {
      cancelTimeout()
    }
  }

  async function request<S extends z.ZodType | null>(parameters: RequestParameters<S>) {
    const url = buildUrl(parameters.path, parameters.query)
    const shownUrl = redact(url, secrets())
    const method = parameters.method
    const idempotent = parameters.idempotent ?? (method === 'GET' || method === 'HEAD')

    return semaphore.run(async () => {
      for (let attemptNumber = 1; ; attemptNumber++) {
        const retriesLeft = attemptNumber <= retryLimit
        try {
          await parameters.rateLimiter?.acquire(parameters.signal, { maxWaitMs: config.maxWaitMs, onWait: config.onWait })
        } catch (error) {
          if (!(error instanceof RateBudgetWaitError)) throw error
          throw new RateLimitError({
            method,
            url: shownUrl,
            status: 429,
            body: '',
            retryAfterMs: error.waitMs,
            details: `Not sent: the key's rate budget (${parameters.rateLimiter!.limit} requests per ${Math.round(parameters.rateLimiter!.windowMs / 60_000)} minutes) returns at ${new Date(error.until).toISOString()}, in ${Math.ceil(error.waitMs / 1000)} s, past maxWaitMs (${error.maxWaitMs} ms).`,
          })
        }
        const result = await attempt(parameters, url)

        if (result.kind !== 'response') {
          // No answer at all. A non-idempotent request may have reached the server: never repeat it.
          if (idempotent && retriesLeft) {
            await sleep(backoff(attemptNumber), parameters.signal)
            continue
          }
          if (result.kind === 'timeout') throw new TimeoutError({ method, url: shownUrl, timeoutMs, cause: result.error })
          throw new NetworkError({ method, url: shownUrl, cause: sanitizeCause(result.error, secrets()) })
        }

        const { response, text } = result
        if (response.ok || parameters.acceptStatus?.includes(response.status)) {
          return {
            status: response.status,
            headers: response.headers,
            data: parseBody(parameters, { method, url: shownUrl, status: response.status, text, secrets: secrets() }),
          } as TransportResponse<S extends z.ZodType ? z.output<S> : undefined>
        }

        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now())
        // 429 means the server refused before doing anything, so even a submit may be repeated.
        const retryable = retryStatusCodes.has(response.status) && (idempotent || response.status === 429)
        if (retryable && retriesLeft && (retryAfterMs === undefined || retryAfterMs <= maxRetryAfterMs)) {
          await sleep(retryAfterMs ?? backoff(attemptNumber), parameters.signal)
          continue
        }
        throw httpError({
          method,
          url: shownUrl,
          status: response.status,
          text: redact(text, secrets()),
          retryAfterMs,
          attempts: attemptNumber,
        })
      }
    })
  }

  return { baseUrl, request, buildUrl }
}

function parseBody<S extends z.ZodType | null>(
  parameters: RequestParameters<S>,
  context: { method: string; url: string; status: number; text: string; secrets: readonly (string | undefined)[] },
) {
  if (parameters.schema === null) return undefined
  let json: unknown
  try {
    json = context.text === '' ? undefined : JSON.parse(context.text)
  } catch (error) {
    // A page that echoes the request (a proxy's error page, a debug endpoint) may hold the key.
    const shown = redact(context.text, context.secrets)
    throw new ResponseParseError({
      method: context.method,
      url: context.url,
      status: context.status,
      body: shown.slice(0, 2000),
      cause: sanitizeCause(error, context.secrets),
      details: describeNonJson(shown),
    })
  }
  const parsed = parameters.schema.safeParse(json)
  if (!parsed.success) {
    throw new ResponseValidationError({
      method: context.method,
      url: context.url,
      issues: parsed.error.issues.map((issue) => ({
        path: issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
        message: redact(issue.message, context.secrets),
      })),
    })
  }
  return parsed.data
}

function describeNonJson(text: string): string {
  if (/^\s*</.test(text)) {
    const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim()
    return `The server answered with an HTML page${title ? ` ("${title}")` : ''}, not JSON.`
  }
  return text === '' ? 'The body is empty.' : `The body starts with: ${text.slice(0, 80)}`
}

function httpError(context: {
  method: string
  url: string
  status: number
  text: string
  retryAfterMs: number | undefined
  attempts: number
}): HttpRequestError {
  let serverMessage: string | undefined
  try {
    serverMessage = readErrorMessage(JSON.parse(context.text))
  } catch {
    serverMessage = context.text.trim() === '' ? undefined : describeNonJson(context.text)
  }
  const parameters: HttpRequestErrorParameters = {
    method: context.method,
    url: context.url,
    status: context.status,
    body: context.text.slice(0, 2000),
    serverMessage,
    metaMessages: context.attempts > 1 ? [`Attempts: ${context.attempts}`] : [],
  }
  switch (context.status) {
    case 400:
    case 422:
      return new InvalidRequestError(parameters)
    case 401:
      return new AuthenticationError(parameters)
    case 403:
      return new PermissionDeniedError(parameters)
    case 404:
      return new NotFoundError(parameters)
    case 429:
      return new RateLimitError({ ...parameters, retryAfterMs: context.retryAfterMs })
    default:
      return new HttpRequestError(parameters)
  }
}

/** The default timer of an attempt's timeout: setTimeout, cancelled with clearTimeout. */
function realTimer(ms: number, fire: () => void): () => void {
  const handle = setTimeout(fire, ms)
  return () => clearTimeout(handle)
}

/**
 * Reads a Retry-After header (seconds or an HTTP date) as milliseconds from `nowMs`.
 * Returns undefined when absent or unreadable.
 *
 * @example
 * import { parseRetryAfter } from './transport.js'
 * parseRetryAfter('120', Date.now()) // 120000
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs)
}

function sanitizeCause(error: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (error instanceof BaseError || !(error instanceof Error)) return error
  const message = redact(error.message, secrets)
  if (message === error.message) return error
  const clean = new Error(message)
  clean.name = error.name
  return clean
}
