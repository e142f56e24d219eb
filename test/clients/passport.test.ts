import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  createPassportClient,
  getScore,
  listStamps,
  type CreatePassportClientParameters,
  type PassportClient,
} from '../../src/clients/index.js'
import {
  AuthenticationError,
  InvalidAddressError,
  InvalidParameterError,
  InvalidRequestError,
  PaginationLimitError,
  PermissionDeniedError,
  ResponseValidationError,
} from '../../src/errors/index.js'
import { createRateLimiter, type TransportOptions } from '../../src/http/index.js'
import { createTransport } from '../../src/http/transport.js'
import { describeEndpointMatrix, fastTransport } from '../helpers/endpoint-matrix.js'
import { countBy, failure, fakeClock, maxInAnyWindow, recordingFetch } from '../helpers/async.js'

const base = 'https://api.passport.xyz'
const apiKey = 'pk_test_6f1c2d3e4b5a69788796a5b4c3d2e1f0'
const address = '0x52908400098527886e0f7030069857d2e4169ee7'
const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7'
const badChecksum = '0x52908400098527886e0F7030069857D2E4169EE7'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

/** A client on the default base URL, without pacing unless the test asks for it. */
function client(options: TransportOptions & Partial<CreatePassportClientParameters> = {}): PassportClient {
  return createPassportClient({ apiKey, rateLimiters: false, ...fastTransport, ...options })
}

// ---------------------------------------------------------------------------------------------
// Bodies in the public shapes (5-decimal strings, lowercase addresses, Django timestamps)
// ---------------------------------------------------------------------------------------------

const scoreBody = {
  address,
  score: '22.51600',
  passing_score: true,
  threshold: '20.00000',
  last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
  expiration_timestamp: '2025-01-23T19:16:14.023000+00:00',
  error: null,
  stamps: {
    Google: { score: '0.52500', dedup: false, expiration_date: '2025-01-23T19:16:14.023000+00:00' },
    Discord: { score: '0.00000', dedup: true, expiration_date: '2025-01-10T08:00:00.000000+00:00' },
    Ens: { score: '21.99100', dedup: false, expiration_date: '2025-02-01T00:00:00+00:00' },
  },
}

const credential = {
  '@context': ['https://www.w3.org/2018/credentials/v1', 'https://w3id.org/vc/status-list/2021/v1'],
  type: ['VerifiableCredential'],
  issuer: 'did:key:z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC',
  issuanceDate: '2024-10-01T12:00:00.000Z',
  expirationDate: '2025-01-01T12:00:00.000Z',
  credentialSubject: {
    id: `did:pkh:eip155:1:${address}`,
    hash: 'v0.0.0:Ft7mqRdvJ9jNgSSowb9qdcMeOzswOeighIOvk0wn964=',
    '@context': [{ hash: 'https://schema.org/Text', provider: 'https://schema.org/Text' }],
    provider: 'Google',
  },
  proof: {
    jws: 'eyJhbGciOiJFZERTQSIsImNyaXQiOlsiYjY0Il0sImI2NCI6ZmFsc2V9..x1Q3Zx0p5Yy9F3kS8Xk2m0aQ',
    type: 'Ed25519Signature2018',
    created: '2024-10-01T12:00:00.000Z',
    proofPurpose: 'assertionMethod',
    verificationMethod: 'did:key:z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC#z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC',
  },
}

const stampItem = {
  version: '1.0.0',
  credential,
  metadata: {
    group: 'Account Name',
    platform: { id: 'Google', icon: './assets/googleStampIcon.svg', name: 'Google', description: 'Connect your Google account.' },
    name: 'Google',
    description: 'Encrypted',
    hash: '0x7b1f',
  },
}

/** The public service's cursor: base64url JSON inside an absolute link. */
const cursor = (n: number) => Buffer.from(JSON.stringify({ d: 'next', id: n })).toString('base64url')
const nextLink = (host: string, token: string) => `${host}/v2/stamps/${address}?include_metadata=true&limit=2&token=${token}`

const metadataBody = [
  {
    id: 'Google',
    icon: './assets/googleStampIcon.svg',
    name: 'Google',
    description: 'Connect your existing Google Account to verify.',
    connectMessage: 'Connect Account',
    groups: [
      {
        name: 'Account Name',
        stamps: [{ name: 'Google', description: 'Encrypted', hash: '0x7b1f3a5d9e2c' }],
      },
    ],
  },
]

