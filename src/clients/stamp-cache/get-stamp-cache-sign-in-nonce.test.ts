import nock from 'nock'
import { afterEach, beforeAll, expect } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { host, nonce } from '../../../test/fixtures/stamp-cache.js'
import { createStampCacheClient } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
  {
    name: 'sign-in nonce (GET /account/nonce, not in the spec)',
    host,
    method: 'get',
    path: '/account/nonce',
    success: { body: { nonce } },
    invalidBody: { nonce: 'ab-12' },
    idempotent: true,
    call: (options) => createStampCacheClient({ baseUrl: host, ...options }).getSignInNonce(),
    expectSuccess: (result) => expect(result).toEqual({ nonce }),
  },
])
