import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, bearer, client, host, internalScore } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
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
])

describe('requests', () => {
  test('calculateScore without an alternate scorer sends an empty payload', async () => {
    nock(host).post(`/stamp-cache/score/${address}`, {}).reply(200, internalScore)
    await expect(client().calculateScore({ address })).resolves.toMatchObject({ address })
  })
})
