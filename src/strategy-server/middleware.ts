/**
 * The strategy server's middleware, in hono's style: small factories that check their options when
 * created and return a `MiddlewareHandler`. `createStrategyServer` composes them: the request log
 * (with the one redaction), the drain on shutdown, and the secret check api-v2 sends.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { InvalidParameterError } from '../errors/input.js'
import { redact } from '../utils/redact.js'
import { StrategyServerRequestError } from './answer.js'
import type { StrategyServerMetrics } from './metrics.js'

/** The header score-api's api-v2 sends: `sha256(url + SNAPSHOT_API_STRATEGY_SALT)`, hex. */
export const secretHeader = 'X-Snapshot-API-Strategy-Secret'

/** What a strategy call's handlers tell the request log (hono's `c.var`). */
export type StrategyCallVariables = { strategy: string; addresses: number; block: string; hits: number }

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}

/** `sha256(url + salt)` as api-v2 sends it (hex). */
export function strategySecret(url: string, salt: string): string {
  return digest(`${url}${salt}`).toString('hex')
}

/** Constant-time: both sides are hashed first, so lengths never differ. */
function sameSecret(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented.trim().toLowerCase()), digest(expected))
}

function unauthorized(reason: string): StrategyServerRequestError {
  return new StrategyServerRequestError(401, 'INVALID_STRATEGY_SECRET', reason, secretHeader, { 'WWW-Authenticate': `SnapshotStrategySecret header="${secretHeader}"` })
}

/** Options of {@link strategySecretCheck}. */
export type StrategySecretCheckOptions = {
  /** score-api's `SNAPSHOT_API_STRATEGY_SALT`: at least 8 characters. */
  salt: string
  /**
   * The URL api-v2 signed: api-post's `options.url` (read from the body), api-get's own URL with its
   * query. Undefined when the request holds none (api-post without `options.url`).
   */
  signedUrl: (c: Context) => string | undefined
  /**
   * Checks that the signed URL names the route's strategy (api-post: its `options.url` could name
   * another endpoint of the server): the reason to refuse, or undefined. Default: no such check.
   */
  matchRoute?: ((c: Context, url: string) => string | undefined) | undefined
}

/**
 * Refuses a call whose `X-Snapshot-API-Strategy-Secret` is not `sha256(url + salt)` of the URL
 * api-v2 signed: 401 with `WWW-Authenticate`, compared in constant time. One check for api-post
 * and api-get; only `signedUrl` differs.
 *
 * @throws {InvalidParameterError} at creation when the salt is not a string of at least 8 characters.
 * @example
 * app.get('/strategies/:name', strategySecretCheck({ salt, signedUrl: (c) => c.req.url }), handler)
 */
export function strategySecretCheck(options: StrategySecretCheckOptions): MiddlewareHandler {
  const { salt, signedUrl, matchRoute } = options
  if (typeof salt !== 'string' || salt.length < 8) throw new InvalidParameterError({ parameter: 'salt', reason: 'Expected a string of at least 8 characters.' })
  if (typeof signedUrl !== 'function') throw new InvalidParameterError({ parameter: 'signedUrl', reason: 'Expected a function of the request.' })
  return async (c, next) => {
    const presented = c.req.header(secretHeader)
    if (!presented) throw unauthorized(`Missing ${secretHeader}: this server answers only the score-api that knows its salt.`)
    const url = signedUrl(c)
    const what = matchRoute ? 'sha256(options.url + salt)' : 'sha256(url + salt) for this URL'
    if (typeof url !== 'string' || !sameSecret(presented, strategySecret(url, salt))) throw unauthorized(`${secretHeader} does not match ${what}.`)
    const mismatch = matchRoute?.(c, url)
    if (mismatch !== undefined) throw unauthorized(mismatch)
    await next()
  }
}

/** Options of {@link requestLog}. */
export type RequestLogOptions = {
  /** Where the lines go, one JSON line a request. Default: none (the metrics are still counted). */
  log?: ((line: string) => void) | undefined
  /** Counts every request and observes each strategy call's time. */
  metrics: StrategyServerMetrics
  /** The clock of the `time` field, Unix ms. Default Date.now. */
  now?: (() => number) | undefined
  /** Secrets that never appear in a line (the salt, the RPC URLs' keys), besides the presented secret and what `redact` finds on its own. */
  secrets?: readonly (string | undefined)[] | undefined
}

