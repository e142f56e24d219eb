/**
 * What a strategy runs with: where the sources are, the secrets, the clock, the cache and the
 * deadline. score-api passes none of it, so the strategy folders read the environment
 * ({@link readStrategyEnvironment}); DAO tooling passes a {@link StrategyContext} directly.
 *
 * Secrets go only where the operator points them: no strategy option names a host, so a space's
 * configuration can never send the Passport API key anywhere but the configured Passport hosts.
 */
import { InvalidParameterError } from '../errors/input.js'
import { StrategyOptionsError } from '../errors/strategy.js'
import { createPassportClient, type PassportClient } from '../clients/passport/index.js'
import { createRegistryClient, type RegistryClient } from '../clients/registry/index.js'
import type { AttestationIndexClient } from '../clients/attestation-index/index.js'
import type { HumanIdClient } from '../clients/human-id/index.js'
import type { ScoreApiClient } from '../clients/score-api.js'
import type { BlockClock } from '../chain/block-at-time.js'
import type { ChainClient } from '../chain/provider.js'
import type { RateLimiter, RateLimitTier, RateLimitWait } from '../http/rate-limit.js'
import { defaultSleep, type Sleep } from '../http/sleep.js'
import { createStrategyCache, type StrategyCache } from './cache.js'
import { createDeadline, type Deadline, type RateBudget } from './deadline.js'
import { strategyDefaults } from './defaults.js'

/** The public Passport host (interface A, v2). */
export const defaultPassportBaseUrl = 'https://api.passport.xyz'
/** The public host of the v1 registry (interface C) when the Passport host is the public one. */
export const defaultRegistryBaseUrl = 'https://api.scorer.gitcoin.co'

/** Access to the Passport scoring services (interfaces A and C), as the operator configures it. */
export type PassportAccess = {
  /** The API key: sent as `X-API-KEY` to `baseUrl` and `registryBaseUrl` only. */
  apiKey?: string | undefined
  /** Interface A (v2: A1 score, A2 history). Default `https://api.passport.xyz`. */
  baseUrl?: string | undefined
  /**
   * Interface C (v1: the C4 score listing). Default: `baseUrl` when it is set (a self-hosted or
   * reference server serves both), else `https://api.scorer.gitcoin.co`.
   */
  registryBaseUrl?: string | undefined
  /** The key's tier: 1 = 125, 2 = 350, 3 = 2,000 requests per 15 minutes (A and C together). Default 1. */
  tier?: RateLimitTier | undefined
  /** The scorer used when a strategy's options name none. */
  scorerId?: number | string | undefined
  /** A limiter to draw on instead of the process-wide one of the key; `false` sends unpaced. */
  rateLimiter?: RateLimiter | false | undefined
}

/** Access to Human ID: the hub chain (Optimism) and the services, as the operator configures them. */
export type HumanIdAccess = {
  /**
   * The hub chain (Optimism; Base Sepolia for a sandbox space): a viem client, an ethers or EIP-1193
   * provider, or a JSON-RPC URL. Needed when the space's network is another chain; when the space
   * is on the hub chain, its own provider is used.
   */
  hubChain?: ChainClient | string | undefined
  /**
   * The hub chain's block clock, to find its block at the snapshot's time. Default Optimism's since
   * Bedrock (Base Sepolia's for a sandbox space); a local or test chain passes its own.
   */
  hubClock?: BlockClock | undefined
  /** The Human ID API (E1-E7, `source: api`). Default `https://api.holonym.io`. */
  baseUrl?: string | undefined
  /** The attestation index (clean hands). Default `https://mainnet-rpc.sign.global`. */
  attestationIndexBaseUrl?: string | undefined
  /**
   * Read each credential's expiry too (the verdicts' `expiresAt`; `source: chain`), for a report
   * that shows it (the audit and `personhood verify` turn it on). The reader then returns 6 more
   * bytes per SBT and attestation, about 1,500 gas each, so a call holds fewer voters: 500 with
   * every credential may take two calls instead of one. Default false: a score needs no expiry, and
   * a call costs what the score-api folder's does (chain verdicts' `expiresAt` is then null).
   */
  expiries?: boolean | undefined
}

