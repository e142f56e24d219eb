/** E8 of the attestation index, page by page: an address's attestations. */
import { ResponseValidationError } from '../../errors/index.js'
import { isLastPage } from '../../http/listing.js'
import { paginate } from '../../http/paginate.js'
import { attestationPageResponseSchema, type AttestationRow, type MalformedAttestationRow } from '../../schemas/attestation.js'
import { normalizeAddress } from '../../utils/address.js'
import { checkGuard, defaultAttestationMaxItems, defaultAttestationMaxPages, type AttestationIndexContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType, PaginationLimitErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getIndexedAttestations} and {@link iterateIndexedAttestationPages}. */
export type GetIndexedAttestationsParameters = {
  address: string
  /** Most pages to follow before a {@link PaginationLimitError}. Default 100. */
  maxPages?: number | undefined
  /** Most rows to collect before a {@link PaginationLimitError}. Default 10,000. */
  maxItems?: number | undefined
  signal?: AbortSignal | undefined
}

/** A row as the index sent it: readable, or kept as a {@link MalformedAttestationRow} for the rule to judge `malformed`. */
export type IndexedAttestationRow = AttestationRow | MalformedAttestationRow

/** One page of the index: its rows, the page number (from 1) and the index's `total`, when sent. */
export type IndexedAttestationPage = { items: IndexedAttestationRow[]; page: number; total: number | undefined; next: string | null }

/** Parameters of {@link iterateIndexedAttestationPages}: those of {@link getIndexedAttestations}. */
export type IterateIndexedAttestationPagesParameters = GetIndexedAttestationsParameters

/** What {@link iterateIndexedAttestationPages} yields: the index's pages, in order. */
export type IterateIndexedAttestationPagesReturnType = AsyncGenerator<IndexedAttestationPage, void, undefined>

/** What {@link iterateIndexedAttestationPages} throws (see its `@throws`). */
export type IterateIndexedAttestationPagesErrorType = 
  | InvalidAddressErrorType
  | InvalidParameterErrorType
  | PaginationLimitErrorType
  | RequestErrorType

/**
 * Yields the index's pages of an address's attestations (E8,
 * `GET /api/scan/addresses/{address}/attestations?page=N`, from page 1). It stops at an empty page,
 * when `page * size >= total`, at a short page when no `total` is sent, or after the first page of
 * an index that sends neither (the spec's `{ data: { rows } }`).
 *
 * @throws {InvalidAddressError} before any request for a malformed address.
 * @throws {InvalidParameterError} before any request for a bad `maxPages` or `maxItems`.
 * @throws {PaginationLimitError} when the index goes past `maxPages` or `maxItems` (a server that never stops).
 * @throws {ResponseValidationError} for a malformed page, or a page other than the one asked.
 * @throws {HttpRequestError} and subclasses as the server answers.
 * @example
 * import { createAttestationIndexClient, iterateIndexedAttestationPages } from 'personhood'
 * for await (const page of iterateIndexedAttestationPages(createAttestationIndexClient(), { address })) console.log(page.items.length)
 */
export async function* iterateIndexedAttestationPages(
  client: AttestationIndexContext,
  parameters: IterateIndexedAttestationPagesParameters,
): IterateIndexedAttestationPagesReturnType {
  const address = normalizeAddress(parameters.address)
  const maxPages = checkGuard(parameters.maxPages ?? defaultAttestationMaxPages, 'maxPages')
  const maxItems = checkGuard(parameters.maxItems ?? defaultAttestationMaxItems, 'maxItems')
  const path = `/api/scan/addresses/${address}/attestations`
  yield* paginate<IndexedAttestationRow, IndexedAttestationPage>(
    async (cursor) => {
      const page = cursor === undefined ? 1 : Number(cursor)
      const { data } = await client.transport.request({ method: 'GET', path, query: { page }, schema: attestationPageResponseSchema, signal: parameters.signal })
      const { rows, size, total } = data.data
      if (data.data.page !== undefined && data.data.page !== page) {
        throw new ResponseValidationError({
          method: 'GET',
          url: client.transport.buildUrl(path, { page }),
          issues: [{ path: ['data', 'page'], message: `Asked for page ${page}, got page ${data.data.page}` }],
        })
      }
      return { items: rows, page, total, next: isLastPage({ page, rows: rows.length, size, total }) ? null : String(page + 1) }
    },
    { maxPages, maxItems },
  )
}
