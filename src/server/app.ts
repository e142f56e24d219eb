/**
 * `createServer`: the reference server as one hono app (a `fetch(Request) => Response` handler).
 * Interfaces A, B, C and D at `/`, E1-E7 at `/human-id`, E8 at `/attestation-index`, the admin API
 * at `/admin`.
 */
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import type { ChainClient } from '../chain/provider.js'
import type { World } from '../world/types.js'
import { defaultRateLimits, type BlockTime, type RateLimitConfig, type RateLimitTable, type ServerConfig, type ServerContext } from './context.js'
import { answerError, HttpError } from './errors.js'
import { adminAuth } from './middleware/admin.js'
import { apiKeyAuth } from './middleware/api-key.js'
import { latency } from './middleware/latency.js'
import { clientRateLimit } from './middleware/client-limit.js'
import { createRateLimitCounter, rateLimit } from './middleware/rate-limit.js'
import type { Persistence } from './persistence.js'
import { defaultSiweDomains } from './auth/siwe.js'
import { createAdminRoutes } from './routes/admin.js'
import { createAttestationIndexRoutes } from './routes/attestation-index.js'
import { createHumanIdRoutes } from './routes/human-id.js'
import { createModelRoutes } from './routes/model.js'
import { createPassportRoutes } from './routes/passport.js'
import { createRegistryRoutes } from './routes/registry.js'
import { createStampCacheRoutes, defaultNonceTtlMs } from './routes/stamp-cache.js'
import { createEmptyState, parseState, Store } from './state/store.js'
import type { ApiKey, ServerState } from './state/types.js'
import { stateFromWorld } from './state/world.js'
import { InvalidParameterError } from '../errors/input.js'
import { describeValue, parseDuration, parseInteger, parsePositiveInteger } from '../utils/parse.js'
import { minimumSecretBytes } from './auth/jwt.js'
import { apiKeySchema } from './state/schema.js'

/** Options of {@link createServer}. */
/** Largest request body read (1 MiB: a bulk write of 100 stamps is about 150 KB). */
export const maxBodyBytes = 1024 * 1024

/** Largest admin request body (a whole state). */
export const maxAdminBodyBytes = 512 * 1024 * 1024

/** Requests per minute and client address to the routes that need no key (sign-in, verifications, the index, D5/D6). */
export const defaultOpenRouteLimit = 1200

/** Nonces per minute and client address (`GET /account/nonce`). */
export const defaultNonceLimit = 60

/** Options of {@link createServer}: what to serve (a store, a state or a world), its clock, limits and keys. */
export type CreateServerOptions = {
  /** Requests per minute and client address to the routes that need no key. Default {@link defaultOpenRouteLimit}. */
  openRouteLimit?: number
  /** Nonces per minute and client address. Default {@link defaultNonceLimit}. */
  nonceLimit?: number
  /** A store to serve (shared with a persistence, a test...); it scores with its own clock, so give it the same `now`. Wins over `state` and `world`. */
  store?: Store
  /** A state to serve (e.g. parsed from a file). Wins over `world`. */
  state?: ServerState
  /** A world to load (see `generateWorld`). Without store, state or world: an empty state. */
  world?: World
  /** The clock, Unix ms. Default `Date.now`. */
  now?: () => number
  /** The admin bearer token; default: the state's (a random one for a new state). */
  adminToken?: string
  /** The JWT secret of D13 tokens; default: the state's (a random one for a new state). */
  jwtSecret?: string
  /** API keys to add (or update) in the state. */
  apiKeys?: ApiKey[]
  /** Delay before a C2 submission reads DONE (ms). Default 0. */
  processingDelayMs?: number
  /** Artificial latency per request (ms). Default 0. */
  latencyMs?: number
  /** SIWE domains D13 accepts. Default localhost, 127.0.0.1, personhood.local. */
  siweDomains?: readonly string[]
  /** Chain client for smart-contract wallet signatures (ERC-1271/6492). */
  chainClient?: ChainClient
  /** Chain time base override (default: the state's). */
  blockTime?: BlockTime
  /** Rate limits per tier (merged over the defaults). */
  rateLimits?: { stamps?: Partial<RateLimitTable>; models?: Partial<RateLimitTable>; windowMs?: number }
  /** Nonce lifetime (ms). Default 10 minutes. */
  nonceTtlMs?: number
  /** Where changes are saved; each answer waits until its changes are durable. */
  persistence?: Persistence
  /** Called after every change of the state (synchronously), with the new revision. */
  onChange?: (revision: number) => void
}

/** The app `createServer` returns: a hono app (use `server.fetch`) plus its context. */
export type PersonhoodServer = Hono & {
  /** The store, clock and configuration the routes share. */
  readonly context: ServerContext
}

