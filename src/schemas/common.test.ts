import { describe, expect, test } from 'vitest'
import {
  addressSchema,
  compareDecimals,
  decimalLikeSchema,
  decimalStringSchema,
  errorBodySchema,
  formatDecimal,
  formatScaledDecimal,
  integerLikeSchema,
  isoTimestampSchema,
  normalizedAddressSchema,
  numberLikeSchema,
  numberOrStringSchema,
  parseDecimal,
  parseIsoTimestamp,
  queryBooleanSchema,
  queryIntegerSchema,
  readErrorMessage,
  sumDecimals,
  toPlainDecimal,
  v1DecimalPlaces,
  v2DecimalPlaces,
  v2DecimalSchema,
  validationErrorBodySchema,
} from './common.js'

describe('formatDecimal', () => {
  test('pads to exactly the requested places (v2: 5, v1: 9)', () => {
    expect(formatDecimal('20', v2DecimalPlaces)).toBe('20.00000')
    expect(formatDecimal('0.733', v2DecimalPlaces)).toBe('0.73300')
    expect(formatDecimal(1, v1DecimalPlaces)).toBe('1.000000000')
    expect(formatDecimal(123n, 2)).toBe('123.00')
    expect(formatDecimal('7', 0)).toBe('7')
  })

  test('rounds half to even', () => {
    expect(formatDecimal('0.000005', 5)).toBe('0.00000')
    expect(formatDecimal('0.000015', 5)).toBe('0.00002')
    expect(formatDecimal('0.000025', 5)).toBe('0.00002')
    expect(formatDecimal('0.0000251', 5)).toBe('0.00003')
    expect(formatDecimal('0.0000149', 5)).toBe('0.00001')
    expect(formatDecimal('2.5', 0)).toBe('2')
    expect(formatDecimal('3.5', 0)).toBe('4')
    expect(formatDecimal('309.5190000000000054014570595', 5)).toBe('309.51900')
  })

  test('rounds negatives symmetrically and never prints a negative zero', () => {
    expect(formatDecimal('-2.5', 0)).toBe('-2')
    expect(formatDecimal('-3.5', 0)).toBe('-4')
    expect(formatDecimal('-0.000015', 5)).toBe('-0.00002')
    expect(formatDecimal('-1', 5)).toBe('-1.00000')
    expect(formatDecimal('-0.000001', 5)).toBe('0.00000')
    expect(formatDecimal(-0, 2)).toBe('0.00')
  })

  test('reads numbers through their shortest form, without float artefacts', () => {
    expect(formatDecimal(0.1 + 0.2, 5)).toBe('0.30000')
    expect(formatDecimal(1e-7, 9)).toBe('0.000000100')
    expect(formatDecimal(2.675, 2)).toBe('2.68') // (2.675).toFixed(2) is '2.67'
    expect(formatDecimal(1e21, 0)).toBe('1000000000000000000000')
  })

  test('reads exponent strings exactly', () => {
    expect(formatDecimal('0E-9', 9)).toBe('0.000000000')
    expect(formatDecimal('1.5e3', 2)).toBe('1500.00')
    expect(formatDecimal('.5', 1)).toBe('0.5')
  })

  test('refuses what is not a decimal', () => {
    for (const bad of ['abc', '', '-', '1.2.3', '0x10', '1e5000', ' 1']) {
      expect(() => formatDecimal(bad, 5), bad).toThrow(RangeError)
    }
    expect(() => formatDecimal(Number.NaN, 5)).toThrow(RangeError)
    expect(() => formatDecimal(Number.POSITIVE_INFINITY, 5)).toThrow(RangeError)
    expect(() => formatDecimal('1', -1)).toThrow(RangeError)
    expect(() => formatDecimal('1', 1.5)).toThrow(RangeError)
  })
})

