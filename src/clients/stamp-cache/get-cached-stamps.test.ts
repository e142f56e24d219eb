import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { ResponseValidationError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, cachedStamp, client, host } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])

describe('answers about another address', () => {
  const other = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'

  test('a stamp of another address is a ResponseValidationError', async () => {
    nock(host).get('/stamp-cache/stamp').query({ address }).reply(200, { success: true, stamps: [cachedStamp, { ...cachedStamp, address: other }] })
    const error = (await failure(client().getStamps({ address }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues[0]?.path).toEqual(['stamps', 1, 'address'])
  })
})