/**
 * Checks the options of {@link createServer} before anything is built, so a bad option is an
 * {@link InvalidParameterError} naming it at creation, never a failed request later. `serve` checks
 * the options it passes on with it before it binds anything.
 *
 * @throws {InvalidParameterError} naming the first bad option.
 */
export function checkServerOptions(options: CreateServerOptions): void {
  if (options === null || typeof options !== 'object') throw new InvalidParameterError({ parameter: 'options', reason: `Expected an object, got ${describeValue(options)}.` })
  for (const name of ['now', 'onChange'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new InvalidParameterError({ parameter: name, reason: `Expected a function, got ${describeValue(options[name])}.` })
    }
  }
  if (options.world !== undefined && (options.world === null || typeof options.world !== 'object' || options.world.version !== 1 || !Array.isArray(options.world.wallets))) {
    throw new InvalidParameterError({ parameter: 'world', reason: 'Expected a world of version 1, as generateWorld returns.' })
  }
  if (options.store !== undefined && !(options.store instanceof Store)) throw new InvalidParameterError({ parameter: 'store', reason: 'Expected a Store.' })
  if (options.persistence !== undefined && typeof options.persistence?.saved !== 'function') {
    throw new InvalidParameterError({ parameter: 'persistence', reason: 'Expected an object with a saved(revision) function.' })
  }
  if (options.blockTime !== undefined) {
    parseInteger(options.blockTime?.genesisTime, 'blockTime.genesisTime', { min: 0 })
    parseInteger(options.blockTime?.blockTimeSeconds, 'blockTime.blockTimeSeconds', { min: 1 })
  }
  if (options.adminToken !== undefined && (typeof options.adminToken !== 'string' || options.adminToken === '')) {
    throw new InvalidParameterError({ parameter: 'adminToken', reason: 'Expected a non-empty string.' })
  }
  if (options.jwtSecret !== undefined && (typeof options.jwtSecret !== 'string' || new TextEncoder().encode(options.jwtSecret).byteLength < minimumSecretBytes)) {
    throw new InvalidParameterError({ parameter: 'jwtSecret', reason: `Expected a string of at least ${minimumSecretBytes} bytes.` })
  }
  for (const name of ['processingDelayMs', 'latencyMs', 'nonceTtlMs'] as const) {
    if (options[name] !== undefined) parseDuration(options[name], name)
  }
  for (const name of ['openRouteLimit', 'nonceLimit'] as const) {
    if (options[name] !== undefined) parsePositiveInteger(options[name], name)
  }
  const { rateLimits } = options
  if (rateLimits !== undefined) {
    for (const table of ['stamps', 'models'] as const) {
      for (const [tier, limit] of Object.entries(rateLimits[table] ?? {})) {
        if (!['1', '2', '3', '4'].includes(tier)) throw new InvalidParameterError({ parameter: `rateLimits.${table}`, reason: `Tiers are 1 to 4, got ${describeValue(tier)}.` })
        parsePositiveInteger(limit, `rateLimits.${table}[${tier}]`)
      }
    }
    if (rateLimits.windowMs !== undefined) parseDuration(rateLimits.windowMs, 'rateLimits.windowMs', { positive: true })
  }
  if (options.siweDomains !== undefined && (!Array.isArray(options.siweDomains) || !options.siweDomains.every((domain) => typeof domain === 'string' && domain !== ''))) {
    throw new InvalidParameterError({ parameter: 'siweDomains', reason: 'Expected an array of host names.' })
  }
  if (options.apiKeys !== undefined) {
    const parsed = z.array(apiKeySchema).safeParse(options.apiKeys)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!
      throw new InvalidParameterError({ parameter: ['apiKeys', ...issue.path.map(String)].join('.'), reason: issue.message })
    }
  }
}

/**
 * Creates the reference server.
 *
 * @throws {InvalidParameterError} on invalid options (a clock that is not a function, negative
 * delays, rate limits that are not positive integers, a JWT secret under 32 bytes, malformed API
 * keys, a world stamp of an unknown issuer), naming the option.
 * @throws {InvalidStateError} when `state` is not a usable state (another version, a field of the wrong type).
 * @example
 * import { createServer } from 'personhood/server'
 * import { generateWorld } from 'personhood/world'
 * const server = createServer({ world: generateWorld({ now: new Date() }) })
 * const response = await server.fetch(new Request('http://localhost/v2/stamps/metadata', { headers: { 'X-API-KEY': key } }))
 */
