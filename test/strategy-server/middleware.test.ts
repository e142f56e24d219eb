/**
 * The strategy server's middleware factories, each alone on a bare hono app: they check their
 * options when created, and do their one job (issue #32, point 2).
 */
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { toErrorAnswer } from '../../src/strategy-server/answer.js'
import { createStrategyServerMetrics } from '../../src/strategy-server/metrics.js'
import { drainOnShutdown, requestLog, secretHeader, strategySecret, strategySecretCheck } from '../../src/strategy-server/middleware.js'

const salt = 'a-salt-of-some-length'

/** A bare app that answers errors as the server does. */
function bare(): Hono {
  const app = new Hono()
  app.onError((error, c) => {
    const answer = toErrorAnswer(error)
    return c.json(answer.body, answer.status, answer.headers)
  })
  return app
}

describe('strategySecretCheck', () => {
  it('refuses a short salt when created', () => {
    expect(() => strategySecretCheck({ salt: 'short', signedUrl: () => undefined })).toThrowErrorMatchingInlineSnapshot(`
      [InvalidParameterError: Parameter "salt" is invalid.

      Details: Expected a string of at least 8 characters.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0]
    `)
  })

  it('lets through sha256(url + salt) of the signed URL only, with 401 and WWW-Authenticate otherwise', async () => {
    const app = bare()
    app.get('/strategies/:name', strategySecretCheck({ salt, signedUrl: (c) => c.req.url }), (c) => c.text('in'))
    const url = 'http://localhost/strategies/human-id?network=10'
    const ok = await app.fetch(new Request(url, { headers: { [secretHeader]: strategySecret(url, salt) } }))
    expect([ok.status, await ok.text()]).toEqual([200, 'in'])
    const missing = await app.fetch(new Request(url))
    expect(missing.status).toBe(401)
    expect(missing.headers.get('WWW-Authenticate')).toBe(`SnapshotStrategySecret header="${secretHeader}"`)
    expect(await missing.json()).toEqual({
      error: { code: 'INVALID_STRATEGY_SECRET', message: `Missing ${secretHeader}: this server answers only the score-api that knows its salt.`, field: secretHeader },
    })
    const other = await app.fetch(new Request(url, { headers: { [secretHeader]: strategySecret(`${url}&more`, salt) } }))
    expect(other.status).toBe(401)
    expect(((await other.json()) as { error: { message: string } }).error.message).toBe(`${secretHeader} does not match sha256(url + salt) for this URL.`)
  })

  it('refuses a signed URL that names another route when told to match it', async () => {
    const app = bare()
    const signed = 'https://scores.example.org/strategies/passport-v2'
    app.post(
      '/strategies/:name',
      strategySecretCheck({ salt, signedUrl: () => signed, matchRoute: (c, url) => (url.endsWith(`/${c.req.param('name')}`) ? undefined : 'another endpoint') }),
      (c) => c.text('in'),
    )
    const headers = { [secretHeader]: strategySecret(signed, salt) }
    expect((await app.fetch(new Request('http://localhost/strategies/passport-v2', { method: 'POST', headers }))).status).toBe(200)
    const elsewhere = await app.fetch(new Request('http://localhost/strategies/human-id', { method: 'POST', headers }))
    expect(elsewhere.status).toBe(401)
    expect(((await elsewhere.json()) as { error: { message: string } }).error.message).toBe('another endpoint')
  })
})

describe('requestLog', () => {
  it('refuses a log that is not a function when created', () => {
    expect(() => requestLog({ log: 'stdout' as never, metrics: createStrategyServerMetrics() })).toThrowErrorMatchingInlineSnapshot(`
      [InvalidParameterError: Parameter "log" is invalid.

      Details: Expected a function that takes a line.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0]
    `)
  })

  it('writes one line a request with the secrets redacted, and counts it', async () => {
    const lines: string[] = []
    const metrics = createStrategyServerMetrics()
    const app = bare()
    app.use('*', requestLog({ log: (line) => lines.push(line), metrics, now: () => Date.UTC(2026, 0, 1), secrets: ['rpc-key-123456'] }))
    app.get('/health', (c) => c.text('ok'))
    const presented = 'f'.repeat(64)
    const response = await app.fetch(new Request('http://localhost/health?key=rpc-key-123456&echo=' + presented, { headers: { [secretHeader]: presented, 'User-Agent': 'test' } }))
    expect(response.headers.get('Server-Timing')).toMatch(/^total;dur=/)
    expect(lines).toHaveLength(1)
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>
    expect(entry).toMatchObject({ time: '2026-01-01T00:00:00.000Z', method: 'GET', status: 200, secret: '[redacted]', userAgent: 'test' })
    // The path is kept, its secrets replaced (not the line dropped).
    expect(entry.path).toBe('/health?key=[redacted]&echo=[redacted]')
    expect(lines[0]).not.toContain('rpc-key-123456')
    expect(lines[0]).not.toContain(presented)
    expect(metrics.render({})).toContain('personhood_strategy_requests_total{route="/health",strategy="",status="200"} 1')
  })
})

describe('drainOnShutdown', () => {
  it('refuses a Retry-After that is not a positive integer when created', () => {
    expect(() => drainOnShutdown({ retryAfterSeconds: 0 })).toThrowErrorMatchingInlineSnapshot(`
      [InvalidParameterError: Parameter "retryAfterSeconds" is invalid.

      Details: Expected a positive integer, got 0.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0]
    `)
  })

  it('passes calls on until drain(), then answers 503 STOPPING with Retry-After', async () => {
    const stopping = drainOnShutdown()
    const app = bare()
    app.get('/strategies/:name', stopping.middleware, (c) => c.text('in'))
    expect((await app.fetch(new Request('http://localhost/strategies/x'))).status).toBe(200)
    expect(stopping.draining).toBe(false)
    stopping.drain()
    expect(stopping.draining).toBe(true)
    const refused = await app.fetch(new Request('http://localhost/strategies/x'))
    expect(refused.status).toBe(503)
    expect(refused.headers.get('Retry-After')).toBe('1')
    expect(await refused.json()).toEqual({ error: { code: 'STOPPING', message: 'The server is stopping; ask another instance or retry.' } })
  })
})
