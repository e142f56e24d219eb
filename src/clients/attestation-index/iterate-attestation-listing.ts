/** The attestation index's listing by schema and attester, page by page. */
import { defaultAttestationListingMaxItems, defaultAttestationListingMaxPages } from '../../http/listing.js'
import { paginate } from '../../http/paginate.js'
import { checkGuard, type AttestationIndexContext } from './context.js'
import {
  getAttestationListingPage,
  listingQuery,
  type AttestationListingPageResult,
  type ListedAttestationRow,
} from './get-attestation-listing-page.js'
import type { ListAttestationsParameters } from './list-attestations.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType, PaginationLimitErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link iterateAttestationListing}: those of {@link listAttestations}. */
export type IterateAttestationListingParameters = ListAttestationsParameters

/** What {@link iterateAttestationListing} yields: the listing's pages, in order. */
export type IterateAttestationListingReturnType = AsyncGenerator<AttestationListingPageResult, void, undefined>

/** What {@link iterateAttestationListing} throws (see its `@throws`). */
export type IterateAttestationListingErrorType = InvalidAddressErrorType | InvalidParameterErrorType | PaginationLimitErrorType | RequestErrorType

/**
 * Yields the pages of the index's listing by schema and attester, one after the other, from page 1
 * until the last (see {@link getAttestationListingPage}). {@link listAttestations} reads the same
 * pages several at a time once the first page's `total` is known.
 *
 * @throws {InvalidAddressError} / {@link InvalidParameterError} before any request for bad parameters.
 * @throws {PaginationLimitError} when the index goes past `maxPages` or `maxItems`.
 * @throws {ResponseValidationError} for a malformed page; {@link HttpRequestError} and subclasses as the server answers.
 * @example
 * import { createAttestationIndexClient, iterateAttestationListing } from 'personhood'
 * const listing = { schemaId: 'onchain_evm_10_0x8', attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd' }
 * for await (const page of iterateAttestationListing(createAttestationIndexClient(), listing)) console.log(page.items.length)
 */
export async function* iterateAttestationListing(
  client: AttestationIndexContext,
  parameters: IterateAttestationListingParameters,
): IterateAttestationListingReturnType {
  listingQuery(parameters)
  const maxPages = checkGuard(parameters.maxPages ?? defaultAttestationListingMaxPages, 'maxPages')
  const maxItems = checkGuard(parameters.maxItems ?? defaultAttestationListingMaxItems, 'maxItems')
  yield* paginate<ListedAttestationRow, AttestationListingPageResult>(
    (cursor) => getAttestationListingPage(client, { ...parameters, page: cursor === undefined ? 1 : Number(cursor) }),
    { maxPages, maxItems },
  )
}
