import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  createPassportClient,
  createRegistryClient,
  getRegistryScore,
  waitForScore,
  type CreateRegistryClientParameters,
  type RegistryClient,
} from '../../src/clients/index.js'
import {
  InvalidAddressError,
  InvalidParameterError,
  InvalidRequestError,
  PaginationLimitError,
  ScoreTimeoutError,
  ScoringError,
} from '../../src/errors/index.js'
import type { TransportOptions } from '../../src/http/index.js'
import { createTransport } from '../../src/http/transport.js'
import { describeEndpointMatrix, fastTransport } from '../helpers/endpoint-matrix.js'
import { countBy, failure, fakeClock, recordingFetch } from '../helpers/async.js'

const base = 'https://api.scorer.gitcoin.co'
const apiKey = 'pk_test_0a1b2c3d4e5f60718293a4b5c6d7e8f9'
const address = '0x52908400098527886e0f7030069857d2e4169ee7'
const other = '0xde709f2102306220921060314715629080e2fb77'
const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7'
const badChecksum = '0x52908400098527886e0F7030069857D2E4169EE7'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

function client(options: TransportOptions & Partial<CreateRegistryClientParameters> = {}): RegistryClient {
  return createRegistryClient({ apiKey, rateLimiter: false, ...fastTransport, ...options })
}

// ---------------------------------------------------------------------------------------------
// Bodies in the public shapes (9-decimal strings, lowercase addresses)
// ---------------------------------------------------------------------------------------------

const doneRecord = {
  address,
  score: '1.000000000',
  status: 'DONE',
  last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
  expiration_date: '2025-01-23T19:16:14.023000+00:00',
  evidence: { type: 'ThresholdScoreCheck', success: true, rawScore: '22.516000000', threshold: '20.000000000' },
  error: null,
  stamp_scores: { Google: '0.525000000', Ens: '21.991000000' },
}

const processingRecord = {
  address,
  score: null,
  status: 'PROCESSING',
  last_score_timestamp: null,
  expiration_date: null,
  evidence: null,
  error: null,
  stamp_scores: {},
}

const plainRecord = { ...doneRecord, address: other, score: '22.516000000', evidence: null }

const nonce = 'a3f1c9e8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2'
const signingMessage = {
  message: `I hereby agree to submit my address in order to score my associated Gitcoin Passport from Ceramic.\n\nNonce: ${nonce}\n`,
  nonce,
}

const credential = {
  '@context': ['https://www.w3.org/2018/credentials/v1'],
  type: ['VerifiableCredential'],
  issuer: 'did:key:z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC',
  issuanceDate: '2024-10-01T12:00:00.000Z',
  expirationDate: '2025-01-01T12:00:00.000Z',
  credentialSubject: {
    id: `did:pkh:eip155:1:${address}`,
    hash: 'v0.0.0:Ft7mqRdvJ9jNgSSowb9qdcMeOzswOeighIOvk0wn964=',
    '@context': [{ hash: 'https://schema.org/Text', provider: 'https://schema.org/Text' }],
    provider: 'Ens',
  },
  proof: {
    jws: 'eyJhbGciOiJFZERTQSIsImNyaXQiOlsiYjY0Il0sImI2NCI6ZmFsc2V9..x1Q3Zx0p5Yy9F3kS8Xk2m0aQ',
    type: 'Ed25519Signature2018',
    created: '2024-10-01T12:00:00.000Z',
    proofPurpose: 'assertionMethod',
    verificationMethod: 'did:key:z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC#z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC',
  },
}
const stampItem = { version: '1.0.0', credential }
const token = Buffer.from(JSON.stringify({ d: 'next', id: 4213 })).toString('base64url')

const metadataBody = [
  {
    id: 'Ens',
    icon: './assets/ensStampIcon.svg',
    name: 'ENS',
    description: 'Purchase an .eth name to verify/ connect your existing account.',
    connectMessage: 'Connect Account',
    groups: [{ name: 'Account Name', stamps: [{ name: 'Ens', description: 'Encrypted', hash: '0x2c6a' }] }],
  },
]

