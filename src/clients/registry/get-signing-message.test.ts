import nock from 'nock'
import { afterEach, beforeAll, expect } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { client, headers, signingMessage, base } from '../../../test/fixtures/registry.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('registry client (C)', [
  {
    name: 'C1 getSigningMessage',
    host: base,
    method: 'get',
    path: '/registry/signing-message',
    headers,
    success: { body: signingMessage },
    invalidBody: { message: 'Sign this' },
    idempotent: true,
    call: (options) => client(options).getSigningMessage(),
    expectSuccess: (result) => expect(result).toEqual(signingMessage),
  },
])
