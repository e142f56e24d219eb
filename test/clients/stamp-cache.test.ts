import nock from 'nock'
import { verifyMessage, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  addCachedStamps,
  createStampCacheClient,
  deleteCachedStamps,
  getStampCacheScore,
  signInToStampCache,
  updateCachedStamps,
  updateCachedStampSaveStatus,
  type CreateStampCacheClientParameters,
  type StampCacheClient,
} from '../../src/clients/index.js'
import {
  AuthenticationError,
  InvalidAddressError,
  InvalidParameterError,
  ResponseValidationError,
} from '../../src/errors/index.js'
import type { TransportOptions } from '../../src/http/index.js'
import type { SiweMessage } from '../../src/schemas/stamp-cache.js'
import { describeEndpointMatrix, fastTransport } from '../helpers/endpoint-matrix.js'
import { failure } from '../helpers/async.js'

const host = 'http://cache.test'
// Hardhat's second well-known test key: never holds real funds.
const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const address = account.address.toLowerCase()
const token =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJkaWQiOiJkaWQ6cGtoOmVpcDE1NToxOjB4NzA5OTc5NzBjNTE4MTJkYzNhMDEwYzdkMDFiNTBlMGQxN2RjNzljOCJ9.c2lnbmF0dXJl'
const bearer = { authorization: `Bearer ${token}` }
const issuedAt = new Date('2025-03-01T12:00:00.000Z')
const nonce = 'k2Xo9vPq7LmN3rTs'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

function client(options: TransportOptions & Partial<CreateStampCacheClientParameters> = {}): StampCacheClient {
  return createStampCacheClient({ baseUrl: host, accessToken: token, ...fastTransport, ...options })
}

// ---------------------------------------------------------------------------------------------
// Realistic bodies
// ---------------------------------------------------------------------------------------------

const googleCredential = {
  '@context': ['https://www.w3.org/2018/credentials/v1'],
  type: ['VerifiableCredential'],
  issuer: 'did:key:z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC',
  issuanceDate: '2025-02-01T10:00:00.000Z',
  expirationDate: '2025-05-02T10:00:00.000Z',
  credentialSubject: {
    '@context': [{ hash: 'https://schema.org/Text', provider: 'https://schema.org/Text' }],
    id: `did:pkh:eip155:1:${address}`,
    hash: 'v0.0.0:8JZcQJy6uwNGPDZnvfGbEs6mf5OZVD1mUOdhKNrOHls=',
    provider: 'Google',
  },
  proof: {
    jws: 'eyJhbGciOiJFZERTQSIsImNyaXQiOlsiYjY0Il0sImI2NCI6ZmFsc2V9..rvkYgcRyfnDQ4',
    type: 'Ed25519Signature2018',
    created: '2025-02-01T10:00:00.000Z',
    proofPurpose: 'assertionMethod',
    verificationMethod: 'did:key:z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC#z6MkghvGHLobLEdj1bgRLhS4LPGJAvbMA1tn2zcRyqmYU5LC',
  },
}

const cachedStamp = { id: 41, address, provider: 'Google', stamp: googleCredential }

const internalScore = {
  address,
  score: '21.72700',
  passing_score: true,
  last_score_timestamp: '2025-03-01T12:00:05.123Z',
  expiration_timestamp: '2025-05-02T10:00:00.000Z',
  threshold: '20.00000',
  error: null,
  stamps: {
    Google: { score: '0.52500', dedup: false, expiration_date: '2025-05-02T10:00:00.000Z' },
    Discord: { score: '0.00000', dedup: true, expiration_date: '2025-04-11T08:00:00.000Z' },
  },
  points_data: null,
  possible_points_data: null,
  linked_score: null,
}

const stampsWithScore = { success: true, stamps: [cachedStamp], score: internalScore }

const tosText = `I have read and agree to the Individual Staking Terms of Service.\n\nNonce: 4f2a9c1e8b7d6a5f`

// The sign-in message of the matrix case, and its signature (viem signs deterministically).
const siweMessage = {
  domain: 'app.example.org',
  address: account.address,
  statement: 'Sign in to the stamp cache.',
  uri: 'https://app.example.org/login',
  version: '1',
  chainId: 1,
  nonce,
  issuedAt: issuedAt.toISOString(),
} as const
const siweText = createSiweMessage({ ...siweMessage, issuedAt })
const siweSignature = await account.signMessage({ message: siweText })