/**
 * Everything a strategy call may be given besides its options. All optional.
 *
 * @example
 * import type { StrategyContext } from 'personhood'
 * const context: StrategyContext = {
 *   passport: { apiKey: process.env.PASSPORT_API_KEY, tier: 2 },
 *   deadlineMs: 60_000,
 * }
 */
export type StrategyContext = {
  /** The fetch of every HTTP request of clients built from this context. Default: global fetch. */
  fetch?: typeof fetch | undefined
  passport?: PassportAccess | undefined
  humanId?: HumanIdAccess | undefined
  /** Ready clients to use instead of building them from `passport` and `humanId` (their hosts and keys are theirs). */
  clients?:
    | {
        passport?: PassportClient | undefined
        registry?: RegistryClient | undefined
        humanId?: HumanIdClient | undefined
        attestationIndex?: AttestationIndexClient | undefined
      }
    | undefined
  /**
   * The cache shared across calls; `false` for none. Default: one in-memory cache per strategy
   * instance. The snapshot's header is kept apart, for the process and every strategy (a final
   * block's for good, a recent block's for 20 s); `false` reads it on every call too.
   */
  cache?: StrategyCache | false | undefined
  /** The clock, Unix ms. Default Date.now. */
  now?: (() => number) | undefined
  /** How to wait between retries. Default: a timer. */
  sleep?: Sleep | undefined
  /** Time a call may take, ms. Default 20,000 (score-api's limit for 500 addresses); Infinity for none. */
  deadlineMs?: number | undefined
  /** Requests in flight at once per source. Default 4. */
  concurrency?: number | undefined
  /** Aborts the call. */
  signal?: AbortSignal | undefined
  /** Hears of every wait for rate budget before it starts (a progress line shows it). */
  onWait?: ((wait: RateLimitWait) => void) | undefined
  /**
   * The strategies a wrapping strategy (`human-gated`) may call by name: score-api's registry
   * (`strategies` of its `src/strategies/strategies`), `personhood/strategies`' `strategies`, or
   * {@link strategyDefinitions}. Default: none (a wrapping strategy then refuses every inner name).
   */
  strategies?: InnerStrategyRegistry | undefined
  /**
   * Other networks an inner strategy may run on, by chain id string: a client of that network and,
   * for a chain {@link blockClocks} does not know (or a local chain), its block clock.
   */
  networks?: Readonly<Record<string, InnerNetwork>> | undefined
  /**
   * score-api, for inner strategies of a wrapping strategy (`human-gated`) that are neither this
   * package's nor in `strategies`: their scores are asked of score-api's `POST /api/scores`. The
   * operator's setting, never a space's option. Default: none (such a name is refused).
   */
  scoreApi?: ScoreApiAccess | undefined
  /** Longest a request may wait for rate budget, ms; past it the request fails with a RateLimitError. Default: the deadline. */
  maxWaitMs?: number | undefined
}

/**
 * One entry of an {@link InnerStrategyRegistry}: a module in score-api's shape (its `strategy`
 * function is called as score-api calls it), or a strategy definition of this package (run with
 * `runStrategy` and the caller's context).
 */
export type InnerStrategy =
  | { strategy: (space: string, network: string, provider: never, addresses: string[], options: never, snapshot: number | 'latest') => Promise<Record<string, number>> }
  | { readonly name: string; readonly optionsSchema: unknown; score(parameters: never): Promise<unknown> }

/** Strategies by name, as score-api's registry keeps them. */
export type InnerStrategyRegistry = Readonly<Record<string, InnerStrategy>>

/** Where score-api is, as the operator configures it (see {@link StrategyContext.scoreApi}). */
export type ScoreApiAccess = {
  /** score-api's origin, e.g. `https://score.snapshot.org`. */
  url: string
  /** A score-api API key (keycard), sent as `X-API-KEY` to `url` only. */
  apiKey?: string | undefined
  /** Most addresses in one request; more are sent in chunks. Default 500 (what score-api asks a strategy to handle). */
  maxAddresses?: number | undefined
  /** A ready client to use instead of one built from `url` and `apiKey`. */
  client?: ScoreApiClient | undefined
}

