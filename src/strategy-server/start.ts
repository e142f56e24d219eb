/**
 * Running the strategy server: its configuration (a JSON file, then the environment, then flags,
 * each over the one before), the providers and sources built from it, the answer store opened, the
 * port bound, and a graceful stop (no request cut, the store closed cleanly).
 */
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { serve as bindNode, type ServerType } from '@hono/node-server'
import { createRpcUrlClient } from '../chain/rpc-url.js'
import { z } from 'zod'
import { ConfigFileError } from '../errors/audit.js'
import { InvalidParameterError } from '../errors/input.js'
import type { StrategyContext } from '../strategy/context.js'
import type { StrategyProvider } from '../strategy/snapshot.js'
import { redactUrl, urlSecrets } from '../utils/redact.js'
import { createStrategyServer, type CreateStrategyServerOptions, type StrategyServer } from './app.js'
import { createStrategyServerMetrics, type StrategyServerMetrics } from './metrics.js'
import { strategyServerDefaults } from './defaults.js'
import type { AnyStrategyDefinition } from './scorer.js'
import { createMemoryAnswerStore, openAnswerStore, type AnswerStore } from './store.js'

const url = z.string().regex(/^https?:\/\/\S+$/, 'an http(s) URL')

const configSchema = z
  .object({
    port: z.number().int().min(0).max(65_535).optional(),
    host: z.string().min(1).optional(),
    publicUrl: url.optional(),
    /** The answer store file, or "none" for memory only. */
    store: z.string().min(1).optional(),
    salt: z.string().min(8).optional(),
    rpc: z
      .record(z.string(), url)
      .superRefine((record, context) => {
        for (const network of Object.keys(record)) {
          if (!/^[1-9][0-9]{0,15}$/.test(network)) context.addIssue({ code: 'custom', path: [network], message: 'a network is a chain id (digits)' })
        }
      })
      .optional(),
    passport: z
      .object({
        apiKey: z.string().min(1).optional(),
        tier: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).optional(),
        scorerId: z.union([z.number().int().positive(), z.string().regex(/^[0-9]+$/)]).optional(),
        baseUrl: url.optional(),
        registryBaseUrl: url.optional(),
      })
      .strict()
      .optional(),
    humanId: z.object({ hubChainRpc: url.optional(), apiUrl: url.optional(), attestationIndexUrl: url.optional() }).strict().optional(),
    scoreApi: z
      .object({ url: url.optional(), apiKey: z.string().min(1).optional(), maxAddresses: z.number().int().min(1).max(10_000).optional() })
      .strict()
      .optional(),
    answerWithinMs: z.number().int().min(1).optional(),
    finalityMs: z.number().int().min(0).optional(),
    batchWindowMs: z.number().int().min(0).max(10_000).optional(),
    maxBatchWaitMs: z.number().int().min(0).max(60_000).optional(),
    maxAddresses: z.number().int().min(1).max(1_000_000).optional(),
    deadlineMs: z.number().int().min(1).optional(),
    concurrency: z.number().int().min(1).max(64).optional(),
  })
  .strict()

/** The server's configuration, as read from the file and the environment. */
export type StrategyServerConfig = z.output<typeof configSchema>

function first(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const value = env[name]?.trim()
  return value ? value : undefined
}

function integerFrom(env: Readonly<Record<string, string | undefined>>, name: string): number | undefined {
  const value = first(env, name)
  if (value === undefined) return undefined
  if (!/^[0-9]{1,12}$/.test(value)) throw new InvalidParameterError({ parameter: name, reason: `Expected a whole number, got "${value.slice(0, 20)}".` })
  return Number(value)
}

function orNothing<T extends Record<string, unknown>>(value: T): T | undefined {
  return Object.keys(value).length === 0 ? undefined : value
}

function drop<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T
}

