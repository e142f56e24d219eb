import type { Address } from 'viem'
import { z } from 'zod'
import { isValidAddress } from '../utils/address.js'
import { tryParseIsoTimestamp } from '../utils/parse.js'
import * as rules from '../rules/decimals.js'

// ---------------------------------------------------------------------------------------------
// Timestamps
// ---------------------------------------------------------------------------------------------

/** Parses an ISO 8601 date or date-time into a Date; undefined when it is not one (or not a real date). */
const tryParseIso = tryParseIsoTimestamp

/**
 * Parses an ISO 8601 date (`YYYY-MM-DD`, midnight UTC) or date-time (`YYYY-MM-DDTHH:MM[:SS[.sss]]`
 * with `Z` or an offset; without one it is read as UTC). Fractions beyond milliseconds are dropped.
 *
 * @throws {Error} when `value` is not such a date or names a day that does not exist.
 * @example
 * import { parseIsoTimestamp } from './common.js'
 * parseIsoTimestamp('2024-10-26').toISOString() // '2024-10-26T00:00:00.000Z'
 */
export function parseIsoTimestamp(value: string, name = 'timestamp'): Date {
  const date = typeof value === 'string' ? tryParseIso(value) : undefined
  if (!date || Number.isNaN(date.getTime())) {
    const shown = typeof value === 'string' ? value.slice(0, 100) : String(value)
    throw new Error(
      `Invalid ${name} "${shown}": expected an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS.sssZ).`,
    )
  }
  return date
}

/** An ISO 8601 timestamp string (date or date-time, `Z` or offset); kept as the string it was. */
export const isoTimestampSchema = z.string().refine((value) => tryParseIso(value) !== undefined, {
  message: 'Expected an ISO 8601 timestamp',
})

/** A query parameter holding an ISO 8601 date or date-time, parsed to a Date (date-only = midnight UTC). */
export const isoTimestampQuerySchema = z.string().transform((value, ctx): Date => {
  const date = tryParseIso(value)
  if (!date) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: 'Expected an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS.sssZ)',
    })
    return z.NEVER
  }
  return date
})

/**
 * An error map for unions of primitives: one readable message instead of "Invalid input" with
 * nested branches, e.g. `Invalid input: expected decimal string or number, received undefined`.
 */
export function expectedError(expected: string) {
  return (issue: { input?: unknown }) => {
    const input = issue.input
    const received =
      input === null
        ? 'null'
        : Array.isArray(input)
          ? 'array'
          : typeof input === 'string'
            ? `string "${input.slice(0, 40)}"`
            : typeof input
    return `Invalid input: expected ${expected}, received ${received}`
  }
}

// ---------------------------------------------------------------------------------------------
// Decimals
// ---------------------------------------------------------------------------------------------

/** Decimal places of v2 (interface A) scores, thresholds and stamp scores: "20.00000". */
export const v2DecimalPlaces: 5 = rules.v2DecimalPlaces
/** Decimal places of v1 (interface C) scores: "1.000000000". */
export const v1DecimalPlaces = 9

// Reading, rounding (half to even) and writing decimals is a rule: it decides a threshold and a
// weighted score, so it is written once in src/rules/decimals.ts (copied into the score-api folders).
const toDecimalParts = rules.readDecimal
const checkPlaces = rules.checkDecimalPlaces
const toUnits = rules.decimalToUnits
const unitsToString = rules.unitsToDecimal

/**
 * Reads a decimal exactly and returns it as an integer count of `10^-scale` (rounded half to even
 * when it has more digits than `scale`). Sum weights with it, then format once with
 * {@link formatScaledDecimal}: no float artefacts.
 *
 * @param value A decimal string ("0.208", "-1.5", "2E-9"), a finite number (read through its
 * shortest round-trip form) or an integer bigint.
 * @throws {RangeError} on anything that is not a decimal, or an exponent beyond +/-1000.
 * @example
 * import { parseDecimal, formatScaledDecimal } from './common.js'
 * const total = parseDecimal('0.1', 18) + parseDecimal('0.2', 18)
 * formatScaledDecimal(total, 18, 5) // '0.30000'
 */
export function parseDecimal(value: number | string | bigint, scale: number): bigint {
  checkPlaces(scale, 'scale')
  return toUnits(toDecimalParts(value), scale)
}

/**
 * Formats a decimal with exactly `places` decimals, rounding half to even (v2 uses 5, v1 uses 9).
 * Computed on the decimal digits, never in floating point. Zero is never signed ("-0.000001" gives
 * "0.00000").
 *
 * @param value A decimal string, a finite number (its shortest round-trip form) or an integer bigint.
 * @throws {RangeError} on anything that is not a decimal, or a bad `places`.
 * @example
 * import { formatDecimal } from './common.js'
 * formatDecimal('20', 5) // '20.00000'
 * formatDecimal('0.000015', 5) // '0.00002'
 * formatDecimal(2.5, 0) // '2'
 */