/** A network an inner strategy runs on: its client, and its block clock when {@link blockClocks} has none. */
export type InnerNetwork = { provider: ChainClient; clock?: BlockClock | undefined }

/** The environment variables a strategy folder reads (score-api gives strategies no other configuration). */
export type StrategyEnvironment = Readonly<Record<string, string | undefined>>

/**
 * Reads a {@link StrategyContext} from environment variables: `PASSPORT_API_KEY`,
 * `PASSPORT_SCORER_ID` (the scorer when the options name none), `PASSPORT_API_TIER` (1-4, default 1),
 * `PASSPORT_API_URL` and `PASSPORT_REGISTRY_URL` (the hosts the key is sent to), `HUMAN_ID_RPC_URL`
 * (Optimism's JSON-RPC, for spaces on another network), `HUMAN_ID_API_URL`, `ATTESTATION_INDEX_URL`,
 * and `STRATEGY_DEADLINE_MS`. Empty values count as unset.
 *
 * @throws {InvalidParameterError} for a value that is set but invalid (the variable is named).
 * @example
 * import { readStrategyEnvironment } from 'personhood'
 * const context = readStrategyEnvironment(process.env)
 */
export function readStrategyEnvironment(env: StrategyEnvironment): StrategyContext {
  const value = (name: string) => {
    const text = env[name]?.trim()
    return text === undefined || text === '' ? undefined : text
  }
  const tierText = value('PASSPORT_API_TIER')
  if (tierText !== undefined && !/^[1-4]$/.test(tierText)) {
    throw new InvalidParameterError({ parameter: 'PASSPORT_API_TIER', reason: `Expected 1, 2, 3 or 4, got "${tierText.slice(0, 20)}".` })
  }
  const deadlineText = value('STRATEGY_DEADLINE_MS')
  if (deadlineText !== undefined && !/^[1-9][0-9]{0,8}$/.test(deadlineText)) {
    throw new InvalidParameterError({ parameter: 'STRATEGY_DEADLINE_MS', reason: `Expected a positive number of milliseconds, got "${deadlineText.slice(0, 20)}".` })
  }
  return {
    passport: {
      apiKey: value('PASSPORT_API_KEY'),
      scorerId: value('PASSPORT_SCORER_ID'),
      tier: tierText === undefined ? undefined : (Number(tierText) as 1 | 2 | 3 | 4),
      baseUrl: value('PASSPORT_API_URL'),
      registryBaseUrl: value('PASSPORT_REGISTRY_URL'),
    },
    humanId: {
      hubChain: value('HUMAN_ID_RPC_URL'),
      baseUrl: value('HUMAN_ID_API_URL'),
      attestationIndexBaseUrl: value('ATTESTATION_INDEX_URL'),
    },
    ...(deadlineText === undefined ? {} : { deadlineMs: Number(deadlineText) }),
  }
}

/** A {@link StrategyContext} with its defaults filled in and the call's deadline started. */
export type StrategyRuntime = {
  readonly context: StrategyContext
  readonly now: () => number
  readonly sleep: Sleep
  readonly cache: StrategyCache | undefined
  readonly concurrency: number
  readonly deadline: Deadline
  /** Requests sent so far in this call, by source. */
  readonly requests: Record<string, number>
  /** Counts `count` requests to `source`. */
  countRequest(source: string, count?: number): void
}

/**
 * Fills in a context's defaults and starts the call's deadline. `sharedCache` is used when the
 * context names no cache (a strategy instance passes the one it keeps across calls).
 *
 * @throws {InvalidParameterError} on a bad `deadlineMs` or `concurrency`.
 */
