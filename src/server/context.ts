/**
 * The context every route factory of the reference server receives: the store, the injected clock
 * and the configuration. Route modules never read the wall clock or globals: `ctx.now()` is the
 * time, `ctx.store` the state.
 *
 * @example
 * import { Hono } from 'hono'
 * import type { ServerContext } from './context.js'
 * export function createExampleRoutes(ctx: ServerContext): Hono {
 *   const app = new Hono()
 *   app.get('/weights', (c) => c.json(ctx.store.weights()))
 *   return app
 * }
 */
import type { ChainClient } from '../chain/provider.js'
import type { Store } from './state/store.js'

/** The time base of the chain: block `n` is mined at `genesisTime + n * blockTimeSeconds` (Unix seconds). */
export type BlockTime = { genesisTime: number; blockTimeSeconds: number }

/** Requests per fixed 15-minute window, per API key and tier. */
export type RateLimitTable = { 1: number; 2: number; 3: number; 4: number }

/** Rate limits of interfaces A and C (one shared budget) and of interface B. */
export type RateLimitConfig = {
  /** A and C. Default 125 / 350 / 2000 / 10000. */
  stamps: RateLimitTable
  /** B. Default 15 / 350 / 2000 / 10000. */
  models: RateLimitTable
  /** Window length in ms. Default 15 minutes. */
  windowMs: number
}

/** The server's configuration, resolved from the {@link CreateServerOptions} of `createServer`. */
export type ServerConfig = {
  /** The admin bearer token (kept in the state's secrets, so it survives a restart from `--data`). */
  readonly adminToken: string
  /** HMAC secret of the cache interface's JWTs (D13); kept in the state's secrets. */
  readonly jwtSecret: string
  /** SIWE domains D13 accepts (host or host:port). */
  readonly siweDomains: readonly string[]
  /** A chain client for ERC-1271 / ERC-6492 signature checks of smart-contract wallets (D13, D12). */
  readonly chainClient: ChainClient | undefined
  /** Override of the state's chain time base (E4-E6 map `snapshot` blocks to times with it). */
  readonly blockTime: BlockTime | undefined
  /** Delay before a C2 submission reads DONE (ms). Default 0: DONE at once. */
  readonly processingDelayMs: number
  /** Lifetime of C1, ToS and SIWE nonces (ms). Default 10 minutes. */
  readonly nonceTtlMs: number
  /** Artificial latency added to every request (ms). Default 0. */
  readonly latencyMs: number
  readonly rateLimits: RateLimitConfig
}

/** What route factories receive. */
export type ServerContext = {
  store: Store
  /** Unix ms, injected (tests pass a fixed clock). */
  now(): number
  config: ServerConfig
  /** The chain time base: `config.blockTime` if given, else the state's (the world's) chain. */
  blockTime(): BlockTime
}

/** Default rate limits (spec "Limits"; tier 4 is "more than 2000": 10,000 here). */
export const defaultRateLimits: RateLimitConfig = {
  stamps: { 1: 125, 2: 350, 3: 2000, 4: 10_000 },
  models: { 1: 15, 2: 350, 3: 2000, 4: 10_000 },
  windowMs: 15 * 60 * 1000,
}
