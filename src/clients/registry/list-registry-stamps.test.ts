import nock from 'nock'
import { afterEach, beforeAll, describe, expect } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { testInvalidParameters } from '../../../test/helpers/invalid-parameters.js'
import { address, base, client, credential, headers, stampItem, token } from '../../../test/fixtures/registry.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('registry client (C)', [
  {
    name: 'C5 listStamps',
    host: base,
    method: 'get',
    path: `/registry/stamps/${address}`,
    query: { limit: '1' },
    headers,
    success: { body: { next: `${base}/registry/stamps/${address}?limit=1&token=${token}`, prev: null, items: [stampItem] } },
    invalidBody: { next: null, prev: null, items: [{ credential }] },
    idempotent: true,
    call: (options) => client(options).listStamps({ address, limit: 1 }),
    expectSuccess: (result) => expect(result).toEqual({ next: token, prev: null, items: [stampItem] }),
  },
])

describe('bad input is refused before any request', () => {
  testInvalidParameters([
    ['a stamp limit of 1001', () => client().listStamps({ address, limit: 1001 }), 'limit'],
  ])
})
