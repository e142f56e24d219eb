import { describe, expect, it } from 'vitest'
import { judgeOnchainPassport, passportDecoderScore, readPassportDecoderAnswer } from './passport-onchain.js'

const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}`

describe('reading the Passport decoder', () => {
  it('takes 4 decimals to the v2 decimal', () => {
    expect(passportDecoderScore(234567n)).toBe('23.45670')
    expect(passportDecoderScore(0n)).toBe('0.00000')
    expect(passportDecoderScore(2n ** 32n - 1n)).toBe('429496.72950')
  })

  it('reads a score, AttestationNotFound as none and AttestationExpired as expired', () => {
    expect(readPassportDecoderAnswer({ success: true, data: word(200000n) })).toEqual({ kind: 'scored', score: '20.00000' })
    expect(readPassportDecoderAnswer({ success: false, data: '0x120a2e77' })).toEqual({ kind: 'none' })
    expect(readPassportDecoderAnswer({ success: false, data: `0x06c09405${word(1_700_000_000n).slice(2)}` })).toEqual({ kind: 'expired', expiredAt: 1_700_000_000 })
  })

  it('throws on anything else: never a silent none', () => {
    expect(() => readPassportDecoderAnswer({ success: false, data: '0x' })).toThrowErrorMatchingInlineSnapshot(
      `[Error: the Passport decoder's getScore reverted with no reason (out of gas, or no decoder at that block)]`,
    )
    expect(() => readPassportDecoderAnswer({ success: false, data: '0x08c379a0' })).toThrowErrorMatchingInlineSnapshot(`[Error: the Passport decoder's getScore reverted with 0x08c379a0]`)
    expect(() => readPassportDecoderAnswer({ success: true, data: '0x' })).toThrowErrorMatchingInlineSnapshot(`[Error: the Passport decoder's getScore returned 0 bytes, not one uint256]`)
    expect(() => readPassportDecoderAnswer({ success: false, data: '0x120a2e7700' })).toThrow(/reverted with 0x120a2e7700/)
  })
})

describe('judging an on-chain Passport', () => {
  it('meets the threshold exactly; none is never-scored; expired is expired', () => {
    expect(judgeOnchainPassport({ kind: 'scored', score: '20.00000' }, 100)).toMatchObject({ valid: true, reason: 'valid' })
    expect(judgeOnchainPassport({ kind: 'scored', score: '19.99990' }, 100)).toMatchObject({ valid: false, reason: 'below-threshold' })
    expect(judgeOnchainPassport({ kind: 'scored', score: '19.99990' }, 100, 15)).toMatchObject({ valid: true })
    expect(judgeOnchainPassport({ kind: 'none' }, 100)).toEqual({
      valid: false,
      reason: 'never-scored',
      evidence: { origin: 'onchain', score: null, threshold: '20', expirationTimestamp: null, at: 100 },
    })
    expect(judgeOnchainPassport({ kind: 'expired', expiredAt: 90 }, 100)).toMatchObject({ valid: false, reason: 'expired', evidence: { expirationTimestamp: 90 } })
  })
})
