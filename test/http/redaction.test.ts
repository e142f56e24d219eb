/**
 * No error a client throws carries its API key or bearer token, on any path: a server that echoes
 * the request back in a body, a header or an error message leaks nothing into message, details,
 * body, cause, String(), JSON or stack.
 */
import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createPassportClient } from '../../src/clients/passport/index.js'
import { createStampCacheClient } from '../../src/clients/stamp-cache/index.js'
import { failure, manualTimers } from '../helpers/async.js'
import { fastTransport } from '../helpers/endpoint-matrix.js'

const api = 'https://api.passport.xyz'
const cacheHost = 'https://cache.example'
const apiKey = 'sk-echo-0123456789abcdef'
const token = 'eyJhbGciOiJIUzI1NiJ9.eyJkaWQiOiJkaWQ6cGtoOmVpcDE1NToxOjB4NTI5MDg0MDAwOTg1Mjc4ODZlMGY3MDMwMDY5ODU3ZDJlNDE2OWVlNyJ9.ZWNobw'
const address = '0x52908400098527886e0f7030069857d2e4169ee7'
const echo = `<html><title>echo ${apiKey}</title>X-API-KEY: ${apiKey} Authorization: Bearer ${token}</html>`

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())

function texts(error: Error): string[] {
  const seen: string[] = []
  let current: unknown = error
  while (current instanceof Error) {
    seen.push(current.message, String(current), current.stack ?? '', JSON.stringify(current), JSON.stringify(Object.entries(current)))
    current = current.cause
  }
  return seen
}

type Case = { name: string; expected: string; arrange: (scope: nock.Interceptor) => void }

const cases: Case[] = [
  { name: '500 page echoing the request', expected: 'HttpRequestError', arrange: (i) => i.times(4).reply(500, echo) },
  { name: '400 detail echoing the key', expected: 'InvalidRequestError', arrange: (i) => i.reply(400, { detail: `bad key ${apiKey} / ${token}` }) },
  { name: '401', expected: 'AuthenticationError', arrange: (i) => i.reply(401, { detail: `Invalid API Key ${apiKey}` }) },
  { name: '403', expected: 'PermissionDeniedError', arrange: (i) => i.reply(403, { error: `forbidden for ${token}` }) },
  { name: '404', expected: 'NotFoundError', arrange: (i) => i.reply(404, { error: 'x', message: `no ${apiKey}` }) },
  { name: '429', expected: 'RateLimitError', arrange: (i) => i.times(4).reply(429, { detail: `slow down ${apiKey}` }) },
  { name: 'network error naming the key', expected: 'NetworkError', arrange: (i) => i.times(4).replyWithError(`socket hang up sending ${apiKey} ${token}`) },
  { name: '200 HTML page echoing the key', expected: 'ResponseParseError', arrange: (i) => i.reply(200, echo) },
  { name: '200 JSON of the wrong shape holding the key', expected: 'ResponseValidationError', arrange: (i) => i.reply(200, { address: apiKey, score: token }) },
  { name: 'redirect to a URL holding the key', expected: 'RedirectRefusedError', arrange: (i) => i.reply(302, '', { location: `https://elsewhere.example/?k=${apiKey}&t=${token}` }) },
]

describe('errors never carry the key or the token', () => {
  for (const c of cases) {
    test(`API key client: ${c.name} -> ${c.expected}`, async () => {
      c.arrange(nock(api).get(`/v2/stamps/1/score/${address}`))
      const error = await failure(createPassportClient({ apiKey, ...fastTransport, rateLimiters: false }).getScore({ scorerId: 1, address }))
      expect(error.name).toBe(c.expected)
      for (const text of texts(error)) expect(text).not.toContain(apiKey)
    })

    test(`bearer client: ${c.name} -> ${c.expected}`, async () => {
      c.arrange(nock(cacheHost).get(`/stamp-cache/score/${address}`))
      const error = await failure(createStampCacheClient({ baseUrl: cacheHost, accessToken: token, ...fastTransport }).getScore({ address }))
      expect(error.name).toBe(c.expected)
      for (const text of texts(error)) expect(text).not.toContain(token)
    })
  }

  test('a timeout', async () => {
    const timers = manualTimers()
    nock(api)
      .get(`/v2/stamps/1/score/${address}`)
      .times(4)
      .reply(() => (timers.fire(), [200, {}]))
    const error = await failure(createPassportClient({ apiKey, ...fastTransport, timeoutMs: 50, timer: timers.timer, rateLimiters: false }).getScore({ scorerId: 1, address }))
    expect(error.name).toBe('TimeoutError')
    for (const text of texts(error)) expect(text).not.toContain(apiKey)
  })
})
