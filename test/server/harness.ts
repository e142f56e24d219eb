/**
 * Shared set-up of the reference-server tests: a small demo world (built once per test file), a
 * server per test with an injected clock, raw `call()`s and the foundation clients wired to the
 * in-process `server.fetch`.
 */
import { createPassportClient } from '../../src/clients/passport/index.js'
import { createRegistryClient } from '../../src/clients/registry/index.js'
import { createServer, type CreateServerOptions, type PersonhoodServer } from '../../src/server/index.js'
import { stateFromWorld } from '../../src/server/state/world.js'
import type { ServerState } from '../../src/server/state/types.js'
import { generateWorld } from '../../src/world/index.js'
import type { World } from '../../src/world/types.js'

export const worldNow = '2025-06-01T00:00:00.000Z'
export const worldNowMs = Date.parse(worldNow)
export const baseUrl = 'http://personhood.local'
export const adminToken = 'test-admin-token-0123456789'

let cached: { world: World; state: ServerState } | undefined

/** The test world (200 wallets) and its loaded state, built once per test file. */
export function testWorld(): { world: World; state: ServerState } {
  if (!cached) {
    const world = generateWorld({ now: worldNow, wallets: 200 })
    cached = { world, state: stateFromWorld(world, { adminToken, jwtSecret: 'test-jwt-secret-0123456789abcdef0123456789' }) }
  }
  return cached
}

/** The world's API keys by name (demo tier 1, partner tier 2, analytics tier 3 + history, indexer tier 4 + history). */
export function keys(world: World) {
  const byName = (name: string) => world.apiKeys.find((apiKey) => apiKey.name === name)!.key
  return { demo: byName('demo'), partner: byName('partner'), analytics: byName('analytics'), indexer: byName('indexer') }
}

export type Harness = ReturnType<typeof setup>

/** A server on a copy of the test world, with a clock the test moves. */
export function setup(options: Omit<CreateServerOptions, 'now' | 'state' | 'world' | 'store'> & { empty?: boolean } = {}) {
  const { world, state } = testWorld()
  const { empty, ...serverOptions } = options
  const clock = {
    ms: worldNowMs,
    now: () => clock.ms,
    advance(ms: number) {
      clock.ms += ms
    },
  }
  const server: PersonhoodServer = createServer({
    ...(empty ? { adminToken } : { state: structuredClone(state) }),
    now: clock.now,
    ...serverOptions,
  })
  const fetch = (input: string | URL | Request, init?: RequestInit) => server.fetch(new Request(input, init))
  const k = keys(world)

  /** A raw request: status, headers and parsed JSON body. */
  async function call(path: string, init: RequestInit & { apiKey?: string | null; admin?: boolean; json?: unknown } = {}) {
    const { apiKey = k.indexer, admin, json, ...rest } = init
    const headers = new Headers(rest.headers)
    if (apiKey) headers.set('X-API-KEY', apiKey)
    if (admin) headers.set('Authorization', `Bearer ${adminToken}`)
    if (json !== undefined) headers.set('Content-Type', 'application/json')
    const response = await fetch(`${baseUrl}${path}`, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) })
    const text = await response.text()
    let body: unknown = text
    try {
      body = text ? JSON.parse(text) : null
    } catch {
      // not JSON
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON bodies freely
    return { status: response.status, headers: response.headers, body: body as any }
  }

  const transport = { fetch: fetch as typeof globalThis.fetch, baseUrl, retry: false as const, now: clock.now, sleep: async () => {} }
  const passport = (apiKey = k.indexer) => createPassportClient({ ...transport, apiKey, rateLimiters: false })
  const registry = (apiKey = k.indexer) => createRegistryClient({ ...transport, apiKey, rateLimiter: false })

  return { world, server, store: server.context.store, clock, fetch, call, keys: k, passport, registry }
}

export { failure } from '../helpers/async.js'
