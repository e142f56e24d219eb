/** E8 of the attestation index, every page: an address's attestations, each once. */
import { ResponseValidationError } from '../../errors/index.js'
import { listedAttestationId, uniqueListedRows } from '../../http/listing.js'
import { listedRowCount } from '../../rules/listed-rows.js'
import { normalizeAddress } from '../../utils/address.js'
import type { AttestationIndexContext } from './context.js'
import {
  iterateIndexedAttestationPages,
  type GetIndexedAttestationsParameters,
  type IndexedAttestationRow,
} from './iterate-indexed-attestation-pages.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType, PaginationLimitErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Every row of every page, in the index's order. */
export type GetIndexedAttestationsReturnType = IndexedAttestationRow[]

/** What {@link getIndexedAttestations} throws (see its `@throws`). */
export type GetIndexedAttestationsErrorType = InvalidAddressErrorType | InvalidParameterErrorType | PaginationLimitErrorType | RequestErrorType

/**
 * Reads every attestation row of an address from the index (E8), following all pages, each row
 * once (by attestation id). Judge the rows with {@link isValidCleanHandsAttestation} /
 * {@link hasValidCleanHandsAttestation}.
 *
 * @throws {ResponseValidationError} when the pages hold fewer distinct rows than the first page's
 * `total` (the listing changed while it was read: a row may be missing).
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {InvalidParameterError} before any request for a bad `maxPages` or `maxItems`.
 * @throws {PaginationLimitError} when the index goes past `maxPages` or `maxItems`.
 * @throws {ResponseValidationError} for a malformed page; {@link HttpRequestError} and subclasses as the server answers.
 * @example
 * import { createAttestationIndexClient, getIndexedAttestations, hasValidCleanHandsAttestation } from 'personhood'
 * const rows = await getIndexedAttestations(createAttestationIndexClient(), { address })
 * hasValidCleanHandsAttestation(rows, { now: new Date() })
 */
export async function getIndexedAttestations(
  client: AttestationIndexContext,
  parameters: GetIndexedAttestationsParameters,
): Promise<GetIndexedAttestationsReturnType> {
  const pages: IndexedAttestationRow[][] = []
  let total: number | undefined
  for await (const page of iterateIndexedAttestationPages(client, parameters)) {
    total ??= page.total
    pages.push(page.items)
  }
  const address = normalizeAddress(parameters.address)
  const url = client.transport.buildUrl(`/api/scan/addresses/${address}/attestations`, {})
  // Pages that shifted while read list a row twice: it is kept once (a different row under the same
  // id is an error), and counted against the total below.
  const rows = uniqueListedRows(pages.flat(), url)
  // A row listed again on its own page is counted in the total (rules/listed-rows.ts's listedRowCount);
  // one listed again on another page may stand for a row the shift dropped.
  if (total !== undefined && listedRowCount(pages, listedAttestationId) < total) {
    throw new ResponseValidationError({
      method: 'GET',
      url,
      issues: [{ path: ['data', 'total'], message: `The index said ${total} attestations of ${address} but ${pages.length} page(s) held ${rows.length} distinct ones: it changed while it was read. Read it again.` }],
    })
  }
  return rows
}
