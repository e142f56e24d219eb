/**
 * The server's options errors are the package's typed errors, raised when the server is created
 * (never a TypeError, never a failed request later), and every error answer of the server goes
 * through its one convention: a thrown HttpError answered as `{ detail }` JSON.
 */
import { describe, expect, test } from 'vitest'
import { startServe } from '../../src/server/start.js'
import { InvalidParameterError, InvalidStateError } from '../../src/errors/index.js'
import { createServer, type CreateServerOptions } from '../../src/server/index.js'
import { adminAuth } from '../../src/server/middleware/admin.js'
import { apiKeyAuth } from '../../src/server/middleware/api-key.js'
import { clientRateLimit } from '../../src/server/middleware/client-limit.js'
import { latency } from '../../src/server/middleware/latency.js'
import { rateLimit } from '../../src/server/middleware/rate-limit.js'
import { adminToken, setup } from './harness.js'

/** What `run` throws (it must throw). */
function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('createServer options', () => {
  test.each<[string, CreateServerOptions, string]>([
    ['a clock that is not a function', { now: 1 as never }, 'now'],
    ['an onChange that is not a function', { onChange: 'log' as never }, 'onChange'],
    ['a negative latency', { latencyMs: -1 }, 'latencyMs'],
    ['a latency that is not a number', { latencyMs: '5' as never }, 'latencyMs'],
    ['an infinite processing delay', { processingDelayMs: Infinity }, 'processingDelayMs'],
    ['a NaN nonce lifetime', { nonceTtlMs: Number.NaN }, 'nonceTtlMs'],
    ['an open-route limit of 0', { openRouteLimit: 0 }, 'openRouteLimit'],
    ['a fractional nonce limit', { nonceLimit: 1.5 }, 'nonceLimit'],
    ['a tier limit of 0', { rateLimits: { stamps: { 1: 0 } } }, 'rateLimits.stamps[1]'],
    ['a tier that does not exist', { rateLimits: { models: { 5: 10 } as never } }, 'rateLimits.models'],
    ['a rate window of 0', { rateLimits: { windowMs: 0 } }, 'rateLimits.windowMs'],
    ['an empty admin token', { adminToken: '' }, 'adminToken'],
    ['a JWT secret under 32 bytes', { jwtSecret: 'short' }, 'jwtSecret'],
    ['SIWE domains that are not strings', { siweDomains: [1] as never }, 'siweDomains'],
    ['an API key of tier 5', { apiKeys: [{ key: 'k', name: 'n', tier: 5 as never, historyAllowlisted: false }] }, 'apiKeys.0.tier'],
    ['a store that is not a Store', { store: {} as never }, 'store'],
    ['a persistence without saved()', { persistence: {} as never }, 'persistence'],
    ['a block time of 0 seconds', { blockTime: { genesisTime: 0, blockTimeSeconds: 0 } }, 'blockTime.blockTimeSeconds'],
    ['a world that is not one', { world: { wallets: 3 } as never }, 'world'],
  ])('%s is an InvalidParameterError naming it', (_name, options, parameter) => {
    const error = thrown(() => createServer(options))
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect((error as InvalidParameterError).parameter).toBe(parameter)
  })

  test('the whole message of one', () => {
    expect(() => createServer({ latencyMs: -5 })).toThrowErrorMatchingInlineSnapshot(`
      [InvalidParameterError: Parameter "latencyMs" is invalid.

      Details: Expected a non-negative number of milliseconds, got -5.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0]
    `)
  })

  test('a state of another version is an InvalidStateError', () => {
    expect(thrown(() => createServer({ state: { version: 99 } as never }))).toBeInstanceOf(InvalidStateError)
  })

  test('good options still make a server', async () => {
    const server = createServer({ adminToken, jwtSecret: 'a'.repeat(32), latencyMs: 0, rateLimits: { stamps: { 1: 5 }, windowMs: 1000 }, blockTime: { genesisTime: 0, blockTimeSeconds: 2 } })
    expect((await server.fetch(new Request('http://localhost/admin/state', { headers: { Authorization: `Bearer ${adminToken}` } }))).status).toBe(200)
  })
})