const signInParameters = {
  account,
  domain: 'app.example.org',
  uri: 'https://app.example.org/login',
  nonce,
  statement: 'Sign in to the stamp cache.',
  issuedAt,
}

// ---------------------------------------------------------------------------------------------
// The failure matrix of every endpoint
// ---------------------------------------------------------------------------------------------

describeEndpointMatrix('stamp cache (D)', [
  {
    name: 'D1 addStamps',
    host,
    method: 'post',
    path: '/stamp-cache/stamps/bulk',
    requestBody: [{ provider: 'Google', stamp: googleCredential }],
    headers: bearer,
    success: { status: 201, body: stampsWithScore },
    invalidBody: { success: true, stamps: 'none', score: internalScore },
    idempotent: false,
    call: (options) => client(options).addStamps({ stamps: [{ provider: 'Google', stamp: googleCredential }] }),
    expectSuccess: (result) => expect(result).toMatchObject({ success: true, stamps: [cachedStamp], score: { score: '21.72700' } }),
  },
  {
    name: 'D2 updateStamps',
    host,
    method: 'patch',
    path: '/stamp-cache/stamps/bulk',
    requestBody: [{ provider: 'Google', stamp: googleCredential }, { provider: 'Discord' }],
    headers: bearer,
    success: { body: stampsWithScore },
    invalidBody: { success: true, stamps: [cachedStamp] },
    idempotent: false,
    call: (options) => client(options).updateStamps({ stamps: [{ provider: 'Google', stamp: googleCredential }, { provider: 'Discord' }] }),
    expectSuccess: (result) => expect(result).toMatchObject({ success: true, score: { passing_score: true } }),
  },
  {
    name: 'D3 deleteStamps',
    host,
    method: 'delete',
    path: '/stamp-cache/stamps/bulk',
    requestBody: [{ provider: 'Discord' }],
    headers: bearer,
    success: { body: { success: true, stamps: [cachedStamp] } },
    invalidBody: { success: 'yes', stamps: [] },
    idempotent: false,
    call: (options) => client(options).deleteStamps({ stamps: [{ provider: 'Discord' }] }),
    expectSuccess: (result) => expect(result).toEqual({ success: true, stamps: [cachedStamp] }),
  },
  {
    name: 'D4 updateSaveStatus (safe to repeat)',
    host,
    method: 'patch',
    path: '/stamp-cache/stamps/bulk/meta/store-db',
    requestBody: [{ id: 41, store_save_status: 'saved', store_stream_id: 'kjzl6kcym7w8y7' }],
    headers: bearer,
    success: { body: { updated: [41] } },
    invalidBody: { updated: ['41a'] },
    idempotent: true,
    call: (options) => client(options).updateSaveStatus({ items: [{ id: 41, store_save_status: 'saved', store_stream_id: 'kjzl6kcym7w8y7' }] }),
    expectSuccess: (result) => expect(result).toEqual({ updated: [41] }),
  },
  {
    name: 'D5 getWeights',
    host,
    method: 'get',
    path: '/stamp-cache/weights',
    success: { body: { Google: '0.525', Discord: 0.516, Ens: '2.2' } },
    invalidBody: { Google: 'heavy' },
    idempotent: true,
    call: (options) => client(options).getWeights(),
    expectSuccess: (result) => expect(result).toEqual({ Google: 0.525, Discord: 0.516, Ens: 2.2 }),
  },
  {
    name: 'D6 getStamps',
    host,
    method: 'get',
    path: '/stamp-cache/stamp',
    query: { address },
    success: { body: { success: true, stamps: [cachedStamp] } },
    invalidBody: { success: true, stamps: [{ id: '41', address, provider: 'Google', stamp: {} }] },
    idempotent: true,
    call: (options) => client(options).getStamps({ address: account.address }),
    expectSuccess: (result) => expect(result).toEqual({ success: true, stamps: [cachedStamp] }),
  },
  {
    name: 'D7 getScore',
    host,
    method: 'get',
    path: `/stamp-cache/score/${address}`,
    query: { alternate_scorer_id: '7' },
    headers: bearer,
    success: { body: internalScore },
    invalidBody: { ...internalScore, passing_score: 'true' },
    idempotent: true,
    call: (options) => client(options).getScore({ address: account.address, alternateScorerId: 7 }),
    expectSuccess: (result) =>
      expect(result).toMatchObject({ address, score: '21.72700', passing_score: true, stamps: { Discord: { dedup: true, score: '0.00000' } } }),
  },
  {
    name: 'D8 calculateScore (safe to repeat)',
    host,
    method: 'post',
    path: `/stamp-cache/score/${address}`,
    requestBody: { alternate_scorer_id: 7 },
    headers: bearer,
    success: { body: { ...internalScore, score: 21.727, threshold: 20 } },
    invalidBody: { ...internalScore, threshold: null },
    idempotent: true,
    call: (options) => client(options).calculateScore({ address: account.address, alternateScorerId: 7 }),
    expectSuccess: (result) => expect(result).toMatchObject({ address, score: 21.727, threshold: 20 }),
  },
  {
    name: 'D9 getStakes',
    host,
    method: 'get',
    path: '/stamp-cache/stake/token',
    headers: bearer,
    success: {
      body: {
        items: [
          {
            chain: 10,
            staker: address,
            stakee: address,
            amount: '5000000000000000000',
            unlock_time: '2025-06-01T00:00:00Z',
            lock_time: '2025-03-01T00:00:00Z',
            last_updated_in_block: '128990123',
          },
        ],
      },
    },
    invalidBody: { items: [{ chain: 10 }] },
    idempotent: true,
    call: (options) => client(options).getStakes(),
    expectSuccess: (result) =>
      expect(result).toMatchObject({ items: [{ chain: 10, amount: '5000000000000000000', last_updated_in_block: 128990123 }] }),
  },
  {
    name: 'D10 isTosAccepted',
    host,
    method: 'get',
    path: `/stamp-cache/tos/accepted/IST/${address}`,
    headers: bearer,
    success: { body: { accepted: true } },
    invalidBody: { accepted: 'yes' },
    idempotent: true,
    call: (options) => client(options).isTosAccepted({ address: account.address }),
    expectSuccess: (result) => expect(result).toBe(true),
  },
  {
    name: 'D11 getTosMessage',
    host,
    method: 'get',
    path: `/stamp-cache/tos/message-to-sign/IST/${address}`,
    headers: bearer,
    success: { body: { text: tosText, nonce: '4f2a9c1e8b7d6a5f' } },
    invalidBody: { text: tosText },
    idempotent: true,
    call: (options) => client(options).getTosMessage({ address: account.address }),
    expectSuccess: (result) => expect(result).toEqual({ text: tosText, nonce: '4f2a9c1e8b7d6a5f' }),
  },
  {
    name: 'D12 acceptTos (200 without body)',
    host,
    method: 'post',
    path: `/stamp-cache/tos/signed-message/IST/${address}`,
    requestBody: { tos_type: 'IST', nonce: '4f2a9c1e8b7d6a5f', signature: siweSignature },
    headers: bearer,
    success: { status: 200 },
    idempotent: false,
    call: (options) => client(options).acceptTos({ address: account.address, nonce: '4f2a9c1e8b7d6a5f', signature: siweSignature }),
    expectSuccess: (result) => expect(result).toBeUndefined(),
  },
  {
    name: 'D13 signIn',
    host,
    method: 'post',
    path: '/stamp-cache/authenticate/v2',
    requestBody: { message: siweMessage, signature: siweSignature },
    success: { body: { access: token, support_user_hash: null } },
    invalidBody: { token },
    idempotent: false,
    call: (options) => createStampCacheClient({ baseUrl: host, ...options }).signIn(signInParameters),
    expectSuccess: (result) => expect(result).toEqual({ accessToken: token, supportUserHash: null, message: siweMessage, signature: siweSignature }),
  },
  {
    name: 'sign-in nonce (GET /account/nonce, not in the spec)',
    host,
    method: 'get',
    path: '/account/nonce',
    success: { body: { nonce } },
    invalidBody: { nonce: 'ab-12' },
    idempotent: true,
    call: (options) => createStampCacheClient({ baseUrl: host, ...options }).getSignInNonce(),
    expectSuccess: (result) => expect(result).toEqual({ nonce }),
  },
])

