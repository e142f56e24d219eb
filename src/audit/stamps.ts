/**
 * Voters' stamps as they stood at the snapshot, for linked-wallet signals: the score history (A2)
 * at the snapshot's time gives each voter's score record then, with every stamp and whether it was
 * deduplicated against another wallet.
 */
import type { Address } from 'viem'
import { getScoreHistory, type PassportClient } from '../clients/passport/index.js'
import { NotFoundError, PermissionDeniedError } from '../errors/http.js'
import { InvalidParameterError } from '../errors/input.js'
import { mapWithConcurrency } from '../http/concurrency.js'
import type { StampEntries } from './linked.js'

/** Parameters of {@link createHistoryStampReader}. */
export type CreateHistoryStampReaderParameters = {
  passport: PassportClient
  scorerId: string
  /** The snapshot's time, Unix seconds. */
  at: number
  /** Reads in flight at once. Default 4. */
  concurrency?: number | undefined
}

/**
 * A reader of voters' stamp entries at a time, one A2 read per voter (paced by the client's rate
 * limiter). A voter with no score at that time reads as null.
 *
 * @throws {InvalidParameterError} (from the reader) when the key may not read score history: the
 * message says to run without linked-wallet signals instead.
 */
export function createHistoryStampReader(parameters: CreateHistoryStampReaderParameters): (addresses: readonly Address[]) => Promise<ReadonlyMap<string, StampEntries | null>> {
  const createdAt = new Date(parameters.at * 1000)
  return async (addresses) => {
    const entries = await mapWithConcurrency(addresses, parameters.concurrency ?? 4, async (address) => {
      try {
        const { items } = await getScoreHistory(parameters.passport, { scorerId: parameters.scorerId, address, createdAt })
        const record = items[0]
        return [address.toLowerCase(), record ? (record.stamps as StampEntries) : null] as const
      } catch (error) {
        if (error instanceof NotFoundError) return [address.toLowerCase(), null] as const
        if (error instanceof PermissionDeniedError) {
          throw new InvalidParameterError({
            parameter: '--linked-wallets',
            reason: 'The Passport API key may not read score history (403), which linked-wallet signals need: run with --no-linked-wallets, or use an allowlisted key.',
            cause: error,
          })
        }
        throw error
      }
    })
    return new Map(entries)
  }
}
