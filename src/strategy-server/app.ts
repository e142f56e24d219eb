/**
 * `createStrategyServer`: score-api's `api-v2` protocol over this package's strategies, as one hono
 * app. `POST /strategies/<name>` speaks `type: "api-post"`, `GET /strategies/<name>` speaks
 * `type: "api-get"`; `/health` and `/metrics` are for the operator. See docs/strategy-server.md.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { InvalidParameterError } from '../errors/input.js'
import type { StrategyContext } from '../strategy/context.js'
import { strategyDefinitions } from '../strategy/registry.js'
import type { StrategyProvider } from '../strategy/snapshot.js'
import { redact } from '../utils/redact.js'
import { scaleScore, StrategyServerRequestError, toErrorAnswer } from './answer.js'
import { createStrategyServerMetrics, type StrategyServerMetrics } from './metrics.js'
import { createStrategyScorer, readScoreCall, type AnyStrategyDefinition, type StrategyScorer } from './scorer.js'
import { strategyServerDefaults } from './defaults.js'
import { drainOnShutdown, requestLog, strategySecretCheck, type StrategyCallVariables } from './middleware.js'
import { createMemoryAnswerStore, type AnswerStore } from './store.js'
import { mountVoterPage, type VoterPageOptions } from './voter-page/index.js'

export { secretHeader, strategySecret } from './middleware.js'

/** api-v2's own option names: read by the server, never passed to a strategy. */
export const apiV2OptionNames = ['url', 'type', 'decimals', 'additionalParameters'] as const

/** Largest `decimals` read (api-v2 passes it to formatUnits). */
export const maxDecimals = 36

const { stillScoringRetrySeconds } = strategyServerDefaults

/** Options of {@link createStrategyServer}. */
export type CreateStrategyServerOptions = {
  /**
   * The strategies served, by path name. Default: every strategy of the package
   * (`strategyDefinitions`). Adding one is one entry.
   */
  strategies?: Readonly<Record<string, AnyStrategyDefinition>> | undefined
  /** A provider per network served (chain id string). */
  providers: Readonly<Record<string, StrategyProvider>>
  /** Where the sources are and their keys (the operator's; a space's options cannot name hosts or keys). */
  context?: StrategyContext | undefined
  /** Where final answers are kept. Default: in memory. */
  store?: AnswerStore | undefined
  /** score-api's `SNAPSHOT_API_STRATEGY_SALT`. Without it, the server answers anyone. */
  salt?: string | undefined
  /**
   * The origin the space's URL starts with (e.g. `https://scores.example.org`), when a proxy changes
   * it: api-get's secret covers the whole URL with its query. Default: the request's own origin.
   */
  publicUrl?: string | undefined
  /** The clock, Unix ms. Default Date.now. */
  now?: (() => number) | undefined
  /** See {@link createStrategyScorer}. Default 15 minutes. */
  finalityMs?: number | undefined
  /** See {@link createStrategyScorer}. Default 5 ms. */
  batchWindowMs?: number | undefined
  /** See {@link createStrategyScorer}. Default 250 ms. */
  maxBatchWaitMs?: number | undefined
  /** Most addresses a call (more: 413). Default {@link strategyServerDefaults}`.maxAddresses` (20,000). */
  maxAddresses?: number | undefined
  /**
   * The longest a call waits for its answer, ms: past it the call gets 503 with Retry-After while
   * its run goes on (its answers are kept, so the retry finds them). Default
   * {@link strategyServerDefaults}`.answerWithinMs` (18 s), inside the 20 s api-v2 gives a call.
   */
  answerWithinMs?: number | undefined
  /** Where request logs go, one JSON line each. Default: none. */
  log?: ((line: string) => void) | undefined
  /** Metrics to add to (shared with a fetch that counts upstream requests). Default: new. */
  metrics?: StrategyServerMetrics | undefined
  /**
   * Secrets that must never leave the server (the JSON-RPC URLs' keys: `urlSecrets(url)` of each),
   * besides the salt and what the one redaction (`redact`) finds on its own. Every error answer
   * and every log line goes through `redact` with them.
   */
  secrets?: readonly string[] | undefined
  /** The voter page (`/voters`): its hub and rate limits, or false for none. Default: on, the public hub. */
  voterPage?: VoterPageOptions | false | undefined
}

