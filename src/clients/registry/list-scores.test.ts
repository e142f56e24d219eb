import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { testInvalidParameters } from '../../../test/helpers/invalid-parameters.js'
import { address, base, checksummed, client, doneRecord, headers, other, plainRecord } from '../../../test/fixtures/registry.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('registry client (C)', [
  {
    name: 'C4 listScores',
    host: base,
    method: 'get',
    path: '/registry/score/335',
    query: {
      last_score_timestamp_gt: '2024-10-01T00:00:00.000Z',
      last_score_timestamp__gt: '2024-10-01T00:00:00.000Z',
      limit: '2',
      offset: '0',
    },
    headers,
    success: { body: { items: [doneRecord, plainRecord], count: 2 } },
    invalidBody: { items: [doneRecord] },
    idempotent: true,
    call: (options) =>
      client(options).listScores({ scorerId: 335, lastScoreTimestampGt: new Date('2024-10-01T00:00:00Z'), limit: 2, offset: 0 }),
    expectSuccess: (result) => expect(result).toEqual({ items: [doneRecord, plainRecord], count: 2 }),
  },
])

describe('requests', () => {
  test('C4 sends both spellings of each timestamp filter; strings are normalized, date-only kept', async () => {
    const scope = nock(base)
      .get('/registry/score/335')
      .query({
        last_score_timestamp_gt: '2024-10-01T10:00:00.000Z',
        last_score_timestamp__gt: '2024-10-01T10:00:00.000Z',
        last_score_timestamp_gte: '2024-09-30',
        last_score_timestamp__gte: '2024-09-30',
      })
      .reply(200, { items: [], count: 0 })
    await client().listScores({ scorerId: 335, lastScoreTimestampGt: '2024-10-01T12:00:00+02:00', lastScoreTimestampGte: '2024-09-30' })
    expect(scope.isDone()).toBe(true)
  })

  test("C4 filtered by address: sent in lower case; an answer holding another address's record is refused", async () => {
    nock(base).get('/registry/score/335').query({ address }).reply(200, { items: [doneRecord], count: 1 })
    expect((await client().listScores({ scorerId: 335, address: checksummed })).items).toEqual([doneRecord])
    nock(base).get('/registry/score/335').query({ address }).reply(200, { items: [], count: 0 })
    expect((await client().listScores({ scorerId: 335, address })).items).toEqual([])
    // A server that ignores the filter must not pass another address's score off as this one's.
    nock(base).get('/registry/score/335').query({ address: other }).reply(200, { items: [doneRecord], count: 1 })
    const error = await failure(client().listScores({ scorerId: 335, address: other }))
    expect(error.name).toBe('ResponseValidationError')
    expect(error.issues).toEqual([{ path: ['items', 0, 'address'], message: `Expected only the score of ${other}, received one of ${address}` }])
    expect(await failure(client().listScores({ scorerId: 335, address: '0x1234' }))).toBeInstanceOf(InvalidAddressError)
  })
})

describe('bad input is refused before any request', () => {
  testInvalidParameters([
    ['limit 0', () => client().listScores({ scorerId: 1, limit: 0 }), 'limit'],
    ['offset -1', () => client().listScores({ scorerId: 1, offset: -1 }), 'offset'],
    ['a filter that is not a date', () => client().listScores({ scorerId: 1, lastScoreTimestampGt: '1 Oct' }), 'lastScoreTimestampGt'],
  ])
})
