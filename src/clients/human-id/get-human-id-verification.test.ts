import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError, InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { client, expirationDate, host, user, userChecksummed } from '../../../test/fixtures/human-id.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('Human ID (E1-E7)', [
  {
    name: 'E1 getVerification gov-id',
    host,
    method: 'get',
    path: '/sybil-resistance/gov-id/optimism',
    query: { user, 'action-id': '123456789' },
    success: { body: { result: true, expirationDate } },
    invalidBody: { result: 'true' },
    idempotent: true,
    call: (options) => client(options).getVerification({ credential: 'gov-id', user: userChecksummed }),
    expectSuccess: (result) => expect(result).toEqual({ result: true, expirationDate }),
  },
  {
    name: 'E2 getVerification phone on base-sepolia, custom action',
    host,
    method: 'get',
    path: '/sybil-resistance/phone/base-sepolia',
    query: { user, 'action-id': '987654321' },
    success: { body: { result: false } },
    invalidBody: { result: true },
    idempotent: true,
    call: (options) => client(options).getVerification({ credential: 'phone', network: 'base-sepolia', user, actionId: '987654321' }),
    expectSuccess: (result) => expect(result).toEqual({ result: false }),
  },
  {
    name: 'E3 getVerification biometrics',
    host,
    method: 'get',
    path: '/sybil-resistance/biometrics/optimism',
    query: { user, 'action-id': '123456789' },
    success: { body: { result: true, expirationDate: String(expirationDate) } },
    invalidBody: { expirationDate },
    idempotent: true,
    call: (options) => client(options).getVerification({ credential: 'biometrics', user, actionId: 123456789n }),
    expectSuccess: (result) => expect(result).toEqual({ result: true, expirationDate }),
  },
])

describe('getVerification and getCleanHandsSbt inputs', () => {
  test('unknown credential or network names and bad action ids are refused before any request', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ credential: 'clean-hands' }, 'credential'],
      [{ credential: 'GOV-ID' }, 'credential'],
      [{ network: 'base' }, 'network'],
      [{ network: 10 }, 'network'],
      [{ actionId: 1.5 }, 'actionId'],
      [{ actionId: '' }, 'actionId'],
      [{ actionId: null }, 'actionId'],
    ]
    for (const [override, parameter] of bad) {
      const error = (await failure(client().getVerification({ credential: 'gov-id', user, ...override } as never))) as InvalidParameterError
      expect(error).toBeInstanceOf(InvalidParameterError)
      expect(error.parameter).toBe(parameter)
    }
    expect(await failure(client().getVerification({ credential: 'gov-id', user: '0x1234' }))).toBeInstanceOf(InvalidAddressError)
  })
})
