import { BaseError, type BaseErrorParameters } from './base.js'

/** The v1 registry finished scoring with status ERROR. */
export class ScoringError extends BaseError {
  override name = 'ScoringError' as const
  readonly address: string
  readonly scorerId: string
  readonly error: string | null
  constructor(parameters: BaseErrorParameters & { address: string; scorerId: string | number; error: string | null }) {
    super('The registry could not score the address.', {
      ...parameters,
      code: 'SCORING_FAILED',
      details: parameters.details ?? parameters.error ?? 'status ERROR without an error text',
      metaMessages: [`Address: ${parameters.address}`, `Scorer: ${parameters.scorerId}`, ...(parameters.metaMessages ?? [])],
    })
    this.address = parameters.address
    this.scorerId = String(parameters.scorerId)
    this.error = parameters.error
  }
}

/** {@link ScoringError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type ScoringErrorType = ScoringError & { name: 'ScoringError' }

/** A v1 score was still processing when `waitForScore` ran out of attempts or time. */
export class ScoreTimeoutError extends BaseError {
  override name = 'ScoreTimeoutError' as const
  readonly address: string
  readonly scorerId: string
  readonly attempts: number
  readonly lastStatus: string
  constructor(
    parameters: BaseErrorParameters & { address: string; scorerId: string | number; attempts: number; elapsedMs: number; lastStatus: string },
  ) {
    super(`The score was not ready after ${parameters.attempts} attempts (${Math.round(parameters.elapsedMs / 1000)} s).`, {
      ...parameters,
      code: 'SCORE_TIMEOUT',
      details: parameters.details ?? `last status: ${parameters.lastStatus}`,
      metaMessages: [`Address: ${parameters.address}`, `Scorer: ${parameters.scorerId}`, ...(parameters.metaMessages ?? [])],
    })
    this.address = parameters.address
    this.scorerId = String(parameters.scorerId)
    this.attempts = parameters.attempts
    this.lastStatus = parameters.lastStatus
  }
}

/** {@link ScoreTimeoutError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type ScoreTimeoutErrorType = ScoreTimeoutError & { name: 'ScoreTimeoutError' }
