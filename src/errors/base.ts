import { version } from '../version.js'

/** Where the error table lives; every error message points into it. */
export const docsBaseUrl = 'https://github.com/personhood-dao/personhood/blob/main/docs/errors.md'

export type BaseErrorParameters = {
  /** The underlying error, kept as `cause` (never pasted into the message). */
  cause?: unknown
  /** Extra lines shown under the short message (context: endpoint, address, block...). */
  metaMessages?: string[]
  /** One line of technical detail; defaults to the cause's short message. */
  details?: string
  /** Anchor in docs/errors.md; defaults to the error's code in lower case. */
  docsAnchor?: string
}

/**
 * The root of every error `personhood` throws. Its message is the short message, context lines,
 * the details and a pointer to the docs; `shortMessage`, `details` and `code` are kept apart for
 * programs.
 *
 * @example
 * import { BaseError } from 'personhood'
 * try { await client.getScore({ scorerId: 1, address }) }
 * catch (error) { if (error instanceof BaseError) console.error(error.code, error.shortMessage) }
 */
export class BaseError extends Error {
  override name = 'BaseError'
  /** A stable, machine-readable code (for example `HTTP_REQUEST_FAILED`). */
  code = 'UNKNOWN'
  readonly shortMessage: string
  readonly details: string | undefined
  readonly metaMessages: string[]
  readonly docsUrl: string
  readonly version = version

  constructor(shortMessage: string, parameters: BaseErrorParameters & { code?: string; name?: string } = {}) {
    const details = parameters.details ?? detailsOf(parameters.cause)
    const code = parameters.code ?? 'UNKNOWN'
    const docsUrl = `${docsBaseUrl}#${(parameters.docsAnchor ?? code).toLowerCase().replace(/_/g, '-')}`
    const metaMessages = parameters.metaMessages ?? []
    const message = [
      shortMessage,
      ...(metaMessages.length ? ['', ...metaMessages] : []),
      '',
      ...(details ? [`Details: ${details}`] : []),
      `Docs: ${docsUrl}`,
      `Version: personhood@${version}`,
    ].join('\n')
    super(message, parameters.cause === undefined ? undefined : { cause: parameters.cause })
    this.shortMessage = shortMessage
    this.details = details
    this.metaMessages = metaMessages
    this.docsUrl = docsUrl
    this.code = code
    if (parameters.name) this.name = parameters.name
  }

  /** Walks the `cause` chain; returns the first error for which `fn` is true (or the last one). */
  walk(fn?: (error: unknown) => boolean): unknown {
    return walk(this, fn)
  }
}

/** {@link BaseError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type BaseErrorType = BaseError & { name: 'BaseError' }

function walk(error: unknown, fn?: (error: unknown) => boolean): unknown {
  if (fn?.(error)) return error
  if (error && typeof error === 'object' && 'cause' in error && error.cause !== undefined) {
    return walk(error.cause, fn)
  }
  return fn ? null : error
}

/**
 * The details a cause gives: ours, or viem's (its errors keep the node's own words in `details`,
 * apart from a message that carries the whole call's data), else its message.
 */
function detailsOf(cause: unknown): string | undefined {
  if (cause instanceof BaseError) return cause.details
  if (!(cause instanceof Error)) return undefined
  const own = (cause as { details?: unknown }).details
  if (typeof own === 'string' && own !== '') return own
  return cause.message
}