describe('middleware options', () => {
  test.each<[string, () => unknown, string]>([
    ['adminAuth without a token function', () => adminAuth({ token: 'x' as never }), 'token'],
    ['apiKeyAuth without a store', () => apiKeyAuth({ store: undefined as never }), 'store'],
    ['latency below 0', () => latency({ ms: -1 }), 'ms'],
    ['rateLimit with a tier limit of 0', () => rateLimit({ limits: { 1: 0, 2: 1, 3: 1, 4: 1 }, windowMs: 1000, now: Date.now }), 'limits[1]'],
    ['rateLimit with a window of 0', () => rateLimit({ limits: { 1: 1, 2: 1, 3: 1, 4: 1 }, windowMs: 0, now: Date.now }), 'windowMs'],
    ['rateLimit without a clock', () => rateLimit({ limits: { 1: 1, 2: 1, 3: 1, 4: 1 }, windowMs: 1000, now: undefined as never }), 'now'],
    ['clientRateLimit with a limit of 0', () => clientRateLimit({ limit: 0, windowMs: 1000, now: Date.now, name: 'x' }), 'limit'],
    ['clientRateLimit without a clock', () => clientRateLimit({ limit: 1, windowMs: 1000, now: 5 as never, name: 'x' }), 'now'],
  ])('%s is an InvalidParameterError naming it', (_name, create, parameter) => {
    const error = thrown(create)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect((error as InvalidParameterError).parameter).toBe(parameter)
  })
})

describe('serve options', () => {
  test.each<[string, Parameters<typeof startServe>[0], string]>([
    ['a port above 65535', { port: 70_000 }, 'port'],
    ['a fractional port', { port: 80.5 }, 'port'],
    ['an unknown seed', { seed: 'full' as never }, 'seed'],
    ['an empty host', { host: '' }, 'host'],
    ['an empty data path', { data: '' }, 'data'],
    ['a clock that is not a function', { now: 'today' as never }, 'now'],
    ['a chain port below 0', { chain: { port: -1 } }, 'chain.port'],
    ['a negative latency (checked before the chain starts)', { latencyMs: -1, chain: true }, 'latencyMs'],
    ['an empty admin token', { adminToken: '' }, 'adminToken'],
  ])('%s rejects with an InvalidParameterError before anything is bound', async (_name, options, parameter) => {
    const error = await startServe({ port: 0, seed: 'empty', ...options }).then(
      (running) => running.close().then(() => 'started'),
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect((error as InvalidParameterError).parameter).toBe(parameter)
  })
})

describe('one error convention', () => {
  test('a change that cannot be saved is answered 500 with a detail', async () => {
    const h = setup({ persistence: { saved: () => Promise.reject(new Error('disk full')) } })
    const answer = await h.call('/admin/reset', { method: 'POST', admin: true })
    expect(answer).toMatchObject({ status: 500, body: { detail: 'The change could not be saved.' } })
    // A read changes nothing and is answered as usual.
    expect((await h.call('/admin/state', { admin: true })).status).toBe(200)
  })

  test('middleware refusals, unknown paths and malformed bodies answer { detail } JSON', async () => {
    const h = setup({ rateLimits: { stamps: { 4: 1 } } })
    const noKey = await h.call('/v2/stamps/metadata', { apiKey: null })
    expect(noKey).toMatchObject({ status: 401, body: { detail: 'Invalid API Key.' } })
    expect(noKey.headers.get('www-authenticate')).toBe('ApiKey header="X-API-KEY"')
    expect((await h.call('/v2/stamps/metadata')).status).toBe(200)
    const limited = await h.call('/v2/stamps/metadata')
    expect(limited).toMatchObject({ status: 429, body: { detail: expect.stringMatching(/^Request was throttled\. Expected available in \d+ seconds\.$/) } })
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await h.call('/no/such/path')).toMatchObject({ status: 404, body: { detail: 'Not Found' } })
    const notJson = await h.call('/admin/stakes', { method: 'POST', admin: true, body: '{', headers: { 'content-type': 'application/json' } })
    expect(notJson).toMatchObject({ status: 422, body: { detail: [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }] } })
  })

  test('the admin API reads bodies by the same contract: 422 for a shape error, 400 for a malformed value', async () => {
    const h = setup()
    const unknownKey = await h.call('/admin/api-keys/k', { method: 'PUT', admin: true, json: { tier: 2, colour: 'red' } })
    expect(unknownKey).toMatchObject({ status: 422, body: { detail: [{ loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }] } })
    const badTier = await h.call('/admin/api-keys/k', { method: 'PUT', admin: true, json: { tier: 5 } })
    expect(badTier.status).toBe(400)
    expect(badTier.body.detail).toMatch(/^body\.tier: /)
  })
})
