import nock from 'nock'
import { verifyMessage, type Hex } from 'viem'
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { AuthenticationError, InvalidAddressError, InvalidParameterError, ResponseValidationError } from '../../errors/index.js'
import type { SiweMessage } from '../../schemas/stamp-cache.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix, fastTransport } from '../../../test/helpers/endpoint-matrix.js'
import {
  account,
  address,
  bearer,
  client,
  host,
  issuedAt,
  internalScore,
  nonce,
  signInParameters,
  siweMessage,
  siweSignature,
  token,
} from '../../../test/fixtures/stamp-cache.js'
import { createStampCacheClient, signInToStampCache } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])

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
