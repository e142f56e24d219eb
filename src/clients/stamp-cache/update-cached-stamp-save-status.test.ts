import nock from 'nock'
import { afterEach, beforeAll, expect } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { bearer, client, host } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])
