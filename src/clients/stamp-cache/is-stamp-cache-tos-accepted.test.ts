import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, bearer, client, host } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
  {
    name: 'D10 isTosAccepted',
    host,
    method: 'get',
    path: `/stamp-cache/tos/accepted/IST/${address}`,
    headers: bearer,
    success: { body: { accepted: true } },
    invalidBody: { accepted: 'yes' },
    idempotent: true,
    call: (options) => client(options).isTosAccepted({ address: account.address }),
    expectSuccess: (result) => expect(result).toBe(true),
  },
])

describe('terms of service', () => {
  test('a custom tos type goes in the path; one that could change the path is refused', async () => {
    nock(host).get(`/stamp-cache/tos/accepted/PRIVACY_v2/${address}`).reply(200, { accepted: false })
    await expect(client().isTosAccepted({ address, tosType: 'PRIVACY_v2' })).resolves.toBe(false)
    for (const tosType of ['..', 'IST/../x', 'IST?x=1', '']) {
      const error = (await failure(client().getTosMessage({ address, tosType }))) as InvalidParameterError
      expect(error.parameter).toBe('tosType')
    }
  })
})
