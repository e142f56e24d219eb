/**
 * Where the verifier finds clean-hands attestation ids: one index read per address (E8), or the
 * index's listing by schema and attester (100 attestations a page, one listing for every voter).
 * It picks, per call, whichever takes fewer requests: the listing's first page tells its `total`.
 * Either way the rows only name candidates; the verifier confirms each one on-chain at the block.
 */
import type { Address } from 'viem'
import { collectAttestationListing, uniqueListedRows, type ListingPageLike } from '../http/listing.js'
import { InvalidParameterError } from '../errors/index.js'
import { isMalformedAttestationRow, type MalformedAttestationRow } from '../schemas/attestation.js'
import { runBounded } from '../chain/multicall.js'
import type { CleanHandsRow } from './clean-hands.js'
import { indexRowsByVoter } from '../rules/clean-hands-index.js'

/**
 * A row of the index's listing as the verifier reads it: an index row that names its
 * `recipients` instead of saying `isReceiver` (the listing is not about one address).
 */
export type ListedCleanHandsRow = Omit<CleanHandsRow, 'isReceiver'> & { recipients: readonly string[] }

/**
 * Where clean-hands attestation rows come from (the attestation-index client fits).
 * `getAttestations` reads one address's rows (E8). `getAttestationListingPage`, when present, reads
 * one page of the listing by schema and attester, which lets the verifier serve many voters with a
 * few pages.
 *
 * @example
 * import type { AttestationIndex } from 'personhood'
 * const attestationIndex: AttestationIndex = { getAttestations: async ({ address }) => rowsByAddress[address] ?? [] }
 */
export type AttestationIndex = {
  getAttestations(args: { address: string }): Promise<readonly (CleanHandsRow | MalformedAttestationRow)[]>
  getAttestationListingPage?(args: { schemaId: string; attester: string; page: number }): Promise<ListingPageLike<ListedCleanHandsRow | MalformedAttestationRow>>
}

/**
 * How the verifier reads the index: `address` (one E8 read per address), `listing` (every page of
 * the listing by schema and attester) or `auto` (the listing when its pages are no more than the
 * addresses, else per address).
 */
export type AttestationLookup = 'auto' | 'listing' | 'address'

/**
 * Which way the index was read, and what it cost. `address`: one E8 read (at least one request)
 * per address; `probed` when the listing's first page was read to decide (one more request).
 * `listing`: the pages read, and the listing's `total`.
 */
export type AttestationLookupSummary =
  | { path: 'address'; addresses: number; probed?: { total: number | undefined; size: number | undefined } | undefined }
  | { path: 'listing'; pages: number; total: number | undefined }

/** Parameters of {@link findCleanHandsRows}. */
export type FindCleanHandsRowsParameters = {
  index: AttestationIndex
  /** Lower-case, distinct. */
  addresses: readonly Address[]
  /** The listing's schema (`onchain_evm_10_0x8`) and attester. */
  schemaId: string
  attester: Address
  lookup: AttestationLookup
  /** Requests in flight, at most. */
  concurrency: number
}

/** Per address (in the order given), its rows; and the way they were read. */
export type FindCleanHandsRowsReturnType = { rows: (readonly (CleanHandsRow | MalformedAttestationRow)[])[]; summary: AttestationLookupSummary }

/**
 * Checks `lookup` against the index before any request.
 *
 * @throws {InvalidParameterError} for an unknown lookup, or `listing` with an index that cannot list.
 */
export function parseAttestationLookup(value: unknown, index: AttestationIndex | undefined): AttestationLookup {
  if (value === undefined) return 'auto'
  if (value !== 'auto' && value !== 'listing' && value !== 'address') {
    throw new InvalidParameterError({ parameter: 'attestationLookup', reason: `Expected 'auto', 'listing' or 'address', got ${String(value)}.` })
  }
  if (value === 'listing' && typeof index?.getAttestationListingPage !== 'function') {
    throw new InvalidParameterError({
      parameter: 'attestationLookup',
      reason: "'listing' needs an attestation index with getAttestationListingPage (the attestation-index client has it).",
    })
  }
  return value
}

