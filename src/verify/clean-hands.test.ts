import { describe, expect, it } from 'vitest'
import { InvalidAddressError, InvalidParameterError } from '../errors/index.js'
import {
  checkCleanHandsAttestation,
  createCleanHandsRowCheck,
  hasValidCleanHandsAttestation,
  isValidCleanHandsAttestation,
  parseValidUntil,
  toUnixSeconds,
  type CleanHandsRow,
} from './clean-hands.js'

const now = 1_750_000_000
const row: CleanHandsRow = {
  fullSchemaId: 'onchain_evm_10_0x8',
  attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd',
  isReceiver: true,
  revoked: false,
  validUntil: now + 1,
  attestationId: '0x1a3',
}

describe('isValidCleanHandsAttestation (rule 6 of interface E)', () => {
  it('accepts a row that passes every check', () => {
    expect(isValidCleanHandsAttestation(row, { now })).toBe(true)
    expect(checkCleanHandsAttestation(row, { now })).toBe('valid')
  })

  it.each([
    ['validUntil equal to now', { validUntil: now }, 'expired'],
    ['validUntil before now', { validUntil: now - 1 }, 'expired'],
    ['validUntil "0"', { validUntil: '0' }, 'expired'],
    ['validUntil that is not a number', { validUntil: 'tomorrow' }, 'expired'],
    ['validUntil ""', { validUntil: '' }, 'expired'],
    ['validUntil with a fraction', { validUntil: now + 0.5 }, 'expired'],
    ['validUntil in exponent notation', { validUntil: '2e9' }, 'expired'],
    ['a negative validUntil string', { validUntil: '-1' }, 'expired'],
    ['schema onchain_evm_10_0x80', { fullSchemaId: 'onchain_evm_10_0x80' }, 'wrong-schema'],
    ['schema in other case', { fullSchemaId: 'ONCHAIN_EVM_10_0X8' }, 'wrong-schema'],
    ['another attester', { attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fe' }, 'wrong-attester'],
    ['isReceiver false', { isReceiver: false }, 'wrong-recipient'],
    ['isReceiver "true" (a string)', { isReceiver: 'true' as unknown as boolean }, 'wrong-recipient'],
    ['revoked', { revoked: true }, 'revoked'],
    ['revoked missing', { revoked: undefined as unknown as boolean }, 'revoked'],
  ] as const)('rejects %s', (_name, change, reason) => {
    const changed = { ...row, ...change } as CleanHandsRow
    expect(checkCleanHandsAttestation(changed, { now })).toBe(reason)
    expect(isValidCleanHandsAttestation(changed, { now })).toBe(false)
  })

  it.each([
    ['a numeric string', { validUntil: String(now + 1) }],
    ['a bigint', { validUntil: BigInt(now + 1) }],
    ['a number above 2^53 (precision does not matter that far from now)', { validUntil: 2 ** 64 }],
    ['the attester in lower case', { attester: '0xb1f50c6c34c72346b1229e5c80587d0d659556fd' }],
    ['the attester in upper case', { attester: '0xB1F50C6C34C72346B1229E5C80587D0D659556FD' }],
    ['a numeric string with leading zeros', { validUntil: `000${now + 1}` }],
  ] as const)('accepts %s', (_name, change) => {
    expect(isValidCleanHandsAttestation({ ...row, ...change }, { now })).toBe(true)
  })

  it('takes now as a Date, Unix seconds or a bigint, rounding a Date down to whole seconds', () => {
    const at = new Date(now * 1000 + 999)
    expect(isValidCleanHandsAttestation({ ...row, validUntil: now }, { now: at })).toBe(false)
    expect(isValidCleanHandsAttestation({ ...row, validUntil: now + 1 }, { now: at })).toBe(true)
    expect(isValidCleanHandsAttestation({ ...row, validUntil: now + 1 }, { now: BigInt(now) })).toBe(true)
    expect(isValidCleanHandsAttestation({ ...row, validUntil: now + 1 }, { now: now + 0.9 })).toBe(true)
    expect(isValidCleanHandsAttestation({ ...row, validUntil: now + 1 }, { now: now + 1 })).toBe(false)
  })

  it('checks the schema first, then the attester, the receiver, revocation and time', () => {
    const everythingWrong = { fullSchemaId: 'x', attester: 'y', isReceiver: false, revoked: true, validUntil: 0 }
    expect(checkCleanHandsAttestation(everythingWrong, { now })).toBe('wrong-schema')
    expect(checkCleanHandsAttestation({ ...everythingWrong, fullSchemaId: row.fullSchemaId }, { now })).toBe('wrong-attester')
    expect(checkCleanHandsAttestation({ ...everythingWrong, fullSchemaId: row.fullSchemaId, attester: row.attester }, { now })).toBe('wrong-recipient')
  })

  it('takes another attester and schema when given', () => {
    const other = { ...row, attester: '0x0000000000000000000000000000000000000001', fullSchemaId: 'onchain_evm_31337_0x1' }
    expect(isValidCleanHandsAttestation(other, { now })).toBe(false)
    expect(isValidCleanHandsAttestation(other, { now, attester: '0x0000000000000000000000000000000000000001', schemaId: 'onchain_evm_31337_0x1' })).toBe(true)
  })

  it('throws on an invalid now, attester or schema id instead of answering false', () => {
    expect(() => isValidCleanHandsAttestation(row, { now: Number.NaN })).toThrow(InvalidParameterError)
    expect(() => isValidCleanHandsAttestation(row, { now: new Date('nope') })).toThrow(InvalidParameterError)
    expect(() => isValidCleanHandsAttestation(row, { now, attester: '0x123' })).toThrow(InvalidAddressError)
    expect(() => isValidCleanHandsAttestation(row, { now, schemaId: '' })).toThrow(InvalidParameterError)
  })
})

describe('hasValidCleanHandsAttestation', () => {
  it('is true when at least one row is valid', () => {
    expect(hasValidCleanHandsAttestation([], { now })).toBe(false)
    expect(hasValidCleanHandsAttestation([{ ...row, revoked: true }, { ...row, validUntil: '0' }], { now })).toBe(false)
    expect(hasValidCleanHandsAttestation([{ ...row, revoked: true }, row], { now })).toBe(true)
  })
})

describe('the on-chain verifier\'s pre-filter (createCleanHandsRowCheck)', () => {
  const revoked = { ...row, revoked: true }

  it('is rule 6 exactly by default, revocation included', () => {
    expect(createCleanHandsRowCheck({ now })(revoked)).toBe('revoked')
    expect(createCleanHandsRowCheck({ now, revocation: 'index' })(revoked)).toBe('revoked')
    expect(isValidCleanHandsAttestation(revoked, { now })).toBe(false)
  })

  it('leaves revocation to the chain with revocation: onchain, and keeps every other check', () => {
    const check = createCleanHandsRowCheck({ now, revocation: 'onchain' })
    expect(check(revoked)).toBe('valid')
    expect(check({ ...revoked, revoked: 'yes' as unknown as boolean })).toBe('valid')
    expect(check({ ...revoked, fullSchemaId: 'onchain_evm_10_0x80' })).toBe('wrong-schema')
    expect(check({ ...revoked, attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fe' })).toBe('wrong-attester')
    expect(check({ ...revoked, isReceiver: false })).toBe('wrong-recipient')
    expect(check({ ...revoked, validUntil: now })).toBe('expired')
    expect(check({ ...revoked, validUntil: '0' })).toBe('expired')
  })
})

describe('parseValidUntil and toUnixSeconds', () => {
  it('reads whole seconds only', () => {
    expect(parseValidUntil('0')).toBe(0n)
    expect(parseValidUntil('18446744073709551615')).toBe(2n ** 64n - 1n)
    expect(parseValidUntil(12)).toBe(12n)
    expect(parseValidUntil(12.5)).toBeUndefined()
    expect(parseValidUntil(Number.POSITIVE_INFINITY)).toBeUndefined()
    expect(parseValidUntil(' 12')).toBeUndefined()
    expect(parseValidUntil('0x10')).toBeUndefined()
    expect(parseValidUntil(null)).toBeUndefined()
  })

  it('converts dates to whole seconds', () => {
    expect(toUnixSeconds(new Date('2025-01-01T00:00:00.900Z'))).toBe(1_735_689_600n)
    expect(toUnixSeconds(1_735_689_600.7)).toBe(1_735_689_600n)
    expect(toUnixSeconds(5n)).toBe(5n)
  })
})
