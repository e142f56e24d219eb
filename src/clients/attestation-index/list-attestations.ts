/** The attestation index's listing by schema and attester, every page, each attestation once. */
import {
  collectAttestationListing,
  defaultAttestationListingMaxItems,
  defaultAttestationListingMaxPages,
} from '../../http/listing.js'
import { checkGuard, type AttestationIndexContext } from './context.js'
import {
  attestationListingPath,
  getAttestationListingPage,
  listingQuery,
  type GetAttestationListingPageParameters,
  type ListedAttestationRow,
} from './get-attestation-listing-page.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType, PaginationLimitErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link iterateAttestationListing} and {@link listAttestations}. */
export type ListAttestationsParameters = Omit<GetAttestationListingPageParameters, 'page'> & {
  /** Most pages to read before a {@link PaginationLimitError}. Default 1,000. */
  maxPages?: number | undefined
  /** Most rows to collect before a {@link PaginationLimitError}. Default 100,000. */
  maxItems?: number | undefined
}

/** What {@link listAttestations} and {@link collectAttestationListing} return. */
export type ListAttestationsReturnType<row = ListedAttestationRow> = {
  /** Every attestation listed, each once (by `attestationId`), in the index's order. */
  rows: row[]
  /** The first page's `total`; undefined when the index sends none. */
  total: number | undefined
  /** Pages read, the first one included (also when it was handed in as `first`). */
  pages: number
}

/** What {@link listAttestations} throws (see its `@throws`). */
export type ListAttestationsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | PaginationLimitErrorType | RequestErrorType

/**
 * Reads every page of the index's listing by schema and attester: the first page, then the rest
 * (its `total` tells how many) with at most the transport's `concurrency` in flight. Each
 * attestation is returned once; an index that lost rows while being read is an error (see
 * {@link collectAttestationListing}).
 *
 * Requests: `ceil(total / 100)` on the public index (one when it lists at most 100).
 *
 * @throws {InvalidAddressError} / {@link InvalidParameterError} before any request for bad parameters.
 * @throws {PaginationLimitError} when the listing needs more than `maxPages` pages or `maxItems` rows.
 * @throws {ResponseValidationError} for a malformed page, or a listing that changed while it was read.
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { createAttestationIndexClient, listAttestations } from 'personhood'
 * const { rows, pages } = await listAttestations(createAttestationIndexClient(), {
 *   schemaId: 'onchain_evm_10_0x8',
 *   attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd',
 * })
 */
export async function listAttestations(client: AttestationIndexContext, parameters: ListAttestationsParameters): Promise<ListAttestationsReturnType> {
  const query = listingQuery(parameters)
  const maxPages = checkGuard(parameters.maxPages ?? defaultAttestationListingMaxPages, 'maxPages')
  const maxItems = checkGuard(parameters.maxItems ?? defaultAttestationListingMaxItems, 'maxItems')
  return collectAttestationListing({
    fetchPage: (page) => getAttestationListingPage(client, { ...parameters, page }),
    url: client.transport.buildUrl(attestationListingPath, query),
    // The transport bounds the requests in flight; this only keeps the queue short.
    concurrency: 16,
    maxPages,
    maxItems,
  })
}
