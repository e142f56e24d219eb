/**
 * HTTP errors of the reference server. Routes and the store throw them; the app's error handler
 * turns them into `{ detail }` JSON answers (FastAPI / django-ninja style, as the public services
 * answer).
 */
import type { Context } from 'hono'
import { HttpAnswerError } from '../errors/server.js'
import type { ValidationErrorItem } from '../schemas/common.js'

/** The reference server's {@link HttpAnswerError}: a status and the `detail` of the JSON body (`{ detail }`), plus optional headers. */
export class HttpError extends HttpAnswerError<{ detail: string | ValidationErrorItem[] }> {
  override name = 'HttpError'
  readonly detail: string | ValidationErrorItem[]

  constructor(status: number, detail: string | ValidationErrorItem[], headers: Record<string, string> = {}) {
    super({ status, body: { detail }, headers, message: typeof detail === 'string' ? detail : detail.map((item) => `${item.loc.join('.')}: ${item.msg}`).join('; ') })
    this.detail = detail
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
  if (error instanceof HttpAnswerError) return c.json(error.body as object, error.status as 400, error.headers)
  console.error('personhood server error:', error)
  return c.json({ detail: 'Internal Server Error' }, 500)
}
