import { BaseError, type BaseErrorParameters } from './base.js'

/** An address that is not 0x + 40 hex characters, or whose mixed case is not a valid EIP-55 checksum. */
export class InvalidAddressError extends BaseError {
  override name = 'InvalidAddressError' as const
  readonly address: string
  constructor(parameters: BaseErrorParameters & { address: unknown; reason?: string }) {
    const shown = typeof parameters.address === 'string' ? parameters.address : String(parameters.address)
    super(`Address "${shown.slice(0, 100)}" is invalid.`, {
      ...parameters,
      code: 'INVALID_ADDRESS',
      details:
        parameters.details ??
        parameters.reason ??
        'An address is 0x followed by 40 hex characters; mixed case must be a valid EIP-55 checksum.',
    })
    this.address = shown
  }
}

/** {@link InvalidAddressError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type InvalidAddressErrorType = InvalidAddressError & { name: 'InvalidAddressError' }

/** A parameter given to a function is missing or out of its range (checked before any request). */
export class InvalidParameterError extends BaseError {
  override name = 'InvalidParameterError' as const
  readonly parameter: string
  constructor(parameters: BaseErrorParameters & { parameter: string; reason: string }) {
    super(`Parameter "${parameters.parameter}" is invalid.`, {
      ...parameters,
      code: 'INVALID_PARAMETER',
      details: parameters.details ?? parameters.reason,
    })
    this.parameter = parameters.parameter
  }
}

/** {@link InvalidParameterError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type InvalidParameterErrorType = InvalidParameterError & { name: 'InvalidParameterError' }

/** A paginated read went past its guard on pages or items (a server that never stops paging). */
export class PaginationLimitError extends BaseError {
  override name = 'PaginationLimitError' as const
  readonly limit: number
  readonly kind: 'pages' | 'items' | 'repeated-token'
  constructor(parameters: BaseErrorParameters & { kind: 'pages' | 'items' | 'repeated-token'; limit: number; url?: string }) {
    super(
      parameters.kind === 'repeated-token'
        ? 'Pagination stopped: the server returned a page token it had returned before.'
        : `Pagination stopped after ${parameters.limit} ${parameters.kind}.`,
      {
        ...parameters,
        code: 'PAGINATION_LIMIT',
        metaMessages: [...(parameters.url ? [`Request: ${parameters.url}`] : []), ...(parameters.metaMessages ?? [])],
        details:
          parameters.details ?? 'Raise maxPages / maxItems if the data set really is this large; otherwise the server is looping.',
      },
    )
    this.limit = parameters.limit
    this.kind = parameters.kind
  }
}

/** {@link PaginationLimitError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type PaginationLimitErrorType = PaginationLimitError & { name: 'PaginationLimitError' }

/** A saved server state that cannot be used: not JSON, another version, or a field of the wrong type. */
export class InvalidStateError extends BaseError {
  override name = 'InvalidStateError' as const
  readonly file: string | undefined
  readonly problems: readonly { path: string; message: string }[]
  constructor(parameters: BaseErrorParameters & { file?: string | undefined; problems: readonly { path: string; message: string }[] }) {
    super(`${parameters.file ? `The state file ${parameters.file}` : 'The server state'} cannot be used; nothing was changed.`, {
      ...parameters,
      code: 'INVALID_STATE',
      metaMessages: [...parameters.problems.map((problem) => `${problem.path}: ${problem.message}`), ...(parameters.metaMessages ?? [])],
      details: parameters.details ?? 'Fix the field named (or move the file away to start from the seed again).',
    })
    this.file = parameters.file
    this.problems = parameters.problems
  }
}

/** {@link InvalidStateError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type InvalidStateErrorType = InvalidStateError & { name: 'InvalidStateError' }

/** A command line that lacks what the command needs (a missing option): the CLI exits 2, as for any usage error. */
export class UsageError extends BaseError {
  override name = 'UsageError' as const
  readonly option: string
  constructor(parameters: BaseErrorParameters & { option: string; reason: string }) {
    super(`Option ${parameters.option} is missing.`, { ...parameters, code: 'USAGE', details: parameters.details ?? parameters.reason })
    this.option = parameters.option
  }
}

/** {@link UsageError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type UsageErrorType = UsageError & { name: 'UsageError' }
