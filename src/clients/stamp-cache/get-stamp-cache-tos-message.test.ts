import nock from 'nock'
import { afterEach, beforeAll, expect } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, bearer, client, host, tosText } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])
