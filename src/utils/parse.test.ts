import { describe, expect, it } from 'vitest'
import { InvalidAddressError, InvalidParameterError } from '../errors/index.js'
import {
  defaultActionId,
  parseActionId,
  parseAddress,
  parseBlockNumber,
  parseDate,
  parseInteger,
  parsePositiveInteger,
  parsePositiveIntegerId,
  parseTimestamp,
  tryParseActionId,
} from './parse.js'

describe('parseAddress', () => {
  it('returns the EIP-55 form of a lower-case, upper-case or checksummed address', () => {
    const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7'
    expect(parseAddress(checksummed.toLowerCase())).toBe(checksummed)
    expect(parseAddress(`0x${checksummed.slice(2).toUpperCase()}`)).toBe(checksummed)
    expect(parseAddress(checksummed)).toBe(checksummed)
  })

  it('throws a typed error for a bad checksum, a short address or a non-string', () => {
    expect(() => parseAddress('0x52908400098527886e0F7030069857D2E4169EE7')).toThrow(InvalidAddressError)
    expect(() => parseAddress('0x1234')).toThrow(InvalidAddressError)
    expect(() => parseAddress(42)).toThrow(InvalidAddressError)
  })
})

describe('parseActionId: one rule for every caller', () => {
  it.each([
    [123456789n, 123456789n],
    [123456789, 123456789n],
    ['123456789', 123456789n],
    ['0x75bcd15', 123456789n],
    ['0x75BCD15', 123456789n],
    ['0', 0n],
    [`0x${'f'.repeat(64)}`, 2n ** 256n - 1n],
  ])('reads %s', (value, expected) => {
    expect(parseActionId(value)).toBe(expected)
  })

  it('defaults to 123456789', () => {
    expect(parseActionId(undefined)).toBe(123456789n)
    expect(defaultActionId).toBe(123456789n)
  })

  it.each([[-1], [-1n], [1.5], [2 ** 60], [''], [' 1'], ['1e3'], ['0x'], ['-5'], [`0x1${'0'.repeat(64)}`], [(2n ** 256n).toString()], [null], [true]])(
    'refuses %s',
    (value) => {
      expect(tryParseActionId(value)).toBeUndefined()
      expect(() => parseActionId(value)).toThrow(InvalidParameterError)
    },
  )

  it('names the parameter and the value in its message', () => {
    expect(() => parseActionId('abc', 'action-id')).toThrowErrorMatchingInlineSnapshot(`
      [InvalidParameterError: Parameter "action-id" is invalid.

      Details: An action id is a uint256: a bigint, a safe integer, decimal digits or a 0x hex string; got "abc".
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0]
    `)
  })
})

describe('parseBlockNumber', () => {
  it('reads a bigint, a safe integer, decimal digits or latest', () => {
    expect(parseBlockNumber(5n)).toBe(5n)
    expect(parseBlockNumber(5)).toBe(5n)
    expect(parseBlockNumber('130000000')).toBe(130_000_000n)
    expect(parseBlockNumber('latest')).toBe('latest')
    expect(parseBlockNumber(undefined)).toBe('latest')
  })

  it.each([[-1], [-1n], [1.5], ['0x10'], ['pending'], [null]])('refuses %s', (value) => {
    expect(() => parseBlockNumber(value, 'snapshot')).toThrow(/Parameter "snapshot" is invalid/)
  })
})

describe('parseInteger and parsePositiveInteger', () => {
  it('reads safe integers within bounds', () => {
    expect(parseInteger(0, 'offset', { min: 0 })).toBe(0)
    expect(parsePositiveInteger(4, 'concurrency')).toBe(4)
    expect(parseInteger('8787', 'port', { min: 0, max: 65_535, strings: true })).toBe(8787)
  })

  it('reads strings only when asked', () => {
    expect(() => parseInteger('5', 'limit')).toThrow(InvalidParameterError)
  })

  it.each([[0], [-1], [1.5], [Number.NaN], [2 ** 53], ['1'], [null]])('refuses %s as a positive integer', (value) => {
    expect(() => parsePositiveInteger(value, 'batchSize')).toThrow(/Expected a positive integer, got/)
  })

  it('says the range', () => {
    expect(() => parseInteger(70_000, 'port', { min: 0, max: 65_535 })).toThrow('Expected an integer from 0 to 65535, got 70000.')
  })
})

describe('parsePositiveIntegerId', () => {
  it('returns the decimal string of a positive id', () => {
    expect(parsePositiveIntegerId(335, 'scorerId')).toBe('335')
    expect(parsePositiveIntegerId('335', 'scorerId')).toBe('335')
    expect(() => parsePositiveIntegerId('0', 'scorerId')).toThrow(InvalidParameterError)
    expect(() => parsePositiveIntegerId('12a', 'scorerId')).toThrow(InvalidParameterError)
  })
})

describe('parseTimestamp and parseDate: one representation, Unix seconds', () => {
  it('reads ISO strings, Unix seconds and Dates to the same second', () => {
    const seconds = 1_735_689_600
    expect(parseTimestamp('2025-01-01')).toBe(seconds)
    expect(parseTimestamp('2025-01-01T00:00:00.900Z')).toBe(seconds)
    expect(parseTimestamp('2025-01-01T01:00:00+01:00')).toBe(seconds)
    expect(parseTimestamp(seconds)).toBe(seconds)
    expect(parseTimestamp(seconds + 0.9)).toBe(seconds)
    expect(parseTimestamp(BigInt(seconds))).toBe(seconds)
    expect(parseTimestamp(new Date(seconds * 1000 + 999))).toBe(seconds)
    expect(parseDate(seconds).toISOString()).toBe('2025-01-01T00:00:00.000Z')
  })

  it.each([['2023-02-30'], ['yesterday'], [''], [-1], [Number.NaN], [Number.POSITIVE_INFINITY], [new Date('nope')], [null], [1e20]])(
    'refuses %s',
    (value) => {
      expect(() => parseTimestamp(value, 'at')).toThrow(/Parameter "at" is invalid/)
    },
  )
})