const modelBody = { address, details: { models: { aggregate: { score: 87 } } } }

// ---------------------------------------------------------------------------------------------
// The failure matrix of every endpoint
// ---------------------------------------------------------------------------------------------

const headers = { 'x-api-key': apiKey }

describeEndpointMatrix('passport client (A, B)', [
  {
    name: 'A1 getScore',
    host: base,
    method: 'get',
    path: `/v2/stamps/335/score/${address}`,
    headers,
    success: { body: scoreBody },
    invalidBody: { ...scoreBody, score: 'lots', stamps: undefined },
    idempotent: true,
    call: (options) => client(options).getScore({ scorerId: 335, address: checksummed }),
    expectSuccess: (result) => expect(result).toEqual(scoreBody),
  },
  {
    name: 'A2 getScoreHistory (the public one-object answer)',
    host: base,
    method: 'get',
    path: `/v2/stamps/335/score/${address}/history`,
    query: { created_at: '2024-10-26' },
    headers,
    success: { body: scoreBody },
    invalidBody: { items: [{ ...scoreBody, passing_score: 'yes' }] },
    idempotent: true,
    call: (options) => client(options).getScoreHistory({ scorerId: '335', address, createdAt: '2024-10-26' }),
    expectSuccess: (result) => expect(result).toEqual({ items: [scoreBody] }),
  },
  {
    name: 'A3 listStamps',
    host: base,
    method: 'get',
    path: `/v2/stamps/${address}`,
    query: { include_metadata: 'true', limit: '2' },
    headers,
    success: { body: { next: nextLink(base, cursor(2)), prev: null, items: [stampItem] } },
    invalidBody: { next: null, prev: null, items: [{ version: '1.0.0', credential: { ...credential, issuer: 7 } }] },
    idempotent: true,
    call: (options) => client(options).listStamps({ address, includeMetadata: true, limit: 2 }),
    expectSuccess: (result) => expect(result).toEqual({ next: cursor(2), prev: null, items: [stampItem] }),
  },
  {
    name: 'A4 getStampMetadata',
    host: base,
    method: 'get',
    path: '/v2/stamps/metadata',
    headers,
    success: { body: metadataBody },
    invalidBody: [{ ...metadataBody[0], groups: undefined }],
    idempotent: true,
    call: (options) => client(options).getStampMetadata(),
    expectSuccess: (result) => expect(result).toEqual(metadataBody),
  },
  {
    name: 'B1 getModelScore',
    host: base,
    method: 'get',
    path: `/v2/models/score/${address}`,
    query: { model: 'aggregate' },
    headers,
    success: { body: modelBody },
    invalidBody: { address, details: { models: { aggregate: { score: 'high' } } } },
    idempotent: true,
    call: (options) => client(options).getModelScore({ address }),
    expectSuccess: (result) => expect(result).toEqual({ address, model: 'aggregate', score: 87 }),
  },
])

// ---------------------------------------------------------------------------------------------
// Tolerance of the public services' variants
// ---------------------------------------------------------------------------------------------

