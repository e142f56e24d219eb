/**
 * The voter page of the strategy server: `GET /voters` (a form, filled from the query so a space
 * can link it from a proposal: `/voters?proposal=<id>`) and `GET /voters/check` (the answer for one
 * address). Server-rendered HTML that works without JavaScript; each client is rate-limited, since
 * every check reads the sources with the operator's keys. See docs/strategy-server.md.
 */
import type { Context, Hono } from 'hono'
import { createSnapshotHubClient, type SnapshotHubClient } from '../../clients/snapshot-hub.js'
import { BaseError } from '../../errors/base.js'
import { InvalidParameterError } from '../../errors/input.js'
import { createRateLimiter, RateBudgetWaitError, type RateLimiter } from '../../http/rate-limit.js'
import { createStrategyCache } from '../../strategy/cache.js'
import type { StrategyContext } from '../../strategy/context.js'
import type { StrategyProvider } from '../../strategy/snapshot.js'
import type { AnyStrategyDefinition } from '../scorer.js'
import { checkVoter, type VoterCheckInput } from './check.js'
import { renderVoterError, renderVoterForm, renderVoterResult, type VoterFormChoices } from './render.js'

export { checkVoter, type CheckVoterParameters, type VoterCheck, type VoterCheckInput, type VoterVerdictRow } from './check.js'

/** Options of the voter page (`createStrategyServer`'s `voterPage`). */
export type VoterPageOptions = {
  /** The Snapshot hub a proposal id is read from: a client, or its GraphQL URL. Default the public hub. */
  hub?: SnapshotHubClient | string | undefined
  /** Checks per client address per window. Default 20. */
  limit?: number | undefined
  /** The window, ms. Default 60,000. */
  windowMs?: number | undefined
  /** Checks of every client together per window (each reads the sources with the operator's keys). Default 300. */
  totalLimit?: number | undefined
}

/** What {@link mountVoterPage} mounts with: the server's own strategies, providers and sources. */
export type MountVoterPageParameters = VoterPageOptions & {
  strategies: Readonly<Record<string, AnyStrategyDefinition>>
  providers: Readonly<Record<string, StrategyProvider>>
  context?: StrategyContext | undefined
  apiV2OptionNames: readonly string[]
  now?: (() => number) | undefined
}

/**
 * The address of the client behind a request: the connection's, never a header a client could
 * forge (as the reference server's open routes count clients); in-process requests share one key.
 */
function clientOf(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
  return incoming?.socket?.remoteAddress ?? 'in-process'
}

/**
 * Mounts `GET /voters` and `GET /voters/check` on the strategy server's app.
 *
 * @throws {InvalidParameterError} at mount on a bad limit or hub URL.
 * @example
 * mountVoterPage(app, { strategies, providers, context, apiV2OptionNames })
 */
export function mountVoterPage(app: Hono<any>, parameters: MountVoterPageParameters): void { // eslint-disable-line @typescript-eslint/no-explicit-any -- the server's app, whatever its variables
  const { strategies, providers, context, now = Date.now } = parameters
  const windowMs = parameters.windowMs ?? 60_000
  const limit = parameters.limit ?? 20
  const hub = typeof parameters.hub === 'object' ? parameters.hub : createSnapshotHubClient({ ...(parameters.hub ? { url: parameters.hub } : {}), ...(context?.fetch ? { fetch: context.fetch } : {}), retry: false })
  const total = createRateLimiter({ limit: parameters.totalLimit ?? 300, windowMs, now })
  createRateLimiter({ limit, windowMs, now }) // checks the options at mount
  const clients = new Map<string, RateLimiter>()
  const cache = createStrategyCache({ now })
  const choices: VoterFormChoices = { strategies: Object.keys(strategies), networks: Object.keys(providers) }

  /** Takes one check from the client's budget and the total's; a 429 page when either is spent. */
  async function admit(c: Context): Promise<Response | undefined> {
    const client = clientOf(c)
    let limiter = clients.get(client)
    if (!limiter) {
      // Forget clients whose window is empty, so memory holds only the clients of one window.
      if (clients.size >= 10_000) for (const [key, other] of clients) if (other.inWindow() === 0) clients.delete(key)
      limiter = createRateLimiter({ limit, windowMs, now })
      if (clients.size < 10_000) clients.set(client, limiter)
    }
    try {
      await limiter.acquire(undefined, { maxWaitMs: 0 })
      await total.acquire(undefined, { maxWaitMs: 0 })
      return undefined
    } catch (error) {
      if (!(error instanceof RateBudgetWaitError)) throw error
      const seconds = Math.max(1, Math.ceil(error.waitMs / 1000))
      return c.html(renderVoterError(inputOf(c), choices, `Too many checks in a short time. Try again in ${seconds} seconds.`), 429, { 'Retry-After': String(seconds), 'Cache-Control': 'no-store' })
    }
  }

  const headers = { 'Cache-Control': 'no-store', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'", 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' }

  app.get('/voters', (c) => c.html(renderVoterForm(inputOf(c), choices), 200, headers))
  app.get('/voters/check', async (c) => {
    const input = inputOf(c)
    if (!input.address?.trim()) return c.html(renderVoterError(input, choices, 'Enter the address you vote with.'), 400, headers)
    const refused = await admit(c)
    if (refused) return refused
    try {
      const check = await checkVoter(input as VoterCheckInput, { strategies, providers, context, hub, cache, apiV2OptionNames: parameters.apiV2OptionNames })
      return c.html(renderVoterResult(check, input, choices), 200, headers)
    } catch (error) {
      const { status, message } = failure(error)
      return c.html(renderVoterError(input, choices, message), status, headers)
    }
  })
}

/** The form's fields from the query, each at most 4,000 characters. */
function inputOf(c: Context): Partial<VoterCheckInput> {
  const query = new URL(c.req.url).searchParams
  const field = (name: string) => {
    const value = query.get(name)
    return value === null ? undefined : value.slice(0, 4000)
  }
  return { address: field('address'), proposal: field('proposal'), strategy: field('strategy'), options: field('options'), network: field('network'), snapshot: field('snapshot') }
}

/** A failure the voter reads: their input (400), a proposal the hub does not know (404), the hub down (502). */
function failure(error: unknown): { status: 400 | 404 | 502 | 500; message: string } {
  if (error instanceof InvalidParameterError || (error instanceof BaseError && ['INVALID_ADDRESS', 'STRATEGY_OPTIONS_INVALID', 'BLOCK_IN_FUTURE', 'BLOCK_NOT_AVAILABLE'].includes(error.code))) {
    const issues = (error as { issues?: { path: unknown[]; message: string }[] }).issues
    return { status: 400, message: `${error.shortMessage}${error.details && !issues ? ` ${error.details}` : ''}${issues ? ` ${issues.map((issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`).join('; ')}` : ''}` }
  }
  if (error instanceof BaseError && error.name === 'ProposalNotFoundError') return { status: 404, message: error.shortMessage }
  if (error instanceof BaseError) return { status: 502, message: `${error.shortMessage} Try again later.` }
  return { status: 500, message: 'The check failed on the server. Try again later.' }
}