const stakeBody = {
  users: [
    {
      stakes: [{ stake: '10.000000000000000000', round: { id: '1' } }],
      xstakeAggregates: [{ total: '5.500000000000000000', round: { id: '1' } }],
    },
  ],
}

const headers = { 'x-api-key': apiKey }

// ---------------------------------------------------------------------------------------------
// The failure matrix of every endpoint
// ---------------------------------------------------------------------------------------------

describeEndpointMatrix('registry client (C)', [
  {
    name: 'C1 getSigningMessage',
    host: base,
    method: 'get',
    path: '/registry/signing-message',
    headers,
    success: { body: signingMessage },
    invalidBody: { message: 'Sign this' },
    idempotent: true,
    call: (options) => client(options).getSigningMessage(),
    expectSuccess: (result) => expect(result).toEqual(signingMessage),
  },
  {
    name: 'C2 submitPassport (not idempotent)',
    host: base,
    method: 'post',
    path: '/registry/submit-passport',
    requestBody: { address, scorer_id: '335' },
    headers: { ...headers, 'content-type': 'application/json' },
    success: { body: processingRecord },
    invalidBody: { ...processingRecord, status: 42 },
    idempotent: false,
    call: (options) => client(options).submitPassport({ address: checksummed, scorerId: 335 }),
    expectSuccess: (result) => expect(result).toEqual(processingRecord),
  },
  {
    name: 'C3 getScore',
    host: base,
    method: 'get',
    path: `/registry/score/335/${address}`,
    headers,
    success: { body: { items: [doneRecord] } },
    invalidBody: { items: [{ ...doneRecord, score: 'one' }] },
    idempotent: true,
    call: (options) => client(options).getScore({ scorerId: '335', address }),
    expectSuccess: (result) => expect(result).toEqual(doneRecord),
  },
  {
    name: 'C4 listScores',
    host: base,
    method: 'get',
    path: '/registry/score/335',
    query: {
      last_score_timestamp_gt: '2024-10-01T00:00:00.000Z',
      last_score_timestamp__gt: '2024-10-01T00:00:00.000Z',
      limit: '2',
      offset: '0',
    },
    headers,
    success: { body: { items: [doneRecord, plainRecord], count: 2 } },
    invalidBody: { items: [doneRecord] },
    idempotent: true,
    call: (options) =>
      client(options).listScores({ scorerId: 335, lastScoreTimestampGt: new Date('2024-10-01T00:00:00Z'), limit: 2, offset: 0 }),
    expectSuccess: (result) => expect(result).toEqual({ items: [doneRecord, plainRecord], count: 2 }),
  },
  {
    name: 'C5 listStamps',
    host: base,
    method: 'get',
    path: `/registry/stamps/${address}`,
    query: { limit: '1' },
    headers,
    success: { body: { next: `${base}/registry/stamps/${address}?limit=1&token=${token}`, prev: null, items: [stampItem] } },
    invalidBody: { next: null, prev: null, items: [{ credential }] },
    idempotent: true,
    call: (options) => client(options).listStamps({ address, limit: 1 }),
    expectSuccess: (result) => expect(result).toEqual({ next: token, prev: null, items: [stampItem] }),
  },
  {
    name: 'C6 getStampMetadata',
    host: base,
    method: 'get',
    path: '/registry/stamp-metadata',
    headers,
    success: { body: metadataBody },
    invalidBody: { items: metadataBody },
    idempotent: true,
    call: (options) => client(options).getStampMetadata(),
    expectSuccess: (result) => expect(result).toEqual(metadataBody),
  },
  {
    name: 'C7 getTokenStake',
    host: base,
    method: 'get',
    path: `/registry/token-stake/${address}/1`,
    headers,
    success: { body: stakeBody },
    invalidBody: { users: [{ stakes: [{ stake: 'ten', round: { id: '1' } }], xstakeAggregates: [] }] },
    idempotent: true,
    call: (options) => client(options).getTokenStake({ address, roundId: 1 }),
    expectSuccess: (result) => expect(result).toEqual(stakeBody),
  },
])