/**
 * Reads the configuration: the JSON file (`--config`), then the environment over it
 * (`SNAPSHOT_API_STRATEGY_SALT`, `PERSONHOOD_RPC_URL_<chainId>`, `PASSPORT_API_KEY`,
 * `PASSPORT_API_TIER`, `PASSPORT_SCORER_ID`, `PASSPORT_API_URL`, `PASSPORT_REGISTRY_URL`,
 * `HUMAN_ID_RPC_URL`, `HUMAN_ID_API_URL`, `ATTESTATION_INDEX_URL`, `PERSONHOOD_SCORE_API_URL`,
 * `PERSONHOOD_SCORE_API_KEY`, `PERSONHOOD_STRATEGY_STORE`,
 * `PERSONHOOD_PUBLIC_URL`, `PORT`, `HOST`, `STRATEGY_DEADLINE_MS`), then `overrides` (the flags).
 *
 * @throws {ConfigFileError} when the file cannot be read or is not a valid configuration (the field is named).
 * @throws {InvalidParameterError} naming an environment variable that is set but invalid.
 */
export function readStrategyServerConfig(parameters: { file?: string | undefined; env: Readonly<Record<string, string | undefined>>; overrides?: Partial<StrategyServerConfig> | undefined }): StrategyServerConfig {
  const { file, env } = parameters
  let fromFile: unknown = {}
  if (file !== undefined) {
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch (error) {
      throw new ConfigFileError({ file, reason: 'cannot be read.', cause: error, details: (error as NodeJS.ErrnoException).code ?? 'read failed' })
    }
    try {
      fromFile = JSON.parse(text)
    } catch (error) {
      throw new ConfigFileError({ file, reason: 'is not JSON.', details: (error as Error).message })
    }
  }
  const parsed = configSchema.safeParse(fromFile)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ConfigFileError({
      file: file ?? '(none)',
      reason: `has an invalid field: ${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'invalid'}.`,
      details: 'See docs/strategy-server.md for the fields.',
    })
  }
  const config = parsed.data
  const rpc: Record<string, string> = { ...config.rpc }
  for (const [name, value] of Object.entries(env)) {
    const match = /^PERSONHOOD_RPC_URL_([1-9][0-9]{0,15})$/.exec(name)
    if (match && value?.trim()) {
      if (!/^https?:\/\/\S+$/.test(value.trim())) throw new InvalidParameterError({ parameter: name, reason: 'Expected an http(s) URL.' })
      rpc[match[1] as string] = value.trim()
    }
  }
  const tier = first(env, 'PASSPORT_API_TIER')
  if (tier !== undefined && !/^[1-4]$/.test(tier)) throw new InvalidParameterError({ parameter: 'PASSPORT_API_TIER', reason: `Expected 1, 2, 3 or 4, got "${tier.slice(0, 20)}".` })
  const salt = first(env, 'SNAPSHOT_API_STRATEGY_SALT')
  if (salt !== undefined && salt.length < 8) throw new InvalidParameterError({ parameter: 'SNAPSHOT_API_STRATEGY_SALT', reason: 'Expected at least 8 characters.' })
  const merged: StrategyServerConfig = drop({
    ...config,
    ...drop({
      port: integerFrom(env, 'PORT'),
      host: first(env, 'HOST'),
      publicUrl: first(env, 'PERSONHOOD_PUBLIC_URL'),
      store: first(env, 'PERSONHOOD_STRATEGY_STORE'),
      salt,
      deadlineMs: integerFrom(env, 'STRATEGY_DEADLINE_MS'),
    }),
    rpc,
    passport: drop({
      ...config.passport,
      ...drop({
        apiKey: first(env, 'PASSPORT_API_KEY'),
        tier: tier === undefined ? undefined : (Number(tier) as 1 | 2 | 3 | 4),
        scorerId: first(env, 'PASSPORT_SCORER_ID'),
        baseUrl: first(env, 'PASSPORT_API_URL'),
        registryBaseUrl: first(env, 'PASSPORT_REGISTRY_URL'),
      }),
    }),
    humanId: drop({
      ...config.humanId,
      ...drop({ hubChainRpc: first(env, 'HUMAN_ID_RPC_URL'), apiUrl: first(env, 'HUMAN_ID_API_URL'), attestationIndexUrl: first(env, 'ATTESTATION_INDEX_URL') }),
    }),
    scoreApi: orNothing(
      drop({
        ...config.scoreApi,
        ...drop({ url: first(env, 'PERSONHOOD_SCORE_API_URL'), apiKey: first(env, 'PERSONHOOD_SCORE_API_KEY') }),
      }),
    ),
    ...drop(parameters.overrides ?? {}),
  })
  return merged
}