describe('tolerance', () => {
  test('A1: the earlier revision (pass, stamp_scores, numeric threshold) normalizes to the current shape', async () => {
    nock(base)
      .get(`/v2/stamps/335/score/${address}`)
      .reply(200, {
        address,
        score: '22.51600',
        pass: true,
        threshold: 20,
        last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
        expiration_timestamp: null,
        error: null,
        stamp_scores: { Google: '0.52500', Ens: '21.99100' },
      })
    expect(await client().getScore({ scorerId: 335, address })).toStrictEqual({
      address,
      score: '22.51600',
      passing_score: true,
      threshold: '20',
      last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
      expiration_timestamp: null,
      error: null,
      stamps: {
        Google: { score: '0.52500', dedup: false, expiration_date: null },
        Ens: { score: '21.99100', dedup: false, expiration_date: null },
      },
    })
  })

  test('A1: a scoring failure is a success with error text', async () => {
    const failed = { ...scoreBody, score: '0.00000', passing_score: false, error: 'Unable to score', stamps: {} }
    nock(base).get(`/v2/stamps/335/score/${address}`).reply(200, failed)
    expect(await client().getScore({ scorerId: 335, address })).toEqual(failed)
  })

  test('A2: the spec answer { items } and the public one-object answer give the same result', async () => {
    nock(base)
      .get(`/v2/stamps/335/score/${address}/history`)
      .query({ created_at: '2024-10-26' })
      .reply(200, { items: [scoreBody] })
      .get(`/v2/stamps/335/score/${address}/history`)
      .query({ created_at: '2024-10-26' })
      .reply(200, scoreBody)
    const passport = client()
    const spec = await passport.getScoreHistory({ scorerId: 335, address, createdAt: '2024-10-26' })
    const publicShape = await passport.getScoreHistory({ scorerId: 335, address, createdAt: '2024-10-26' })
    expect(spec).toEqual({ items: [scoreBody] })
    expect(publicShape).toEqual(spec)
  })

  test('B1: a score sent as a numeric string becomes a number; other models are ignored', async () => {
    nock(base)
      .get(`/v2/models/score/${address}`)
      .query({ model: 'nft' })
      .reply(200, { address, details: { models: { nft: { score: '-1' }, aggregate: { score: 3 } } } })
    expect(await client().getModelScore({ address, model: 'nft' })).toEqual({ address, model: 'nft', score: -1 })
  })

  test.each([
    ['detail string', { detail: 'Invalid address' }, 'Invalid address'],
    [
      'detail list',
      { detail: [{ loc: ['query', 'limit'], msg: 'ensure this value is less than or equal to 1000', type: 'value_error' }] },
      'query.limit: ensure this value is less than or equal to 1000',
    ],
    ['error', { error: 'Bad Request' }, 'Bad Request'],
    ['error + message', { error: 'Bad Request', message: 'Invalid limit' }, 'Bad Request: Invalid limit'],
  ])('an error body with %s gives the server message', async (_name, body, message) => {
    nock(base).get(`/v2/stamps/${address}`).query({ limit: '10' }).reply(400, body)
    const error = (await failure(client().listStamps({ address, limit: 10 }))) as InvalidRequestError
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.serverMessage).toBe(message)
    expect(error.message).toContain(`Details: ${message}`)
  })
})

// ---------------------------------------------------------------------------------------------
// Requests: auth, parameters, secrets
// ---------------------------------------------------------------------------------------------

