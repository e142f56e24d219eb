import nock from 'nock'
import { manualTimers } from '../../test/helpers/async.js'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import {
  AuthenticationError,
  HttpRequestError,
  InvalidRequestError,
  NetworkError,
  RateLimitError,
  ResponseParseError,
  ResponseValidationError,
  TimeoutError,
} from '../errors/index.js'
import { extractPageToken } from './paginate.js'
import { createRateLimiter, getSharedRateLimiter } from './rate-limit.js'
import { createTransport, parseRetryAfter, type TransportConfig } from './transport.js'

const base = 'https://scorer.test'
const apiKey = 'sk_live_0123456789abcdef'
const okSchema = z.object({ ok: z.boolean() })

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

function setup(overrides: Partial<TransportConfig> = {}) {
  const sleeps: number[] = []
  const transport = createTransport({
    baseUrl: base,
    authHeaders: () => ({ 'X-API-KEY': apiKey }),
    secrets: () => [apiKey],
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    random: () => 0.5,
    ...overrides,
  })
  return { transport, sleeps }
}

describe('createTransport', () => {
  test('sends the API key header and validates the body', async () => {
    nock(base).get('/v2/thing').matchHeader('x-api-key', apiKey).query({ a: '1' }).reply(200, { ok: true })
    const { transport } = setup()
    const response = await transport.request({ method: 'GET', path: '/v2/thing', query: { a: 1, b: undefined }, schema: okSchema })
    expect(response.data).toEqual({ ok: true })
  })

  test('retries 5xx with growing backoff, then succeeds', async () => {
    nock(base).get('/x').reply(500, { detail: 'boom' }).get('/x').reply(503, 'unavailable').get('/x').reply(200, { ok: true })
    const { transport, sleeps } = setup()
    await expect(transport.request({ method: 'GET', path: '/x', schema: okSchema })).resolves.toMatchObject({ data: { ok: true } })
    // equal jitter with random 0.5: 3/4 of 500 * 2^(n-1)
    expect(sleeps).toEqual([375, 750])
  })

  test('caps the backoff delay', async () => {
    const scope = nock(base).get('/x').times(4).reply(502, '')
    const { transport, sleeps } = setup({ retry: { limit: 3, baseDelayMs: 1000, maxDelayMs: 1500 } })
    await expect(transport.request({ method: 'GET', path: '/x', schema: okSchema })).rejects.toBeInstanceOf(HttpRequestError)
    expect(sleeps).toEqual([750, 1125, 1125])
    expect(scope.isDone()).toBe(true)
  })

  test('honours Retry-After on 429', async () => {
    nock(base).get('/x').reply(429, { detail: 'slow down' }, { 'Retry-After': '7' }).get('/x').reply(200, { ok: true })
    const { transport, sleeps } = setup()
    await transport.request({ method: 'GET', path: '/x', schema: okSchema })
    expect(sleeps).toEqual([7000])
  })

  test('gives up with RateLimitError when Retry-After is longer than it will wait', async () => {
    nock(base).get('/x').reply(429, { detail: 'Request was throttled.' }, { 'Retry-After': '900' })
    const { transport, sleeps } = setup()
    const error = await transport.request({ method: 'GET', path: '/x', schema: okSchema }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RateLimitError)
    expect((error as RateLimitError).retryAfterMs).toBe(900_000)
    expect(sleeps).toEqual([])
    expect((error as RateLimitError).message).toMatchInlineSnapshot(`
      "The rate limit of this API key is exhausted.

      Request: GET https://scorer.test/x
      Status: 429
      Retry after: 900 s

      Details: Request was throttled.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#rate-limited
      Version: personhood@0.1.0"
    `)
  })

  test('retries a timed-out attempt, then succeeds', async () => {
    // The first attempt times out once its request has reached the server (the test fires its
    // timer); the second answers and its timer never fires: no real timer is raced.
    const timers = manualTimers()
    const arrived: number[] = []
    nock(base)
      .get('/slow')
      .reply(() => (arrived.push(timers.fire()), [200, { ok: true }]))
      .get('/slow')
      .reply(200, { ok: true })
    const { transport, sleeps } = setup({ timeoutMs: 1000, timer: timers.timer })
    await expect(transport.request({ method: 'GET', path: '/slow', schema: okSchema })).resolves.toMatchObject({ data: { ok: true } })
    expect(arrived).toEqual([1]) // one attempt's timer was running, and fired
    expect(sleeps).toHaveLength(1)
    expect(timers.pending).toBe(0) // the answered attempt cancelled its own
  })

  test('throws TimeoutError when every attempt times out', async () => {
    const timers = manualTimers()
    nock(base)
      .get('/slow')
      .times(2)
      .reply(() => (timers.fire(), [200, { ok: true }]))
    const { transport } = setup({ timeoutMs: 30, retry: { limit: 1 }, timer: timers.timer })
    const error = await transport.request({ method: 'GET', path: '/slow', schema: okSchema }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    expect((error as TimeoutError).timeoutMs).toBe(30)
  })

  test('an attempt times out after timeoutMs by default (a real timer, cancelled once answered)', async () => {
    const started: number[] = []
    let cancelled = 0
    nock(base).get('/x').reply(200, { ok: true })
    const { transport } = setup({ timeoutMs: 1234, timer: (ms) => (started.push(ms), () => void cancelled++) })
    await transport.request({ method: 'GET', path: '/x', schema: okSchema })
    expect(started).toEqual([1234])
    expect(cancelled).toBe(1)
  })

  test('retries network errors for reads', async () => {
    nock(base).get('/x').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' }).get('/x').reply(200, { ok: true })
    const { transport } = setup()
    await expect(transport.request({ method: 'GET', path: '/x', schema: okSchema })).resolves.toMatchObject({ data: { ok: true } })
  })

  test('never repeats a non-idempotent POST after a 5xx or a lost answer', async () => {
    nock(base).post('/submit').reply(500, { detail: 'oops' })
    const { transport, sleeps } = setup()
    await expect(transport.request({ method: 'POST', path: '/submit', body: { a: 1 }, schema: okSchema })).rejects.toBeInstanceOf(
      HttpRequestError,
    )
    nock(base).post('/submit').replyWithError('socket hang up')
    await expect(transport.request({ method: 'POST', path: '/submit', body: { a: 1 }, schema: okSchema })).rejects.toBeInstanceOf(
      NetworkError,
    )
    expect(sleeps).toEqual([])
  })

  test('repeats a POST refused with 429 (the server did nothing)', async () => {
    nock(base).post('/submit').reply(429, {}).post('/submit', { a: 1 }).reply(200, { ok: true })
    const { transport } = setup()
    await expect(transport.request({ method: 'POST', path: '/submit', body: { a: 1 }, schema: okSchema })).resolves.toMatchObject({
      data: { ok: true },
    })
  })

  test('an HTML 502 page becomes an HttpRequestError naming the page', async () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>'
    nock(base).get('/x').times(4).reply(502, html, { 'Content-Type': 'text/html' })
    const { transport } = setup()
    const error = (await transport.request({ method: 'GET', path: '/x', schema: okSchema }).catch((e: unknown) => e)) as HttpRequestError
    expect(error).toBeInstanceOf(HttpRequestError)
    expect(error.status).toBe(502)
    expect(error.message).toMatchInlineSnapshot(`
      "HTTP request failed with status 502.

      Request: GET https://scorer.test/x
      Status: 502
      Attempts: 4

      Details: The server answered with an HTML page ("502 Bad Gateway"), not JSON.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#http-request-failed
      Version: personhood@0.1.0"
    `)
  })

  test('maps 400, 401 and 422 to typed errors with the server message', async () => {
    nock(base)
      .get('/bad')
      .reply(400, { detail: 'Invalid address' })
      .get('/auth')
      .reply(401, { detail: 'Invalid API Key.' })
      .get('/unprocessable')
      .reply(422, { detail: [{ loc: ['query', 'created_at'], msg: 'field required', type: 'value_error.missing' }] })
    const { transport } = setup()
    const bad = await transport.request({ method: 'GET', path: '/bad', schema: okSchema }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(InvalidRequestError)
    expect((bad as InvalidRequestError).serverMessage).toBe('Invalid address')
    await expect(transport.request({ method: 'GET', path: '/auth', schema: okSchema })).rejects.toBeInstanceOf(AuthenticationError)
    const unprocessable = (await transport
      .request({ method: 'GET', path: '/unprocessable', schema: okSchema })
      .catch((e: unknown) => e)) as InvalidRequestError
    expect(unprocessable.status).toBe(422)
    expect(unprocessable.serverMessage).toContain('created_at')
  })

  test('invalid JSON on a success status is a ResponseParseError', async () => {
    nock(base).get('/x').reply(200, '{"ok": tru')
    const { transport } = setup()
    await expect(transport.request({ method: 'GET', path: '/x', schema: okSchema })).rejects.toBeInstanceOf(ResponseParseError)
  })

  test('a body that fails the schema is a ResponseValidationError listing the issues', async () => {
    nock(base).get('/x').reply(200, { ok: 'yes' })
    const { transport } = setup()
    const error = (await transport.request({ method: 'GET', path: '/x', schema: okSchema }).catch((e: unknown) => e)) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues).toEqual([{ path: ['ok'], message: expect.stringContaining('boolean') }])
  })

  test('never shows the API key, even when the server echoes it', async () => {
    nock(base).get('/x').reply(401, { detail: `Invalid key ${apiKey}` })
    const { transport } = setup()
    const error = (await transport.request({ method: 'GET', path: '/x', schema: okSchema }).catch((e: unknown) => e)) as AuthenticationError
    expect(error.message).not.toContain(apiKey)
    expect(error.body).not.toContain(apiKey)
    expect(error.message).toContain('[redacted]')
  })

  test('accepts a status given in acceptStatus as an answer', async () => {
    nock(base).get('/maybe').reply(404, { detail: 'none' })
    const { transport } = setup()
    const response = await transport.request({ method: 'GET', path: '/maybe', schema: z.unknown(), acceptStatus: [404] })
    expect(response.status).toBe(404)
  })

  test('draws every attempt, retries included, from the rate limiter', async () => {
    nock(base).get('/x').reply(500, {}).get('/x').reply(200, { ok: true })
    let t = 0
    const limiter = createRateLimiter({ limit: 10, now: () => t, sleep: async (ms) => void (t += ms) })
    const { transport } = setup()
    await transport.request({ method: 'GET', path: '/x', schema: okSchema, rateLimiter: limiter })
    expect(limiter.inWindow()).toBe(2)
  })
})

