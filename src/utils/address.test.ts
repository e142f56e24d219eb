import { describe, expect, test } from 'vitest'
import { InvalidAddressError } from '../errors/index.js'
import { checksumAddress, isAddressInAnyCase, isValidAddress, normalizeAddress } from './address.js'

const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('address handling', () => {
  test.each([
    [checksummed, true],
    [checksummed.toLowerCase(), true],
    ['0x' + checksummed.slice(2).toUpperCase(), true],
    ['0x52908400098527886e0F7030069857D2E4169EE7', false], // one letter's case flipped
    ['0x52908400098527886E0F7030069857D2E4169EE', false], // 39 hex
    ['52908400098527886E0F7030069857D2E4169EE7', false], // no 0x
    ['0x52908400098527886E0F7030069857D2E4169EEG', false],
    ['', false],
    [undefined, false],
    [42, false],
  ])('isValidAddress(%s) is %s', (value, expected) => {
    expect(isValidAddress(value)).toBe(expected)
  })

  test('isAddressInAnyCase takes the shape in any letter case and does not read the checksum', () => {
    expect(isAddressInAnyCase('0x52908400098527886e0F7030069857D2E4169EE7')).toBe(true) // a flipped letter: still an address in some case
    for (const valid of [checksummed, checksummed.toLowerCase()]) expect(isAddressInAnyCase(valid)).toBe(true)
    for (const value of ['0x52908400098527886E0F7030069857D2E4169EE', '52908400098527886E0F7030069857D2E4169EE7', 'alice.near', `0x${'a'.repeat(64)}`, undefined]) {
      expect(isAddressInAnyCase(value)).toBe(false)
    }
  })

  test('normalizeAddress lower-cases a valid address', () => {
    expect(normalizeAddress(checksummed)).toBe(checksummed.toLowerCase())
  })

  test('checksumAddress returns the EIP-55 form', () => {
    expect(checksumAddress(checksummed.toLowerCase())).toBe(checksummed)
  })

  test('a bad checksum is an InvalidAddressError that says why', () => {
    expect(() => normalizeAddress('0x52908400098527886e0F7030069857D2E4169EE7')).toThrowErrorMatchingInlineSnapshot(`
      [InvalidAddressError: Address "0x52908400098527886e0F7030069857D2E4169EE7" is invalid.

      Details: The address has mixed case that is not a valid EIP-55 checksum.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-address
      Version: personhood@0.1.0]
    `)
  })

  test('a non-string is an InvalidAddressError with code INVALID_ADDRESS', () => {
    const error = (() => {
      try {
        normalizeAddress(null)
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(InvalidAddressError)
    expect((error as InvalidAddressError).code).toBe('INVALID_ADDRESS')
    expect((error as InvalidAddressError).details).toBe('The address must be a string, got null.')
  })
})
