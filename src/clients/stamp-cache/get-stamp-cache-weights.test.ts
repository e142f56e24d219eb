import nock from 'nock'
import { afterEach, beforeAll, expect } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { client, host } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])
