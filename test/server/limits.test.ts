/**
 * The server's limits against real clients and abusive ones: long E4 URLs are served, anything the
 * HTTP parser refuses still gets a JSON body, bodies are capped before they are read, and the routes
 * that need no key are limited per client.
 */
import { request as httpRequest } from 'node:http'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { maxRequestHeaderBytes, startServe, type RunningServe } from '../../src/server/start.js'
import { maxBodyBytes } from '../../src/server/app.js'
import { setup, worldNow } from './harness.js'

/** A raw GET: status, content type and body text. */
function get(url: string): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('serve over a real port', () => {
  let running: RunningServe
  beforeAll(async () => {
    running = await startServe({ port: 0, seed: 'demo', wallets: 60, worldNow })
  })
  afterAll(async () => {
    await running?.close()
  })

  const e4 = (addresses: string[]) =>
    `${running.urls.humanId}/voting-strategies/sybil-resistance/gov-id?network=10&snapshot=latest&action-id=123456789&addresses=${addresses.join(',')}`
  const many = (count: number) => Array.from({ length: count }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`)

  test('500 and 2,000 addresses in one E4 URL are answered', async () => {
    for (const count of [500, 2000]) {
      const answer = await get(e4(many(count)))
      expect({ count, status: answer.status }).toEqual({ count, status: 200 })
      expect(JSON.parse(answer.body).score).toHaveLength(count)
    }
  })

  test('a request line over the limit gets a 431 with a JSON body', async () => {
    const answer = await get(e4(many(Math.ceil(maxRequestHeaderBytes / 42) + 100)))
    expect(answer.status).toBe(431)
    expect(answer.type).toBe('application/json')
    expect(JSON.parse(answer.body).detail).toMatch(/^Request line and headers too large: at most 262144 bytes/)
  })
})

describe('request bodies', () => {
  test('a body over the cap is a 413 with a JSON detail, read no further, with or without Content-Length', async () => {
    const h = setup()
    const big = 'x'.repeat(maxBodyBytes + 1)
    const declared = await h.call('/stamp-cache/authenticate/v2', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } })
    expect(declared).toMatchObject({ status: 413, body: { detail: `Request body too large: at most ${maxBodyBytes} bytes.` } })

    // Streamed (chunked): 150 MB offered, the server stops reading past the cap.
    let sent = 0
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const stream = new Readable({
      read() {
        if (sent >= 150 * 1024 * 1024) return this.push(null)
        sent += chunk.length
        this.push(chunk)
      },
    })
    const response = await h.server.fetch(
      new Request('http://personhood.local/stamp-cache/authenticate/v2', { method: 'POST', body: Readable.toWeb(stream) as ReadableStream, duplex: 'half', headers: { 'content-type': 'application/json' } } as RequestInit),
    )
    expect(response.status).toBe(413)
    expect(sent).toBeLessThan(4 * maxBodyBytes)
  })
})

describe('routes that need no key', () => {
  test('nonces: limited per client, and the nonce book stays bounded with expired nonces pruned', async () => {
    const h = setup({ nonceLimit: 5 })
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await h.call('/account/nonce', { apiKey: null })).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
    const refused = await h.call('/account/nonce', { apiKey: null })
    expect(refused.body.detail).toMatch(/^Too many requests to nonces from this address\. Expected available in \d+ seconds\.$/)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)

    // Ten minutes later the window is new and the expired nonces are gone from the book.
    h.clock.advance(11 * 60_000)
    expect((await h.call('/account/nonce', { apiKey: null })).status).toBe(200)
    expect(Object.keys(h.store.state.siweNonces)).toHaveLength(1)
  })

  test('the nonce book never holds more than its bound', () => {
    const h = setup()
    for (let i = 0; i < 50_010; i++) h.store.issueNonce('siwe', { ttlMs: 60_000, nonce: `n${i}` })
    expect(Object.keys(h.store.state.siweNonces)).toHaveLength(50_000)
    expect(h.store.nonce('siwe', 'n0')).toBeUndefined()
    expect(h.store.nonce('siwe', 'n50009')).toBeDefined()
  })

  test('the open routes are limited per client too', async () => {
    const h = setup({ openRouteLimit: 3 })
    const statuses: number[] = []
    for (let i = 0; i < 4; i++) statuses.push((await h.call('/stamp-cache/weights', { apiKey: null })).status)
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})