/** The app: a hono app plus what an operator needs around it. */
export type StrategyServer = Hono & {
  readonly scorer: StrategyScorer
  readonly metrics: StrategyServerMetrics
  readonly store: AnswerStore
  readonly strategies: Readonly<Record<string, AnyStrategyDefinition>>
  /** Whether a salt is checked. */
  readonly secured: boolean
  /** From now on /health answers 503 and new strategy calls 503 (a load balancer stops sending). */
  drain(): void
}

function readDecimals(value: unknown): number {
  if (value === undefined) return 0
  const number = typeof value === 'string' && /^[0-9]{1,2}$/.test(value) ? Number(value) : value
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0 || number > maxDecimals) {
    throw new StrategyServerRequestError(400, 'INVALID_PARAMETER', `options.decimals must be an integer from 0 to ${maxDecimals} (api-v2 scales every score by it).`, 'options.decimals')
  }
  return number
}

/**
 * Creates the strategy server.
 *
 * @throws {InvalidParameterError} at creation on a bad option (a strategy name, a provider, the salt).
 * @example
 * import { createStrategyServer } from 'personhood/strategy-server'
 * const app = createStrategyServer({ providers: { '10': viemClient }, salt: process.env.SNAPSHOT_API_STRATEGY_SALT })
 * const response = await app.fetch(new Request('http://localhost/strategies/human-id', { method: 'POST', body }))
 */
