import { describe, expect, test } from 'vitest'
import {
  isKnownRegistryScoreStatus,
  registryScoreItemsResponseSchema,
  registryScoreListQuerySchema,
  registryScorePageResponseSchema,
  registryScorePageSchema,
  registryScoreResponseSchema,
  registryScoreSchema,
  registryStakeRecordSchema,
  signingMessageSchema,
  submitPassportBodySchema,
  thresholdScoreEvidenceResponseSchema,
  type RegistryScore,
} from './registry.js'

const address = '0x52908400098527886e0f7030069857d2e4169ee7'

const doneRecord = {
  address,
  score: '1.000000000',
  status: 'DONE',
  last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
  expiration_date: '2025-01-23T19:16:14.023000+00:00',
  evidence: { type: 'ThresholdScoreCheck', success: true, rawScore: '22.516', threshold: '20.00000' },
  error: null,
  stamp_scores: { Google: '0.525', Github: '10' },
} satisfies RegistryScore

describe('registry score record (C2, C3)', () => {
  test('the spec shape parses unchanged, canonical and response', () => {
    expect(registryScoreSchema.parse(doneRecord)).toEqual(doneRecord)
    expect(registryScoreResponseSchema.parse(doneRecord)).toEqual(doneRecord)
  })

  test('evidence rawScore/threshold sent as numbers become strings', () => {
    const parsed = registryScoreResponseSchema.parse({
      ...doneRecord,
      evidence: { type: 'ThresholdScoreCheck', success: false, rawScore: 5.459, threshold: 20 },
    })
    expect(parsed.evidence).toEqual({ type: 'ThresholdScoreCheck', success: false, rawScore: '5.459', threshold: '20' })
    expect(
      thresholdScoreEvidenceResponseSchema.parse({
        type: 'ThresholdScoreCheck',
        success: true,
        rawScore: '309.5190000000000054014570595',
        threshold: '100.00000',
      }).rawScore,
    ).toBe('309.5190000000000054014570595')
  })

  test('a PROCESSING record with null or absent fields normalizes to nulls', () => {
    const parsed = registryScoreResponseSchema.parse({ address, score: null, status: 'PROCESSING', evidence: null })
    expect(parsed).toStrictEqual({
      address,
      score: null,
      status: 'PROCESSING',
      last_score_timestamp: null,
      expiration_date: null,
      evidence: null,
      error: null,
    })
  })

  test('an ERROR record keeps its error text', () => {
    const parsed = registryScoreResponseSchema.parse({ address, score: null, status: 'ERROR', error: 'No stamps' })
    expect(parsed.status).toBe('ERROR')
    expect(parsed.error).toBe('No stamps')
  })

  test('unknown status strings are kept, not fatal; the canonical schema allows only known ones', () => {
    const parsed = registryScoreResponseSchema.parse({ ...doneRecord, status: 'QUEUED' })
    expect(parsed.status).toBe('QUEUED')
    expect(isKnownRegistryScoreStatus(parsed.status)).toBe(false)
    expect(isKnownRegistryScoreStatus('BULK_PROCESSING')).toBe(true)
    expect(registryScoreSchema.safeParse({ ...doneRecord, status: 'QUEUED' }).success).toBe(false)
  })

  test('stamp_scores numbers become strings; a null map is dropped', () => {
    expect(registryScoreResponseSchema.parse({ ...doneRecord, stamp_scores: { Github: 10 } }).stamp_scores).toEqual({
      Github: '10',
    })
    expect('stamp_scores' in registryScoreResponseSchema.parse({ ...doneRecord, stamp_scores: null })).toBe(false)
  })

  test('malformed records fail', () => {
    const { status: _status, ...noStatus } = doneRecord
    expect(registryScoreResponseSchema.safeParse(noStatus).error?.issues[0]?.path).toEqual(['status'])
    const { address: _address, ...noAddress } = doneRecord
    expect(registryScoreResponseSchema.safeParse(noAddress).success).toBe(false)
    expect(registryScoreResponseSchema.safeParse({ ...doneRecord, status: 3 }).success).toBe(false)
    expect(registryScoreResponseSchema.safeParse({ ...doneRecord, score: 'high' }).success).toBe(false)
    expect(
      registryScoreResponseSchema.safeParse({ ...doneRecord, evidence: { ...doneRecord.evidence, type: 'Other' } }).success,
    ).toBe(false)
    expect(
      registryScoreResponseSchema.safeParse({ ...doneRecord, evidence: { type: 'ThresholdScoreCheck', rawScore: '1', threshold: '2' } })
        .success,
    ).toBe(false)
  })

  test('the canonical record demands 9-decimal scores', () => {
    expect(registryScoreSchema.safeParse({ ...doneRecord, score: '1' }).success).toBe(false)
    expect(registryScoreSchema.safeParse({ ...doneRecord, score: null, status: 'PROCESSING' }).success).toBe(true)
  })

  test('C3 { items } and a bare record both normalize to { items }', () => {
    expect(registryScoreItemsResponseSchema.parse({ items: [doneRecord] })).toEqual({ items: [doneRecord] })
    expect(registryScoreItemsResponseSchema.parse(doneRecord)).toEqual({ items: [doneRecord] })
    expect(registryScoreItemsResponseSchema.safeParse({ items: [{ address }] }).error?.issues[0]?.path).toEqual([
      'items',
      0,
      'status',
    ])
    expect(registryScoreItemsResponseSchema.safeParse('DONE').success).toBe(false)
  })

  test('C4 page: { items, count }', () => {
    const page = { items: [doneRecord], count: 1 }
    expect(registryScorePageSchema.parse(page)).toEqual(page)
    expect(registryScorePageResponseSchema.parse({ items: [{ ...doneRecord, status: 'NEW' }], count: 1 }).items[0]?.status).toBe(
      'NEW',
    )
    expect(registryScorePageResponseSchema.safeParse({ items: [doneRecord] }).success).toBe(false)
    expect(registryScorePageResponseSchema.safeParse({ items: [doneRecord], count: '1' }).success).toBe(false)
  })
})