// ---------------------------------------------------------------------------------------------
// Sign-in and the bearer token
// ---------------------------------------------------------------------------------------------

describe('signIn', () => {
  test('signs an EIP-4361 message viem verifies, keeps the token and sends it on later calls', async () => {
    let sent: { message: SiweMessage; signature: Hex } | undefined
    nock(host).get('/account/nonce').reply(200, { nonce })
    nock(host)
      .post('/stamp-cache/authenticate/v2', (body: { message: SiweMessage; signature: Hex }) => {
        sent = body
        return true
      })
      .reply(200, { access: token })
    nock(host, { reqheaders: bearer }).get(`/stamp-cache/score/${address}`).reply(200, internalScore)

    const cache = createStampCacheClient({ baseUrl: host, ...fastTransport, now: () => issuedAt.getTime() })
    expect(cache.getAccessToken()).toBeUndefined()
    const result = await cache.signIn({ account, domain: 'app.example.org', uri: 'https://app.example.org/login', expirationTime: new Date('2025-03-01T12:10:00.000Z') })

    expect(result.accessToken).toBe(token)
    expect(cache.getAccessToken()).toBe(token)
    expect(sent).toEqual({ message: result.message, signature: result.signature })
    expect(result.message).toEqual({
      domain: 'app.example.org',
      address: account.address,
      uri: 'https://app.example.org/login',
      version: '1',
      chainId: 1,
      nonce,
      issuedAt: '2025-03-01T12:00:00.000Z',
      expirationTime: '2025-03-01T12:10:00.000Z',
    })

    // What a server does: rebuild the text from the object, check the fields, recover the signer.
    const message = result.message
    const text = createSiweMessage({
      ...message,
      issuedAt: new Date(message.issuedAt),
      expirationTime: message.expirationTime === undefined ? undefined : new Date(message.expirationTime),
      notBefore: message.notBefore === undefined ? undefined : new Date(message.notBefore),
    })
    expect(await verifyMessage({ address: account.address, message: text, signature: result.signature })).toBe(true)
    expect(
      validateSiweMessage({
        message: parseSiweMessage(text),
        address: account.address,
        domain: 'app.example.org',
        nonce,
        time: new Date('2025-03-01T12:05:00.000Z'),
      }),
    ).toBe(true)

    await expect(cache.getScore({ address: account.address })).resolves.toMatchObject({ score: '21.72700' })
    expect(nock.isDone()).toBe(true)
  })

  test('works with any { address, signMessage } signer and the standalone action', async () => {
    const signer = { address: account.address, signMessage: ({ message }: { message: string }) => account.signMessage({ message }) }
    nock(host).post('/stamp-cache/authenticate/v2', { message: siweMessage, signature: siweSignature }).reply(200, { access: token })
    const cache = createStampCacheClient({ baseUrl: host, ...fastTransport })
    const result = await signInToStampCache(cache, { ...signInParameters, account: signer })
    expect(result.signature).toBe(siweSignature)
    expect(cache.getAccessToken()).toBe(token)
  })

  test('bad fields are refused before the nonce is fetched or anything is signed', async () => {
    const cache = createStampCacheClient({ baseUrl: host, ...fastTransport })
    let signed = 0
    const signer = { address: account.address, signMessage: async () => ((signed++, '0x00') as Hex) }
    const cases: [Partial<typeof signInParameters> & Record<string, unknown>, string][] = [
      [{ domain: 'https://app.example.org' }, 'domain'],
      [{ uri: 'not a uri' }, 'uri'],
      [{ nonce: 'short' }, 'nonce'],
      [{ nonce: undefined, statement: 'two\nlines' }, 'statement'],
      [{ chainId: 0 }, 'chainId'],
      [{ issuedAt: new Date('nope') }, 'issuedAt'],
    ]
    for (const [override, parameter] of cases) {
      const error = await failure(cache.signIn({ ...signInParameters, account: signer, ...override } as never))
      expect(error).toBeInstanceOf(InvalidParameterError)
      expect((error as InvalidParameterError).parameter).toBe(parameter)
    }
    expect(await failure(cache.signIn({ ...signInParameters, account: {} as never }))).toBeInstanceOf(InvalidParameterError)
    expect(await failure(cache.signIn({ ...signInParameters, account: { address: '0x1234', signMessage: signer.signMessage } }))).toBeInstanceOf(
      InvalidAddressError,
    )
    expect(signed).toBe(0)
  })

  test('an empty or blank token in the answer is a ResponseValidationError and is not kept', async () => {
    nock(host).post('/stamp-cache/authenticate/v2').reply(200, { access: 'not a token' })
    const cache = createStampCacheClient({ baseUrl: host, ...fastTransport })
    const error = (await failure(cache.signIn(signInParameters))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues[0]?.path).toEqual(['access'])
    expect(cache.getAccessToken()).toBeUndefined()
  })

  test('the token never appears in an error, even when the server echoes it', async () => {
    nock(host).get('/stamp-cache/stake/token').reply(401, { detail: `Token ${token} has expired` })
    const error = (await failure(client().getStakes())) as AuthenticationError
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.message).not.toContain(token)
    expect(error.body).not.toContain(token)
    expect(error.serverMessage).toBe('Token [redacted] has expired')
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(token)
  })

  test('a token obtained by signIn is redacted too', async () => {
    nock(host).post('/stamp-cache/authenticate/v2').reply(200, { access: token })
    nock(host).get('/stamp-cache/tos/accepted/IST/' + address).reply(400, { detail: `bad nonce for ${token}` })
    const cache = createStampCacheClient({ baseUrl: host, ...fastTransport })
    await cache.signIn(signInParameters)
    const error = (await failure(cache.isTosAccepted({ address }))) as Error
    expect(error.message).toContain('bad nonce for [redacted]')
    expect(error.message).not.toContain(token)
  })
})

