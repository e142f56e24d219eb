import { BaseError, type BaseErrorParameters } from './base.js'

export type HttpRequestErrorParameters = BaseErrorParameters & {
  method: string
  /** The request URL with credentials removed. */
  url: string
  status: number
  /** The response body (text, secrets redacted, cut to 2,000 characters). */
  body?: string | undefined
  /** The server's own message, read from `detail`, `error` or `message`. */
  serverMessage?: string | undefined
}

/**
 * The server answered with a status that is not a success. Subclasses name the statuses a program
 * acts on: {@link AuthenticationError} (401), {@link PermissionDeniedError} (403),
 * {@link NotFoundError} (404), {@link InvalidRequestError} (400, 422), {@link RateLimitError} (429).
 */
export class HttpRequestError extends BaseError {
  override name: string = 'HttpRequestError'
  readonly method: string
  readonly url: string
  readonly status: number
  readonly body: string | undefined
  readonly serverMessage: string | undefined

  constructor(
    parameters: HttpRequestErrorParameters,
    shortMessage = `HTTP request failed with status ${parameters.status}.`,
    code = 'HTTP_REQUEST_FAILED',
  ) {
    super(shortMessage, {
      ...parameters,
      code,
      details: parameters.details ?? parameters.serverMessage,
      metaMessages: [
        `Request: ${parameters.method} ${parameters.url}`,
        `Status: ${parameters.status}`,
        ...(parameters.metaMessages ?? []),
      ],
    })
    this.method = parameters.method
    this.url = parameters.url
    this.status = parameters.status
    this.body = parameters.body
    this.serverMessage = parameters.serverMessage
  }
}

/** {@link HttpRequestError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type HttpRequestErrorType = HttpRequestError & { name: 'HttpRequestError' }

/** 401: the API key or bearer token is missing, wrong or expired. */
export class AuthenticationError extends HttpRequestError {
  override name = 'AuthenticationError' as const
  constructor(parameters: HttpRequestErrorParameters) {
    super(parameters, 'The server refused the credentials (API key or bearer token).', 'AUTHENTICATION_FAILED')
  }
}

/** {@link AuthenticationError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type AuthenticationErrorType = AuthenticationError & { name: 'AuthenticationError' }

/** 403: the credentials are valid but not allowed here (for example the score history, A2, on a key that is not allowlisted). */
export class PermissionDeniedError extends HttpRequestError {
  override name = 'PermissionDeniedError' as const
  constructor(parameters: HttpRequestErrorParameters) {
    super(parameters, 'The credentials are not allowed to use this endpoint.', 'PERMISSION_DENIED')
  }
}

/** {@link PermissionDeniedError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type PermissionDeniedErrorType = PermissionDeniedError & { name: 'PermissionDeniedError' }

/** 404: the resource does not exist (unknown scorer, no history event, nothing to delete). */
export class NotFoundError extends HttpRequestError {
  override name = 'NotFoundError' as const
  constructor(parameters: HttpRequestErrorParameters) {
    super(parameters, 'The resource was not found.', 'NOT_FOUND')
  }
}

/** {@link NotFoundError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type NotFoundErrorType = NotFoundError & { name: 'NotFoundError' }

/** 400 or 422: the server rejected the request's parameters or body. */
export class InvalidRequestError extends HttpRequestError {
  override name = 'InvalidRequestError' as const
  constructor(parameters: HttpRequestErrorParameters) {
    super(parameters, 'The server rejected the request.', 'INVALID_REQUEST')
  }
}

/** {@link InvalidRequestError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type InvalidRequestErrorType = InvalidRequestError & { name: 'InvalidRequestError' }

/** 429 after every retry: the API key's rate limit is exhausted. */
export class RateLimitError extends HttpRequestError {
  override name = 'RateLimitError' as const
  /** How long the server asked to wait (Retry-After), when it said so. */
  readonly retryAfterMs: number | undefined
  constructor(parameters: HttpRequestErrorParameters & { retryAfterMs?: number | undefined }) {
    super(
      {
        ...parameters,
        metaMessages: [
          ...(parameters.retryAfterMs !== undefined ? [`Retry after: ${Math.ceil(parameters.retryAfterMs / 1000)} s`] : []),
          ...(parameters.metaMessages ?? []),
        ],
      },
      'The rate limit of this API key is exhausted.',
      'RATE_LIMITED',
    )
    this.retryAfterMs = parameters.retryAfterMs
  }
}

/** {@link RateLimitError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type RateLimitErrorType = RateLimitError & { name: 'RateLimitError' }

/** The request got no answer within the per-attempt timeout (after every retry). */
export class TimeoutError extends BaseError {
  override name = 'TimeoutError' as const
  readonly method: string
  readonly url: string
  readonly timeoutMs: number
  constructor(parameters: BaseErrorParameters & { method: string; url: string; timeoutMs: number }) {
    super(`The request timed out after ${parameters.timeoutMs} ms.`, {
      ...parameters,
      code: 'TIMEOUT',
      metaMessages: [`Request: ${parameters.method} ${parameters.url}`, ...(parameters.metaMessages ?? [])],
    })
    this.method = parameters.method
    this.url = parameters.url
    this.timeoutMs = parameters.timeoutMs
  }
}

