import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createTransport } from '../../http/transport.js'
import { InvalidRequestError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { address, base, client, doneRecord, headers, other } from '../../../test/fixtures/registry.js'
import { getRegistryScore } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('registry client (C)', [
  {
    name: 'C3 getScore',
    host: base,
    method: 'get',
    path: `/registry/score/335/${address}`,
    headers,
    success: { body: { items: [doneRecord] } },
    invalidBody: { items: [{ ...doneRecord, score: 'one' }] },
    idempotent: true,
    call: (options) => client(options).getScore({ scorerId: '335', address }),
    expectSuccess: (result) => expect(result).toEqual(doneRecord),
  },
])

describe('tolerance', () => {
  test('C3: evidence rawScore and threshold as numbers (public) or strings (spec) read the same way', async () => {
    nock(base)
      .get(`/registry/score/335/${address}`)
      .reply(200, { items: [{ ...doneRecord, evidence: { type: 'ThresholdScoreCheck', success: true, rawScore: 22.516, threshold: 20 } }] })
      .get(`/registry/score/335/${address}`)
      .reply(200, { items: [{ ...doneRecord, evidence: { type: 'ThresholdScoreCheck', success: true, rawScore: '22.516', threshold: '20' } }] })
    const registry = client()
    const fromNumbers = await registry.getScore({ scorerId: 335, address })
    const fromStrings = await registry.getScore({ scorerId: 335, address })
    expect(fromNumbers.evidence).toEqual({ type: 'ThresholdScoreCheck', success: true, rawScore: '22.516', threshold: '20' })
    expect(fromStrings).toEqual(fromNumbers)
  })

  test('C3: a bare record instead of { items } is accepted; absent fields become null', async () => {
    nock(base).get(`/registry/score/335/${address}`).reply(200, { address, status: 'PROCESSING' })
    expect(await client().getScore({ scorerId: 335, address })).toStrictEqual({
      address,
      score: null,
      status: 'PROCESSING',
      last_score_timestamp: null,
      expiration_date: null,
      evidence: null,
      error: null,
    })
  })

  test('C3: an empty items list is a ResponseValidationError, not undefined', async () => {
    nock(base).get(`/registry/score/335/${address}`).reply(200, { items: [] })
    const error = await failure(client().getScore({ scorerId: 335, address }))
    expect(error).toMatchObject({ name: 'ResponseValidationError', issues: [{ path: ['items'] }] })
  })

  test('C3 of an address never submitted: the 400 detail is the message', async () => {
    nock(base).get(`/registry/score/335/${address}`).reply(400, { detail: 'Unable to get score for provided scorer.' })
    const error = (await failure(client().getScore({ scorerId: 335, address }))) as InvalidRequestError
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.serverMessage).toBe('Unable to get score for provided scorer.')
  })
})

describe('requests', () => {
  test('functions work alone with a context that has only a transport', async () => {
    nock(base).get(`/registry/score/3/${address}`).matchHeader('x-api-key', 'other-key').reply(200, { items: [doneRecord] })
    const transport = createTransport({ baseUrl: base, authHeaders: () => ({ 'X-API-KEY': 'other-key' }) })
    expect(await getRegistryScore({ transport }, { scorerId: 3, address })).toEqual(doneRecord)
  })
})

describe('answers about another address', () => {
  test('C3 (v1 score): only the record of the address asked, never the first one', async () => {
    const record = { address: other, score: '30.000000000', status: 'DONE', last_score_timestamp: '2025-06-01T00:00:00.000Z', expiration_date: '2025-09-01T00:00:00.000Z', evidence: null, error: null, stamp_scores: {} }
    nock(base).get(`/registry/score/1/${address}`).reply(200, { items: [record] })
    const error = await failure(client().getScore({ scorerId: 1, address }))
    expect(error).toMatchObject({ name: 'ResponseValidationError' })
    expect(error.issues[0].message).toBe(`Expected the score record of ${address}, received only ${other}`)
  })
})