export function createStrategyServer(options: CreateStrategyServerOptions): StrategyServer {
  const { providers, context, salt, publicUrl, now = Date.now, log } = options
  const secrets = [salt, ...(options.secrets ?? [])]
  const strategies = options.strategies ?? strategyDefinitions
  const store = options.store ?? createMemoryAnswerStore()
  const metrics = options.metrics ?? createStrategyServerMetrics()
  const maxAddresses = options.maxAddresses ?? strategyServerDefaults.maxAddresses
  const answerWithinMs = options.answerWithinMs ?? strategyServerDefaults.answerWithinMs
  for (const [name, definition] of Object.entries(strategies)) {
    if (!/^[a-z0-9-]+$/.test(name) || typeof definition?.score !== 'function') {
      throw new InvalidParameterError({ parameter: 'strategies', reason: `"${name}" must be a kebab-case name of a strategy definition.` })
    }
  }
  if (providers === null || typeof providers !== 'object') throw new InvalidParameterError({ parameter: 'providers', reason: 'Expected a provider per network.' })
  for (const network of Object.keys(providers)) {
    if (!/^[1-9][0-9]{0,15}$/.test(network)) throw new InvalidParameterError({ parameter: `providers.${network}`, reason: 'A network is a chain id (digits).' })
  }
  if (!Number.isSafeInteger(maxAddresses) || maxAddresses < 1) throw new InvalidParameterError({ parameter: 'maxAddresses', reason: `Expected a positive integer, got ${String(maxAddresses)}.` })
  if (!(answerWithinMs > 0)) throw new InvalidParameterError({ parameter: 'answerWithinMs', reason: `Expected a positive number of ms, got ${String(answerWithinMs)}.` })
  const networks = Object.keys(providers)
  const scorer = createStrategyScorer({
    providers,
    context,
    store,
    now,
    finalityMs: options.finalityMs,
    batchWindowMs: options.batchWindowMs,
    maxBatchWaitMs: options.maxBatchWaitMs,
    maxBatch: maxAddresses,
    onRun({ strategy, requests }) {
      metrics.count('personhood_strategy_runs_total', { strategy })
      for (const [source, count] of Object.entries(requests)) metrics.count('personhood_strategy_upstream_requests_total', { source }, count)
    },
    onRequest: (source) => metrics.count('personhood_strategy_upstream_requests_total', { source }),
  })
  const stopping = drainOnShutdown()
  type CallInput = { options: Record<string, unknown>; network: unknown; snapshot: unknown; addresses: unknown }
  const app = new Hono<{ Variables: StrategyCallVariables & { definition: AnyStrategyDefinition; input: CallInput } }>()

  // One JSON line per request; the secret header's value, the salt and URL credentials never appear.
  app.use('*', requestLog({ log, metrics, now, secrets }))

  app.onError((error, c) => {
    const answer = toErrorAnswer(error, now)
    if (answer.status === 500 && answer.body.error.code === 'INTERNAL') console.error('personhood strategy-server error:', redact(error instanceof Error ? (error.stack ?? error.message) : String(error), secrets))
    // Every error that leaves the server goes through the one redaction: a source's message may
    // carry a URL with its key (viem's `URL:` detail names the JSON-RPC endpoint in full).
    const body = JSON.parse(redact(JSON.stringify(answer.body), secrets)) as typeof answer.body
    return c.json(body, answer.status, answer.headers)
  })
  app.notFound((c) => {
    const answer = toErrorAnswer(new StrategyServerRequestError(404, 'NOT_FOUND', `No route ${c.req.method} ${new URL(c.req.url).pathname}: strategies are at /strategies/<name> (${Object.keys(strategies).join(', ')}).`))
    return c.json(answer.body, answer.status)
  })

  app.get('/health', (c) =>
    c.json(
      { status: stopping.draining ? 'stopping' : 'ok', strategies: Object.keys(strategies), networks, secured: salt !== undefined, store: { file: store.opened.file ?? null, answers: store.size }, pendingRuns: scorer.pending },
      stopping.draining ? 503 : 200,
    ),
  )
  app.get('/metrics', (c) =>
    c.text(metrics.render({ personhood_strategy_store_answers: store.size, personhood_strategy_pending_runs: scorer.pending, personhood_strategy_queued_addresses: scorer.queued }), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }),
  )
  if (options.voterPage !== false) mountVoterPage(app, { ...options.voterPage, strategies, providers, context, now, apiV2OptionNames })
  app.get('/', (c) => c.json({ strategies: Object.fromEntries(Object.entries(strategies).map(([name, definition]) => [name, { title: definition.title, path: `/strategies/${name}` }])), networks }))

  /** The route's strategy (404 for another name), told to the request log. */
  const findStrategy: MiddlewareHandler = async (c, next) => {
    const name = c.req.param('name') ?? ''
    const definition = Object.hasOwn(strategies, name) ? strategies[name] : undefined
    if (!definition) throw new StrategyServerRequestError(404, 'UNKNOWN_STRATEGY', `No strategy "${name.slice(0, 60)}" here: one of ${Object.keys(strategies).join(', ')}.`, 'strategy')
    c.set('definition', definition)
    c.set('strategy', definition.name)
    await next()
  }
  // api-post signs its body's options.url (which must name this route); api-get its own URL with the query.
  const postSecret = salt === undefined ? [] : [
    strategySecretCheck({
      salt,
      signedUrl: (c) => {
        const url = (c.get('input') as CallInput).options.url
        return typeof url === 'string' ? url : undefined
      },
      matchRoute: (c, url) => {
        let path: string
        try {
          path = new URL(url).pathname.replace(/\/+$/, '')
        } catch {
          return 'options.url is not a URL.'
        }
        const route = c.req.param('name') ?? ''
        return path.endsWith(`/${route}`) ? undefined : `options.url names another endpoint than /strategies/${route}.`
      },
    }),
  ]
  const getSecret = salt === undefined ? [] : [
    strategySecretCheck({
      salt,
      signedUrl: (c) => {
        const url = new URL(c.req.url)
        return `${(publicUrl ?? url.origin).replace(/\/+$/, '')}${url.pathname}${url.search}`
      },
    }),
  ]

  /**
   * The answer, or a 503 with Retry-After once `answerWithinMs` has passed: api-v2 gives up at 20 s,
   * and a clear "retry" beats its timeout. The run goes on and keeps its answers for the retry.
   */
  function withinTime<T>(scoring: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        metrics.count('personhood_strategy_late_answers_total', {})
        reject(
          new StrategyServerRequestError(
            503,
            'STILL_SCORING',
            `The answer is still being computed after ${answerWithinMs} ms; its run goes on and keeps its answers: retry in ${stillScoringRetrySeconds} s.`,
            undefined,
            { 'Retry-After': String(stillScoringRetrySeconds) },
          ),
        )
      }, answerWithinMs)
    })
    // A run that fails after the 503 was sent has no one left to tell.
    scoring.catch(() => {})
    return Promise.race([scoring, late]).finally(() => clearTimeout(timer))
  }

  async function answer(c: Context, definition: AnyStrategyDefinition, input: CallInput) {
    const decimals = readDecimals(input.options.decimals)
    const strategyOptions = Object.fromEntries(Object.entries(input.options).filter(([name]) => !(apiV2OptionNames as readonly string[]).includes(name)))
    const call = readScoreCall(definition, { ...input, options: strategyOptions }, { networks, context, maxAddresses })
    c.set('addresses', call.addresses.length)
    const result = await withinTime(scorer.score(call))
    c.set('block', String(result.blockNumber))
    c.set('hits', result.hits)
    metrics.count('personhood_strategy_cache_hits_total', { strategy: definition.name }, result.hits)
    metrics.count('personhood_strategy_cache_misses_total', { strategy: definition.name }, call.addresses.length - result.hits)
    let rounded = 0
    const byLower = new Map<string, number>()
    for (const [address, value] of result.scores) byLower.set(address.toLowerCase(), value)
    const seen = new Set<string>()
    const score: { address: string; score: string }[] = []
    for (const address of input.addresses as string[]) {
      if (seen.has(address)) continue
      seen.add(address)
      const scaled = scaleScore(byLower.get(address.toLowerCase()) as number, decimals)
      if (scaled.rounded) rounded += 1
      score.push({ address, score: scaled.text })
    }
    return c.json({ score }, 200, {
      'X-Snapshot-Block': String(result.blockNumber),
      'X-Snapshot-Requested': String(call.snapshot),
      'X-Personhood-Final': String(result.final),
      'X-Personhood-Cache-Hits': String(result.hits),
      'X-Personhood-Decimals': String(decimals),
      ...(rounded ? { 'X-Personhood-Rounded': String(rounded) } : {}),
      'Cache-Control': 'no-store',
    })
  }

  /** api-post's body, read as { options, network, snapshot, addresses } before the secret check (which reads options.url). */
  const readBody: MiddlewareHandler = async (c, next) => {
    let body: unknown
    try {
      body = JSON.parse(await c.req.text())
    } catch {
      throw new StrategyServerRequestError(400, 'INVALID_BODY', 'The body is not JSON: api-post sends { options, network, snapshot, addresses }.', 'body')
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new StrategyServerRequestError(400, 'INVALID_BODY', 'Expected a JSON object { options, network, snapshot, addresses }.', 'body')
    const { options: given = {}, network, snapshot, addresses } = body as Record<string, unknown>
    if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new StrategyServerRequestError(400, 'INVALID_PARAMETER', 'options must be an object.', 'options')
    c.set('input', { options: given as Record<string, unknown>, network, snapshot, addresses })
    await next()
  }
  /** api-get's query, read as the same input (after the secret check, which covers the whole URL). */
  const readQuery: MiddlewareHandler = async (c, next) => {
    const query = new URL(c.req.url).searchParams
    let options: Record<string, unknown> = {}
    const optionsText = query.get('options')
    if (optionsText !== null) {
      try {
        options = JSON.parse(optionsText) as Record<string, unknown>
      } catch {
        throw new StrategyServerRequestError(400, 'INVALID_PARAMETER', 'options must be JSON (URL-encoded).', 'options')
      }
      if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new StrategyServerRequestError(400, 'INVALID_PARAMETER', 'options must be a JSON object.', 'options')
    }
    if (query.get('decimals') !== null) options = { ...options, decimals: query.get('decimals') }
    const addressText = query.get('addresses')
    if (addressText === null) throw new StrategyServerRequestError(400, 'INVALID_PARAMETER', 'addresses is missing: ?network=&snapshot=&addresses=a,b', 'addresses')
    const snapshotText = query.get('snapshot')
    c.set('input', { options, network: query.get('network') ?? undefined, snapshot: snapshotText === null ? undefined : snapshotText, addresses: addressText === '' ? [] : addressText.split(',') })
    await next()
  }
  const score = (c: Context) => answer(c, c.get('definition') as AnyStrategyDefinition, c.get('input') as CallInput)

  // The body is not read past the limit, so the connection cannot be reused: the 413 says so
  // (Connection: close), and a pooled client opens a new one for its next call.
  const tooLarge = () => {
    throw new StrategyServerRequestError(413, 'BODY_TOO_LARGE', `The body is too large: at most ${maxAddresses} addresses a call.`, 'addresses', { Connection: 'close' })
  }
  app.post('/strategies/:name', bodyLimit({ maxSize: 64 + maxAddresses * 64 + 64 * 1024, onError: tooLarge }), findStrategy, stopping.middleware, readBody, ...postSecret, score)
  app.get('/strategies/:name', findStrategy, stopping.middleware, ...getSecret, readQuery, score)

  return Object.assign(app, {
    scorer,
    metrics,
    store,
    strategies,
    secured: salt !== undefined,
    drain: stopping.drain,
  }) as unknown as StrategyServer
}