describe('C1, C7', () => {
  test('signing message', () => {
    const body = { message: `I hereby agree to submit my address. Nonce: ${'a'.repeat(60)}`, nonce: 'a'.repeat(60) }
    expect(signingMessageSchema.parse(body)).toEqual(body)
    expect(signingMessageSchema.safeParse({ message: 'x' }).success).toBe(false)
  })

  test('stake record; numeric amounts and round ids become strings', () => {
    const body = {
      users: [
        {
          stakes: [{ stake: '1000000000000000000', round: { id: '1' } }],
          xstakeAggregates: [{ total: 5, round: { id: 2 } }],
        },
      ],
    }
    expect(registryStakeRecordSchema.parse(body)).toEqual({
      users: [
        {
          stakes: [{ stake: '1000000000000000000', round: { id: '1' } }],
          xstakeAggregates: [{ total: '5', round: { id: '2' } }],
        },
      ],
    })
    expect(registryStakeRecordSchema.safeParse({ users: [{ stakes: [] }] }).success).toBe(false)
  })
})

describe('requests (server side)', () => {
  test('C2 body: scorer_id string or number becomes a string; empty signature/nonce are absent', () => {
    expect(submitPassportBodySchema.parse({ address, scorer_id: 42 })).toStrictEqual({ address, scorer_id: '42' })
    expect(submitPassportBodySchema.parse({ address, scorer_id: '42', signature: '', nonce: '' })).toStrictEqual({
      address,
      scorer_id: '42',
    })
    expect(submitPassportBodySchema.parse({ address, scorer_id: '42', signature: '0xsig', nonce: 'abc' })).toStrictEqual({
      address,
      scorer_id: '42',
      signature: '0xsig',
      nonce: 'abc',
    })
  })

  test('C2 body: address and scorer_id are required and checked', () => {
    expect(submitPassportBodySchema.safeParse({ scorer_id: '42' }).success).toBe(false)
    expect(submitPassportBodySchema.safeParse({ address }).success).toBe(false)
    expect(submitPassportBodySchema.safeParse({ address, scorer_id: '' }).success).toBe(false)
    expect(submitPassportBodySchema.safeParse({ address: '0x1234', scorer_id: '42' }).error?.issues[0]?.path).toEqual([
      'address',
    ])
  })

  test('C4 query: both spellings of the filters merge; numbers are parsed', () => {
    expect(registryScoreListQuerySchema.parse({ limit: '10', offset: '20', last_score_timestamp__gt: '2024-01-01' })).toEqual({
      limit: 10,
      offset: 20,
      last_score_timestamp_gt: new Date('2024-01-01T00:00:00.000Z'),
    })
    expect(registryScoreListQuerySchema.parse({ last_score_timestamp_gte: '2024-01-01T10:00:00.000Z' })).toEqual({
      last_score_timestamp_gte: new Date('2024-01-01T10:00:00.000Z'),
    })
    expect(registryScoreListQuerySchema.parse({})).toEqual({})
  })

  test('C4 query: conflicting spellings, bad dates and bad numbers fail', () => {
    expect(
      registryScoreListQuerySchema.safeParse({ last_score_timestamp_gt: '2024-01-01', last_score_timestamp__gt: '2024-01-02' })
        .error?.issues[0]?.message,
    ).toBe('Conflicting values for last_score_timestamp_gt and last_score_timestamp__gt')
    expect(
      registryScoreListQuerySchema.safeParse({ last_score_timestamp_gt: '2024-01-01', last_score_timestamp__gt: '2024-01-01' })
        .success,
    ).toBe(true)
    expect(registryScoreListQuerySchema.safeParse({ last_score_timestamp__gte: 'yesterday' }).success).toBe(false)
    expect(registryScoreListQuerySchema.safeParse({ limit: '0' }).success).toBe(false)
    expect(registryScoreListQuerySchema.safeParse({ offset: '-1' }).success).toBe(false)
  })
})
