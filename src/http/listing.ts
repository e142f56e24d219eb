/**
 * The paging of a page-numbered listing (the attestation index's listing by schema and attester):
 * read page 1, then the rest several at a time, each row once. Transport-level: it takes a
 * `fetchPage` function and knows nothing of a client; `clients/attestation-index` reads the index
 * with it, and `verify/attestation-lookup` reads a listing it is handed.
 */
import { uniqueIndexRows } from '../rules/clean-hands-index.js'
import { listedRowCount } from '../rules/listed-rows.js'
import { ConflictingRowsError } from '../rules/rows-error.js'
import { PaginationLimitError, ResponseValidationError } from '../errors/index.js'
import { isMalformedAttestationRow } from '../schemas/attestation.js'
import { parsePositiveInteger } from '../utils/parse.js'
import { mapWithConcurrency } from './concurrency.js'

/** Default guard: most pages one listing follows (100,000 rows at 100 a page). */
export const defaultAttestationListingMaxPages = 1000
/** Default guard: most rows one listing collects. */
export const defaultAttestationListingMaxItems = 100_000

/** What {@link collectAttestationListing} returns. */
export type CollectAttestationListingReturnType<row> = {
  /** Every row listed, each once (by `attestationId`), in the listing's order. */
  rows: row[]
  /** The first page's `total`; undefined when the listing sends none. */
  total: number | undefined
  /** Pages read, the first one included (also when it was handed in as `first`). */
  pages: number
}

/** A listing page as {@link collectAttestationListing} reads it. */
export type ListingPageLike<row> = { items: readonly row[]; size?: number | undefined; total?: number | undefined }

/** Parameters of {@link collectAttestationListing}. */
export type CollectAttestationListingParameters<row> = {
  /** Reads page `page` (from 1). */
  fetchPage(page: number): Promise<ListingPageLike<row>>
  /** Page 1 when it was already read (it is not read again). */
  first?: ListingPageLike<row> | undefined
  /** The listing's address, for error messages. */
  url: string
  /** Pages in flight at once, at most. Default 4. */
  concurrency?: number | undefined
  /** Default 1,000. */
  maxPages?: number | undefined
  /** Default 100,000. */
  maxItems?: number | undefined
}

/**
 * Collects a page-numbered listing: page 1 (or `first`), then pages 2 to `ceil(total / size)`
 * several at a time; when a later page reports a larger `total` (attestations made meanwhile),
 * the extra pages too. An index that sends no `total` is read page after page until a short page.
 * Rows are kept once per `attestationId` (an insertion shifts the pages, so a row may be listed
 * twice; two different rows under one id are an error: {@link uniqueListedRows}). Fewer distinct rows than the first page's `total` means rows were lost while the pages
 * shifted: that is an error, never a silently short listing.
 *
 * @throws {PaginationLimitError} when the listing needs more than `maxPages` pages or `maxItems` rows.
 * @throws {ResponseValidationError} for a page without rows, with a bad `size` or `total`, a
 *   listing that lost rows while it was read, or two different rows under one attestation id.
 * @example
 * import { getAttestationListingPage } from 'personhood'
 * import { collectAttestationListing } from './listing.js'
 * const { rows } = await collectAttestationListing({ fetchPage: (page) => getAttestationListingPage(client, { ...listing, page }), url })
 */