/** {@link TimeoutError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type TimeoutErrorType = TimeoutError & { name: 'TimeoutError' }

/** The request failed before any answer: DNS, refused connection, reset (after every retry). */
export class NetworkError extends BaseError {
  override name = 'NetworkError' as const
  readonly method: string
  readonly url: string
  constructor(parameters: BaseErrorParameters & { method: string; url: string }) {
    super('The request failed before the server answered.', {
      ...parameters,
      code: 'NETWORK_ERROR',
      metaMessages: [`Request: ${parameters.method} ${parameters.url}`, ...(parameters.metaMessages ?? [])],
    })
    this.method = parameters.method
    this.url = parameters.url
  }
}

/** {@link NetworkError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type NetworkErrorType = NetworkError & { name: 'NetworkError' }

/** A success status with a body that is not JSON (for example an HTML page from a proxy). */
export class ResponseParseError extends BaseError {
  override name = 'ResponseParseError' as const
  readonly url: string
  readonly status: number
  readonly body: string
  constructor(parameters: BaseErrorParameters & { method: string; url: string; status: number; body: string }) {
    super('The response body is not valid JSON.', {
      ...parameters,
      code: 'RESPONSE_PARSE_FAILED',
      metaMessages: [
        `Request: ${parameters.method} ${parameters.url}`,
        `Status: ${parameters.status}`,
        `Body: ${parameters.body.slice(0, 200)}`,
        ...(parameters.metaMessages ?? []),
      ],
    })
    this.url = parameters.url
    this.status = parameters.status
    this.body = parameters.body
  }
}

/** {@link ResponseParseError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type ResponseParseErrorType = ResponseParseError & { name: 'ResponseParseError' }

/** One schema mismatch: where in the body, and what was wrong. */
export type ValidationIssue = { path: (string | number)[]; message: string }

/** A JSON body that does not have the shape the spec gives for this endpoint. */
export class ResponseValidationError extends BaseError {
  override name = 'ResponseValidationError' as const
  readonly url: string
  readonly issues: ValidationIssue[]
  constructor(parameters: BaseErrorParameters & { method: string; url: string; issues: ValidationIssue[] }) {
    const shown = parameters.issues.slice(0, 5).map((issue) => `- ${issue.path.join('.') || '(root)'}: ${issue.message}`)
    super('The response does not match the expected schema.', {
      ...parameters,
      code: 'RESPONSE_VALIDATION_FAILED',
      details: parameters.details ?? `${parameters.issues.length} issue(s)`,
      metaMessages: [
        `Request: ${parameters.method} ${parameters.url}`,
        'Issues:',
        ...shown,
        ...(parameters.issues.length > 5 ? [`- ... and ${parameters.issues.length - 5} more`] : []),
        ...(parameters.metaMessages ?? []),
      ],
    })
    this.url = parameters.url
    this.issues = parameters.issues
  }
}

/** {@link ResponseValidationError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type ResponseValidationErrorType = ResponseValidationError & { name: 'ResponseValidationError' }

/**
 * The server redirected a request to another origin. The request carried an API key or a bearer
 * token, so the redirect was not followed: the credentials go only to the configured host.
 */
export class RedirectRefusedError extends BaseError {
  override name = 'RedirectRefusedError' as const
  readonly method: string
  readonly url: string
  readonly status: number
  /** The origin the server redirected to (scheme, host and port only). */
  readonly location: string
  constructor(parameters: BaseErrorParameters & { method: string; url: string; status: number; location: string; reason?: string }) {
    super(`The server redirected the request to another host (${parameters.location}); it was not followed.`, {
      ...parameters,
      code: 'REDIRECT_REFUSED',
      metaMessages: [`Request: ${parameters.method} ${parameters.url}`, `Status: ${parameters.status}`, ...(parameters.metaMessages ?? [])],
      details:
        parameters.details ??
        parameters.reason ??
        'Requests carry the API key or bearer token, which must never reach another host. Configure the base URL the service redirects to, if you trust it.',
    })
    this.method = parameters.method
    this.url = parameters.url
    this.status = parameters.status
    this.location = parameters.location
  }
}

/** {@link RedirectRefusedError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type RedirectRefusedErrorType = RedirectRefusedError & { name: 'RedirectRefusedError' }

/** A response body larger than the client accepts; it was not read whole. */
export class ResponseTooLargeError extends BaseError {
  override name = 'ResponseTooLargeError' as const
  readonly url: string
  readonly limitBytes: number
  constructor(parameters: BaseErrorParameters & { method: string; url: string; status: number; limitBytes: number }) {
    super(`The response body is larger than ${parameters.limitBytes} bytes; it was not read.`, {
      ...parameters,
      code: 'RESPONSE_TOO_LARGE',
      metaMessages: [`Request: ${parameters.method} ${parameters.url}`, `Status: ${parameters.status}`, ...(parameters.metaMessages ?? [])],
      details: parameters.details ?? 'Raise maxResponseBytes if the service really answers this much; otherwise the host is misbehaving.',
    })
    this.url = parameters.url
    this.limitBytes = parameters.limitBytes
  }
}

/** {@link ResponseTooLargeError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type ResponseTooLargeErrorType = ResponseTooLargeError & { name: 'ResponseTooLargeError' }
