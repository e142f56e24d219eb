/**
 * Request validation and error answers shared by the cache (D) and verification (E) routes and the
 * bearer middleware, in the shapes the public services use:
 *
 * - 422 `{ detail: [{ loc, msg, type }] }` (FastAPI / django-ninja) when a request does not have the
 *   shape of its schema: a missing field, a JSON type the schema does not take, too many items, a
 *   body that is not JSON;
 * - 400 `{ detail: string }` when a field of the right type holds a malformed value (a bad address,
 *   an action id that is not digits, an unknown terms type).
 */
import type { z } from 'zod'
import type { ValidationErrorItem } from '../../schemas/common.js'

/** Where a validated value came from: the first element of each `loc`. */
export type RequestLocation = 'query' | 'body' | 'path'

/**
 * How failures are answered: `fastapi` (the cache interface: shape errors 422 with a list detail,
 * malformed values 400) or `plain` (the verification interface: every failure 400 with a string detail,
 * as the public service answers).
 */
export type ValidationMode = 'fastapi' | 'plain'

/** The outcome of {@link parseRequest}: the parsed value, or the error response to send. */
export type ParseRequestResult<T> = { success: true; data: T } | { success: false; response: Response }

/** A JSON response with `{ detail }` (and extra headers). */
export function errorResponse(status: number, detail: string | ValidationErrorItem[], headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

type Issue = z.core.$ZodIssue

function isShapeIssue(issue: Issue, input: unknown): boolean {
  if (valueAt(input, issue.path) === undefined) return true
  if (issue.code === 'invalid_type') return true
  if ((issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'array') return true
  return false
}

function toItem(issue: Issue, input: unknown, location: RequestLocation): ValidationErrorItem {
  const loc = [location, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))]
  if (valueAt(input, issue.path) === undefined) return { loc, msg: 'Field required', type: 'missing' }
  if (issue.code === 'too_big' && issue.origin === 'array') {
    return { loc, msg: `List should have at most ${String(issue.maximum)} items`, type: 'too_long' }
  }
  if (issue.code === 'too_small' && issue.origin === 'array') {
    return { loc, msg: `List should have at least ${String(issue.minimum)} items`, type: 'too_short' }
  }
  return { loc, msg: issue.message, type: issue.code === 'invalid_type' ? 'type_error' : 'value_error' }
}

/** The `{ detail }` string of a 400: `loc.path: message; ...`. */
function describe(items: readonly ValidationErrorItem[]): string {
  return items.map((item) => `${item.loc.join('.')}: ${item.msg}`).join('; ')
}

/**
 * Validates a query, path or body with a zod schema.
 *
 * @returns the parsed value, or the response to send: 422 with a list detail for shape errors
 * (`fastapi` mode), 400 with a string detail otherwise.
 * @example
 * const parsed = parseRequest(cachedStampQuerySchema, c.req.query(), 'query')
 * if (!parsed.success) return parsed.response
 */
export function parseRequest<schema extends z.ZodType>(
  schema: schema,
  input: unknown,
  location: RequestLocation,
  mode: ValidationMode = 'fastapi',
): ParseRequestResult<z.output<schema>> {
  const result = schema.safeParse(input)
  if (result.success) return { success: true, data: result.data }
  const issues = result.error.issues
  const items = issues.map((issue) => toItem(issue, input, location))
  if (mode === 'fastapi' && issues.some((issue) => isShapeIssue(issue, input))) {
    return { success: false, response: errorResponse(422, items) }
  }
  return { success: false, response: errorResponse(400, describe(items)) }
}

/**
 * Reads a JSON request body. An absent or non-JSON body is a 422 (`fastapi`) or 400 (`plain`).
 */
export async function readJsonBody(
  request: Request,
  mode: ValidationMode = 'fastapi',
): Promise<{ success: true; data: unknown } | { success: false; response: Response }> {
  const text = await request.text()
  if (text.trim() === '') {
    const item: ValidationErrorItem = { loc: ['body'], msg: 'Field required', type: 'missing' }
    return { success: false, response: mode === 'fastapi' ? errorResponse(422, [item]) : errorResponse(400, 'body: Field required') }
  }
  try {
    return { success: true, data: JSON.parse(text) as unknown }
  } catch {
    const item: ValidationErrorItem = { loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }
    return { success: false, response: mode === 'fastapi' ? errorResponse(422, [item]) : errorResponse(400, 'body: JSON decode error') }
  }
}