export async function collectAttestationListing<row>(
  parameters: CollectAttestationListingParameters<row>,
): Promise<CollectAttestationListingReturnType<row>> {
  const { url, fetchPage } = parameters
  const maxPages = parsePositiveInteger(parameters.maxPages ?? defaultAttestationListingMaxPages, 'maxPages')
  const maxItems = parsePositiveInteger(parameters.maxItems ?? defaultAttestationListingMaxItems, 'maxItems')
  const concurrency = parsePositiveInteger(parameters.concurrency ?? 4, 'concurrency')
  const invalid = (path: (string | number)[], message: string) => new ResponseValidationError({ method: 'GET', url, issues: [{ path, message }] })
  const read = async (page: number): Promise<ListingPageLike<row>> => {
    const answer = await fetchPage(page)
    if (typeof answer !== 'object' || answer === null || !Array.isArray(answer.items)) throw invalid(['data', 'rows'], `Page ${page} has no rows array.`)
    for (const [name, value] of [['total', answer.total], ['size', answer.size]] as const) {
      if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) throw invalid(['data', name], `Page ${page}: ${name} is ${String(value)}, not a count.`)
    }
    return answer
  }
  const first = parameters.first ?? (await read(1))
  const pages: ListingPageLike<row>[] = [first]
  let items = first.items.length
  const add = (page: ListingPageLike<row>) => {
    items += page.items.length
    if (items > maxItems) throw new PaginationLimitError({ kind: 'items', limit: maxItems, url })
    return page
  }
  if (items > maxItems) throw new PaginationLimitError({ kind: 'items', limit: maxItems, url })
  if (first.total === undefined) {
    // No total: page after page until a short one.
    let last = first
    while (!isLastPage({ page: pages.length, rows: last.items.length, size: last.size, total: undefined })) {
      if (pages.length >= maxPages) throw new PaginationLimitError({ kind: 'pages', limit: maxPages, url })
      last = add(await read(pages.length + 1))
      pages.push(last)
    }
  } else {
    const size = first.size ?? first.items.length
    if (first.total > 0 && size === 0) throw invalid(['data', 'size'], `The listing says total ${first.total} but its first page is empty.`)
    let total = first.total
    for (;;) {
      const needed = size === 0 ? 1 : Math.ceil(total / size)
      if (needed > maxPages) throw new PaginationLimitError({ kind: 'pages', limit: maxPages, url })
      if (needed <= pages.length) break
      const numbers = Array.from({ length: needed - pages.length }, (_, index) => pages.length + index + 1)
      const more = await mapWithConcurrency(numbers, concurrency, async (page) => add(await read(page)))
      pages.push(...more)
      total = Math.max(total, ...more.map((page) => page.total ?? 0))
    }
  }
  const rows = uniqueListedRows(
    pages.flatMap((page) => page.items),
    url,
  )
  // A row listed again on its own page counts in the total (rules/listed-rows.ts's listedRowCount); one
  // listed again on another page is a shift, and a shift may have dropped a row.
  const listed = listedRowCount(pages.map((page) => page.items), listedAttestationId)
  if (first.total !== undefined && listed < first.total) {
    throw invalid(
      ['data', 'total'],
      `The listing said ${first.total} attestations but ${pages.length} page(s) held ${rows.length} distinct ones${listed > rows.length ? ` (and ${listed - rows.length} listed again on their page)` : ''}: it changed while it was read. Read it again.`,
    )
  }
  return { rows, total: first.total, pages: pages.length }
}

/** Whether a page is the last one: empty, past `total`, or (without a total) shorter than `size`. */
export function isLastPage({ page, rows, size, total }: { page: number; rows: number; size: number | undefined; total: number | undefined }): boolean {
  if (rows === 0) return true
  if (total !== undefined) return page * (size ?? rows) >= total
  return size === undefined || rows < size
}

/** A listed row's attestation id in lower case (a malformed row's, when it has one as a string). */
export function listedAttestationId(entry: unknown): string | undefined {
  const row = isMalformedAttestationRow(entry) ? entry.row : entry
  const id = typeof row === 'object' && row !== null ? (row as { attestationId?: unknown }).attestationId : undefined
  return typeof id === 'string' ? id.toLowerCase() : undefined
}

/**
 * Listed rows once per attestation id (pages that shift while read list a row twice), by the rule
 * of src/rules/clean-hands-index.ts (uniqueIndexRows): the same row
 * again (its id or addresses in any letter case, its keys in any order) is kept once; two different
 * rows under one attestation id are a {@link ResponseValidationError} naming the id and its
 * recipients, never a verdict taken from whichever came first. Rows without an id are kept as they
 * are (the rule judges them malformed). The listing's order is kept.
 *
 * @throws {ResponseValidationError} for two different rows under one attestation id.
 */
export function uniqueListedRows<row>(entries: readonly row[], url: string): row[] {
  const raws: unknown[] = entries.map((entry) => (isMalformedAttestationRow(entry) ? entry.row : entry))
  let kept: unknown[]
  try {
    kept = uniqueIndexRows(raws, url)
  } catch (error) {
    if (!(error instanceof ConflictingRowsError)) throw error
    const recipients = (raws.find((raw) => listedAttestationId(raw) === error.address) as { recipients?: unknown } | undefined)?.recipients
    throw new ResponseValidationError({
      method: 'GET',
      url,
      issues: [
        {
          path: ['data', 'rows'],
          message: `The index answered two different rows for attestation ${error.address} (recipients ${Array.isArray(recipients) ? recipients.map(String).join(', ') : 'none'}): which one is true cannot be told. Read it again.`,
        },
      ],
    })
  }
  // The rule answers the rows it keeps; take them back in the listing's order, with their wrappers.
  const left = new Map<unknown, number>()
  for (const raw of kept) left.set(raw, (left.get(raw) ?? 0) + 1)
  return entries.filter((_, index) => {
    const count = left.get(raws[index]) ?? 0
    if (count > 0) left.set(raws[index], count - 1)
    return count > 0
  })
}