describe('requests', () => {
  test('functions work alone with any context that has a transport', async () => {
    nock(base).get(`/v2/stamps/7/score/${address}`).matchHeader('x-api-key', 'other-key').reply(200, scoreBody)
    const transport = createTransport({ baseUrl: base, authHeaders: () => ({ 'X-API-KEY': 'other-key' }) })
    expect(await getScore({ transport }, { scorerId: '7', address })).toEqual(scoreBody)
  })

  test('the client object is itself a context', async () => {
    nock(base).get(`/v2/stamps/${address}`).reply(200, { next: null, prev: null, items: [] })
    expect(await listStamps(client(), { address })).toEqual({ next: null, prev: null, items: [] })
  })

  test('createdAt: a Date is sent as toISOString(), an offset date-time in UTC, a date-only as given', async () => {
    const sent: string[] = []
    nock(base)
      .get(`/v2/stamps/335/score/${address}/history`)
      .query(true)
      .times(3)
      .reply(200, (uri) => {
        sent.push(new URL(uri, base).searchParams.get('created_at') ?? '')
        return scoreBody
      })
    const passport = client()
    await passport.getScoreHistory({ scorerId: 335, address, createdAt: new Date(Date.UTC(2024, 9, 26, 12, 30)) })
    await passport.getScoreHistory({ scorerId: 335, address, createdAt: '2024-10-26T12:30:00+02:00' })
    await passport.getScoreHistory({ scorerId: 335, address, createdAt: '2024-10-26' })
    expect(sent).toEqual(['2024-10-26T12:30:00.000Z', '2024-10-26T10:30:00.000Z', '2024-10-26'])
  })

  test('a token given as a link to another host is read for its token only; a bare token is sent as given', async () => {
    const scope = nock(base)
      .get(`/v2/stamps/${address}`)
      .query({ token: cursor(9) })
      .reply(200, { next: null, prev: null, items: [] })
      .get(`/v2/stamps/${address}`)
      .query({ token: '/8Jv+q==' })
      .reply(200, { next: null, prev: null, items: [] })
    const passport = client()
    await passport.listStamps({ address, token: nextLink('https://attacker.example', cursor(9)) })
    await passport.listStamps({ address, token: '/8Jv+q==' })
    expect(scope.isDone()).toBe(true)
  })

  test('B1 sends the requested model and reads its key', async () => {
    nock(base)
      .get(`/v2/models/score/${address}`)
      .query({ model: 'ethereum_activity' })
      .reply(200, { address, details: { models: { ethereum_activity: { score: 42.5 } } } })
    expect(await client().getModelScore({ address: checksummed, model: 'ethereum_activity' })).toEqual({
      address,
      model: 'ethereum_activity',
      score: 42.5,
    })
  })

  test('B1: an answer without the requested model is a ResponseValidationError naming the key', async () => {
    nock(base).get(`/v2/models/score/${address}`).query({ model: 'base' }).reply(200, modelBody)
    const error = (await failure(client().getModelScore({ address, model: 'base' }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues).toEqual([
      { path: ['details', 'models', 'base'], message: 'Expected a score for model "base", received only aggregate' },
    ])
    expect(error.url).toBe(`${base}/v2/models/score/${address}?model=base`)
  })

  test('the API key never appears in an error, even when the server echoes it', async () => {
    nock(base).get('/v2/stamps/metadata').reply(401, { detail: `Invalid API Key: ${apiKey}` })
    const error = (await failure(client().getStampMetadata())) as AuthenticationError
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.message).toContain('Invalid API Key: [redacted]')
    expect(`${error.message}${error.body ?? ''}${error.serverMessage ?? ''}`).not.toContain(apiKey)
  })

  test('one whole error message: A2 on a key that is not allowlisted', async () => {
    nock(base)
      .get(`/v2/stamps/335/score/${address}/history`)
      .query({ created_at: '2024-10-26T00:00:00.000Z' })
      .reply(403, { detail: 'You do not have permission to perform this action.' })
    const error = await failure(
      client().getScoreHistory({ scorerId: 335, address, createdAt: new Date('2024-10-26T00:00:00Z') }),
    )
    expect(error).toBeInstanceOf(PermissionDeniedError)
    expect((error as PermissionDeniedError).message).toMatchInlineSnapshot(`
      "The credentials are not allowed to use this endpoint.

      Request: GET https://api.passport.xyz/v2/stamps/335/score/0x52908400098527886e0f7030069857d2e4169ee7/history?created_at=2024-10-26T00%3A00%3A00.000Z
      Status: 403

      Details: You do not have permission to perform this action.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#permission-denied
      Version: personhood@0.1.0"
    `)
  })
})

// ---------------------------------------------------------------------------------------------
// Bad input: refused before any request
// ---------------------------------------------------------------------------------------------

describe('bad input is refused before any request', () => {
  function countingClient() {
    const calls: string[] = []
    const passport = client({
      fetch: async (input) => {
        calls.push(String(input))
        return new Response('{}')
      },
    })
    return { passport, calls }
  }

  test.each([
    ['too short', '0x5290840009852788'],
    ['not hex', '0x52908400098527886e0f7030069857d2e4169eeZ'],
    ['no 0x', '52908400098527886e0f7030069857d2e4169ee7'],
    ['a bad EIP-55 checksum', badChecksum],
  ])('an address that is %s is an InvalidAddressError', async (_name, bad) => {
    const { passport, calls } = countingClient()
    for (const call of [
      () => passport.getScore({ scorerId: 1, address: bad }),
      () => passport.getScoreHistory({ scorerId: 1, address: bad, createdAt: '2024-10-26' }),
      () => passport.listStamps({ address: bad }),
      () => passport.getModelScore({ address: bad }),
    ]) {
      expect(await failure(call())).toBeInstanceOf(InvalidAddressError)
    }
    expect(() => passport.iterateStamps({ address: bad })).toThrow(InvalidAddressError)
    expect(calls).toEqual([])
  })

  test.each([
    ['an unknown model', () => countingClient().passport.getModelScore({ address, model: 'gpt' as 'nft' }), 'model'],
    ['createdAt that is not a date', () => client().getScoreHistory({ scorerId: 1, address, createdAt: 'yesterday' }), 'createdAt'],
    ['createdAt on a day that does not exist', () => client().getScoreHistory({ scorerId: 1, address, createdAt: '2024-02-30' }), 'createdAt'],
    ['createdAt as an Invalid Date', () => client().getScoreHistory({ scorerId: 1, address, createdAt: new Date('x') }), 'createdAt'],
    ['limit 0', () => client().listStamps({ address, limit: 0 }), 'limit'],
    ['limit 1001', () => client().listStamps({ address, limit: 1001 }), 'limit'],
    ['limit 2.5', () => client().listStamps({ address, limit: 2.5 }), 'limit'],
    ['an empty token', () => client().listStamps({ address, token: '' }), 'token'],
    ['scorerId 0', () => client().getScore({ scorerId: 0, address }), 'scorerId'],
    ['scorerId "12a"', () => client().getScore({ scorerId: '12a', address }), 'scorerId'],
    ['scorerId 1.5', () => client().getScore({ scorerId: 1.5, address }), 'scorerId'],
  ])('%s is an InvalidParameterError', async (_name, call, parameter) => {
    const error = (await failure(call())) as InvalidParameterError
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe(parameter)
  })

  test('iterateStamps checks its guards when called', () => {
    expect(() => client().iterateStamps({ address, maxPages: 0 })).toThrow(InvalidParameterError)
    expect(() => client().iterateStamps({ address, limit: 5000 })).toThrow(InvalidParameterError)
  })

  test('a missing or empty API key, a bad base URL or tier fail at creation', () => {
    expect(() => createPassportClient({ apiKey: '' })).toThrow(InvalidParameterError)
    expect(() => createPassportClient({} as CreatePassportClientParameters)).toThrow(InvalidParameterError)
    expect(() => createPassportClient({ apiKey: ' key-with-spaces ' })).toThrow(InvalidParameterError)
    expect(() => createPassportClient({ apiKey, baseUrl: 'api.passport.xyz' })).toThrow(InvalidParameterError)
    expect(() => createPassportClient({ apiKey, tier: 7 as 1 })).toThrow(InvalidParameterError)
    expect(() => createPassportClient({ apiKey, modelTier: { limit: 0 } })).toThrow(InvalidParameterError)
  })
})

// ---------------------------------------------------------------------------------------------
// Pagination
// ---------------------------------------------------------------------------------------------

describe('iterateStamps', () => {
  const page = (next: string | null, n: number) => ({ next, prev: null, items: Array.from({ length: n }, () => stampItem) })

  test('follows bare tokens and tokens inside links to another host, always on the configured base URL', async () => {
    const stampsPath = `/v2/stamps/${address}`
    const scope = nock(base)
      .get(stampsPath)
      .query({ limit: '2' })
      .reply(200, page(cursor(2), 2))
      .get(stampsPath)
      .query({ limit: '2', token: cursor(2) })
      .reply(200, page(nextLink('https://attacker.example', cursor(3)), 2))
      .get(stampsPath)
      .query({ limit: '2', token: cursor(3) })
      .reply(200, page(null, 1))
    const pages = []
    for await (const p of client().iterateStamps({ address, limit: 2 })) pages.push(p)
    expect(pages.map((p) => [p.items.length, p.next])).toEqual([
      [2, cursor(2)],
      [2, cursor(3)],
      [1, null],
    ])
    expect(scope.isDone()).toBe(true)
  })

  test('stops with PaginationLimitError when the server repeats a token', async () => {
    const stampsPath = `/v2/stamps/${address}`
    nock(base)
      .get(stampsPath)
      .reply(200, page('tok-a', 1))
      .get(stampsPath)
      .query({ token: 'tok-a' })
      .reply(200, page(`${base}${stampsPath}?token=tok-a`, 1))
    const seen: number[] = []
    const error = await failure(
      (async () => {
        for await (const p of client().iterateStamps({ address })) seen.push(p.items.length)
      })(),
    )
    expect(error).toBeInstanceOf(PaginationLimitError)
    expect((error as PaginationLimitError).kind).toBe('repeated-token')
    expect(seen).toEqual([1, 1])
  })

  test('stops at maxPages without fetching another page', async () => {
    let requests = 0
    nock(base)
      .get(`/v2/stamps/${address}`)
      .query(true)
      .times(10)
      .reply(200, () => page(`fresh-${++requests}`, 1))
    const seen: (string | null)[] = []
    const error = await failure(
      (async () => {
        for await (const p of client().iterateStamps({ address, maxPages: 3 })) seen.push(p.next)
      })(),
    )
    expect(error).toBeInstanceOf(PaginationLimitError)
    expect((error as PaginationLimitError).kind).toBe('pages')
    expect(seen).toEqual(['fresh-1', 'fresh-2', 'fresh-3'])
    expect(requests).toBe(3)
  })

  test('stops at maxItems', async () => {
    nock(base).get(`/v2/stamps/${address}`).query(true).times(2).reply(200, page('more', 3))
    const error = await failure(
      (async () => {
        for await (const _page of client().iterateStamps({ address, maxItems: 2 })) void _page
      })(),
    )
    expect((error as PaginationLimitError).kind).toBe('items')
  })
})

// ---------------------------------------------------------------------------------------------
// Pacing per API key
// ---------------------------------------------------------------------------------------------

describe('rate pacing', () => {
  const window = 15 * 60 * 1000

  test('a burst of 300 A1 calls on one tier-1 key, over two clients, never puts more than 125 in any 15-minute window', async () => {
    const key = 'pk_pacing_burst_300'
    const clock = fakeClock()
    const starts: number[] = []
    const scope = nock(base).get(`/v2/stamps/335/score/${address}`).times(300).reply(200, scoreBody)
    const options = { apiKey: key, now: clock.now, sleep: clock.sleep, fetch: recordingFetch(clock.now, starts) }
    const first = createPassportClient(options)
    const second = createPassportClient(options)
    expect(second.rateLimiters.scoring).toBe(first.rateLimiters.scoring)
    await Promise.all(
      Array.from({ length: 300 }, (_, i) => (i % 2 ? first : second).getScore({ scorerId: 335, address })),
    )
    expect(scope.isDone()).toBe(true)
    expect(starts).toHaveLength(300)
    expect(maxInAnyWindow(starts, window)).toBe(125)
    expect(countBy(starts)).toEqual({ 0: 125, [window]: 125, [2 * window]: 50 })
  })

  test('B draws on its own budget of 15 per window, apart from A', async () => {
    const key = 'pk_pacing_model_budget'
    const clock = fakeClock()
    const starts: number[] = []
    nock(base).get(`/v2/models/score/${address}`).query(true).times(16).reply(200, modelBody)
    nock(base).get(`/v2/stamps/335/score/${address}`).times(125).reply(200, scoreBody)
    const passport = createPassportClient({ apiKey: key, now: clock.now, sleep: clock.sleep, fetch: recordingFetch(clock.now, starts) })

    await Promise.all(Array.from({ length: 15 }, () => passport.getModelScore({ address })))
    await Promise.all(Array.from({ length: 125 }, () => passport.getScore({ scorerId: 335, address })))
    expect(starts.every((start) => start === 0)).toBe(true) // the 15 B calls took nothing from A
    await passport.getModelScore({ address }) // the 16th B call waits for the next window
    expect(starts.at(-1)).toBe(window)
    expect(clock.sleeps).toEqual([window])
  })

  test('a higher tier paces at its own limit', async () => {
    const clock = fakeClock()
    const starts: number[] = []
    nock(base).get('/v2/stamps/metadata').times(351).reply(200, metadataBody)
    const passport = createPassportClient({
      apiKey: 'pk_pacing_tier_2',
      tier: 2,
      now: clock.now,
      sleep: clock.sleep,
      fetch: recordingFetch(clock.now, starts),
    })
    await Promise.all(Array.from({ length: 351 }, () => passport.getStampMetadata()))
    expect(countBy(starts)).toEqual({ 0: 350, [window]: 1 })
  })

  test('injected limiters are used; false sends without pacing', async () => {
    const clock = fakeClock()
    const scoring = createRateLimiter({ limit: 2, windowMs: 1000, now: clock.now, sleep: clock.sleep })
    nock(base).get('/v2/stamps/metadata').times(133).reply(200, metadataBody)
    const starts: number[] = []
    const paced = createPassportClient({ apiKey, rateLimiters: { scoring }, fetch: recordingFetch(clock.now, starts) })
    await Promise.all(Array.from({ length: 3 }, () => paced.getStampMetadata()))
    expect(starts).toEqual([0, 0, 1000])

    starts.length = 0
    const unpaced = createPassportClient({ apiKey: 'pk_unpaced', rateLimiters: false, now: clock.now, sleep: clock.sleep, fetch: recordingFetch(clock.now, starts) })
    expect(unpaced.rateLimiters).toEqual({ scoring: undefined, model: undefined })
    await Promise.all(Array.from({ length: 130 }, () => unpaced.getStampMetadata()))
    expect(new Set(starts)).toEqual(new Set([1000]))
  })
})