describe('bearer token checks', () => {
  test('every bearer endpoint refuses to run without a token, before any request', async () => {
    const cache = createStampCacheClient({ baseUrl: host, ...fastTransport })
    const calls: [string, () => Promise<unknown>][] = [
      ['addStamps', () => cache.addStamps({ stamps: [{ provider: 'Google', stamp: googleCredential }] })],
      ['updateStamps', () => cache.updateStamps({ stamps: [{ provider: 'Google' }] })],
      ['deleteStamps', () => cache.deleteStamps({ stamps: [{ provider: 'Google' }] })],
      ['updateSaveStatus', () => cache.updateSaveStatus({ items: [{ id: 1, store_save_status: 'saved' }] })],
      ['getScore', () => cache.getScore({ address })],
      ['calculateScore', () => cache.calculateScore({ address })],
      ['getStakes', () => cache.getStakes()],
      ['isTosAccepted', () => cache.isTosAccepted({ address })],
      ['getTosMessage', () => cache.getTosMessage({ address })],
      ['acceptTos', () => cache.acceptTos({ address, nonce: 'n', signature: '0x00' })],
      ['signAndAcceptTos', () => cache.signAndAcceptTos({ account })],
    ]
    for (const [name, call] of calls) {
      const error = (await failure(call())) as InvalidParameterError
      expect(error).toBeInstanceOf(InvalidParameterError)
      expect(error.parameter).toBe('accessToken')
      expect(error.details).toContain(`${name} needs a bearer token`)
    }
    // A request would have failed with a NetworkError (net connect is disabled, no interceptor).
  })

  test('the whole message of a missing-token error', async () => {
    const error = await failure(getStampCacheScore(createStampCacheClient({ baseUrl: host }), { address }))
    expect((error as Error).message).toMatchInlineSnapshot(`
      "Parameter "accessToken" is invalid.

      Details: getScore needs a bearer token: call signIn first, or pass accessToken to createStampCacheClient or setAccessToken.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0"
    `)
  })

  test('setAccessToken sets, replaces and clears the token; a malformed token is refused', async () => {
    const cache = createStampCacheClient({ baseUrl: host, ...fastTransport })
    cache.setAccessToken('first.token.value')
    nock(host, { reqheaders: { authorization: 'Bearer first.token.value' } }).get('/stamp-cache/stake/token').reply(200, { items: [] })
    await expect(cache.getStakes()).resolves.toEqual({ items: [] })
    cache.setAccessToken(token)
    nock(host, { reqheaders: bearer }).get('/stamp-cache/stake/token').reply(200, { items: [] })
    await expect(cache.getStakes()).resolves.toEqual({ items: [] })
    cache.setAccessToken(undefined)
    expect(await failure(cache.getStakes())).toBeInstanceOf(InvalidParameterError)
    expect(() => cache.setAccessToken('two words')).toThrow(InvalidParameterError)
    expect(() => cache.setAccessToken('')).toThrow(InvalidParameterError)
    expect(() => createStampCacheClient({ baseUrl: host, accessToken: 'a\nb' })).toThrow(InvalidParameterError)
    expect(() => createStampCacheClient({ baseUrl: 'cache.test' })).toThrow(InvalidParameterError)
  })

  test('the endpoints without security (D5, D6) work without a token', async () => {
    const cache = createStampCacheClient({ baseUrl: host, ...fastTransport })
    nock(host, { badheaders: ['authorization'] }).get('/stamp-cache/weights').reply(200, { Google: 0.525 })
    await expect(cache.getWeights()).resolves.toEqual({ Google: 0.525 })
  })
})