describe('createRateLimiter', () => {
  test('a burst of 300 never puts more than 125 into any 15-minute window', async () => {
    let t = 0
    const windowMs = 15 * 60 * 1000
    const limiter = createRateLimiter({ limit: 125, now: () => t, sleep: async (ms) => void (t += ms) })
    const starts: number[] = []
    await Promise.all(
      Array.from({ length: 300 }, async () => {
        await limiter.acquire()
        starts.push(t)
      }),
    )
    expect(starts).toHaveLength(300)
    // every window [s, s + 15 min) that starts at a request holds at most 125
    for (const s of starts) expect(starts.filter((x) => x >= s && x < s + windowMs).length).toBeLessThanOrEqual(125)
    // and the pacing is not wasteful: 300 requests fit in three windows
    expect(starts.at(-1)).toBe(2 * windowMs)
  })

  test('rejects a nonsensical limit', () => {
    expect(() => createRateLimiter({ limit: 0 })).toThrow('Parameter "limit" is invalid.')
  })
})

describe('parseRetryAfter', () => {
  test('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', 0)).toBe(120_000)
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4_000)).toBe(6_000)
    expect(parseRetryAfter('soon', 0)).toBeUndefined()
    expect(parseRetryAfter(null, 0)).toBeUndefined()
  })
})

