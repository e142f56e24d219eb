import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError, type InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, bearer, client, host, siweSignature } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
  test('acceptTos checks the nonce and signature before any request', async () => {
    expect(((await failure(client().acceptTos({ address, nonce: '', signature: '0x00' }))) as InvalidParameterError).parameter).toBe('nonce')
    expect(((await failure(client().acceptTos({ address, nonce: 'n', signature: 'abc' }))) as InvalidParameterError).parameter).toBe('signature')
    expect(await failure(client().acceptTos({ address: '0xnope', nonce: 'n', signature: '0x00' }))).toBeInstanceOf(InvalidAddressError)
  })
})