/** Options of {@link startStrategyServer}: the configuration and what tests and benchmarks inject. */
export type StartStrategyServerOptions = {
  config: StrategyServerConfig
  /** The fetch of every upstream request (JSON-RPC and APIs). Default: global fetch. */
  fetch?: typeof fetch | undefined
  /** Providers to use instead of (or beside) `config.rpc`, by network. */
  providers?: Readonly<Record<string, StrategyProvider>> | undefined
  /** Context fields the configuration cannot express (a hub chain's clock, a clock). */
  context?: Partial<StrategyContext> | undefined
  strategies?: Readonly<Record<string, AnyStrategyDefinition>> | undefined
  now?: (() => number) | undefined
  /** Request log lines. Default: none. */
  log?: ((line: string) => void) | undefined
  /** The voter page's hub and limits, or false for none (see {@link CreateStrategyServerOptions}). */
  voterPage?: CreateStrategyServerOptions['voterPage']
}

/** A running strategy server. */
export type RunningStrategyServer = {
  url: string
  app: StrategyServer
  server: ServerType
  store: AnswerStore
  metrics: StrategyServerMetrics
  /** Lines to print at start: where it listens, what it serves, and whether it answers anyone. */
  describe(): string[]
  /** Stops taking calls, lets every call in flight finish, closes the store. */
  close(): Promise<void>
}

/** A fetch that counts every request by host. */
function countingFetch(base: typeof fetch, metrics: StrategyServerMetrics): typeof fetch {
  return (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    let host = 'unknown'
    try {
      host = new URL(href).host
    } catch {
      // counted as unknown
    }
    metrics.count('personhood_strategy_upstream_http_requests_total', { host })
    return base(input, init)
  }
}

/**
 * Opens the store, binds the port and starts serving.
 *
 * @throws {AnswerStoreError} when the store is corrupt or held by another process (nothing is served).
 * @throws {InvalidParameterError} when no network is configured, or the port cannot be bound.
 */