/**
 * One JSON line per request (method, path, status, time, the strategy call's size and block) and
 * the request metrics, with `Server-Timing`. The path goes through the one redaction (`redact`)
 * with the configured secrets and the presented secret header; the header's value is never shown.
 *
 * @throws {InvalidParameterError} at creation when `log` is not a function or `metrics` is missing.
 */
export function requestLog(options: RequestLogOptions): MiddlewareHandler<{ Variables: Partial<StrategyCallVariables> }> {
  const { log, metrics, now = Date.now } = options
  if (log !== undefined && typeof log !== 'function') throw new InvalidParameterError({ parameter: 'log', reason: 'Expected a function that takes a line.' })
  if (!metrics || typeof metrics.count !== 'function') throw new InvalidParameterError({ parameter: 'metrics', reason: 'Expected the server metrics (createStrategyServerMetrics).' })
  const secrets = [...(options.secrets ?? [])]
  return async (c, next) => {
    const started = performance.now()
    await next()
    const seconds = (performance.now() - started) / 1000
    c.res.headers.set('Server-Timing', `total;dur=${(seconds * 1000).toFixed(1)}`)
    const strategy = c.get('strategy')
    const route = strategy === undefined ? new URL(c.req.url).pathname : '/strategies/:name'
    metrics.count('personhood_strategy_requests_total', { route, strategy: strategy ?? '', status: String(c.res.status) })
    if (strategy !== undefined) metrics.observe(strategy, seconds)
    if (!log) return
    const presented = c.req.header(secretHeader)
    const url = new URL(c.req.url)
    const entry = {
      time: new Date(now()).toISOString(),
      method: c.req.method,
      path: redact(`${url.pathname}${url.search.length > 200 ? `${url.search.slice(0, 200)}...` : url.search}`, [...secrets, presented]),
      status: c.res.status,
      ms: Math.round(seconds * 10_000) / 10,
      ...(strategy === undefined ? {} : { strategy, addresses: c.get('addresses'), block: c.get('block'), hits: c.get('hits') }),
      ...(presented === undefined ? {} : { secret: '[redacted]' }),
      userAgent: c.req.header('User-Agent'),
    }
    log(JSON.stringify(entry))
  }
}

/** Options of {@link drainOnShutdown}. */
export type DrainOnShutdownOptions = {
  /** Seconds a caller is told to wait (Retry-After) once the server drains. Default 1. */
  retryAfterSeconds?: number | undefined
}

/** A drain: its middleware, the switch, and whether it is on. */
export type Drain = {
  /** Answers 503 `STOPPING` with Retry-After once {@link Drain.drain} was called; passes every call on before. */
  middleware: MiddlewareHandler
  /** From now on the middleware answers 503 (a load balancer stops sending). */
  drain(): void
  readonly draining: boolean
}

/**
 * The drain on shutdown: once `drain()` is called, calls behind the middleware get 503 with
 * Retry-After (ask another instance), while calls already past it finish.
 *
 * @throws {InvalidParameterError} at creation on a `retryAfterSeconds` that is not a positive integer.
 * @example
 * const stopping = drainOnShutdown()
 * app.post('/strategies/:name', stopping.middleware, handler)
 * process.on('SIGTERM', () => stopping.drain())
 */
export function drainOnShutdown(options: DrainOnShutdownOptions = {}): Drain {
  const { retryAfterSeconds = 1 } = options
  if (!Number.isSafeInteger(retryAfterSeconds) || retryAfterSeconds < 1) {
    throw new InvalidParameterError({ parameter: 'retryAfterSeconds', reason: `Expected a positive integer, got ${String(retryAfterSeconds)}.` })
  }
  let draining = false
  return {
    async middleware(_c, next) {
      if (draining) throw new StrategyServerRequestError(503, 'STOPPING', 'The server is stopping; ask another instance or retry.', undefined, { 'Retry-After': String(retryAfterSeconds) })
      await next()
    },
    drain() {
      draining = true
    },
    get draining() {
      return draining
    },
  }
}
