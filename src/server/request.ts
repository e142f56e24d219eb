/**
 * Request helpers of the A, B and C routes: read and validate a query, a JSON body or a path
 * address, throwing {@link HttpError}s that the app's error handler answers as JSON. Same
 * convention as the cache routes (field notes §1): a missing field or a value of the wrong JSON type
 * is 422 with a FastAPI-style list detail; a malformed value is 400 with a string detail.
 */
import type { Context } from 'hono'
import type { Address } from 'viem'
import type { z } from 'zod'
import type { ValidationErrorItem } from '../schemas/common.js'
import { isValidAddress } from '../utils/address.js'
import { HttpError } from './errors.js'

/** Where a request value was read from, as FastAPI names it in `loc`. */
export type ValueLocation = 'query' | 'path' | 'body'

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/**
 * The error for a failed parse: 422 with `[{ loc, msg, type }]` when a field is missing or of the
 * wrong JSON type, else 400 with `loc.path: message; ...`.
 */
export function validationError(error: z.ZodError, input: unknown, location: ValueLocation): HttpError {
  let shape = false
  const items: ValidationErrorItem[] = error.issues.map((issue) => {
    const loc = [location, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))]
    if (valueAt(input, issue.path) === undefined) {
      shape = true
      return { loc, msg: 'Field required', type: 'missing' }
    }
    if (issue.code === 'invalid_type') shape = true
    return { loc, msg: issue.message, type: issue.code === 'invalid_type' ? 'type_error' : 'value_error' }
  })
  if (shape) return new HttpError(422, items)
  return new HttpError(400, items.map((item) => `${item.loc.join('.')}: ${item.msg}`).join('; '))
}

/**
 * Validates the query string with a zod object schema (the last value wins when a key repeats).
 *
 * @throws {HttpError} 422 (missing) or 400 (malformed); see {@link validationError}.
 */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const input = c.req.query()
  const result = schema.safeParse(input)
  if (!result.success) throw validationError(result.error, input, 'query')
  return result.data
}

/**
 * Reads the JSON body and validates it.
 *
 * @throws {HttpError} 422 when the body is absent or not JSON, or a field is missing; 400 when a
 * value is malformed.
 */
export async function parseJsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const body = await readJsonBody(c)
  const result = schema.safeParse(body)
  if (!result.success) throw validationError(result.error, body, 'body')
  return result.data
}

/**
 * Reads the JSON body (unvalidated).
 *
 * @throws {HttpError} 422 when the body is absent or not JSON.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text()
  if (!text.trim()) throw new HttpError(422, [{ loc: ['body'], msg: 'Field required', type: 'missing' }])
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new HttpError(422, [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }])
  }
}

/**
 * A path or query address, lowercased.
 *
 * @throws {HttpError} 400 `{ detail: 'Invalid address.' }` unless it is 0x + 40 hex (mixed case
 * must be a valid EIP-55 checksum).
 */
export function requireAddress(value: string | undefined): Address {
  if (!value || !isValidAddress(value)) throw new HttpError(400, 'Invalid address.')
  return value.toLowerCase() as Address
}

/**
 * A scorer id path parameter: digits only.
 *
 * @throws {HttpError} 422 when it is not an integer (the public service's path type check).
 */
export function requireScorerId(value: string | undefined): number {
  if (!value || !/^\d{1,15}$/.test(value)) {
    throw new HttpError(422, [{ loc: ['path', 'scorer_id'], msg: 'Input should be a valid integer', type: 'int_parsing' }])
  }
  return Number(value)
}
