/**
 * A keyed or bearer request goes only to the configured origin: redirects are followed within it,
 * and a redirect to another host is refused with a typed error before the key can travel there.
 */
import { Readable } from 'node:stream'
import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createPassportClient } from '../../src/clients/passport/index.js'
import { createRegistryClient } from '../../src/clients/registry/index.js'
import { createStampCacheClient } from '../../src/clients/stamp-cache/index.js'
import { createRateLimiter } from '../../src/http/rate-limit.js'
import { failure } from '../helpers/async.js'
import { fastTransport } from '../helpers/endpoint-matrix.js'

const api = 'https://api.passport.xyz'
const legacy = 'https://api.scorer.gitcoin.co'
const evil = 'https://collector.example'
const apiKey = 'sk-live-redirect-test-0123456789'
const address = '0x52908400098527886e0f7030069857d2e4169ee7'
const score = {
  address,
  score: '21.00000',
  passing_score: true,
  threshold: '20.00000',
  last_score_timestamp: '2025-06-01T00:00:00.000Z',
  expiration_timestamp: '2025-09-01T00:00:00.000Z',
  error: null,
  stamps: {},
}

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())

const limiter = () => createRateLimiter({ limit: 1000 })
const passport = () => createPassportClient({ apiKey, ...fastTransport, rateLimiters: false })

function expectNoSecret(error: Error) {
  for (const text of [error.message, String(error), JSON.stringify(error), error.stack ?? '']) expect(text).not.toContain(apiKey)
}

describe('redirects', () => {
  test('a 302 on a score read to another host is refused; the key never reaches it', async () => {
    nock(api).get(`/v2/stamps/1/score/${address}`).reply(302, '', { location: `${evil}/steal?x=1` })
    const stolen = nock(evil).get(/.*/).reply(200, score)
    const error = await failure(passport().getScore({ scorerId: 1, address }))
    expect(error).toMatchObject({ name: 'RedirectRefusedError', code: 'REDIRECT_REFUSED', status: 302, location: evil })
    expect(stolen.isDone()).toBe(false)
    expectNoSecret(error)
  })

  test('a 307 on a v1 submit (POST) to another host is refused; the key never reaches it', async () => {
    nock(legacy).post('/registry/submit-passport').reply(307, '', { location: `${evil}/registry/submit-passport` })
    const stolen = nock(evil).post(/.*/).reply(200, {})
    const registry = createRegistryClient({ apiKey, ...fastTransport, rateLimiter: limiter() })
    const error = await failure(registry.submitPassport({ scorerId: 1, address }))
    expect(error).toMatchObject({ name: 'RedirectRefusedError', status: 307, location: evil })
    expect(stolen.isDone()).toBe(false)
  })

  test('a bearer request redirected to another host is refused', async () => {
    const host = 'https://cache.example'
    const token = 'eyJhbGciOiJIUzI1NiJ9.eyJkaWQiOiJkaWQ6cGtoOmVpcDE1NToxOjB4NTI5MDg0MDAwOTg1Mjc4ODZlMGY3MDMwMDY5ODU3ZDJlNDE2OWVlNyJ9.c2ln'
    nock(host).get(`/stamp-cache/score/${address}`).reply(301, '', { location: `${evil}/x` })
    const stolen = nock(evil).get(/.*/).reply(200, {})
    const cache = createStampCacheClient({ baseUrl: host, accessToken: token, ...fastTransport })
    const error = await failure(cache.getScore({ address }))
    expect(error).toMatchObject({ name: 'RedirectRefusedError', location: evil })
    expect(stolen.isDone()).toBe(false)
    expect(error.message).not.toContain(token)
  })

  test('a same-origin redirect is followed with the key: GET, and a 307 POST keeps its method and body', async () => {
    nock(api).get(`/v2/stamps/1/score/${address}`).reply(302, '', { location: `/v2/stamps/1/score/${address}?moved=1` })
    nock(api, { reqheaders: { 'x-api-key': apiKey } })
      .get(`/v2/stamps/1/score/${address}`)
      .query({ moved: '1' })
      .reply(200, score)
    expect((await passport().getScore({ scorerId: 1, address })).score).toBe('21.00000')

    nock(legacy).post('/registry/submit-passport').reply(307, '', { location: `${legacy}/v1/registry/submit-passport` })
    const moved = nock(legacy, { reqheaders: { 'x-api-key': apiKey } })
      .post('/v1/registry/submit-passport', (body: { address: string }) => body.address === address)
      .reply(200, { address, score: '1.000000000', status: 'DONE', last_score_timestamp: '2025-06-01T00:00:00.000Z', expiration_date: '2025-09-01T00:00:00.000Z', evidence: null, error: null, stamp_scores: {} })
    const registry = createRegistryClient({ apiKey, ...fastTransport, rateLimiter: limiter() })
    await registry.submitPassport({ scorerId: 1, address })
    expect(moved.isDone()).toBe(true)
  })

  test('a redirect loop within the origin stops', async () => {
    nock(api).get(/.*/).times(10).reply(302, '', { location: `/v2/stamps/1/score/${address}` })
    const error = await failure(passport().getScore({ scorerId: 1, address }))
    expect(error).toMatchObject({ name: 'RedirectRefusedError', details: 'More than 5 redirects.' })
  })
})

describe('response size', () => {
  test('a body over the cap is refused without being read whole (declared or streamed)', async () => {
    const big = JSON.stringify({ ...score, error: 'x'.repeat(5000) })
    nock(api).get(`/v2/stamps/1/score/${address}`).reply(200, big, { 'content-length': String(big.length) })
    const client = createPassportClient({ apiKey, ...fastTransport, rateLimiters: false, maxResponseBytes: 1000 })
    expect(await failure(client.getScore({ scorerId: 1, address }))).toMatchObject({ name: 'ResponseTooLargeError', limitBytes: 1000 })
    nock(api)
      .get(`/v2/stamps/1/score/${address}`)
      .reply(200, () => Readable.from([big.slice(0, 600), big.slice(600, 1200), big.slice(1200)]))
    expect(await failure(client.getScore({ scorerId: 1, address }))).toMatchObject({ name: 'ResponseTooLargeError' })
  })
})