// ---------------------------------------------------------------------------------------------
// Tolerance of the public services' variants
// ---------------------------------------------------------------------------------------------

describe('tolerance', () => {
  test('C3: evidence rawScore and threshold as numbers (public) or strings (spec) read the same way', async () => {
    nock(base)
      .get(`/registry/score/335/${address}`)
      .reply(200, { items: [{ ...doneRecord, evidence: { type: 'ThresholdScoreCheck', success: true, rawScore: 22.516, threshold: 20 } }] })
      .get(`/registry/score/335/${address}`)
      .reply(200, { items: [{ ...doneRecord, evidence: { type: 'ThresholdScoreCheck', success: true, rawScore: '22.516', threshold: '20' } }] })
    const registry = client()
    const fromNumbers = await registry.getScore({ scorerId: 335, address })
    const fromStrings = await registry.getScore({ scorerId: 335, address })
    expect(fromNumbers.evidence).toEqual({ type: 'ThresholdScoreCheck', success: true, rawScore: '22.516', threshold: '20' })
    expect(fromStrings).toEqual(fromNumbers)
  })

  test('C3: a bare record instead of { items } is accepted; absent fields become null', async () => {
    nock(base).get(`/registry/score/335/${address}`).reply(200, { address, status: 'PROCESSING' })
    expect(await client().getScore({ scorerId: 335, address })).toStrictEqual({
      address,
      score: null,
      status: 'PROCESSING',
      last_score_timestamp: null,
      expiration_date: null,
      evidence: null,
      error: null,
    })
  })

  test('C3: an empty items list is a ResponseValidationError, not undefined', async () => {
    nock(base).get(`/registry/score/335/${address}`).reply(200, { items: [] })
    const error = await failure(client().getScore({ scorerId: 335, address }))
    expect(error).toMatchObject({ name: 'ResponseValidationError', issues: [{ path: ['items'] }] })
  })

  test('C3 of an address never submitted: the 400 detail is the message', async () => {
    nock(base).get(`/registry/score/335/${address}`).reply(400, { detail: 'Unable to get score for provided scorer.' })
    const error = (await failure(client().getScore({ scorerId: 335, address }))) as InvalidRequestError
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.serverMessage).toBe('Unable to get score for provided scorer.')
  })

  test.each([
    ['detail string', { detail: 'Invalid nonce.' }, 'Invalid nonce.'],
    [
      'detail list',
      { detail: [{ loc: ['body', 'payload', 'scorer_id'], msg: 'field required', type: 'value_error.missing' }] },
      'body.payload.scorer_id: field required',
    ],
    ['error', { error: 'Bad Request' }, 'Bad Request'],
    ['error + message', { error: 'Bad Request', message: 'Signature does not match' }, 'Bad Request: Signature does not match'],
  ])('C2: an error body with %s gives the server message', async (_name, body, message) => {
    nock(base).post('/registry/submit-passport').reply(400, body)
    const error = (await failure(client().submitPassport({ address, scorerId: 335 }))) as InvalidRequestError
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.serverMessage).toBe(message)
  })
})

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