export function formatDecimal(value: number | string | bigint, places: number): string {
  return rules.formatDecimal(value, places)
}

/**
 * Formats an integer count of `10^-scale` (from {@link parseDecimal}) with exactly `places`
 * decimals, rounding half to even.
 *
 * @throws {RangeError} on a bad `scale` or `places`.
 * @example
 * import { formatScaledDecimal } from './common.js'
 * formatScaledDecimal(208000n, 6, 5) // '0.20800'
 */
export function formatScaledDecimal(units: bigint, scale: number, places: number = scale): string {
  checkPlaces(scale, 'scale')
  checkPlaces(places)
  const parts = { negative: units < 0n, coefficient: units < 0n ? -units : units, exponent: -scale }
  return unitsToString(toUnits(parts, places), places)
}

/**
 * Sums decimals exactly (at the finest precision among them) and formats the total with exactly
 * `places` decimals, rounding half to even once, at the end.
 *
 * @throws {RangeError} when a value is not a decimal.
 * @example
 * import { sumDecimals } from './common.js'
 * sumDecimals(['0.1', '0.2', 0.000005], 5) // '0.30000' (0.300005 rounds to even)
 */
export function sumDecimals(values: readonly (number | string | bigint)[], places: number): string {
  checkPlaces(places)
  const parts = values.map(toDecimalParts)
  const scale = Math.max(places, ...parts.map((part) => -part.exponent))
  const total = parts.reduce((sum, part) => sum + toUnits(part, scale), 0n)
  return formatScaledDecimal(total, scale, places)
}

/**
 * Compares two decimals exactly: -1 when `a < b`, 0 when equal, 1 when `a > b`
 * (`passing_score` is `compareDecimals(score, threshold) >= 0`).
 *
 * @throws {RangeError} when a value is not a decimal.
 * @example
 * import { compareDecimals } from './common.js'
 * compareDecimals('20.00000', 20) // 0
 */
export function compareDecimals(a: number | string | bigint, b: number | string | bigint): -1 | 0 | 1 {
  return rules.compareDecimals(a, b)
}

/**
 * Writes a decimal without exponent and without rounding: "0E-9" gives "0.000000000", 1e-7 gives
 * "0.0000001", "20.00000" stays "20.00000".
 *
 * @throws {RangeError} when the value is not a decimal.
 */
export function toPlainDecimal(value: number | string | bigint): string {
  const parts = toDecimalParts(value)
  const places = Math.max(0, -parts.exponent)
  return unitsToString(toUnits(parts, places), places)
}

/** A decimal string as the spec writes it: optional minus, digits, optional fraction ("0.73300"). */
export const decimalStringSchema = z.string().regex(/^-?\d+(?:\.\d+)?$/, 'Expected a decimal string')

/** A v2 decimal string with exactly 5 decimals ("20.00000"), the form our server emits. */
export const v2DecimalSchema = z.string().regex(/^-?\d+\.\d{5}$/, 'Expected a decimal string with 5 decimals')

/** A v1 decimal string with exactly 9 decimals ("1.000000000"), the form our server emits. */
export const v1DecimalSchema = z.string().regex(/^-?\d+\.\d{9}$/, 'Expected a decimal string with 9 decimals')

/**
 * A decimal sent as a string (plain or with exponent, "0E-9") or as a JSON number; normalized to a
 * plain decimal string with every digit kept (a number becomes its shortest round-trip form).
 */
export const decimalLikeSchema = z
  .union([z.string(), z.number()], { error: expectedError('decimal string or number') })
  .transform((value, ctx): string => {
  try {
    return toPlainDecimal(value)
  } catch {
    ctx.issues.push({ code: 'custom', input: value, message: 'Expected a decimal number or decimal string' })
    return z.NEVER
  }
})

/** A value sent as a number or a string, kept exactly as sent (no coercion). */
export const numberOrStringSchema = z.union([z.number(), z.string()], { error: expectedError('number or string') })

/** A number, or a string holding one ("1893456000", "-1.5"), normalized to a number. */
export const numberLikeSchema = z
  .union([z.number(), z.string().regex(/^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/, 'Expected a numeric string')], {
    error: expectedError('number or numeric string'),
  })
  .transform(Number)
  .pipe(z.number())

/** An integer, or a string of digits, normalized to a (safe) integer number. */
export const integerLikeSchema = z
  .union([z.number(), z.string().regex(/^\s*-?\d+\s*$/, 'Expected an integer string')], {
    error: expectedError('integer or integer string'),
  })
  .transform(Number)
  .pipe(z.number().int())

