import nock from 'nock'
import { afterEach, beforeAll, expect } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { base, client, headers, metadataBody } from '../../../test/fixtures/registry.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('registry client (C)', [
  {
    name: 'C6 getStampMetadata',
    host: base,
    method: 'get',
    path: '/registry/stamp-metadata',
    headers,
    success: { body: metadataBody },
    invalidBody: { items: metadataBody },
    idempotent: true,
    call: (options) => client(options).getStampMetadata(),
    expectSuccess: (result) => expect(result).toEqual(metadataBody),
  },
])
