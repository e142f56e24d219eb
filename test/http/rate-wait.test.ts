/**
 * Waiting for rate budget is bounded and visible: past `maxWaitMs` a request is not sent and fails
 * with a RateLimitError that says when budget returns; `onWait` hears of every wait.
 */
import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createPassportClient } from '../../src/clients/passport/index.js'
import { createRateLimiter, type RateLimitWait } from '../../src/http/rate-limit.js'
import { failure, fakeClock } from '../helpers/async.js'

const api = 'https://api.passport.xyz'
const address = '0x52908400098527886e0f7030069857d2e4169ee7'
const record = {
  address,
  score: '1.00000',
  passing_score: false,
  threshold: '20.00000',
  last_score_timestamp: '2025-06-01T00:00:00.000Z',
  expiration_timestamp: null,
  error: null,
  stamps: {},
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())

describe('maxWaitMs and onWait', () => {
  test('past maxWaitMs the request is not sent: a RateLimitError says when budget returns', async () => {
    const clock = fakeClock(1_700_000_000_000)
    const scoring = createRateLimiter({ limit: 2, windowMs: 15 * 60_000, now: clock.now, sleep: clock.sleep })
    const waits: RateLimitWait[] = []
    const client = createPassportClient({ apiKey: 'key', now: clock.now, sleep: clock.sleep, rateLimiters: { scoring }, maxWaitMs: 20_000, onWait: (wait) => waits.push(wait) })
    const scope = nock(api).get(`/v2/stamps/1/score/${address}`).times(2).reply(200, record)
    await client.getScore({ scorerId: 1, address })
    await client.getScore({ scorerId: 1, address })
    expect(scope.isDone()).toBe(true)
    const extra = nock(api).get(`/v2/stamps/1/score/${address}`).reply(200, record)
    const error = await failure(client.getScore({ scorerId: 1, address }))
    expect(error).toMatchObject({ name: 'RateLimitError', retryAfterMs: 15 * 60_000 })
    expect(error.details).toBe(
      `Not sent: the key's rate budget (2 requests per 15 minutes) returns at ${new Date(1_700_000_000_000 + 15 * 60_000).toISOString()}, in 900 s, past maxWaitMs (20000 ms).`,
    )
    expect(extra.isDone()).toBe(false)
    expect(waits).toEqual([])
    expect(clock.sleeps).toEqual([])
  })

  test('within maxWaitMs the request waits, and onWait hears of it first', async () => {
    const clock = fakeClock(0)
    const scoring = createRateLimiter({ limit: 1, windowMs: 10_000, now: clock.now, sleep: clock.sleep })
    const waits: RateLimitWait[] = []
    const client = createPassportClient({ apiKey: 'key', now: clock.now, sleep: clock.sleep, rateLimiters: { scoring }, maxWaitMs: 60_000, onWait: (wait) => waits.push(wait) })
    nock(api).get(`/v2/stamps/1/score/${address}`).times(2).reply(200, record)
    await client.getScore({ scorerId: 1, address })
    await client.getScore({ scorerId: 1, address })
    expect(waits).toEqual([{ waitMs: 10_000, until: 10_000, limit: 1, windowMs: 10_000 }])
    expect(clock.sleeps).toEqual([10_000])
  })
})

describe('--max-wait in the commands', () => {
  test('the CLI context carries the bound to every Passport request, and the tier serve prints', async () => {
    const { commandStrategyContext } = await import('../../src/cli/context.js')
    const { createStrategyRuntime, getPassportSources } = await import('../../src/strategy/context.js')
    const clock = fakeClock(1_700_000_000_000)
    const context = commandStrategyContext({
      flags: { maxWait: 30_000 },
      env: { PASSPORT_API_KEY: 'key', PERSONHOOD_API_TIER: '1' },
      now: clock.now,
    })
    expect(context.maxWaitMs).toBe(30_000)
    expect(context.passport?.tier).toBe(1)
    const scoring = createRateLimiter({ limit: 1, windowMs: 15 * 60_000, now: clock.now, sleep: clock.sleep })
    const runtime = createStrategyRuntime({ ...context, sleep: clock.sleep, passport: { ...context.passport, rateLimiter: scoring } })
    const { passport } = getPassportSources(runtime, 'passport-v2')
    nock(api).get(`/v2/stamps/1/score/${address}`).times(2).reply(200, record)
    await passport.getScore({ scorerId: 1, address })
    const error = await failure(passport.getScore({ scorerId: 1, address }))
    expect(error).toMatchObject({ name: 'RateLimitError', retryAfterMs: 15 * 60_000 })
    expect(error.details).toContain('past maxWaitMs (30000 ms)')
    expect(clock.sleeps).toEqual([])
  })
})
