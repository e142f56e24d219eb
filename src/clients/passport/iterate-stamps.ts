/** A3 of the passport API, every page: an address's stamps. */
import { iterateStampPages, type IterateStampsParameters, type IterateStampsReturnType } from '../stamp-pages.js'
import { stampPageContext, type PassportContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType, PaginationLimitErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

export type { IterateStampsParameters, IterateStampsReturnType } from '../stamp-pages.js'

/** What {@link iterateStamps} throws (see its `@throws`). */
export type IterateStampsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | PaginationLimitErrorType | RequestErrorType

/**
 * Iterates over all stamp pages of an address (A3), following `next` tokens until there are none.
 * Arguments are checked when it is called, before any request.
 *
 * @param client A {@link PassportContext} (a {@link PassportClient} is one).
 * @param parameters Those of {@link listStamps} without `token`, plus `maxPages` (default 1,000) and
 * `maxItems` (default 100,000).
 * @throws {InvalidAddressError} or {@link InvalidParameterError} at once on bad arguments.
 * @throws {PaginationLimitError} (while iterating) when a guard trips or the server repeats a token.
 * @throws The errors of {@link listStamps} for each page.
 * @example
 * import { createPassportClient, iterateStamps } from 'personhood'
 * const client = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * for await (const page of iterateStamps(client, { address: '0x52908400098527886e0f7030069857d2e4169ee7', limit: 1000 })) {
 *   for (const stamp of page.items) console.log(stamp.credential.credentialSubject.provider)
 * }
 */
export function iterateStamps(client: PassportContext, parameters: IterateStampsParameters): IterateStampsReturnType {
  return iterateStampPages(stampPageContext(client), '/v2/stamps', parameters)
}
