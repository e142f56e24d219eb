/** What every Human ID action (E1-E7) is called with, and the service's defaults. */
import type { Transport } from '../../http/transport.js'

/** The public Human ID service (`{verification_url}`). */
export const defaultHumanIdBaseUrl = 'https://api.holonym.io'

/** Where the spec puts E4-E6 (our reference server follows it): the default path on any host but the public one. */
export const defaultVotingStrategyPath = '/voting-strategies/sybil-resistance'

/**
 * Where the public service serves E4-E6 (docs/interface.md §4). A client of the public host
 * (`https://api.holonym.io`) calls this path unless given another `votingStrategyPath`: the spec's
 * path does not exist there.
 */
export const publicVotingStrategyPath = '/snapshot-strategies/sybil-resistance'

/** Longest request URL E4-E6 send by default; longer address lists are split into several requests. */
export const defaultMaxUrlLength = 8000

/** An action id (a uint256): a bigint, a safe integer, or a string of decimal digits. */
export type ActionId = bigint | number | string

/** A block to read at: a block number (bigint or safe integer) or `'latest'`. */
export type SnapshotBlock = bigint | number | 'latest'

/**
 * What the Human ID actions need. A {@link HumanIdClient} is one; pass it to the standalone
 * actions (`getHumanIdVerification(client, ...)`).
 */
export type HumanIdContext = {
  readonly transport: Transport
  readonly votingStrategyPath: string
  readonly maxUrlLength: number
  /** E4-E6 requests in flight at once. */
  readonly concurrency: number
}
