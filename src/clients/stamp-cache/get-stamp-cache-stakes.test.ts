import nock from 'nock'
import { afterEach, beforeAll, expect } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { address, bearer, client, host } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])
