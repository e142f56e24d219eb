/**
 * The one HTTP error of this package's servers (the reference server and the strategy server): a
 * status, the JSON body the server documents for it, and headers. Each server builds its own body
 * (`{ detail }` for the reference server, `{ error: { code, message, field } }` for the strategy
 * server); the class and its answer (status, body, headers) are shared, and each app's error
 * handler renders it. Like hono's `HTTPException`, it carries its answer, but it is a
 * {@link BaseError} with a stable `code`.
 */
import { BaseError } from './base.js'

/** Parameters of {@link HttpAnswerError}. */
export type HttpAnswerErrorParameters<body> = {
  status: number
  /** The JSON body answered, as the server documents it. */
  body: body
  /** The message (kept as `shortMessage`; the body is what leaves the server). */
  message: string
  /** A stable code. Default `HTTP_ANSWER`. */
  code?: string | undefined
  headers?: Record<string, string> | undefined
  cause?: unknown
}

/**
 * An error a server answers as `status` with a JSON `body` and `headers`: thrown by routes and
 * middleware, rendered by each app's error handler (`c.json(error.body, error.status, error.headers)`).
 *
 * @example
 * throw new HttpAnswerError({ status: 404, body: { detail: 'Not found.' }, message: 'Not found.' })
 */
export class HttpAnswerError<body = unknown> extends BaseError {
  override name = 'HttpAnswerError'
  readonly status: number
  readonly body: body
  readonly headers: Record<string, string>

  constructor(parameters: HttpAnswerErrorParameters<body>) {
    super(parameters.message, { code: parameters.code ?? 'HTTP_ANSWER', docsAnchor: 'http-answer', details: `Answered ${parameters.status}.`, cause: parameters.cause })
    this.status = parameters.status
    this.body = parameters.body
    this.headers = parameters.headers ?? {}
  }
}