export function createServer(options: CreateServerOptions = {}): PersonhoodServer {
  checkServerOptions(options)
  const now = options.now ?? Date.now
  const store =
    options.store ??
    new Store(
      options.state
        ? parseState(options.state)
        : options.world
          ? stateFromWorld(options.world, { ...(options.adminToken ? { adminToken: options.adminToken } : {}), ...(options.jwtSecret ? { jwtSecret: options.jwtSecret } : {}) })
          : createEmptyState({ ...(options.adminToken ? { adminToken: options.adminToken } : {}), ...(options.jwtSecret ? { jwtSecret: options.jwtSecret } : {}) }),
      { now },
    )
  if ((options.adminToken && options.adminToken !== store.state.secrets.adminToken) || (options.jwtSecret && options.jwtSecret !== store.state.secrets.jwtSecret)) {
    store.mutate((state) => {
      state.secrets = {
        adminToken: options.adminToken || state.secrets.adminToken,
        jwtSecret: options.jwtSecret || state.secrets.jwtSecret,
      }
    })
  }
  if (options.apiKeys?.length) {
    store.mutate((state) => {
      for (const apiKey of options.apiKeys!) {
        state.apiKeys = [...state.apiKeys.filter((existing) => existing.key !== apiKey.key), { ...apiKey }]
      }
    })
  }
  if (options.onChange) store.onChange(options.onChange)

  const rateLimits: RateLimitConfig = {
    stamps: { ...defaultRateLimits.stamps, ...options.rateLimits?.stamps },
    models: { ...defaultRateLimits.models, ...options.rateLimits?.models },
    windowMs: options.rateLimits?.windowMs ?? defaultRateLimits.windowMs,
  }
  const config: ServerConfig = {
    get adminToken() {
      return store.state.secrets.adminToken
    },
    get jwtSecret() {
      return store.state.secrets.jwtSecret
    },
    siweDomains: Object.freeze([...(options.siweDomains ?? defaultSiweDomains)]),
    chainClient: options.chainClient,
    blockTime: options.blockTime,
    processingDelayMs: options.processingDelayMs ?? 0,
    nonceTtlMs: options.nonceTtlMs ?? defaultNonceTtlMs,
    latencyMs: options.latencyMs ?? 0,
    rateLimits,
  }
  const ctx: ServerContext = {
    store,
    now,
    config,
    blockTime: () => options.blockTime ?? { genesisTime: store.state.chain.genesisTime, blockTimeSeconds: store.state.chain.blockTimeSeconds },
  }

  const app = new Hono()
  app.onError(answerError)
  app.notFound((c) => answerError(new HttpError(404, 'Not Found'), c))

  // Bodies are capped before they are read: past the cap the stream is cut and the answer is 413.
  // The admin API takes whole states (tens of MB) behind its token.
  const limitOf = (maxSize: number) => bodyLimit({ maxSize, onError: (c) => answerError(new HttpError(413, `Request body too large: at most ${maxSize} bytes.`), c) })
  const publicBodies = limitOf(maxBodyBytes)
  const adminBodies = limitOf(maxAdminBodyBytes)
  app.use('*', (c, next) => (c.req.path.startsWith('/admin/') ? adminBodies(c, next) : publicBodies(c, next)))
  // Routes that need no key are limited per client address.
  const open = clientRateLimit({ limit: options.openRouteLimit ?? defaultOpenRouteLimit, windowMs: 60_000, now, name: 'the open routes' })
  const nonces = clientRateLimit({ limit: options.nonceLimit ?? defaultNonceLimit, windowMs: 60_000, now, name: 'nonces' })
  app.use('/account/nonce', nonces)
  for (const path of ['/account/*', '/stamp-cache/authenticate/*', '/stamp-cache/weights', '/stamp-cache/stamp', '/human-id/*', '/attestation-index/*']) app.use(path, open)

  if (config.latencyMs > 0) app.use('*', latency({ ms: config.latencyMs }))
  const persistence = options.persistence
  if (persistence) {
    app.use('*', async (c, next) => {
      const before = store.revision
      await next()
      if (store.revision !== before) {
        try {
          await persistence.saved(store.revision)
        } catch {
          throw new HttpError(500, 'The change could not be saved.')
        }
      }
    })
  }

  // A and C share one budget per key; B has its own.
  const auth = apiKeyAuth({ store })
  const stampsBudget = createRateLimitCounter()
  const stampsLimit = rateLimit({ limits: rateLimits.stamps, windowMs: rateLimits.windowMs, now, counter: stampsBudget })
  const modelsLimit = rateLimit({ limits: rateLimits.models, windowMs: rateLimits.windowMs, now })
  app.use('/v2/models/*', auth, modelsLimit)
  app.use('/v2/stamps/*', auth, stampsLimit)
  app.use('/registry/*', auth, stampsLimit)

  app.route('/', createPassportRoutes(ctx))
  app.route('/', createModelRoutes(ctx))
  app.route('/', createRegistryRoutes(ctx))
  app.route('/', createStampCacheRoutes(ctx))
  app.route('/human-id', createHumanIdRoutes(ctx))
  app.route('/attestation-index', createAttestationIndexRoutes(ctx))

  app.use('/admin/*', adminAuth({ token: () => store.state.secrets.adminToken }))
  app.route('/admin', createAdminRoutes(ctx))

  return Object.assign(app, { context: ctx }) as PersonhoodServer
}
