/**
 * How every route of the reference server reads its input: a query, a JSON body or a path address,
 * validated with a zod schema, throwing {@link HttpError}s that the apps' one error handler
 * (`answerError`) answers as JSON. One contract (docs/server.md): a missing field, a value of
 * the wrong JSON type, an unknown key or a list of the wrong length is 422 with a FastAPI-style list
 * detail; a malformed value is 400 with a string detail. The verification routes (E) answer every
 * failure 400 with a string detail (`plain` mode), as the public service does.
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

type Issue = z.core.$ZodIssue

/** A missing field, a JSON type the schema does not take, a key a strict schema does not have, or a list of the wrong length. */
function isShapeIssue(issue: Issue, input: unknown): boolean {
  if (valueAt(input, issue.path) === undefined) return true
  if (issue.code === 'invalid_type' || issue.code === 'unrecognized_keys') return true
  return (issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'array'
}

function toItems(issue: Issue, input: unknown, location: ValueLocation): ValidationErrorItem[] {
  const loc = [location, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))]
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ loc: [...loc, key], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }))
  }
  return [toItem(issue, input, loc)]
}

function toItem(issue: Issue, input: unknown, loc: ValidationErrorItem['loc']): ValidationErrorItem {
  if (valueAt(input, issue.path) === undefined) return { loc, msg: 'Field required', type: 'missing' }
  if (issue.code === 'too_big' && issue.origin === 'array') {
    return { loc, msg: `List should have at most ${String(issue.maximum)} items`, type: 'too_long' }
  }
  if (issue.code === 'too_small' && issue.origin === 'array') {
    return { loc, msg: `List should have at least ${String(issue.minimum)} items`, type: 'too_short' }
  }
  return { loc, msg: issue.message, type: issue.code === 'invalid_type' ? 'type_error' : 'value_error' }
}

/**
 * How failures are answered: `fastapi` (A, B, C and the cache interface: shape errors 422 with a
 * list detail, malformed values 400) or `plain` (the verification interface: every failure 400 with
 * a string detail, as the public service answers).
 */
export type ValidationMode = 'fastapi' | 'plain'

/**
 * The error for a failed parse: 422 with `[{ loc, msg, type }]` when a field is missing, of the
 * wrong JSON type, not a key of a strict schema (`extra_forbidden`, as FastAPI answers) or a list
 * of the wrong length (`fastapi` mode), else 400 with
 * `loc.path: message; ...`. The one rule every route answers by.
 */
export function validationError(error: z.ZodError, input: unknown, location: ValueLocation, mode: ValidationMode = 'fastapi'): HttpError {
  const items = error.issues.flatMap((issue) => toItems(issue, input, location))
  if (mode === 'fastapi' && error.issues.some((issue) => isShapeIssue(issue, input))) return new HttpError(422, items)
  return new HttpError(400, items.map((item) => `${item.loc.join('.')}: ${item.msg}`).join('; '))
}

/**
 * Validates a query, path or body value with a zod schema: the one way every route reads its input.
 *
 * @throws {HttpError} 422 with a list detail for a shape error (`fastapi` mode), 400 with a string
 * detail otherwise; see {@link validationError}.
 * @example
 * const query = parseInput(cachedStampQuerySchema, c.req.query(), 'query')
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, location: ValueLocation, mode: ValidationMode = 'fastapi'): z.output<S> {
  const result = schema.safeParse(input)
  if (!result.success) throw validationError(result.error, input, location, mode)
  return result.data
}

/**
 * Validates the query string with a zod object schema (the last value wins when a key repeats).
 *
 * @throws {HttpError} 422 (missing) or 400 (malformed); see {@link validationError}.
 */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S, mode: ValidationMode = 'fastapi'): z.output<S> {
  return parseInput(schema, c.req.query(), 'query', mode)
}

/**
 * Reads the JSON body and validates it with a zod schema.
 *
 * @throws {HttpError} 422 (`fastapi`) or 400 (`plain`) when the body is absent, not JSON or not of
 * the schema's shape; 400 for a malformed value; see {@link readJsonBody} and {@link validationError}.
 */
export async function parseBody<S extends z.ZodType>(c: Context, schema: S, mode: ValidationMode = 'fastapi'): Promise<z.output<S>> {
  return parseInput(schema, await readJsonBody(c.req.raw, mode), 'body', mode)
}

/**
 * Reads the JSON body (unvalidated).
 *
 * @throws {HttpError} 422 (`fastapi`) or 400 (`plain`) when the body is absent or not JSON.
 */
export async function readJsonBody(request: Request, mode: ValidationMode = 'fastapi'): Promise<unknown> {
  const text = await request.text()
  let item: ValidationErrorItem | undefined
  let body: unknown
  if (text.trim() === '') item = { loc: ['body'], msg: 'Field required', type: 'missing' }
  else if (nestingDepth(text) > maxJsonDepth) {
    // Deeper JSON than any request of the spec: refused before parsing, as every recursive step
    // after it (validation, cloning, saving) could overflow the stack.
    item = { loc: ['body'], msg: `JSON nested deeper than ${maxJsonDepth} levels`, type: 'json_too_deep' }
  } else {
    try {
      body = JSON.parse(text) as unknown
    } catch {
      item = { loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }
    }
  }
  if (item) throw mode === 'fastapi' ? new HttpError(422, [item]) : new HttpError(400, `body: ${item.msg}`)
  return body
}

/** Deepest JSON nesting a request body may have (a stamp credential is about 5 deep). */
export const maxJsonDepth = 64

/** The deepest nesting of arrays and objects in a JSON text, counted without parsing it. */
export function nestingDepth(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 92 /* \\ */) i++
      else if (char === 34 /* " */) inString = false
    } else if (char === 34) inString = true
    else if (char === 91 /* [ */ || char === 123 /* { */) {
      depth++
      if (depth > deepest) deepest = depth
    } else if (char === 93 /* ] */ || char === 125 /* } */) depth--
  }
  return deepest
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
 * A scorer id (a path parameter, or the v1 submit's `scorer_id`): digits only, so "0x1", "1e0",
 * "1.0", " 1" and "+1" are not scorer 1.
 *
 * @throws {HttpError} 422 when it is not an integer (the public service's type check).
 */
export function requireScorerId(value: string | undefined, where: 'path' | 'body' = 'path'): number {
  if (!value || !/^\d{1,15}$/.test(value)) {
    throw new HttpError(422, [{ loc: [where, 'scorer_id'], msg: 'Input should be a valid integer', type: 'int_parsing' }])
  }
  return Number(value)
}
