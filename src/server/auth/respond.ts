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
import { HttpError } from '../errors.js'
import { readJsonBody as readBody, validationError, type ValidationMode, type ValueLocation } from '../request.js'

export type { ValidationMode }

/** Where a validated value came from: the first element of each `loc`. */
export type RequestLocation = ValueLocation

/** The outcome of {@link parseRequest}: the parsed value, or the error response to send. */
export type ParseRequestResult<T> = { success: true; data: T } | { success: false; response: Response }

/** A JSON response with `{ detail }` (and extra headers). */
export function errorResponse(status: number, detail: string | ValidationErrorItem[], headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/**
 * Validates a query, path or body with a zod schema, by the rule of {@link validationError}.
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
  const error = validationError(result.error, input, location, mode)
  return { success: false, response: errorResponse(error.status, error.detail) }
}

/** Reads a JSON request body. An absent or non-JSON body is a 422 (`fastapi`) or 400 (`plain`). */
export async function readJsonBody(request: Request, mode: ValidationMode = 'fastapi'): Promise<ParseRequestResult<unknown>> {
  try {
    return { success: true, data: await readBody(request, mode) }
  } catch (error) {
    if (error instanceof HttpError) return { success: false, response: errorResponse(error.status, error.detail) }
    throw error
  }
}
