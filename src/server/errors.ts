/**
 * HTTP errors of the reference server. Routes and the store throw them; the app's error handler
 * turns them into `{ detail }` JSON answers (FastAPI / django-ninja style, as the public services
 * answer).
 */
import type { Context } from 'hono'
import type { ValidationErrorItem } from '../schemas/common.js'

/** A status code and the `detail` of the JSON body (`{ detail }`), plus optional headers. */
export class HttpError extends Error {
  override name = 'HttpError'
  readonly status: number
  readonly detail: string | ValidationErrorItem[]
  readonly headers: Record<string, string>

  constructor(status: number, detail: string | ValidationErrorItem[], headers: Record<string, string> = {}) {
    super(typeof detail === 'string' ? detail : detail.map((item) => `${item.loc.join('.')}: ${item.msg}`).join('; '))
    this.status = status
    this.detail = detail
    this.headers = headers
  }

  /** The JSON body: `{ detail }`. */
  body(): { detail: string | ValidationErrorItem[] } {
    return { detail: this.detail }
  }
}

/** 404 for a scorer id the server does not know. */
export class UnknownScorerError extends HttpError {
  override name = 'UnknownScorerError'
  constructor(scorerId: number | string) {
    super(404, `No scorer matches the given id: ${String(scorerId)}.`)
  }
}

/**
 * The one error handler of the server's apps (`app.onError(answerError)`): an {@link HttpError}
 * becomes its `{ detail }` JSON answer with its status and headers; anything else is logged and
 * answered 500 without details.
 */
export function answerError(error: Error, c: Context): Response {
  if (error instanceof HttpError) return c.json(error.body(), error.status as 400, error.headers)
  console.error('personhood server error:', error)
  return c.json({ detail: 'Internal Server Error' }, 500)
}
