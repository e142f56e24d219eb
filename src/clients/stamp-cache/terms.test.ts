import nock from 'nock'
import { verifyMessage, type Hex } from 'viem'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError, type InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, bearer, client, host, siweSignature, tosText } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])

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
})