describe('exact arithmetic', () => {
  test('parseDecimal scales exactly and rounds half to even beyond the scale', () => {
    expect(parseDecimal('0.208', 6)).toBe(208000n)
    expect(parseDecimal('-1.5', 1)).toBe(-15n)
    expect(parseDecimal(20, 5)).toBe(2000000n)
    expect(parseDecimal('0.0000005', 6)).toBe(0n)
    expect(parseDecimal('0.0000015', 6)).toBe(2n)
    expect(() => parseDecimal('x', 6)).toThrow(RangeError)
  })

  test('summing weights in scaled integers formats right where floats do not', () => {
    const weights = ['0.008', '0.000025']
    expect(formatDecimal(Number(weights[0]) + Number(weights[1]), 5)).toBe('0.00803') // float: 0.008025000000000001
    const total = weights.reduce((sum, weight) => sum + parseDecimal(weight, 18), 0n)
    expect(formatScaledDecimal(total, 18, 5)).toBe('0.00802')
    expect(sumDecimals(weights, 5)).toBe('0.00802')
    expect(sumDecimals(['0.009', '0.000015'], 5)).toBe('0.00902')
    expect(sumDecimals(Array(10).fill('0.1'), 5)).toBe('1.00000')
    expect(sumDecimals([], 5)).toBe('0.00000')
  })

  test('formatScaledDecimal defaults places to the scale', () => {
    expect(formatScaledDecimal(208000n, 6)).toBe('0.208000')
    expect(formatScaledDecimal(-15n, 1, 0)).toBe('-2')
  })

  test('compareDecimals compares exactly across forms', () => {
    expect(compareDecimals('20.00000', 20)).toBe(0)
    expect(compareDecimals('19.99999', '20')).toBe(-1)
    expect(compareDecimals('20.000001', '20.00000')).toBe(1)
    expect(compareDecimals('-1', '0E-9')).toBe(-1)
  })

  test('toPlainDecimal removes exponents and keeps every digit', () => {
    expect(toPlainDecimal('0E-9')).toBe('0.000000000')
    expect(toPlainDecimal('20.00000')).toBe('20.00000')
    expect(toPlainDecimal(1e-7)).toBe('0.0000001')
    expect(toPlainDecimal('1.5E+3')).toBe('1500')
    expect(toPlainDecimal('309.5190000000000054014570595')).toBe('309.5190000000000054014570595')
  })
})

describe('decimal and number schemas', () => {
  test('decimalStringSchema and v2DecimalSchema accept only plain decimal strings', () => {
    expect(decimalStringSchema.safeParse('0.208').success).toBe(true)
    expect(decimalStringSchema.safeParse('-3').success).toBe(true)
    expect(decimalStringSchema.safeParse('1e3').success).toBe(false)
    expect(decimalStringSchema.safeParse(1).success).toBe(false)
    expect(v2DecimalSchema.safeParse('20.00000').success).toBe(true)
    expect(v2DecimalSchema.safeParse('20').success).toBe(false)
    expect(v2DecimalSchema.safeParse('20.000000').success).toBe(false)
  })

  test('decimalLikeSchema normalizes numbers and exponent strings to plain decimal strings', () => {
    expect(decimalLikeSchema.parse(20)).toBe('20')
    expect(decimalLikeSchema.parse(22.5)).toBe('22.5')
    expect(decimalLikeSchema.parse('0E-9')).toBe('0.000000000')
    expect(decimalLikeSchema.parse('0.73300')).toBe('0.73300')
    for (const bad of ['abc', null, true, undefined, Number.NaN]) {
      expect(decimalLikeSchema.safeParse(bad).success, String(bad)).toBe(false)
    }
    expect(decimalLikeSchema.safeParse(undefined).error?.issues[0]?.message).toBe(
      'Invalid input: expected decimal string or number, received undefined',
    )
  })

  test('numberLikeSchema, integerLikeSchema and numberOrStringSchema', () => {
    expect(numberLikeSchema.parse('1893456000')).toBe(1893456000)
    expect(numberLikeSchema.parse('-1.5')).toBe(-1.5)
    expect(numberLikeSchema.safeParse('1e999').success).toBe(false)
    expect(numberLikeSchema.safeParse('12abc').success).toBe(false)
    expect(integerLikeSchema.parse('10')).toBe(10)
    expect(integerLikeSchema.safeParse(1.5).success).toBe(false)
    expect(integerLikeSchema.safeParse('1.5').success).toBe(false)
    expect(numberOrStringSchema.parse('0')).toBe('0')
    expect(numberOrStringSchema.safeParse(null).success).toBe(false)
  })

  test('query helpers', () => {
    const limit = queryIntegerSchema({ min: 1, max: 1000 })
    expect(limit.parse('25')).toBe(25)
    expect(limit.safeParse('0').success).toBe(false)
    expect(limit.safeParse('1001').success).toBe(false)
    expect(limit.safeParse('2.5').success).toBe(false)
    expect(queryBooleanSchema.parse('true')).toBe(true)
    expect(queryBooleanSchema.parse('False')).toBe(false)
    expect(queryBooleanSchema.parse('1')).toBe(true)
    expect(queryBooleanSchema.safeParse('yes').success).toBe(false)
  })
})

describe('timestamps', () => {
  test('isoTimestampSchema accepts ISO dates and date-times, keeps the string', () => {
    for (const value of [
      '2024-10-25T19:16:14.023Z',
      '2024-10-25T19:16:14.023456+00:00',
      '2024-10-25T19:16:14Z',
      '2024-10-25',
      '2024-02-29T00:00:00-05:30',
    ]) {
      expect(isoTimestampSchema.parse(value)).toBe(value)
    }
    for (const bad of ['yesterday', '2023-02-29', '2024-13-01T00:00:00Z', '2024-10-25T24:00:00Z', '1729883774']) {
      expect(isoTimestampSchema.safeParse(bad).success, bad).toBe(false)
    }
  })

  test('parseIsoTimestamp applies offsets and throws a plain Error on garbage', () => {
    expect(parseIsoTimestamp('2023-01-01T02:00:00+02:00').toISOString()).toBe('2023-01-01T00:00:00.000Z')
    expect(parseIsoTimestamp('0099-01-01').toISOString()).toBe('0099-01-01T00:00:00.000Z')
    expect(() => parseIsoTimestamp('nope', 'created_at')).toThrowErrorMatchingInlineSnapshot(
      `[Error: Invalid created_at "nope": expected an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS.sssZ).]`,
    )
  })
})