export function createStrategyRuntime(context: StrategyContext = {}, sharedCache?: StrategyCache): StrategyRuntime {
  const now = context.now ?? Date.now
  const deadlineMs = context.deadlineMs ?? strategyDefaults.deadlineMs
  if (!(deadlineMs > 0)) throw new InvalidParameterError({ parameter: 'deadlineMs', reason: `Expected a positive number of ms, got ${String(deadlineMs)}.` })
  const concurrency = context.concurrency ?? strategyDefaults.concurrency
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new InvalidParameterError({ parameter: 'concurrency', reason: `Expected a positive integer, got ${String(concurrency)}.` })
  }
  const requests: Record<string, number> = {}
  return {
    context,
    now,
    sleep: context.sleep ?? defaultSleep,
    cache: context.cache === false ? undefined : (context.cache ?? sharedCache ?? createStrategyCache({ now })),
    concurrency,
    deadline: createDeadline({ deadlineMs, now, signal: context.signal }),
    requests,
    countRequest(source, count = 1) {
      requests[source] = (requests[source] ?? 0) + count
    },
  }
}

/** The Passport clients of a call and the budget they draw on. */
export type PassportSources = {
  passport: PassportClient
  registry: RegistryClient
  /** The scoring budget (A and C together), when paced. */
  budget: RateBudget | undefined
  /** The hosts the key goes to (for cache keys and messages). */
  baseUrl: string
  registryBaseUrl: string
}

/**
 * The Passport clients a strategy call uses: the context's own, or clients built from
 * `context.passport` (the key sent only to its two hosts, paced at its tier).
 *
 * @throws {StrategyOptionsError} when no API key is configured (before any request).
 */
export function getPassportSources(runtime: StrategyRuntime, strategy: string): PassportSources {
  const { context } = runtime
  const access = context.passport ?? {}
  const given = context.clients
  if (given?.passport && given.registry) return sourcesOf(given.passport, given.registry, access)
  if (access.apiKey === undefined || access.apiKey === '') {
    throw new StrategyOptionsError({
      strategy,
      issues: [{ path: ['PASSPORT_API_KEY'], message: 'No Passport API key: set PASSPORT_API_KEY (or pass passport.apiKey in the context).' }],
    })
  }
  const baseUrl = access.baseUrl ?? defaultPassportBaseUrl
  const registryBaseUrl = access.registryBaseUrl ?? (access.baseUrl === undefined ? defaultRegistryBaseUrl : access.baseUrl)
  const remainingMs = runtime.deadline.remainingMs()
  const transport = {
    ...(context.fetch ? { fetch: context.fetch } : {}),
    now: runtime.now,
    sleep: runtime.sleep,
    concurrency: runtime.concurrency,
    // A request never waits for rate budget past the call's deadline.
    ...(Number.isFinite(Math.min(remainingMs, context.maxWaitMs ?? Infinity)) ? { maxWaitMs: Math.max(0, Math.min(remainingMs, context.maxWaitMs ?? Infinity)) } : {}),
    ...(context.onWait ? { onWait: context.onWait } : {}),
  }
  const tier = access.tier ?? 1
  const passport =
    given?.passport ??
    createPassportClient({ ...transport, apiKey: access.apiKey, baseUrl, tier, rateLimiters: access.rateLimiter === false ? false : { scoring: access.rateLimiter } })
  const registry =
    given?.registry ??
    createRegistryClient({ ...transport, apiKey: access.apiKey, baseUrl: registryBaseUrl, tier, rateLimiter: access.rateLimiter })
  return sourcesOf(passport, registry, access)
}

function sourcesOf(passport: PassportClient, registry: RegistryClient, access: PassportAccess): PassportSources {
  const limiter = registry.rateLimiter ?? passport.rateLimiters.scoring
  const tier = typeof access.tier === 'object' ? 'custom tier' : `tier ${access.tier ?? 1}`
  return {
    passport,
    registry,
    budget: limiter ? { limiter, name: `Passport API key (${tier}, A and C together)` } : undefined,
    baseUrl: passport.transport.baseUrl,
    registryBaseUrl: registry.transport.baseUrl,
  }
}
