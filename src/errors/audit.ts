import { BaseError, type BaseErrorParameters } from './base.js'

/**
 * A votes file that cannot be read as votes: a syntax error, a missing or malformed field, a
 * repeated voter. Names the file, the line (1-based) and the field, so it can be fixed by hand.
 */
export class VotesFileError extends BaseError {
  override name = 'VotesFileError' as const
  readonly file: string
  readonly line: number | undefined
  readonly field: string | undefined
  constructor(parameters: BaseErrorParameters & { file: string; line?: number | undefined; field?: string | undefined; reason: string }) {
    const where = [parameters.line === undefined ? undefined : `line ${parameters.line}`, parameters.field && `field "${parameters.field}"`]
      .filter(Boolean)
      .join(', ')
    super(`Votes file "${parameters.file}"${where ? ` (${where})` : ''}: ${parameters.reason}`, {
      ...parameters,
      code: 'VOTES_FILE_INVALID',
      details:
        parameters.details ??
        'A votes file is a Snapshot vote export: CSV with address, choice and voting_power columns, or JSON (an array of votes with voter, choice and vp).',
    })
    this.file = parameters.file
    this.line = parameters.line
    this.field = parameters.field
  }
}

/** {@link VotesFileError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type VotesFileErrorType = VotesFileError & { name: 'VotesFileError' }

/** The Snapshot hub answered with GraphQL errors, or with data that is not what was asked. */
export class SnapshotHubError extends BaseError {
  override name = 'SnapshotHubError' as const
  readonly url: string
  constructor(parameters: BaseErrorParameters & { url: string; reason: string }) {
    super(`The Snapshot hub could not answer: ${parameters.reason}`, {
      ...parameters,
      code: 'SNAPSHOT_HUB_ERROR',
      metaMessages: [`Hub: ${parameters.url}`, ...(parameters.metaMessages ?? [])],
    })
    this.url = parameters.url
  }
}

/** {@link SnapshotHubError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type SnapshotHubErrorType = SnapshotHubError & { name: 'SnapshotHubError' }

/** The Snapshot hub knows no proposal with this id. */
export class ProposalNotFoundError extends BaseError {
  override name = 'ProposalNotFoundError' as const
  readonly proposal: string
  constructor(parameters: BaseErrorParameters & { proposal: string; url: string }) {
    super(`The Snapshot hub has no proposal "${parameters.proposal.slice(0, 100)}".`, {
      ...parameters,
      code: 'PROPOSAL_NOT_FOUND',
      metaMessages: [`Hub: ${parameters.url}`, ...(parameters.metaMessages ?? [])],
      details: parameters.details ?? 'Check the id (0x followed by 64 hex characters, or an IPFS hash) and the --hub URL.',
    })
    this.proposal = parameters.proposal
  }
}

/** {@link ProposalNotFoundError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type ProposalNotFoundErrorType = ProposalNotFoundError & { name: 'ProposalNotFoundError' }

/** An audit that could not judge every voter: it is never presented as complete. */
export class AuditIncompleteError extends BaseError {
  override name = 'AuditIncompleteError' as const
  readonly addresses: readonly string[]
  constructor(parameters: BaseErrorParameters & { addresses: readonly string[]; reason: string }) {
    super(`The audit is incomplete: ${parameters.reason}`, {
      ...parameters,
      code: 'AUDIT_INCOMPLETE',
      metaMessages: [`Voters affected (${parameters.addresses.length}): ${parameters.addresses.slice(0, 5).join(', ')}${parameters.addresses.length > 5 ? ', ...' : ''}`, ...(parameters.metaMessages ?? [])],
    })
    this.addresses = parameters.addresses
  }
}

/** {@link AuditIncompleteError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type AuditIncompleteErrorType = AuditIncompleteError & { name: 'AuditIncompleteError' }

/** A `--config` file that cannot be read as a strategy and its options. Names the file and what is wrong. */
export class ConfigFileError extends BaseError {
  override name = 'ConfigFileError' as const
  readonly file: string
  constructor(parameters: BaseErrorParameters & { file: string; reason: string }) {
    super(`Config "${parameters.file}" ${parameters.reason}`, {
      ...parameters,
      code: 'CONFIG_FILE_INVALID',
      details: parameters.details ?? 'A config is JSON: { "strategy": "human-verification", "options": { ... } }, the options as the space configures them.',
    })
    this.file = parameters.file
  }
}

/** {@link ConfigFileError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type ConfigFileErrorType = ConfigFileError & { name: 'ConfigFileError' }
