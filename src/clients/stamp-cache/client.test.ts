import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { fastTransport } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, bearer, googleCredential, host, token } from '../../../test/fixtures/stamp-cache.js'
import { createStampCacheClient, getStampCacheScore } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
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
