import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { client, host } from '../../../test/fixtures/human-id.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('Human ID (E1-E7)', [
  {
    name: 'E7 getCleanHandsSbt',
    host,
    method: 'get',
    path: '/attestation/sbts/clean-hands',
    query: { address: 'neutron1qnk2n4nlkpw9xfqntladh74er2xa62wgas8mna', 'action-id': '123456789' },
    success: {
      body: {
        isUnique: true,
        signature: '0x4e1a0c5b3e2f7d8c9b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c1b',
        circuitId: '0x1c98fc4f7f1ad3805aefa81ad25fa466f8342292accf69566b43691d12742a19',
      },
    },
    invalidBody: { isUnique: true },
    idempotent: true,
    call: (options) => client(options).getCleanHandsSbt({ address: 'neutron1qnk2n4nlkpw9xfqntladh74er2xa62wgas8mna' }),
    expectSuccess: (result) =>
      expect(result).toMatchObject({ isUnique: true, circuitId: '0x1c98fc4f7f1ad3805aefa81ad25fa466f8342292accf69566b43691d12742a19' }),
  },
])

describe('getVerification and getCleanHandsSbt inputs', () => {
  test('a clean-hands address must be a non-empty string; a custom action id is sent as digits', async () => {
    for (const address of ['', 'two words', undefined]) {
      const error = (await failure(client().getCleanHandsSbt({ address } as never))) as InvalidParameterError
      expect(error.parameter).toBe('address')
    }
    nock(host).get('/attestation/sbts/clean-hands').query({ address: 'neutron1abc', 'action-id': '42' }).reply(200, { isUnique: false })
    await expect(client().getCleanHandsSbt({ address: 'neutron1abc', actionId: 42 })).resolves.toEqual({ isUnique: false })
  })
})