export async function startStrategyServer(options: StartStrategyServerOptions): Promise<RunningStrategyServer> {
  const { config } = options
  const metrics = createStrategyServerMetrics()
  const upstream = countingFetch(options.fetch ?? fetch, metrics)
  const providers: Record<string, StrategyProvider> = {}
  for (const [network, rpcUrl] of Object.entries(config.rpc ?? {})) providers[network] = createRpcUrlClient(rpcUrl, { fetch: upstream })
  Object.assign(providers, options.providers)
  if (Object.keys(providers).length === 0) {
    throw new InvalidParameterError({ parameter: 'rpc', reason: 'No network is configured: give a JSON-RPC URL per network ("rpc": { "10": "https://..." } in --config, or PERSONHOOD_RPC_URL_10).' })
  }
  const passport = config.passport ?? {}
  const humanId = config.humanId ?? {}
  const scoreApi = config.scoreApi ?? {}
  if (scoreApi.url === undefined && (scoreApi.apiKey !== undefined || scoreApi.maxAddresses !== undefined)) {
    throw new InvalidParameterError({ parameter: 'scoreApi.url', reason: 'A score-api key or maxAddresses is set without its URL: set PERSONHOOD_SCORE_API_URL (or scoreApi.url in --config).' })
  }
  const context: StrategyContext = {
    fetch: upstream,
    passport: { apiKey: passport.apiKey, tier: passport.tier, scorerId: passport.scorerId, baseUrl: passport.baseUrl, registryBaseUrl: passport.registryBaseUrl },
    humanId: { hubChain: humanId.hubChainRpc, baseUrl: humanId.apiUrl, attestationIndexBaseUrl: humanId.attestationIndexUrl },
    ...(scoreApi.url === undefined ? {} : { scoreApi: { url: scoreApi.url, apiKey: scoreApi.apiKey, maxAddresses: scoreApi.maxAddresses } }),
    deadlineMs: config.deadlineMs ?? strategyServerDefaults.deadlineMs,
    ...(config.concurrency === undefined ? {} : { concurrency: config.concurrency }),
    ...(options.now ? { now: options.now } : {}),
    ...options.context,
  }
  const storePath = config.store ?? 'personhood-answers.log'
  const store = storePath === 'none' ? createMemoryAnswerStore() : await openAnswerStore(storePath)
  let app: StrategyServer
  try {
    app = createStrategyServer({
      providers,
      context,
      store,
      metrics,
      // The keys in the JSON-RPC URLs (path and query) and the services' keys: never in a body or a log.
      secrets: [...Object.values(config.rpc ?? {}), humanId.hubChainRpc, scoreApi.url].flatMap((url) => (url === undefined ? [] : urlSecrets(url))).concat([passport.apiKey, scoreApi.apiKey].filter((key): key is string => key !== undefined)),
      salt: config.salt,
      publicUrl: config.publicUrl,
      now: options.now,
      finalityMs: config.finalityMs,
      batchWindowMs: config.batchWindowMs,
      maxBatchWaitMs: config.maxBatchWaitMs,
      maxAddresses: config.maxAddresses,
      answerWithinMs: config.answerWithinMs,
      log: options.log,
      strategies: options.strategies,
      voterPage: options.voterPage,
    })
  } catch (error) {
    await store.close()
    throw error
  }
  const host = config.host ?? '127.0.0.1'
  let server: ServerType
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const bound = bindNode({ fetch: app.fetch, port: config.port ?? 8788, hostname: host }, () => resolve(bound))
      bound.once('error', reject)
    })
  } catch (error) {
    await store.close()
    const code = (error as NodeJS.ErrnoException).code
    throw new InvalidParameterError({ parameter: 'port', reason: code === 'EADDRINUSE' ? `Port ${config.port ?? 8788} is in use; choose another with --port (0: any free port).` : `Cannot listen on ${host}:${config.port ?? 8788} (${code ?? 'error'}).`, cause: error })
  }
  const { port } = server.address() as AddressInfo
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  let closing: Promise<void> | undefined
  return {
    url,
    app,
    server,
    store,
    metrics,
    describe() {
      const opened = store.opened
      return [
        `personhood strategy server listening on ${url}`,
        `Strategies: ${Object.keys(app.strategies).map((name) => `${url}/strategies/${name}`).join(', ')}`,
        ...(options.voterPage === false ? [] : [`Voter page: ${url}/voters (a space links ${url}/voters?proposal=<id> from a proposal)`]),
        `Networks: ${Object.entries(providers).map(([network]) => `${network}${config.rpc?.[network] ? ` (${redactUrl(config.rpc[network] as string, urlSecrets(config.rpc[network]))})` : ''}`).join(', ')}`,
        config.scoreApi?.url
          ? `human-gated's inner strategies: this package's in process, any other through score-api at ${redactUrl(config.scoreApi.url, urlSecrets(config.scoreApi.url))}${config.scoreApi.apiKey ? ' (with a key)' : ''}`
          : "human-gated's inner strategies: this package's only (set PERSONHOOD_SCORE_API_URL for score-api's)",
        opened.file
          ? `Answer store: ${opened.file} (${store.size} answers in ${opened.records} records${opened.tornBytes ? `; a torn last line of ${opened.tornBytes} bytes, never acknowledged, was cut off` : ''})`
          : 'Answer store: memory only (--store none): answers are lost on exit.',
        app.secured
          ? `Secured: only calls carrying X-Snapshot-API-Strategy-Secret = sha256(url + salt) are answered.`
          : 'WARNING: no SNAPSHOT_API_STRATEGY_SALT is set: this server answers anyone who calls it.',
      ]
    },
    close() {
      closing ??= (async () => {
        app.drain()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          if ('closeIdleConnections' in server) server.closeIdleConnections()
          // Connections still busy after 30 s are cut; every answer waits for the store first.
          setTimeout(() => {
            if ('closeAllConnections' in server) server.closeAllConnections()
          }, 30_000).unref()
        })
        await app.scorer.idle()
        await store.close()
      })()
      return closing
    },
  }
}
