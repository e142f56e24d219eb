import { describe, expect, test } from 'vitest'
import {
  accessTokenSchema,
  cachedStampQuerySchema,
  cachedStampSchema,
  cacheStampPayloadListSchema,
  calcScorePayloadSchema,
  deleteStampPayloadListSchema,
  errorMessageSchema,
  internalScoreQuerySchema,
  internalScoreSchema,
  maxBulkStamps,
  saveStatusPayloadListSchema,
  saveStatusResponseSchema,
  saveStatusSchema,
  scorerWeightsSchema,
  signInSubmitSchema,
  stakeResponseSchema,
  stampsResponseSchema,
  stampsWithScoreResponseSchema,
  tosAcceptedSchema,
  tosSignedSchema,
  tosToSignSchema,
  type InternalScoreInput,
  type SiweMessageInput,
} from './stamp-cache.js'

const address = '0x52908400098527886e0f7030069857d2e4169ee7'
const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7'

const cachedStamp = { id: 7, address, provider: 'Google', stamp: { type: ['VerifiableCredential'], proof: {} } }

const internalScore = {
  address,
  score: '22.51600',
  passing_score: true,
  last_score_timestamp: '2024-10-25T19:16:14.023Z',
  expiration_timestamp: null,
  threshold: 20,
  error: null,
  stamps: { Google: { score: '0.52500', dedup: false, expiration_date: null, source_wallet: address } },
} satisfies InternalScoreInput

describe('cache stamps and scores', () => {
  test('CachedStamp requires every field, stamp being any JSON value', () => {
    expect(cachedStampSchema.parse(cachedStamp)).toEqual(cachedStamp)
    expect(cachedStampSchema.parse({ ...cachedStamp, stamp: null }).stamp).toBeNull()
    const { stamp: _stamp, ...noStamp } = cachedStamp
    expect(cachedStampSchema.safeParse(noStamp).success).toBe(false)
    expect(cachedStampSchema.safeParse({ ...cachedStamp, id: '7' }).success).toBe(false)
  })

  test('InternalScore keeps number or string score/threshold as sent', () => {
    expect(internalScoreSchema.parse(internalScore)).toEqual(internalScore)
    expect(internalScoreSchema.parse({ ...internalScore, score: 22.5, threshold: '20.00000' })).toMatchObject({
      score: 22.5,
      threshold: '20.00000',
    })
    expect(internalScoreSchema.parse({ ...internalScore, score: null, stamps: null })).toMatchObject({ score: null, stamps: null })
  })

  test('InternalScore optional points data and linked score', () => {
    const points = { total_points: 10, is_eligible: true, multiplier: 2, breakdown: { PMT: 5 } }
    const linked = {
      address,
      score: '1',
      passing_score: false,
      last_score_timestamp: null,
      expiration_timestamp: null,
      threshold: '20',
      stamps: {},
      wallet_stamps: { [address]: { Google: { score: '1', dedup: false, expiration_date: null } } },
    }
    const parsed = internalScoreSchema.parse({ ...internalScore, points_data: points, possible_points_data: null, linked_score: linked })
    expect(parsed.points_data).toEqual(points)
    expect(parsed.linked_score).toEqual(linked)
    expect(internalScoreSchema.safeParse({ ...internalScore, points_data: { ...points, multiplier: 1.5 } }).success).toBe(false)
  })

  test('InternalScore fails on a missing required field', () => {
    const { error: _error, ...noError } = internalScore
    expect(internalScoreSchema.safeParse(noError).success).toBe(false)
    const { passing_score: _passing, ...noPassing } = internalScore
    expect(internalScoreSchema.safeParse(noPassing).success).toBe(false)
  })

  test('StampsResponse and StampsWithScoreResponse', () => {
    expect(stampsResponseSchema.parse({ success: true, stamps: [cachedStamp] })).toEqual({ success: true, stamps: [cachedStamp] })
    expect(stampsWithScoreResponseSchema.parse({ success: true, stamps: [cachedStamp], score: internalScore }).score.address).toBe(
      address,
    )
    expect(stampsWithScoreResponseSchema.safeParse({ success: true, stamps: [cachedStamp] }).success).toBe(false)
  })
})

describe('cache request bodies', () => {
  test('bulk stamp payloads: provider required, at most 100', () => {
    expect(cacheStampPayloadListSchema.parse([{ provider: 'Google', stamp: { a: 1 } }, { provider: 'Github', address: null }])).toEqual([
      { provider: 'Google', stamp: { a: 1 } },
      { provider: 'Github', address: null },
    ])
    expect(cacheStampPayloadListSchema.safeParse([{ stamp: {} }]).success).toBe(false)
    expect(cacheStampPayloadListSchema.safeParse(Array(maxBulkStamps).fill({ provider: 'Google' })).success).toBe(true)
    expect(cacheStampPayloadListSchema.safeParse(Array(maxBulkStamps + 1).fill({ provider: 'Google' })).success).toBe(false)
    expect(deleteStampPayloadListSchema.parse([{ provider: 'Google' }])).toEqual([{ provider: 'Google' }])
    expect(deleteStampPayloadListSchema.safeParse({ provider: 'Google' }).success).toBe(false)
  })

  test('save status payloads and response', () => {
    expect(saveStatusSchema.options).toEqual(['pending', 'saved', 'failed'])
    expect(saveStatusPayloadListSchema.parse([{ id: 1, store_save_status: 'saved', store_stream_id: null }])).toEqual([
      { id: 1, store_save_status: 'saved', store_stream_id: null },
    ])
    expect(saveStatusPayloadListSchema.safeParse([{ id: 1, store_save_status: 'done' }]).success).toBe(false)
    expect(saveStatusResponseSchema.parse({ updated: [1, 2] })).toEqual({ updated: [1, 2] })
  })

  test('score payload and queries', () => {
    expect(calcScorePayloadSchema.parse({})).toEqual({})
    expect(calcScorePayloadSchema.parse({ alternate_scorer_id: 3 })).toEqual({ alternate_scorer_id: 3 })
    expect(calcScorePayloadSchema.safeParse({ alternate_scorer_id: '3' }).success).toBe(false)
    expect(internalScoreQuerySchema.parse({ alternate_scorer_id: '3' })).toEqual({ alternate_scorer_id: 3 })
    expect(cachedStampQuerySchema.parse({ address: checksummed })).toEqual({ address: checksummed })
    expect(cachedStampQuerySchema.safeParse({}).success).toBe(false)
  })
})

