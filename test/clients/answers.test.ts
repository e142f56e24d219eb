/**
 * An answer that does not match the question, or contradicts itself, is a ResponseValidationError:
 * never a score for the voter who asked.
 */
import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createPassportClient } from '../../src/clients/passport/index.js'
import { createRegistryClient } from '../../src/clients/registry/index.js'
import { failure } from '../helpers/async.js'
import { fastTransport } from '../helpers/endpoint-matrix.js'

const api = 'https://api.passport.xyz'
const legacy = 'https://api.scorer.gitcoin.co'
const asked = '0x52908400098527886e0f7030069857d2e4169ee7'
const other = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())

const passport = () => createPassportClient({ apiKey: 'key', ...fastTransport, rateLimiters: false })
const registry = () => createRegistryClient({ apiKey: 'key', ...fastTransport, rateLimiter: false })

function v2(overrides: Record<string, unknown> = {}) {
  return {
    address: asked,
    score: '21.00000',
    passing_score: true,
    threshold: '20.00000',
    last_score_timestamp: '2025-06-01T00:00:00.000Z',
    expiration_timestamp: '2025-09-01T00:00:00.000Z',
    error: null,
    stamps: {},
    ...overrides,
  }
}

describe('answers about another address', () => {
  test('A1 (score)', async () => {
    nock(api).get(`/v2/stamps/1/score/${asked}`).reply(200, v2({ address: other }))
    const error = await failure(passport().getScore({ scorerId: 1, address: asked }))
    expect(error).toMatchObject({ name: 'ResponseValidationError' })
    expect(error.issues).toEqual([{ path: ['address'], message: `The answer is about ${other}, not the address asked (${asked}).` }])
  })

  test('A2 (history)', async () => {
    nock(api).get(`/v2/stamps/1/score/${asked}/history`).query(true).reply(200, { items: [v2({ address: other })] })
    const error = await failure(passport().getScoreHistory({ scorerId: 1, address: asked, createdAt: '2025-06-01' }))
    expect(error.issues[0].path).toEqual(['items', 0, 'address'])
  })

  test('B1 (model score)', async () => {
    nock(api).get(`/v2/models/score/${asked}`).query(true).reply(200, { address: other, details: { models: { aggregate: { score: 80 } } } })
    const error = await failure(passport().getModelScore({ address: asked }))
    expect(error).toMatchObject({ name: 'ResponseValidationError' })
  })

  test('C3 (v1 score): only the record of the address asked, never the first one', async () => {
    const record = { address: other, score: '30.000000000', status: 'DONE', last_score_timestamp: '2025-06-01T00:00:00.000Z', expiration_date: '2025-09-01T00:00:00.000Z', evidence: null, error: null, stamp_scores: {} }
    nock(legacy).get(`/registry/score/1/${asked}`).reply(200, { items: [record] })
    const error = await failure(registry().getScore({ scorerId: 1, address: asked }))
    expect(error).toMatchObject({ name: 'ResponseValidationError' })
    expect(error.issues[0].message).toBe(`Expected the score record of ${asked}, received only ${other}`)
  })
})

describe('answers that contradict themselves', () => {
  test('passing_score true below the threshold, or false above it', async () => {
    nock(api).get(`/v2/stamps/1/score/${asked}`).reply(200, v2({ score: '3.00000', passing_score: true }))
    expect((await failure(passport().getScore({ scorerId: 1, address: asked }))).issues[0].message).toBe(
      'passing_score is true, but score 3.00000 is below threshold 20.00000.',
    )
    nock(api).get(`/v2/stamps/1/score/${asked}`).reply(200, v2({ score: '25.00000', passing_score: false }))
    expect(await failure(passport().getScore({ scorerId: 1, address: asked }))).toMatchObject({ name: 'ResponseValidationError' })
  })

  test('equal shown values may go either way (the services decide on unrounded values); a scoring failure is not judged', async () => {
    nock(api).get(`/v2/stamps/1/score/${asked}`).reply(200, v2({ score: '20.00000', passing_score: false }))
    expect((await passport().getScore({ scorerId: 1, address: asked })).passing_score).toBe(false)
    nock(api).get(`/v2/stamps/1/score/${asked}`).reply(200, v2({ score: '0.00000', passing_score: false, error: 'Unable to score' }))
    expect((await passport().getScore({ scorerId: 1, address: asked })).error).toBe('Unable to score')
  })
})