describe('requests', () => {
  test('C2 sends a signature with its nonce', async () => {
    const signature = `0x${'ab'.repeat(65)}`
    const scope = nock(base)
      .post('/registry/submit-passport', { address, scorer_id: '7', signature, nonce })
      .reply(200, doneRecord)
    expect(await client().submitPassport({ address, scorerId: '7', signature, nonce })).toEqual(doneRecord)
    expect(scope.isDone()).toBe(true)
  })

  test('C4 sends both spellings of each timestamp filter; strings are normalized, date-only kept', async () => {
    const scope = nock(base)
      .get('/registry/score/335')
      .query({
        last_score_timestamp_gt: '2024-10-01T10:00:00.000Z',
        last_score_timestamp__gt: '2024-10-01T10:00:00.000Z',
        last_score_timestamp_gte: '2024-09-30',
        last_score_timestamp__gte: '2024-09-30',
      })
      .reply(200, { items: [], count: 0 })
    await client().listScores({ scorerId: 335, lastScoreTimestampGt: '2024-10-01T12:00:00+02:00', lastScoreTimestampGte: '2024-09-30' })
    expect(scope.isDone()).toBe(true)
  })

  test("C4 filtered by address: sent in lower case; an answer holding another address's record is refused", async () => {
    nock(base).get('/registry/score/335').query({ address }).reply(200, { items: [doneRecord], count: 1 })
    expect((await client().listScores({ scorerId: 335, address: checksummed })).items).toEqual([doneRecord])
    nock(base).get('/registry/score/335').query({ address }).reply(200, { items: [], count: 0 })
    expect((await client().listScores({ scorerId: 335, address })).items).toEqual([])
    // A server that ignores the filter must not pass another address's score off as this one's.
    nock(base).get('/registry/score/335').query({ address: other }).reply(200, { items: [doneRecord], count: 1 })
    const error = await failure(client().listScores({ scorerId: 335, address: other }))
    expect(error.name).toBe('ResponseValidationError')
    expect(error.issues).toEqual([{ path: ['items', 0, 'address'], message: `Expected only the score of ${other}, received one of ${address}` }])
    expect(await failure(client().listScores({ scorerId: 335, address: '0x1234' }))).toBeInstanceOf(InvalidAddressError)
  })

  test('C7 on the public path, with the round id encoded as one path segment', async () => {
    const scope = nock(base).get(`/registry/gtc-stake/${address}/round%2F7`).reply(200, { users: [] })
    const registry = client({ tokenStakePath: '/registry/gtc-stake/' })
    expect(registry.tokenStakePath).toBe('/registry/gtc-stake')
    expect(await registry.getTokenStake({ address, roundId: 'round/7' })).toEqual({ users: [] })
    expect(scope.isDone()).toBe(true)
  })

  test('functions work alone with a context that has only a transport', async () => {
    nock(base).get(`/registry/score/3/${address}`).matchHeader('x-api-key', 'other-key').reply(200, { items: [doneRecord] })
    const transport = createTransport({ baseUrl: base, authHeaders: () => ({ 'X-API-KEY': 'other-key' }) })
    expect(await getRegistryScore({ transport }, { scorerId: 3, address })).toEqual(doneRecord)
  })
})

// ---------------------------------------------------------------------------------------------
// waitForScore
// ---------------------------------------------------------------------------------------------

