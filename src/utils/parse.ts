/**
 * One reading of what callers pass: addresses, action ids, block numbers, integers and timestamps.
 * Clients, the verifier, the reference server and the CLI all read their input through these, so a
 * value means the same thing everywhere and a bad one is the same typed error everywhere.
 */
import { maxUint256, type Address } from 'viem'
import { InvalidParameterError } from '../errors/input.js'
import * as rules from '../rules/sbt.js'
import { checksumAddress } from './address.js'
import { tryParseInteger, type IntegerBounds } from './integer.js'

export { defaultNetwork } from './network.js'
export { tryParseInteger, type IntegerBounds } from './integer.js'

/**
 * The default action id, 123456789: universal (not app-specific) uniqueness. Every default
 * `actionId` of the package is this one.
 *
 * @example
 * import { defaultActionId } from './parse.js'
 * defaultActionId // 123456789n
 */
export const defaultActionId: bigint = rules.defaultActionId

/** A short, safe rendering of a value for an error message. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 80))
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined) return String(value)
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()
  return typeof value
}

/**
 * Reads an address and returns its EIP-55 checksummed form (the form results are keyed by).
 *
 * @throws {InvalidAddressError} when it is not `0x` + 40 hex characters, or its mixed case is not a
 * valid EIP-55 checksum.
 * @example
 * import { parseAddress } from './parse.js'
 * parseAddress('0x52908400098527886e0f7030069857d2e4169ee7') // '0x52908400098527886E0F7030069857D2E4169EE7'
 */
export function parseAddress(value: unknown, parameter = 'address'): Address {
  return checksumAddress(value, parameter)
}

/**
 * Reads an action id (a uint256) without throwing: a bigint, a safe integer, a string of decimal
 * digits or a `0x` hex string. Undefined for anything else or out of range.
 */
export function tryParseActionId(value: unknown): bigint | undefined {
  let parsed: bigint | undefined
  if (typeof value === 'bigint') parsed = value
  else if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value)
  else if (typeof value === 'string' && /^(?:[0-9]{1,78}|0x[0-9a-fA-F]{1,64})$/.test(value)) parsed = BigInt(value)
  return parsed !== undefined && parsed >= 0n && parsed <= maxUint256 ? parsed : undefined
}

/**
 * Reads an action id (a uint256): a bigint, a safe integer, a string of decimal digits or a `0x`
 * hex string. Undefined gives {@link defaultActionId}.
 *
 * @throws {InvalidParameterError} for anything else, a negative value, or more than 256 bits.
 * @example
 * import { parseActionId } from './parse.js'
 * parseActionId('0x75bcd15') // 123456789n
 * parseActionId(undefined) // 123456789n
 */
export function parseActionId(value: unknown, parameter = 'actionId'): bigint {
  if (value === undefined) return defaultActionId
  const parsed = tryParseActionId(value)
  if (parsed === undefined) {
    throw new InvalidParameterError({
      parameter,
      reason: `An action id is a uint256: a bigint, a safe integer, decimal digits or a 0x hex string; got ${describeValue(value)}.`,
    })
  }
  return parsed
}

/**
 * Reads a block number: a non-negative bigint, safe integer or string of decimal digits, or
 * `'latest'`. Undefined gives `'latest'`.
 *
 * @throws {InvalidParameterError} for anything else.
 * @example
 * import { parseBlockNumber } from './parse.js'
 * parseBlockNumber('130000000') // 130000000n
 * parseBlockNumber(undefined) // 'latest'
 */
export function parseBlockNumber(value: unknown, parameter = 'blockNumber'): bigint | 'latest' {
  if (value === undefined || value === 'latest') return 'latest'
  if (typeof value === 'bigint' && value >= 0n) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^[0-9]{1,30}$/.test(value)) return BigInt(value)
  throw new InvalidParameterError({
    parameter,
    reason: `Expected a block number (a non-negative integer) or 'latest', got ${describeValue(value)}.`,
  })
}