describe('weights, stakes, errors, terms of service', () => {
  test('scorer weights: numbers, or decimal strings read as numbers', () => {
    expect(scorerWeightsSchema.parse({ Google: 0.525, Github: '0.208' })).toEqual({ Google: 0.525, Github: 0.208 })
    expect(scorerWeightsSchema.safeParse({ Google: 'heavy' }).success).toBe(false)
  })

  test('stakes: integer fields sent as digit strings become numbers', () => {
    const stake = {
      chain: '10',
      staker: address,
      stakee: address,
      amount: '1000000000000000000',
      unlock_time: '2025-01-01T00:00:00Z',
      lock_time: '2024-01-01T00:00:00Z',
      last_updated_in_block: 123456,
    }
    expect(stakeResponseSchema.parse({ items: [stake] }).items[0]).toEqual({ ...stake, chain: 10 })
    const { lock_time: _lockTime, ...noLockTime } = stake
    expect(stakeResponseSchema.safeParse({ items: [noLockTime] }).success).toBe(false)
  })

  test('ErrorMessage and terms of service', () => {
    expect(errorMessageSchema.parse({ detail: 'Invalid nonce' })).toEqual({ detail: 'Invalid nonce' })
    expect(errorMessageSchema.safeParse({ error: 'x' }).success).toBe(false)
    expect(tosAcceptedSchema.parse({ accepted: false })).toEqual({ accepted: false })
    expect(tosAcceptedSchema.safeParse({ accepted: 'no' }).success).toBe(false)
    expect(tosToSignSchema.parse({ text: 'I agree. Nonce: abc', nonce: 'abc' })).toEqual({ text: 'I agree. Nonce: abc', nonce: 'abc' })
    expect(tosSignedSchema.parse({ tos_type: 'IST', nonce: 'abc', signature: '0x12' })).toEqual({
      tos_type: 'IST',
      nonce: 'abc',
      signature: '0x12',
    })
    expect(tosSignedSchema.safeParse({ tos_type: 'IST', nonce: 'abc' }).success).toBe(false)
  })
})

describe('sign-in (D13)', () => {
  const message = {
    domain: 'app.passport.xyz',
    address: checksummed,
    statement: 'Sign in to the stamp cache.',
    uri: 'https://app.passport.xyz',
    version: '1',
    chainId: 1,
    nonce: 'a1b2c3d4e5f6',
    issuedAt: '2024-10-25T19:16:14.023Z',
    expirationTime: '2024-10-25T19:21:14.023Z',
    resources: ['https://app.passport.xyz/terms'],
  } satisfies SiweMessageInput

  test('a SIWE message object and a signature parse', () => {
    const body = { message, signature: `0x${'ab'.repeat(65)}` }
    expect(signInSubmitSchema.parse(body)).toEqual(body)
    const { statement: _statement, expirationTime: _expirationTime, resources: _resources, ...minimal } = message
    expect(signInSubmitSchema.parse({ message: { ...minimal, chainId: '1' }, signature: `0x${'cd'.repeat(65)}` }).message.chainId).toBe(1)
  })

  test('a malformed message or signature fails', () => {
    const fails = (patch: Record<string, unknown>) =>
      signInSubmitSchema.safeParse({ message: { ...message, ...patch }, signature: '0x12' }).success === false
    expect(fails({ address: '0x52908400098527886e0F7030069857D2E4169EE7' })).toBe(true)
    expect(fails({ version: '2' })).toBe(true)
    expect(fails({ nonce: 'short' })).toBe(true)
    expect(fails({ chainId: 0 })).toBe(true)
    expect(fails({ issuedAt: 'now' })).toBe(true)
    expect(fails({ domain: undefined })).toBe(true)
    expect(signInSubmitSchema.safeParse({ message, signature: 'not hex' }).success).toBe(false)
    expect(signInSubmitSchema.safeParse({ message, signature: '0x' }).success).toBe(false)
    expect(signInSubmitSchema.safeParse({ message: 'app.passport.xyz wants you to sign in', signature: '0x12' }).success).toBe(false)
  })

  test('AccessToken', () => {
    expect(accessTokenSchema.parse({ access: 'eyJ.x.y' })).toEqual({ access: 'eyJ.x.y' })
    expect(accessTokenSchema.parse({ access: 'eyJ.x.y', support_user_hash: null })).toEqual({ access: 'eyJ.x.y', support_user_hash: null })
    expect(accessTokenSchema.safeParse({ token: 'eyJ.x.y' }).success).toBe(false)
  })
})
