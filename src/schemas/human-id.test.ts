import { describe, expect, test } from 'vitest'
import {
  actionIdSchema,
  cleanHandsQuerySchema,
  cleanHandsResultResponseSchema,
  cleanHandsResultSchema,
  defaultActionId,
  humanIdCredentials,
  humanIdCredentialSchema,
  humanIdNetworks,
  humanIdNetworkSchema,
  verificationQuerySchema,
  verificationResultResponseSchema,
  verificationResultSchema,
  votingStrategyQuerySchema,
  votingStrategyResponseSchema,
} from './human-id.js'

const address = '0x52908400098527886e0f7030069857d2e4169ee7'

describe('constants', () => {
  test('credentials and networks', () => {
    expect(humanIdCredentials).toEqual(['gov-id', 'phone', 'biometrics'])
    expect(humanIdNetworks).toEqual(['optimism', 'base-sepolia'])
    expect(humanIdCredentialSchema.safeParse('passport').success).toBe(false)
    expect(humanIdNetworkSchema.safeParse('base').success).toBe(false)
    expect(defaultActionId).toBe(123456789n)
  })
})

describe('verification result (E1-E3)', () => {
  test('true with an expiration date, false without', () => {
    expect(verificationResultSchema.parse({ result: true, expirationDate: 1761402974 })).toEqual({
      result: true,
      expirationDate: 1761402974,
    })
    expect(verificationResultSchema.parse({ result: false })).toEqual({ result: false })
  })

  test('the response schema reads a numeric-string expiration date as a number', () => {
    expect(verificationResultResponseSchema.parse({ result: true, expirationDate: '1761402974' })).toEqual({
      result: true,
      expirationDate: 1761402974,
    })
    expect(verificationResultResponseSchema.parse({ result: false, expirationDate: 1 })).toStrictEqual({ result: false })
  })

  test('true without expiration date, a non-boolean result or a junk date fail', () => {
    expect(verificationResultResponseSchema.safeParse({ result: true }).success).toBe(false)
    expect(verificationResultResponseSchema.safeParse({ result: 'true', expirationDate: 1 }).success).toBe(false)
    expect(verificationResultResponseSchema.safeParse({ result: true, expirationDate: 'next year' }).success).toBe(false)
    expect(verificationResultSchema.safeParse({ result: true, expirationDate: '1761402974' }).success).toBe(false)
  })

  test('the query: user address and action-id (as a bigint)', () => {
    expect(verificationQuerySchema.parse({ user: address, 'action-id': '123456789' })).toEqual({
      user: address,
      actionId: 123456789n,
    })
    expect(verificationQuerySchema.safeParse({ user: address }).success).toBe(false)
    expect(verificationQuerySchema.safeParse({ user: '0x1234', 'action-id': '1' }).success).toBe(false)
    expect(verificationQuerySchema.safeParse({ user: address, 'action-id': 'abc' }).success).toBe(false)
  })

  test('action ids are uint256', () => {
    expect(actionIdSchema.parse((2n ** 256n - 1n).toString())).toBe(2n ** 256n - 1n)
    expect(actionIdSchema.safeParse((2n ** 256n).toString()).success).toBe(false)
    expect(actionIdSchema.safeParse('-1').success).toBe(false)
  })
})

describe('voting strategy (E4-E6)', () => {
  test('scores as integers; numeric strings tolerated', () => {
    const body = { score: [{ address, score: 1 }, { address: '0x0000000000000000000000000000000000000001', score: 0 }] }
    expect(votingStrategyResponseSchema.parse(body)).toEqual(body)
    expect(votingStrategyResponseSchema.parse({ score: [{ address, score: '1' }] })).toEqual({ score: [{ address, score: 1 }] })
  })

  test('decimal scores, missing fields or a wrong wrapper fail', () => {
    expect(votingStrategyResponseSchema.safeParse({ score: [{ address, score: 0.5 }] }).success).toBe(false)
    expect(votingStrategyResponseSchema.safeParse({ score: [{ address }] }).success).toBe(false)
    expect(votingStrategyResponseSchema.safeParse({ scores: [] }).success).toBe(false)
    expect(votingStrategyResponseSchema.safeParse([{ address, score: 1 }]).success).toBe(false)
  })

  test('the query splits addresses without rejecting bad ones', () => {
    expect(
      votingStrategyQuerySchema.parse({ network: '10', snapshot: '123456', addresses: `${address}, bad,`, 'action-id': '123456789' }),
    ).toEqual({ network: 10, snapshot: 123456n, addresses: [address, 'bad'], actionId: 123456789n })
    expect(
      votingStrategyQuerySchema.parse({ network: '10', snapshot: 'latest', addresses: address, 'action-id': '1' }).snapshot,
    ).toBe('latest')
  })

  test('the query needs network, snapshot, addresses and action-id', () => {
    const query = { network: '10', snapshot: '1', addresses: address, 'action-id': '1' }
    for (const key of Object.keys(query)) {
      const { [key as keyof typeof query]: _dropped, ...rest } = query
      expect(votingStrategyQuerySchema.safeParse(rest).success, key).toBe(false)
    }
    expect(votingStrategyQuerySchema.safeParse({ ...query, addresses: ' , ' }).success).toBe(false)
    expect(votingStrategyQuerySchema.safeParse({ ...query, network: 'optimism' }).success).toBe(false)
    expect(votingStrategyQuerySchema.safeParse({ ...query, snapshot: 'earliest' }).success).toBe(false)
  })
})

describe('clean hands (E7)', () => {
  test('isUnique true carries signature and circuitId (number or string, kept as given)', () => {
    const withNumber = { isUnique: true, signature: '0xsig', circuitId: 123 }
    expect(cleanHandsResultSchema.parse(withNumber)).toEqual(withNumber)
    const withString = { isUnique: true, signature: '0xsig', circuitId: '0x1c98fc4f' }
    expect(cleanHandsResultResponseSchema.parse(withString)).toEqual(withString)
    expect(cleanHandsResultResponseSchema.parse({ isUnique: false })).toEqual({ isUnique: false })
  })

  test('isUnique true without signature or circuitId fails', () => {
    expect(cleanHandsResultResponseSchema.safeParse({ isUnique: true, circuitId: 1 }).success).toBe(false)
    expect(cleanHandsResultResponseSchema.safeParse({ isUnique: true, signature: '0x' }).success).toBe(false)
    expect(cleanHandsResultResponseSchema.safeParse({}).success).toBe(false)
  })

  test('the query: a non-EVM address and action-id', () => {
    expect(cleanHandsQuerySchema.parse({ address: 'aleo1xyz', 'action-id': '123456789' })).toEqual({
      address: 'aleo1xyz',
      actionId: 123456789n,
    })
    expect(cleanHandsQuerySchema.safeParse({ address: '', 'action-id': '1' }).success).toBe(false)
  })
})
