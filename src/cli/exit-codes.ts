/**
 * The CLI's exit codes: one number per kind of failure, so a CI pipeline can tell a bad input from
 * a service that is down from a vote that failed its policy. The table is in docs/cli.md.
 */
import { BaseError } from '../errors/base.js'

/** Exit codes of `personhood` commands. */
export const exitCodes = {
  /** Done; every result is complete. */
  ok: 0,
  /** A bug or an error nothing else names (the message says what). */
  internal: 1,
  /** The command line is wrong: an unknown option, a missing or malformed argument. */
  usage: 2,
  /** An input is wrong: a votes file, a config file, a state file, an address, an unknown proposal, strategy options, or an RPC endpoint of another chain. */
  input: 3,
  /** A service (hub, scoring, verification, index) or the RPC endpoint failed or could not be reached. */
  source: 4,
  /** The block cannot be read: in the future, or not served by the node. */
  block: 5,
  /** The audit is complete, but more of the voters are unverified than `--fail-if-unverified-share` allows. */
  policy: 6,
} as const

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes]

const inputCodes = new Set([
  'INVALID_ADDRESS',
  'INVALID_PARAMETER',
  'VOTES_FILE_INVALID',
  'PROPOSAL_NOT_FOUND',
  'STRATEGY_OPTIONS_INVALID',
  'CONFIG_FILE_INVALID',
  'UNSUPPORTED_NETWORK',
  'INVALID_STATE',
  'CHAIN_MISMATCH',
])
const blockCodes = new Set(['BLOCK_NOT_AVAILABLE', 'BLOCK_IN_FUTURE'])

/**
 * The exit code for an error a command threw.
 *
 * @example
 * exitCodeFor(new VotesFileError({ file: 'v.csv', line: 3, reason: '...' })) // 3
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (!(error instanceof BaseError)) return exitCodes.internal
  if (error.code === 'USAGE') return exitCodes.usage
  if (inputCodes.has(error.code)) return exitCodes.input
  if (blockCodes.has(error.code)) return exitCodes.block
  return exitCodes.source
}
