import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { ResponseValidationError, type InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, bearer, cachedStamp, client, host, internalScore } from '../../../test/fixtures/stamp-cache.js'

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
  {
    name: 'D6 getStamps',
    host,
    method: 'get',
    path: '/stamp-cache/stamp',
    query: { address },
    success: { body: { success: true, stamps: [cachedStamp] } },
    invalidBody: { success: true, stamps: [{ id: '41', address, provider: 'Google', stamp: {} }] },
    idempotent: true,
    call: (options) => client(options).getStamps({ address: account.address }),
    expectSuccess: (result) => expect(result).toEqual({ success: true, stamps: [cachedStamp] }),
  },
  {
    name: 'D7 getScore',
    host,
    method: 'get',
    path: `/stamp-cache/score/${address}`,
    query: { alternate_scorer_id: '7' },
    headers: bearer,
    success: { body: internalScore },
    invalidBody: { ...internalScore, passing_score: 'true' },
    idempotent: true,
    call: (options) => client(options).getScore({ address: account.address, alternateScorerId: 7 }),
    expectSuccess: (result) =>
      expect(result).toMatchObject({ address, score: '21.72700', passing_score: true, stamps: { Discord: { dedup: true, score: '0.00000' } } }),
  },
  {
    name: 'D8 calculateScore (safe to repeat)',
    host,
    method: 'post',
    path: `/stamp-cache/score/${address}`,
    requestBody: { alternate_scorer_id: 7 },
    headers: bearer,
    success: { body: { ...internalScore, score: 21.727, threshold: 20 } },
    invalidBody: { ...internalScore, threshold: null },
    idempotent: true,
    call: (options) => client(options).calculateScore({ address: account.address, alternateScorerId: 7 }),
    expectSuccess: (result) => expect(result).toMatchObject({ address, score: 21.727, threshold: 20 }),
  },
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

describe('requests', () => {
  test('calculateScore without an alternate scorer sends an empty payload', async () => {
    nock(host).post(`/stamp-cache/score/${address}`, {}).reply(200, internalScore)
    await expect(client().calculateScore({ address })).resolves.toMatchObject({ address })
  })

  test('bad alternate scorer ids are refused before any request', async () => {
    for (const alternateScorerId of [-1, 1.5, Number.NaN, '7' as never]) {
      const error = (await failure(client().getScore({ address, alternateScorerId }))) as InvalidParameterError
      expect(error.parameter).toBe('alternateScorerId')
    }
  })
})

describe('answers about another address', () => {
  const other = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'

  test('a score record of another address is a ResponseValidationError', async () => {
    nock(host).get(`/stamp-cache/score/${address}`).reply(200, { ...internalScore, address: other })
    const error = (await failure(client().getScore({ address }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues).toEqual([{ path: ['address'], message: `Expected the score of ${address}, got the score of ${other}` }])
  })

  test('a stamp of another address is a ResponseValidationError', async () => {
    nock(host).get('/stamp-cache/stamp').query({ address }).reply(200, { success: true, stamps: [cachedStamp, { ...cachedStamp, address: other }] })
    const error = (await failure(client().getStamps({ address }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues[0]?.path).toEqual(['stamps', 1, 'address'])
  })
})