/**
 * Reads the index rows of every address the cheaper way (see {@link AttestationLookup}). Listed
 * rows are handed to each address they name (`recipients`, any letter case) as rows of which it is
 * the receiver; a listed attestation naming no address asked about is dropped.
 *
 * Requests: `address`: one E8 read per address (more for an address with over a page of rows).
 * `listing`: `ceil(total / size)` pages. `auto` with two or more addresses reads the listing's
 * first page, then the rest of the listing when `pages - 1 <= addresses`, else one E8 read per
 * address; with one address it reads E8 only.
 *
 * @throws {InvalidParameterError} when the index answers something that is not rows.
 * @throws {ResponseValidationError} for two different rows under one attestation id (the one rule
 *   for duplicated rows), whichever way the index was read.
 * @throws {PaginationLimitError} / {@link ResponseValidationError} / {@link HttpRequestError} as the index answers.
 */
export async function findCleanHandsRows(parameters: FindCleanHandsRowsParameters): Promise<FindCleanHandsRowsReturnType> {
  const { index, addresses, schemaId, attester, lookup, concurrency } = parameters
  const listPage = index.getAttestationListingPage?.bind(index)
  const perAddress = async (probed?: { total: number | undefined; size: number | undefined }): Promise<FindCleanHandsRowsReturnType> => ({
    rows: await runBounded(addresses, concurrency, async (address) => {
      const answer = await index.getAttestations({ address })
      if (!Array.isArray(answer)) {
        throw new InvalidParameterError({ parameter: 'attestationIndex', reason: `getAttestations({ address: ${address} }) did not return an array of rows.` })
      }
      return uniqueListedRows(answer as readonly (CleanHandsRow | MalformedAttestationRow)[], `attestation index rows of ${address}`)
    }),
    summary: { path: 'address', addresses: addresses.length, ...(probed ? { probed } : {}) },
  })
  if (addresses.length === 0) return { rows: [], summary: { path: 'address', addresses: 0 } }
  if (lookup === 'address' || listPage === undefined || (lookup === 'auto' && addresses.length < 2)) return perAddress()

  const url = `attestation index listing ?schemaId=${schemaId}&attester=${attester}`
  const fetchPage = (page: number) => listPage({ schemaId, attester, page })
  const first = await fetchPage(1)
  if (lookup === 'auto') {
    const total = typeof first?.total === 'number' ? first.total : undefined
    const size = typeof first?.size === 'number' && first.size > 0 ? first.size : Array.isArray(first?.items) && first.items.length > 0 ? first.items.length : undefined
    // Without a total the listing's length is unknown: per address is the bounded choice.
    const pages = total === undefined ? undefined : size === undefined ? (total === 0 ? 1 : undefined) : Math.max(1, Math.ceil(total / size))
    if (pages === undefined || pages - 1 > addresses.length) return perAddress({ total, size })
  }
  const listing = await collectAttestationListing<ListedCleanHandsRow | MalformedAttestationRow>({ fetchPage, first, url, concurrency })
  // Each row goes to the addresses its recipients name (the rule's indexRowsByVoter). A malformed
  // row goes to the addresses it names, if any, and is judged malformed there (as on E8); one that
  // names none cannot be any voter's.
  const named = listing.rows.map((row) => {
    const raw: unknown = isMalformedAttestationRow(row) ? row.row : row
    return { recipients: typeof raw === 'object' && raw !== null ? (raw as { recipients?: unknown }).recipients : undefined, row }
  })
  const byVoter = indexRowsByVoter(named, addresses)
  const rows = addresses.map((address) =>
    (byVoter[address.toLowerCase()] ?? []).map(({ row }): CleanHandsRow | MalformedAttestationRow => (isMalformedAttestationRow(row) ? row : { ...row, isReceiver: true })),
  )
  return { rows, summary: { path: 'listing', pages: listing.pages, total: listing.total } }
}
