import { describe, expect, test } from 'vitest'
import {
  defaultModelName,
  modelNames,
  modelNameSchema,
  modelScoreQuerySchema,
  modelScoreResponseSchema,
  modelScoreSchema,
} from './model.js'

const address = '0x52908400098527886e0f7030069857d2e4169ee7'

describe('model score (B1)', () => {
  test('lists the 8 models of the spec', () => {
    expect(modelNames).toEqual(['aggregate', 'ethereum_activity', 'nft', 'arbitrum', 'base', 'optimism', 'polygon', 'zksync'])
    expect(defaultModelName).toBe('aggregate')
    expect(modelNameSchema.safeParse('solana').success).toBe(false)
  })

  test('parses the spec shape, including -1 (insufficient data)', () => {
    const body = { address, details: { models: { aggregate: { score: 85 }, nft: { score: -1 } } } }
    expect(modelScoreSchema.parse(body)).toEqual(body)
    expect(modelScoreResponseSchema.parse(body)).toEqual(body)
  })

  test('the response schema reads numeric strings and keeps unknown model names', () => {
    expect(modelScoreResponseSchema.parse({ address, details: { models: { aggregate: { score: '42.5' }, future: { score: 1 } } } })).toEqual({
      address,
      details: { models: { aggregate: { score: 42.5 }, future: { score: 1 } } },
    })
  })

  test('malformed bodies fail; the canonical schema enforces the range', () => {
    expect(modelScoreResponseSchema.safeParse({ address }).success).toBe(false)
    expect(modelScoreResponseSchema.safeParse({ address, details: { models: { aggregate: { score: 'high' } } } }).success).toBe(false)
    expect(modelScoreResponseSchema.safeParse({ address, details: { models: { aggregate: {} } } }).success).toBe(false)
    expect(modelScoreSchema.safeParse({ address, details: { models: { aggregate: { score: 101 } } } }).success).toBe(false)
    expect(modelScoreSchema.safeParse({ address, details: { models: { aggregate: { score: -2 } } } }).success).toBe(false)
  })

  test('the query defaults the model to aggregate and rejects unknown ones', () => {
    expect(modelScoreQuerySchema.parse({})).toEqual({ model: 'aggregate' })
    expect(modelScoreQuerySchema.parse({ model: 'zksync' })).toEqual({ model: 'zksync' })
    expect(modelScoreQuerySchema.safeParse({ model: 'everything' }).success).toBe(false)
  })
})
