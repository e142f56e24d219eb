/**
 * Rate limits of the reference server: fixed 15-minute windows per API key and tier; A and C on one
 * budget, B on its own; rejected calls count; auth before the limit; 429 with Retry-After.
 */
import { describe, expect, test } from 'vitest'
import { RateLimitError } from '../../src/errors/index.js'
import { createRateLimitCounter, rateLimit } from '../../src/server/middleware/rate-limit.js'
import { failure, setup, worldNowMs } from './harness.js'

const windowMs = 15 * 60 * 1000

describe('rate limits', () => {
  test('the 126th tier-1 request of a window is 429 with Retry-After; a new window resets', async () => {
    const h = setup()
    // Start 100 s into a window: the window ends 800 s later.
    h.clock.ms = Math.floor(worldNowMs / windowMs) * windowMs + 100_000
    const path = `/v2/stamps/1/score/${h.world.demoAccounts[0]!.address}`
    for (let i = 1; i <= 125; i++) {
      const { status } = await h.call(path, { apiKey: h.keys.demo })
      expect(status, `request ${i}`).toBe(200)
    }
    h.clock.advance(250)
    const limited = await h.call(path, { apiKey: h.keys.demo })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('Retry-After')).toBe('800')
    expect(limited.body).toEqual({ detail: 'Request was throttled. Expected available in 800 seconds.' })

    const error = await failure(h.passport(h.keys.demo).getScore({ scorerId: 1, address: h.world.demoAccounts[0]!.address }))
    expect(error).toBeInstanceOf(RateLimitError)
    expect(error.retryAfterMs).toBe(800_000)

    // Another key has its own budget.
    expect((await h.call(path, { apiKey: h.keys.partner })).status).toBe(200)

    h.clock.ms = (Math.floor(h.clock.ms / windowMs) + 1) * windowMs
    expect((await h.call(path, { apiKey: h.keys.demo })).status).toBe(200)
  })

  test('A and C share one budget; B has its own (15 at tier 1); rejected calls count', async () => {
    const h = setup()
    h.clock.ms = Math.floor(worldNowMs / windowMs) * windowMs
    const address = h.world.demoAccounts[0]!.address
    for (let i = 0; i < 100; i++) expect((await h.call(`/v2/stamps/metadata`, { apiKey: h.keys.demo })).status).toBe(200)
    for (let i = 0; i < 25; i++) expect((await h.call(`/registry/stamp-metadata`, { apiKey: h.keys.demo })).status).toBe(200)
    expect((await h.call(`/registry/stamp-metadata`, { apiKey: h.keys.demo })).status).toBe(429)
    expect((await h.call(`/v2/stamps/metadata`, { apiKey: h.keys.demo })).status).toBe(429)

    for (let i = 0; i < 15; i++) expect((await h.call(`/v2/models/score/${address}`, { apiKey: h.keys.demo })).status).toBe(200)
    expect((await h.call(`/v2/models/score/${address}`, { apiKey: h.keys.demo })).status).toBe(429)

    // Still refused until the window ends, however long the client keeps trying.
    h.clock.advance(windowMs - 1 - (h.clock.ms % windowMs))
    expect((await h.call(`/v2/models/score/${address}`, { apiKey: h.keys.demo })).headers.get('Retry-After')).toBe('1')
    h.clock.advance(1)
    expect((await h.call(`/v2/models/score/${address}`, { apiKey: h.keys.demo })).status).toBe(200)
  })

  test('auth is checked before the limit: an unknown key is 401, never 429', async () => {
    const h = setup({ rateLimits: { stamps: { 1: 2 } } })
    const path = '/v2/stamps/metadata'
    for (let i = 0; i < 5; i++) {
      const response = await h.call(path, { apiKey: 'unknown.key' })
      expect(response.status).toBe(401)
      expect(response.headers.get('WWW-Authenticate')).toBe('ApiKey header="X-API-KEY"')
    }
    expect((await h.call(path, { apiKey: h.keys.demo })).status).toBe(200)
    expect((await h.call(path, { apiKey: h.keys.demo })).status).toBe(200)
    expect((await h.call(path, { apiKey: h.keys.demo })).status).toBe(429)
  })

  test('the tiers: 350, 2000 and the configurable tier 4', async () => {
    const h = setup({ rateLimits: { stamps: { 4: 3 } } })
    h.clock.ms = Math.floor(worldNowMs / windowMs) * windowMs
    const count = async (apiKey: string, max: number) => {
      for (let i = 1; i <= max; i++) if ((await h.call('/v2/stamps/metadata', { apiKey })).status === 429) return i - 1
      return max
    }
    expect(await count(h.keys.partner, 400)).toBe(350)
    expect(await count(h.keys.indexer, 10)).toBe(3)
  })

  test('the middleware checks its options when it is created', () => {
    expect(() => rateLimit({ limits: { 1: 0, 2: 1, 3: 1, 4: 1 }, windowMs, now: Date.now })).toThrow('Parameter "limits[1]" is invalid.')
    expect(() => rateLimit({ limits: { 1: 1, 2: 1, 3: 1, 4: 1 }, windowMs: 0, now: Date.now, counter: createRateLimitCounter() })).toThrow('windowMs')
  })
})