describe('waitForScore', () => {
  const scorePath = `/registry/score/335/${address}`

  function polled(statuses: readonly object[]) {
    let requests = 0
    nock(base)
      .get(scorePath)
      .times(statuses.length)
      .reply(200, () => ({ items: [statuses[requests++]] }))
    return () => requests
  }

  test('polls PROCESSING and BULK_PROCESSING until DONE, with doubling delays through the injected sleep', async () => {
    const requests = polled([processingRecord, processingRecord, { ...processingRecord, status: 'BULK_PROCESSING' }, doneRecord])
    const clock = fakeClock()
    const registry = client({ now: clock.now, sleep: clock.sleep })
    expect(await registry.waitForScore({ scorerId: 335, address })).toEqual(doneRecord)
    expect(clock.sleeps).toEqual([1000, 2000, 4000])
    expect(requests()).toBe(4)
  })

  test('caps the delay at maxIntervalMs and throws ScoreTimeoutError when never done', async () => {
    const requests = polled(Array.from({ length: 5 }, () => processingRecord))
    const clock = fakeClock()
    const error = (await failure(
      waitForScore(
        { transport: client().transport, now: clock.now, sleep: clock.sleep },
        { scorerId: 335, address, maxAttempts: 5, intervalMs: 1000, maxIntervalMs: 3000 },
      ),
    )) as ScoreTimeoutError
    expect(error).toBeInstanceOf(ScoreTimeoutError)
    expect(clock.sleeps).toEqual([1000, 2000, 3000, 3000])
    expect(requests()).toBe(5)
    expect(error).toMatchObject({ attempts: 5, lastStatus: 'PROCESSING', address, scorerId: '335' })
    expect(error.shortMessage).toBe('The score was not ready after 5 attempts (9 s).')
  })

  test('status ERROR is a ScoringError carrying the error text', async () => {
    polled([processingRecord, { ...processingRecord, status: 'ERROR', error: 'Unable to calculate score' }])
    const clock = fakeClock()
    const error = (await failure(client({ now: clock.now, sleep: clock.sleep }).waitForScore({ scorerId: 335, address }))) as ScoringError
    expect(error).toBeInstanceOf(ScoringError)
    expect(error.error).toBe('Unable to calculate score')
    expect(error.details).toBe('Unable to calculate score')
    expect(clock.sleeps).toEqual([1000])
  })

  test('an unknown status keeps it polling, and the timeout names it', async () => {
    polled([{ ...processingRecord, status: 'QUEUED' }, doneRecord])
    const clock = fakeClock()
    expect(await client({ now: clock.now, sleep: clock.sleep }).waitForScore({ scorerId: 335, address })).toEqual(doneRecord)

    polled([{ ...processingRecord, status: 'QUEUED' }])
    const error = await failure(client({ sleep: clock.sleep }).waitForScore({ scorerId: 335, address, maxAttempts: 1 }))
    expect(error).toMatchObject({ name: 'ScoreTimeoutError', lastStatus: 'QUEUED' })
  })

  test('an abort during a wait rejects with the signal reason and stops polling', async () => {
    const requests = polled([processingRecord])
    const controller = new AbortController()
    const reason = new Error('user cancelled')
    const registry = client({
      sleep: async (_ms, signal) => {
        controller.abort(reason)
        signal?.throwIfAborted()
      },
    })
    expect(await failure(registry.waitForScore({ scorerId: 335, address, signal: controller.signal }))).toBe(reason)
    expect(requests()).toBe(1)
  })

  test('bad options are refused before any request', async () => {
    const registry = client()
    for (const options of [{ maxAttempts: 0 }, { intervalMs: -1 }, { maxIntervalMs: Number.NaN }]) {
      expect(await failure(registry.waitForScore({ scorerId: 335, address, ...options }))).toBeInstanceOf(InvalidParameterError)
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Pagination
// ---------------------------------------------------------------------------------------------

describe('iterateScores', () => {
  const record = (n: number) => ({ ...plainRecord, address: `0x${n.toString(16).padStart(40, '0')}` })

  test('walks offsets until offset reaches count, sending the filters on every page', async () => {
    const offsets: string[] = []
    nock(base)
      .get('/registry/score/335')
      .query(true)
      .times(3)
      .reply(200, (uri) => {
        const query = new URL(uri, base).searchParams
        expect(query.get('limit')).toBe('2')
        expect(query.get('last_score_timestamp__gte')).toBe('2024-10-01')
        const offset = Number(query.get('offset'))
        offsets.push(String(offset))
        return { items: [1, 2, 3, 4, 5].slice(offset, offset + 2).map(record), count: 5 }
      })
    const seen: [number, number][] = []
    for await (const page of client().iterateScores({ scorerId: 335, limit: 2, lastScoreTimestampGte: '2024-10-01' })) {
      seen.push([page.offset, page.items.length])
    }
    expect(offsets).toEqual(['0', '2', '4'])
    expect(seen).toEqual([
      [0, 2],
      [2, 2],
      [4, 1],
    ])
  })

  test('stops at an empty page even when count says more', async () => {
    nock(base)
      .get('/registry/score/335')
      .query({ offset: '0' })
      .reply(200, { items: [record(1)], count: 10 })
      .get('/registry/score/335')
      .query({ offset: '1' })
      .reply(200, { items: [], count: 10 })
    const sizes: number[] = []
    for await (const page of client().iterateScores({ scorerId: 335 })) sizes.push(page.items.length)
    expect(sizes).toEqual([1, 0])
  })

  test('stops with PaginationLimitError at maxPages', async () => {
    let requests = 0
    nock(base)
      .get('/registry/score/335')
      .query(true)
      .times(5)
      .reply(200, () => {
        requests++
        return { items: [record(requests)], count: 1000 }
      })
    const error = await failure(
      (async () => {
        for await (const _page of client().iterateScores({ scorerId: 335, maxPages: 2 })) void _page
      })(),
    )
    expect(error).toMatchObject({ name: 'PaginationLimitError', kind: 'pages' })
    expect(requests).toBe(2)
  })
})

describe('iterateStamps (C5)', () => {
  test('follows the token of an absolute link to another host on the configured base URL, until null', async () => {
    const stampsPath = `/registry/stamps/${address}`
    const scope = nock(base)
      .get(stampsPath)
      .reply(200, { next: `https://elsewhere.example${stampsPath}?token=${token}`, prev: null, items: [stampItem] })
      .get(stampsPath)
      .query({ token })
      .reply(200, { next: null, prev: `https://elsewhere.example${stampsPath}?token=prev`, items: [stampItem] })
    const pages = []
    for await (const page of client().iterateStamps({ address })) pages.push(page)
    expect(pages.map((page) => [page.next, page.prev])).toEqual([
      [token, null],
      [null, 'prev'],
    ])
    expect(scope.isDone()).toBe(true)
  })

  test('stops on a repeated token', async () => {
    nock(base).get(`/registry/stamps/${address}`).query(true).times(2).reply(200, { next: 'same', prev: null, items: [] })
    const error = await failure(
      (async () => {
        for await (const _page of client().iterateStamps({ address })) void _page
      })(),
    )
    expect(error).toBeInstanceOf(PaginationLimitError)
    expect((error as PaginationLimitError).kind).toBe('repeated-token')
  })
})

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

describe('bad input is refused before any request', () => {
  test.each([
    ['malformed', '0x1234'],
    ['a bad EIP-55 checksum', badChecksum],
  ])('an address that is %s is an InvalidAddressError for every endpoint', async (_name, bad) => {
    const calls: string[] = []
    const registry = client({
      fetch: async (input) => {
        calls.push(String(input))
        return new Response('{}')
      },
    })
    for (const call of [
      () => registry.submitPassport({ address: bad, scorerId: 1 }),
      () => registry.getScore({ address: bad, scorerId: 1 }),
      () => registry.waitForScore({ address: bad, scorerId: 1 }),
      () => registry.listStamps({ address: bad }),
      () => registry.getTokenStake({ address: bad, roundId: 1 }),
    ]) {
      expect(await failure(call())).toBeInstanceOf(InvalidAddressError)
    }
    expect(() => registry.iterateStamps({ address: bad })).toThrow(InvalidAddressError)
    expect(calls).toEqual([])
  })

  test.each([
    ['a signature without nonce', () => client().submitPassport({ address, scorerId: 1, signature: '0xabcd' }), 'nonce'],
    ['a nonce without signature', () => client().submitPassport({ address, scorerId: 1, nonce }), 'signature'],
    ['a signature that is not hex', () => client().submitPassport({ address, scorerId: 1, signature: 'signed!', nonce }), 'signature'],
    ['scorerId -3', () => client().submitPassport({ address, scorerId: -3 }), 'scorerId'],
    ['limit 0', () => client().listScores({ scorerId: 1, limit: 0 }), 'limit'],
    ['offset -1', () => client().listScores({ scorerId: 1, offset: -1 }), 'offset'],
    ['a filter that is not a date', () => client().listScores({ scorerId: 1, lastScoreTimestampGt: '1 Oct' }), 'lastScoreTimestampGt'],
    ['a stamp limit of 1001', () => client().listStamps({ address, limit: 1001 }), 'limit'],
    ['an empty roundId', () => client().getTokenStake({ address, roundId: ' ' }), 'roundId'],
  ])('%s is an InvalidParameterError', async (_name, call, parameter) => {
    const error = (await failure(call())) as InvalidParameterError
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe(parameter)
  })

  test('iterateScores checks its arguments when called', () => {
    expect(() => client().iterateScores({ scorerId: 'x' })).toThrow(InvalidParameterError)
    expect(() => client().iterateScores({ scorerId: 1, lastScoreTimestampGte: '2024-13-01' })).toThrow(InvalidParameterError)
    expect(() => client().iterateScores({ scorerId: 1, maxItems: 0 })).toThrow(InvalidParameterError)
  })

  test('creation fails on a missing API key or a tokenStakePath that is not a path', () => {
    expect(() => createRegistryClient({ apiKey: '' })).toThrow(InvalidParameterError)
    expect(() => createRegistryClient({ apiKey, tokenStakePath: 'registry/gtc-stake' })).toThrow(InvalidParameterError)
  })
})

// ---------------------------------------------------------------------------------------------
// One budget for A and C
// ---------------------------------------------------------------------------------------------

describe('rate pacing', () => {
  const window = 15 * 60 * 1000

  test('200 A1 calls and 100 C3 calls on one tier-1 key share 125 per 15-minute window', async () => {
    const key = 'pk_pacing_shared_a_c'
    const clock = fakeClock()
    const starts: number[] = []
    const aStarts: number[] = []
    const cStarts: number[] = []
    const options = { apiKey: key, now: clock.now, sleep: clock.sleep }
    const passportScope = nock('https://api.passport.xyz').get(`/v2/stamps/335/score/${address}`).times(200).reply(200, {
      address,
      score: '22.51600',
      passing_score: true,
      threshold: '20.00000',
      last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
      expiration_timestamp: '2025-01-23T19:16:14.023000+00:00',
      error: null,
      stamps: {},
    })
    const registryScope = nock(base).get(`/registry/score/335/${address}`).times(100).reply(200, { items: [doneRecord] })
    const passport = createPassportClient({
      ...options,
      fetch: recordingFetch(clock.now, aStarts),
    })
    const registry = createRegistryClient({ ...options, fetch: recordingFetch(clock.now, cStarts) })
    expect(registry.rateLimiter).toBe(passport.rateLimiters.scoring)

    await Promise.all([
      ...Array.from({ length: 200 }, () => passport.getScore({ scorerId: 335, address })),
      ...Array.from({ length: 100 }, () => registry.getScore({ scorerId: 335, address })),
    ])
    starts.push(...aStarts, ...cStarts)
    expect(passportScope.isDone() && registryScope.isDone()).toBe(true)
    expect(aStarts).toHaveLength(200)
    expect(cStarts).toHaveLength(100)
    expect(countBy(starts)).toEqual({ 0: 125, [window]: 125, [2 * window]: 50 })
    // Both interfaces started requests in the first window: it really is one budget, not two.
    expect(aStarts.filter((start) => start === 0).length + cStarts.filter((start) => start === 0).length).toBe(125)
    expect(cStarts.some((start) => start === 0)).toBe(true)
  })

  test('a different key has a budget of its own', () => {
    const one = createRegistryClient({ apiKey: 'pk_key_one' })
    const two = createRegistryClient({ apiKey: 'pk_key_two' })
    expect(one.rateLimiter).not.toBe(two.rateLimiter)
    expect(createPassportClient({ apiKey: 'pk_key_one' }).rateLimiters.scoring).toBe(one.rateLimiter)
  })
})