// ---------------------------------------------------------------------------------------------
// Bulk limits and payloads
// ---------------------------------------------------------------------------------------------

describe('bulk writes', () => {
  const stamps = (count: number) => Array.from({ length: count }, (_, i) => ({ provider: `Provider${i}`, stamp: { i } }))

  test('more than 100 stamps are refused before any request; exactly 100 are sent', async () => {
    const cache = client()
    for (const call of [
      () => cache.addStamps({ stamps: stamps(101) }),
      () => cache.updateStamps({ stamps: stamps(101) }),
      () => cache.deleteStamps({ stamps: stamps(101) }),
      () => cache.updateSaveStatus({ items: Array.from({ length: 101 }, (_, id) => ({ id, store_save_status: 'saved' as const })) }),
    ]) {
      const error = (await failure(call())) as InvalidParameterError
      expect(error).toBeInstanceOf(InvalidParameterError)
      expect(error.details).toBe('At most 100 items per call, got 101: split them into several calls.')
    }
    const scope = nock(host, { reqheaders: bearer })
      .post('/stamp-cache/stamps/bulk', (body: unknown[]) => body.length === 100)
      .reply(201, stampsWithScore)
    await cache.addStamps({ stamps: stamps(100) })
    expect(scope.isDone()).toBe(true)
  })

  test('a malformed item is refused before any request, naming it', async () => {
    const error = (await failure(client().addStamps({ stamps: [{ provider: 'Google' }, { stamp: {} } as never] }))) as InvalidParameterError
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe('stamps[1].provider')
    const badAddress = await failure(client().addStamps({ stamps: [{ provider: 'Google', address: '0x12', stamp: {} }] }))
    expect(badAddress).toBeInstanceOf(InvalidAddressError)
    const badStatus = (await failure(client().updateSaveStatus({ items: [{ id: 1, store_save_status: 'done' as never }] }))) as InvalidParameterError
    expect(badStatus.parameter).toBe('items[0].store_save_status')
  })

  test('D1-D4 take one parameters object, like every other action: the items and a signal; a bare array is refused naming the form', async () => {
    const reason = new Error('stopped by the caller')
    const controller = new AbortController()
    controller.abort(reason)
    // Each call would succeed; its aborted signal makes it reject with the signal's reason.
    nock(host).post('/stamp-cache/stamps/bulk').reply(201, stampsWithScore)
    nock(host).patch('/stamp-cache/stamps/bulk').reply(200, stampsWithScore)
    nock(host).delete('/stamp-cache/stamps/bulk').reply(200, { success: true, stamps: [] })
    nock(host).patch('/stamp-cache/stamps/bulk/meta/store-db').reply(200, { updated: [1] })
    for (const call of [
      () => addCachedStamps(client(), { stamps: stamps(1), signal: controller.signal }),
      () => updateCachedStamps(client(), { stamps: stamps(1), signal: controller.signal }),
      () => deleteCachedStamps(client(), { stamps: [{ provider: 'Google' }], signal: controller.signal }),
      () => updateCachedStampSaveStatus(client(), { items: [{ id: 1, store_save_status: 'saved' }], signal: controller.signal }),
    ]) {
      expect(await failure(call())).toBe(reason)
    }
    nock.cleanAll()
    const bare = (await failure(client().addStamps(stamps(1) as never))) as InvalidParameterError
    expect(bare).toBeInstanceOf(InvalidParameterError)
    expect([bare.parameter, bare.details]).toEqual(['stamps', 'Pass the items as { stamps: [...] }.'])
    const none = (await failure(client().updateSaveStatus({} as never))) as InvalidParameterError
    expect([none.parameter, none.details]).toEqual(['items', 'Expected an array.'])
  })

  test('a PATCH item without stamp is sent as a deletion; DELETE drops keys other than provider and address', async () => {
    nock(host).patch('/stamp-cache/stamps/bulk', [{ provider: 'Discord', address }]).reply(200, stampsWithScore)
    await client().updateStamps({ stamps: [{ provider: 'Discord', address: account.address }] })
    nock(host).delete('/stamp-cache/stamps/bulk', [{ provider: 'Google' }]).reply(200, { success: true, stamps: [] })
    await client().deleteStamps({ stamps: [{ provider: 'Google', stamp: googleCredential } as never] })
    expect(nock.isDone()).toBe(true)
  })

  test('calculateScore without an alternate scorer sends an empty payload', async () => {
    nock(host).post(`/stamp-cache/score/${address}`, {}).reply(200, internalScore)
    await expect(client().calculateScore({ address })).resolves.toMatchObject({ address })
  })
})

