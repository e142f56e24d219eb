import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createTransport } from '../../http/transport.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { testInvalidParameters } from '../../../test/helpers/invalid-parameters.js'
import { address, base, checksummed, client, headers, other, scoreBody, v2 } from '../../../test/fixtures/passport.js'
import { getScore } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('passport client (A, B)', [
  {
    name: 'A1 getScore',
    host: base,
    method: 'get',
    path: `/v2/stamps/335/score/${address}`,
    headers,
    success: { body: scoreBody },
    invalidBody: { ...scoreBody, score: 'lots', stamps: undefined },
    idempotent: true,
    call: (options) => client(options).getScore({ scorerId: 335, address: checksummed }),
    expectSuccess: (result) => expect(result).toEqual(scoreBody),
  },
])

describe('tolerance', () => {
  test('A1: the earlier revision (pass, stamp_scores, numeric threshold) normalizes to the current shape', async () => {
    nock(base)
      .get(`/v2/stamps/335/score/${address}`)
      .reply(200, {
        address,
        score: '22.51600',
        pass: true,
        threshold: 20,
        last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
        expiration_timestamp: null,
        error: null,
        stamp_scores: { Google: '0.52500', Ens: '21.99100' },
      })
    expect(await client().getScore({ scorerId: 335, address })).toStrictEqual({
      address,
      score: '22.51600',
      passing_score: true,
      threshold: '20',
      last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
      expiration_timestamp: null,
      error: null,
      stamps: {
        Google: { score: '0.52500', dedup: false, expiration_date: null },
        Ens: { score: '21.99100', dedup: false, expiration_date: null },
      },
    })
  })

  test('A1: a scoring failure is a success with error text', async () => {
    const failed = { ...scoreBody, score: '0.00000', passing_score: false, error: 'Unable to score', stamps: {} }
    nock(base).get(`/v2/stamps/335/score/${address}`).reply(200, failed)
    expect(await client().getScore({ scorerId: 335, address })).toEqual(failed)
  })
})

describe('requests', () => {
  test('functions work alone with any context that has a transport', async () => {
    nock(base).get(`/v2/stamps/7/score/${address}`).matchHeader('x-api-key', 'other-key').reply(200, scoreBody)
    const transport = createTransport({ baseUrl: base, authHeaders: () => ({ 'X-API-KEY': 'other-key' }) })
    expect(await getScore({ transport }, { scorerId: '7', address })).toEqual(scoreBody)
  })
})

describe('bad input is refused before any request', () => {
  testInvalidParameters([
    ['scorerId 0', () => client().getScore({ scorerId: 0, address }), 'scorerId'],
    ['scorerId "12a"', () => client().getScore({ scorerId: '12a', address }), 'scorerId'],
    ['scorerId 1.5', () => client().getScore({ scorerId: 1.5, address }), 'scorerId'],
  ])
})

describe('answers about another address', () => {
  test('A1 (score)', async () => {
    nock(base).get(`/v2/stamps/1/score/${address}`).reply(200, v2({ address: other }))
    const error = await failure(client().getScore({ scorerId: 1, address }))
    expect(error).toMatchObject({ name: 'ResponseValidationError' })
    expect(error.issues).toEqual([{ path: ['address'], message: `The answer is about ${other}, not the address asked (${address}).` }])
  })
})

describe('answers that contradict themselves', () => {
  test('passing_score true below the threshold, or false above it', async () => {
    nock(base).get(`/v2/stamps/1/score/${address}`).reply(200, v2({ score: '3.00000', passing_score: true }))
    expect((await failure(client().getScore({ scorerId: 1, address }))).issues[0].message).toBe(
      'passing_score is true, but score 3.00000 is below threshold 20.00000.',
    )
    nock(base).get(`/v2/stamps/1/score/${address}`).reply(200, v2({ score: '25.00000', passing_score: false }))
    expect(await failure(client().getScore({ scorerId: 1, address }))).toMatchObject({ name: 'ResponseValidationError' })
  })

  test('equal shown values may go either way (the services decide on unrounded values); a scoring failure is not judged', async () => {
    nock(base).get(`/v2/stamps/1/score/${address}`).reply(200, v2({ score: '20.00000', passing_score: false }))
    expect((await client().getScore({ scorerId: 1, address })).passing_score).toBe(false)
    nock(base).get(`/v2/stamps/1/score/${address}`).reply(200, v2({ score: '0.00000', passing_score: false, error: 'Unable to score' }))
    expect((await client().getScore({ scorerId: 1, address })).error).toBe('Unable to score')
  })
})
