/** C5 of the registry, every page: an address's stamps. */
import { iterateStampPages, type IterateStampsParameters, type IterateStampsReturnType } from '../stamp-pages.js'
import { stampPageContext, type RegistryContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType, PaginationLimitErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'


/** Parameters of {@link iterateRegistryStamps}: as {@link iterateStamps}. */
export type IterateRegistryStampsParameters = IterateStampsParameters
/** The pages of {@link iterateRegistryStamps}, in order. */
export type IterateRegistryStampsReturnType = IterateStampsReturnType

/** What {@link iterateRegistryStamps} throws (see its `@throws`). */
export type IterateRegistryStampsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | PaginationLimitErrorType | RequestErrorType

/**
 * Iterates over all stamp pages of an address (C5), following `next` tokens until there are none.
 * Arguments are checked when it is called, before any request.
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters Those of {@link listRegistryStamps} without `token`, plus `maxPages` and `maxItems`.
 * @throws {InvalidAddressError} or {@link InvalidParameterError} at once on bad arguments.
 * @throws {PaginationLimitError} (while iterating) when a guard trips or the server repeats a token.
 * @throws The errors of {@link listRegistryStamps} for each page.
 * @example
 * import { createRegistryClient, iterateRegistryStamps } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * for await (const page of iterateRegistryStamps(registry, { address: '0x52908400098527886e0f7030069857d2e4169ee7' })) console.log(page.items.length)
 */
export function iterateRegistryStamps(
  client: RegistryContext,
  parameters: IterateRegistryStampsParameters,
): IterateRegistryStampsReturnType {
  return iterateStampPages(stampPageContext(client), '/registry/stamps', parameters)
}