// ---------------------------------------------------------------------------------------------
// Answers that would be silently wrong
// ---------------------------------------------------------------------------------------------

describe('answers about another address', () => {
  const other = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'

  test('a score record of another address is a ResponseValidationError', async () => {
    nock(host).get(`/stamp-cache/score/${address}`).reply(200, { ...internalScore, address: other })
    const error = (await failure(client().getScore({ address }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues).toEqual([{ path: ['address'], message: `Expected the score of ${address}, got the score of ${other}` }])
  })

  test('a stamp of another address is a ResponseValidationError', async () => {
    nock(host).get('/stamp-cache/stamp').query({ address }).reply(200, { success: true, stamps: [cachedStamp, { ...cachedStamp, address: other }] })
    const error = (await failure(client().getStamps({ address }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues[0]?.path).toEqual(['stamps', 1, 'address'])
  })
})

// ---------------------------------------------------------------------------------------------
// Terms of service
// ---------------------------------------------------------------------------------------------

describe('terms of service', () => {
  test('signAndAcceptTos signs the text it was given (EIP-191) and sends nonce and signature', async () => {
    let accepted: { tos_type: string; nonce: string; signature: Hex } | undefined
    nock(host, { reqheaders: bearer })
      .get(`/stamp-cache/tos/message-to-sign/IST/${address}`)
      .reply(200, { text: tosText, nonce: '4f2a9c1e8b7d6a5f' })
    nock(host, { reqheaders: bearer })
      .post(`/stamp-cache/tos/signed-message/IST/${address}`, (body: typeof accepted) => {
        accepted = body
        return true
      })
      .reply(200)
    const result = await client().signAndAcceptTos({ account })
    expect(accepted).toEqual({ tos_type: 'IST', nonce: '4f2a9c1e8b7d6a5f', signature: result.signature })
    expect(await verifyMessage({ address: account.address, message: tosText, signature: result.signature })).toBe(true)
  })

  test('a custom tos type goes in the path; one that could change the path is refused', async () => {
    nock(host).get(`/stamp-cache/tos/accepted/PRIVACY_v2/${address}`).reply(200, { accepted: false })
    await expect(client().isTosAccepted({ address, tosType: 'PRIVACY_v2' })).resolves.toBe(false)
    for (const tosType of ['..', 'IST/../x', 'IST?x=1', '']) {
      const error = (await failure(client().getTosMessage({ address, tosType }))) as InvalidParameterError
      expect(error.parameter).toBe('tosType')
    }
  })

  test('acceptTos checks the nonce and signature before any request', async () => {
    expect(((await failure(client().acceptTos({ address, nonce: '', signature: '0x00' }))) as InvalidParameterError).parameter).toBe('nonce')
    expect(((await failure(client().acceptTos({ address, nonce: 'n', signature: 'abc' }))) as InvalidParameterError).parameter).toBe('signature')
    expect(await failure(client().acceptTos({ address: '0xnope', nonce: 'n', signature: '0x00' }))).toBeInstanceOf(InvalidAddressError)
  })

  test('bad alternate scorer ids are refused before any request', async () => {
    for (const alternateScorerId of [-1, 1.5, Number.NaN, '7' as never]) {
      const error = (await failure(client().getScore({ address, alternateScorerId }))) as InvalidParameterError
      expect(error.parameter).toBe('alternateScorerId')
    }
  })
})
