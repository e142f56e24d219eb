import nock from 'nock'
import { afterEach, beforeAll, expect } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { bearer, cachedStamp, client, host } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])
