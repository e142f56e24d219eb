import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { ResponseValidationError, type InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, bearer, client, host, internalScore } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])

describe('requests', () => {
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
})