/**
 * A query-string integer within bounds ("25" or 25 gives 25).
 *
 * @example
 * import { queryIntegerSchema } from './common.js'
 * queryIntegerSchema({ min: 1, max: 1000 }).parse('25') // 25
 */
export function queryIntegerSchema({ min, max }: { min?: number; max?: number } = {}) {
  let target = z.number().int()
  if (min !== undefined) target = target.min(min)
  if (max !== undefined) target = target.max(max)
  return z
    .union([z.number(), z.string().regex(/^-?\d+$/, 'Expected an integer')], { error: expectedError('integer') })
    .transform(Number)
    .pipe(target)
}

/** A query-string boolean: true/false (any case) or 1/0; real booleans pass through. */
export const queryBooleanSchema = z
  .union([z.boolean(), z.string().regex(/^(?:true|false|1|0)$/i, 'Expected true or false')], {
    error: expectedError('true or false'),
  })
  .transform((value) => (typeof value === 'boolean' ? value : value === '1' || value.toLowerCase() === 'true'))

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

/**
 * A request address: `0x` + 40 hex characters; mixed case must be a valid EIP-55 checksum. Kept as
 * given. (Response schemas accept any address string.)
 */
export const addressSchema = z.custom<Address>((value) => isValidAddress(value), {
  message: 'Invalid address: expected 0x followed by 40 hex characters (mixed case must be a valid EIP-55 checksum)',
})

/** {@link addressSchema}, lower-cased: the form the services store and answer with. */
export const normalizedAddressSchema = addressSchema.transform((value) => value.toLowerCase() as Address)

// ---------------------------------------------------------------------------------------------
// Error bodies
// ---------------------------------------------------------------------------------------------

/** One FastAPI / django-ninja validation error: `{ loc: ['query', 'created_at'], msg, type }`. */
export const validationErrorItemSchema = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
})
/** What {@link validationErrorItemSchema} returns. */
export type ValidationErrorItem = z.output<typeof validationErrorItemSchema>

/** A 422 body listing validation errors, as our server emits it: `{ detail: [{ loc, msg, type }] }`. */
export const validationErrorBodySchema = z.object({ detail: z.array(validationErrorItemSchema) })
/** What {@link validationErrorBodySchema} returns. */
export type ValidationErrorBody = z.output<typeof validationErrorBodySchema>

/**
 * Any error body the services send: `{ detail: string }`, `{ detail: [...] }` (items of any shape),
 * `{ error: string }`, `{ error, message }`, or a gateway's bare `{ message }`. Other keys are kept.
 */
export const errorBodySchema = z.union([
  z.looseObject({ detail: z.string() }),
  z.looseObject({ detail: z.array(z.unknown()) }),
  z.looseObject({ error: z.string(), message: z.string().optional() }),
  z.looseObject({ message: z.string() }),
])
/** What {@link errorBodySchema} returns. */
export type ErrorBody = z.output<typeof errorBodySchema>

function readDetailItem(item: unknown): string | undefined {
  if (typeof item === 'string') return item || undefined
  if (!item || typeof item !== 'object') return undefined
  const { loc, msg, message } = item as { loc?: unknown; msg?: unknown; message?: unknown }
  const text = typeof msg === 'string' ? msg : typeof message === 'string' ? message : undefined
  if (!text) return undefined
  const where = Array.isArray(loc)
    ? loc.filter((part) => typeof part === 'string' || typeof part === 'number').join('.')
    : typeof loc === 'string'
      ? loc
      : ''
  return where ? `${where}: ${text}` : text
}

/**
 * Reads a human message from an error body: the `detail` string; list details joined as
 * `loc.path: msg; ...`; `error`, or `error: message`; a bare `message`. Undefined for any other body.
 *
 * @example
 * import { readErrorMessage } from './common.js'
 * readErrorMessage({ detail: [{ loc: ['query', 'created_at'], msg: 'Field required', type: 'missing' }] })
 * // 'query.created_at: Field required'
 */
export function readErrorMessage(body: unknown): string | undefined {
  const parsed = errorBodySchema.safeParse(body)
  if (!parsed.success) return undefined
  const value = parsed.data
  if ('detail' in value) {
    if (typeof value.detail === 'string') {
      if (value.detail) return value.detail
    } else if (Array.isArray(value.detail)) {
      const parts = value.detail.map(readDetailItem).filter((part): part is string => part !== undefined)
      if (parts.length) return parts.join('; ')
    }
  }
  if ('error' in value && typeof value.error === 'string') {
    const message = typeof value.message === 'string' ? value.message : ''
    if (value.error && message && message !== value.error) return `${value.error}: ${message}`
    return value.error || message || undefined
  }
  if ('message' in value && typeof value.message === 'string') return value.message || undefined
  return undefined
}