describe('rate limiter robustness', () => {
  test('a sleep that does not move the clock falls back to a real timer instead of spinning', async () => {
    let t = 1_000
    let sleeps = 0
    const limiter = createRateLimiter({
      limit: 1,
      windowMs: 30,
      now: () => t,
      sleep: async () => {
        sleeps++
      },
    })
    await limiter.acquire()
    const second = limiter.acquire()
    // the real timer fallback gives the clock a chance to move; move it past the window
    setTimeout(() => (t += 30), 5)
    await second
    expect(sleeps).toBeGreaterThanOrEqual(1)
    expect(limiter.inWindow()).toBe(1)
  })
})

describe('getSharedRateLimiter', () => {
  test('one key shares one budget; another tier for the same key is refused', () => {
    const a = getSharedRateLimiter({ apiKey: 'pk_shared_test_key', budget: 'scoring', tier: 2 })
    expect(getSharedRateLimiter({ apiKey: 'pk_shared_test_key', budget: 'scoring', tier: 2 })).toBe(a)
    expect(getSharedRateLimiter({ apiKey: 'pk_shared_test_key', budget: 'model', tier: 2 })).not.toBe(a)
    expect(() => getSharedRateLimiter({ apiKey: 'pk_shared_test_key', budget: 'scoring', tier: 1 })).toThrow(
      'Parameter "tier" is invalid.',
    )
  })
})

describe('extractPageToken', () => {
  test('reads bare tokens, absolute links and relative links; never a host', () => {
    expect(extractPageToken(null)).toBeNull()
    expect(extractPageToken('')).toBeNull()
    expect(extractPageToken('eyJhIjoxfQ')).toBe('eyJhIjoxfQ')
    expect(extractPageToken('/8Jv+q==')).toBe('/8Jv+q==') // a base64 token that starts with "/"
    expect(extractPageToken('https://evil.example/v2/stamps/0xabc?limit=10&token=abc123')).toBe('abc123')
    expect(extractPageToken('/v2/stamps/0xabc?token=xyz&limit=10')).toBe('xyz')
  })

  test('a link without a token is an error, not a silent end of the data', () => {
    expect(() => extractPageToken('https://api.example/v2/stamps/0xabc?limit=10')).toThrow(ResponseValidationError)
  })
})
