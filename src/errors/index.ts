export { BaseError, docsBaseUrl, type BaseErrorParameters } from './base.js'
export {
  AuthenticationError,
  HttpRequestError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RedirectRefusedError,
  ResponseParseError,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  type HttpRequestErrorParameters,
  type ValidationIssue,
} from './http.js'
export { InvalidAddressError, InvalidParameterError, InvalidStateError, PaginationLimitError, UsageError } from './input.js'
export { ScoreTimeoutError, ScoringError } from './scoring.js'
export { BlockInFutureError, BlockNotAvailableError, ChainMismatchError, ChainReadError, EvmNotInstalledError, LocalChainError, UnsupportedNetworkError } from './chain.js'
export { AuditIncompleteError, ConfigFileError, ProposalNotFoundError, SnapshotHubError, VotesFileError } from './audit.js'
export {
  PassportHistoryDeniedError,
  RateBudgetError,
  StrategyDeadlineError,
  StrategyOptionsError,
  StrategySourceError,
  type StrategyOptionIssue,
} from './strategy.js'