describe('addresses', () => {
  const lower = '0x52908400098527886e0f7030069857d2e4169ee7'
  const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7'

  test('addressSchema accepts lower case and valid checksums, keeps the case', () => {
    expect(addressSchema.parse(lower)).toBe(lower)
    expect(addressSchema.parse(checksummed)).toBe(checksummed)
    expect(normalizedAddressSchema.parse(checksummed)).toBe(lower)
  })

  test('addressSchema rejects bad checksums, wrong lengths and non-strings', () => {
    for (const bad of ['0x52908400098527886e0F7030069857D2E4169EE7', lower.slice(0, 41), `${lower}0`, lower.slice(2), 42]) {
      expect(addressSchema.safeParse(bad).success, String(bad)).toBe(false)
    }
    expect(addressSchema.safeParse('0x1').error?.issues[0]?.message).toMatch(/^Invalid address/)
  })
})

describe('error bodies', () => {
  test('errorBodySchema accepts the three forms and rejects others', () => {
    expect(errorBodySchema.safeParse({ detail: 'Unable to get score for provided scorer.' }).success).toBe(true)
    expect(errorBodySchema.safeParse({ detail: [{ loc: ['query', 'created_at'] }, 'x', 3] }).success).toBe(true)
    expect(errorBodySchema.safeParse({ error: 'Not found' }).success).toBe(true)
    expect(errorBodySchema.safeParse({ error: 'Bad Request', message: 'Invalid address' }).success).toBe(true)
    expect(errorBodySchema.safeParse({ message: 'Forbidden' }).success).toBe(true)
    expect(errorBodySchema.safeParse({ message: 42 }).success).toBe(false)
    expect(errorBodySchema.safeParse({ detail: 42 }).success).toBe(false)
  })

  test('validationErrorBodySchema is the FastAPI list form', () => {
    const body = { detail: [{ type: 'missing', loc: ['query', 'created_at'], msg: 'Field required' }] }
    expect(validationErrorBodySchema.parse(body)).toEqual(body)
    expect(validationErrorBodySchema.safeParse({ detail: [{ loc: ['query'] }] }).success).toBe(false)
  })

  test('readErrorMessage reads a string detail', () => {
    expect(readErrorMessage({ detail: 'Unable to get score for provided scorer.' })).toBe(
      'Unable to get score for provided scorer.',
    )
    expect(readErrorMessage({ address: '0xabc', detail: 'No Score Found for 0xabc at 2023-01-01' })).toBe(
      'No Score Found for 0xabc at 2023-01-01',
    )
  })

  test('readErrorMessage joins list details as loc.path: msg', () => {
    expect(
      readErrorMessage({
        detail: [
          { type: 'missing', loc: ['query', 'created_at'], msg: 'Field required' },
          { type: 'int_parsing', loc: ['body', 'items', 0, 'id'], msg: 'Input should be a valid integer' },
        ],
      }),
    ).toBe('query.created_at: Field required; body.items.0.id: Input should be a valid integer')
  })

  test('readErrorMessage tolerates list items of any shape', () => {
    expect(readErrorMessage({ detail: ['plain text', { msg: 'no loc' }, 42, null, { loc: ['x'] }] })).toBe(
      'plain text; no loc',
    )
    expect(readErrorMessage({ detail: [42, {}] })).toBeUndefined()
    expect(readErrorMessage({ detail: [] })).toBeUndefined()
  })

  test('readErrorMessage reads error and error + message', () => {
    expect(readErrorMessage({ error: 'Invalid API key' })).toBe('Invalid API key')
    expect(readErrorMessage({ error: 'Bad Request', message: 'Invalid address' })).toBe('Bad Request: Invalid address')
    expect(readErrorMessage({ error: 'Invalid address', message: 'Invalid address' })).toBe('Invalid address')
    expect(readErrorMessage({ error: '', message: 'Only the message' })).toBe('Only the message')
    // an API gateway's bare message (e.g. a 403 in front of the service)
    expect(readErrorMessage({ message: 'Forbidden' })).toBe('Forbidden')
  })

  test('readErrorMessage returns undefined for anything else', () => {
    for (const body of [undefined, null, 'Internal Server Error', 42, [], {}, { message: 42 }, { detail: 42 }, { detail: '' }]) {
      expect(readErrorMessage(body), JSON.stringify(body)).toBeUndefined()
    }
  })
})
