/** The attestation index's listing by schema and attester, one page. */
import { InvalidParameterError, ResponseValidationError } from '../../errors/index.js'
import { isLastPage } from '../../http/listing.js'
import { attestationListingResponseSchema, isMalformedAttestationRow, type AttestationListingRow, type MalformedAttestationRow } from '../../schemas/attestation.js'
import { normalizeAddress } from '../../utils/address.js'
import { recipientFilterProblem } from '../../rules/clean-hands-index.js'
import { checkGuard, type AttestationIndexContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getAttestationListingPage}: what to list, and which page. */
export type GetAttestationListingPageParameters = {
  /** The full schema id, e.g. `onchain_evm_10_0x8` (clean hands on Optimism). */
  schemaId: string
  /** The attester whose attestations are listed. */
  attester: string
  /**
   * Only attestations naming this recipient. The filter is not among the Sign Protocol SDK's listing
   * parameters and an index may ignore it: a page with a row that does not name the recipient is a
   * {@link ResponseValidationError}, so a filtered read costs one page, never the whole listing.
   * To read one address, `getIndexedAttestations` (E8, the documented per-address path) is
   * the safer call.
   */
  recipient?: string | undefined
  /** From 1. Default 1. */
  page?: number | undefined
  signal?: AbortSignal | undefined
}

/** A listing row as the index answered it: readable, or kept as malformed (as on E8). */
export type ListedAttestationRow = AttestationListingRow | MalformedAttestationRow

/** One page of the listing: its rows, the page number, and the index's `size` and `total` when sent. */
export type AttestationListingPageResult = {
  items: ListedAttestationRow[]
  page: number
  size: number | undefined
  total: number | undefined
  /** The next page's number as a string, null on the last page (the iterator's cursor). */
  next: string | null
}

/** What {@link getAttestationListingPage} returns: one page of the listing. */
export type GetAttestationListingPageReturnType = AttestationListingPageResult

/** What {@link getAttestationListingPage} throws (see its `@throws`). */
export type GetAttestationListingPageErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads one page of the index's listing of attestations by schema and attester
 * (`GET /api/index/attestations?schemaId=&attester=[&recipient=]&page=N`, 100 rows a page on the
 * public index). The query carries the attester and recipient in lower case. With `recipient`,
 * every row of the page must name it (an index that ignores the filter is an error at once).
 *
 * @throws {InvalidAddressError} before any request for a malformed `attester` or `recipient`.
 * @throws {InvalidParameterError} before any request for an empty `schemaId` or a bad `page`.
 * @throws {ResponseValidationError} for a malformed page, a page other than the one asked, or, with
 *   `recipient`, a row that does not name it (the index ignored the filter).
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { createAttestationIndexClient, getAttestationListingPage } from 'personhood'
 * const first = await getAttestationListingPage(createAttestationIndexClient(), {
 *   schemaId: 'onchain_evm_10_0x8',
 *   attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd',
 * })
 * first.total // how many attestations the listing holds
 */
export async function getAttestationListingPage(
  client: AttestationIndexContext,
  parameters: GetAttestationListingPageParameters,
): Promise<GetAttestationListingPageReturnType> {
  const query = listingQuery(parameters)
  const page = parameters.page === undefined ? 1 : checkGuard(parameters.page, 'page')
  const { data } = await client.transport.request({
    method: 'GET',
    path: attestationListingPath,
    query: { ...query, page },
    schema: attestationListingResponseSchema,
    signal: parameters.signal,
  })
  const { rows, size, total } = data.data
  if (data.data.page !== undefined && data.data.page !== page) {
    throw new ResponseValidationError({
      method: 'GET',
      url: client.transport.buildUrl(attestationListingPath, { ...query, page }),
      issues: [{ path: ['data', 'page'], message: `Asked for page ${page}, got page ${data.data.page}` }],
    })
  }
  if (query.recipient !== undefined) checkRecipientFilter(rows, query.recipient, client.transport.buildUrl(attestationListingPath, { ...query, page }))
  return { items: rows, page, size, total, next: isLastPage({ page, rows: rows.length, size, total }) ? null : String(page + 1) }
}

/**
 * Every row of a page read with `recipient=` must name that recipient (any letter case). An index
 * that ignores the filter answers the schema's whole listing, page after page: stop at the first
 * page instead of reading it all, and say so. A malformed row that names no recipients is left to
 * the rule to judge (it names no one).
 */
function checkRecipientFilter(rows: readonly ListedAttestationRow[], recipient: string, url: string): void {
  // The rule on a filtered page (src/rules/clean-hands-index.ts).
  const ignored = recipientFilterProblem(
    rows.map((row) => (isMalformedAttestationRow(row) ? row.row : row)),
    recipient,
  )
  if (ignored === undefined) return
  const { index, problem } = ignored
  throw new ResponseValidationError({
    method: 'GET',
    url,
    issues: [
      {
        path: ['data', 'rows', index, 'recipients'],
        message: `${problem[0]!.toUpperCase()}${problem.slice(1)}. Read one address with getAttestations (/api/scan/addresses/{address}/attestations).`,
      },
    ],
  })
}

/** The listing's path on the index. */
export const attestationListingPath = '/api/index/attestations'

/** The listing's query (schema id, attester and recipient in lower case), checked before any request. */
export function listingQuery(parameters: Omit<GetAttestationListingPageParameters, 'page'>): Record<string, string> {
  const schemaId = parameters.schemaId
  if (typeof schemaId !== 'string' || !/^\S+$/.test(schemaId)) {
    throw new InvalidParameterError({ parameter: 'schemaId', reason: 'Expected a full schema id such as onchain_evm_10_0x8.' })
  }
  return {
    schemaId,
    attester: normalizeAddress(parameters.attester, 'attester'),
    ...(parameters.recipient === undefined ? {} : { recipient: normalizeAddress(parameters.recipient, 'recipient') }),
  }
}