function describeRange({ min, max }: IntegerBounds): string {
  if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`
  if (min === 1) return 'a positive integer'
  if (min !== undefined) return `an integer of at least ${min}`
  if (max !== undefined) return `an integer of at most ${max}`
  return 'an integer'
}


/**
 * Reads an integer within bounds: a safe integer number, or (with `strings: true`, for command-line
 * and query values) a string of decimal digits.
 *
 * @throws {InvalidParameterError} when it is not a safe integer in `[min, max]`.
 * @example
 * import { parseInteger } from './parse.js'
 * parseInteger(25, 'limit', { min: 1, max: 1000 }) // 25
 * parseInteger('8787', 'port', { min: 0, max: 65_535, strings: true }) // 8787
 */
export function parseInteger(value: unknown, parameter: string, bounds: IntegerBounds & { strings?: boolean } = {}): number {
  const parsed = tryParseInteger(value, bounds)
  if (parsed === undefined) {
    throw new InvalidParameterError({ parameter, reason: `Expected ${describeRange(bounds)}, got ${describeValue(value)}.` })
  }
  return parsed
}

/**
 * Reads a positive integer (a count, a batch size, a page limit): a safe integer of at least 1.
 *
 * @throws {InvalidParameterError} otherwise.
 * @example
 * import { parsePositiveInteger } from './parse.js'
 * parsePositiveInteger(4, 'concurrency') // 4
 */
export function parsePositiveInteger(value: unknown, parameter: string, bounds: { max?: number | undefined; strings?: boolean } = {}): number {
  return parseInteger(value, parameter, { ...bounds, min: 1 })
}

/**
 * Reads a duration in milliseconds: a finite number of at least 0 (above 0 with `positive`).
 *
 * @throws {InvalidParameterError} otherwise.
 * @example
 * parseDuration(250, 'latencyMs') // 250
 * parseDuration(0, 'windowMs', { positive: true }) // throws InvalidParameterError
 */
export function parseDuration(value: unknown, parameter: string, { positive = false }: { positive?: boolean } = {}): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (positive && value === 0)) {
    throw new InvalidParameterError({
      parameter,
      reason: `Expected a ${positive ? 'positive' : 'non-negative'} number of milliseconds, got ${describeValue(value)}.`,
    })
  }
  return value
}

/**
 * Reads a positive integer id (a scorer id, a chain id) given as a number or a string of digits,
 * and returns it as the decimal string the services expect.
 *
 * @throws {InvalidParameterError} on anything else (zero, negative, fractional, `"12a"`, ...).
 * @example
 * import { parsePositiveIntegerId } from './parse.js'
 * parsePositiveIntegerId('335', 'scorerId') // '335'
 */
export function parsePositiveIntegerId(value: unknown, parameter: string): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value)
  if (typeof value === 'string' && /^[1-9][0-9]*$/.test(value)) return value
  throw new InvalidParameterError({
    parameter,
    reason: `Expected a positive integer or a string of digits, got ${describeValue(value)}.`,
  })
}

const isoPattern = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/

/**
 * Reads an ISO 8601 date (`YYYY-MM-DD`, midnight UTC) or date-time (`YYYY-MM-DDTHH:MM[:SS[.sss]]`
 * with `Z` or an offset; without one it is read as UTC) without throwing. Fractions beyond
 * milliseconds are dropped; a day that does not exist (2023-02-30) is undefined.
 */
export function tryParseIsoTimestamp(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined
  const match = isoPattern.exec(value)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s, fraction, offset] = match
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const hour = h === undefined ? 0 : Number(h)
  const minute = mi === undefined ? 0 : Number(mi)
  const second = s === undefined ? 0 : Number(s)
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined
  const ms = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'))
  let offsetMinutes = 0
  if (offset !== undefined && offset !== 'Z') {
    const sign = offset.startsWith('-') ? -1 : 1
    const digits = offset.slice(1).replace(':', '')
    const offsetHours = Number(digits.slice(0, 2))
    const offsetMins = digits.length > 2 ? Number(digits.slice(2)) : 0
    if (offsetHours > 23 || offsetMins > 59) return undefined
    offsetMinutes = sign * (offsetHours * 60 + offsetMins)
  }
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  // A day that does not exist in the month (2023-02-30) rolls over: reject it.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  date.setUTCHours(hour, minute, second, ms)
  const result = new Date(date.getTime() - offsetMinutes * 60_000)
  return Number.isNaN(result.getTime()) ? undefined : result
}

/** The largest Unix second a Date can hold (+275760-09-13). */
export const maxDateSeconds = 8_640_000_000_000

/**
 * Reads a timestamp as a Date: an ISO 8601 string (see {@link tryParseIsoTimestamp}), Unix seconds
 * (a non-negative finite number or a bigint; fractions are kept to the millisecond), or a valid
 * Date.
 *
 * @throws {InvalidParameterError} for anything else (an invalid Date, a negative or non-finite
 * number, a string that is not ISO 8601, a day that does not exist).
 * @example
 * import { parseDate } from './parse.js'
 * parseDate(1_735_689_600).toISOString() // '2025-01-01T00:00:00.000Z'
 */
export function parseDate(value: unknown, parameter = 'timestamp'): Date {
  let date: Date | undefined
  if (value instanceof Date) date = Number.isNaN(value.getTime()) ? undefined : new Date(value.getTime())
  else if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= maxDateSeconds) date = new Date(Math.floor(value * 1000))
  else if (typeof value === 'bigint' && value >= 0n && value <= BigInt(maxDateSeconds)) date = new Date(Number(value) * 1000)
  else if (typeof value === 'string') date = tryParseIsoTimestamp(value)
  if (date === undefined) {
    throw new InvalidParameterError({
      parameter,
      reason: `Expected an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS.sssZ), Unix seconds, or a valid Date; got ${describeValue(value)}.`,
    })
  }
  return date
}

/**
 * Reads a timestamp as whole Unix seconds (rounded down), the one time representation of the
 * package's verdicts and rules. Takes what {@link parseDate} takes.
 *
 * @throws {InvalidParameterError} for anything that is not a timestamp.
 * @example
 * import { parseTimestamp } from './parse.js'
 * parseTimestamp('2025-01-01T00:00:00.900Z') // 1735689600
 * parseTimestamp(new Date(0)) // 0
 */
export function parseTimestamp(value: unknown, parameter = 'timestamp'): number {
  return Math.floor(parseDate(value, parameter).getTime() / 1000)
}


/**
 * Reads a network as Snapshot names one: a chain id as a string of decimal digits ("1", "10").
 *
 * @throws {InvalidParameterError} for anything else (named `parameter`).
 * @example
 * parseNetwork('10', 'network') // '10'
 */
export function parseNetwork(value: unknown, parameter = 'network'): string {
  if (typeof value === 'string' && /^[0-9]{1,12}$/.test(value)) return value
  throw new InvalidParameterError({ parameter, reason: `Expected a chain id, got "${(typeof value === 'string' ? value : String(value)).slice(0, 20)}".` })
}
