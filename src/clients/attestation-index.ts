/**
 * Client of the attestation index: the Sign Protocol attestations of an address, every page (E8),
 * and the listing of every attestation of a schema by an attester, 100 rows a page (one listing
 * serves many addresses at once). The clean-hands rule that judges them is in `verify/clean-hands`
 * (a layer above: it is not re-exported here).
 */
import { InvalidParameterError, ResponseValidationError } from '../errors/index.js'
import { isLastPage, listedAttestationId } from '../http/listing.js'
import {
  collectAttestationListing,
  defaultAttestationListingMaxItems,
  defaultAttestationListingMaxPages,
} from '../http/listing.js'
import { createTransport, type Transport, type TransportOptions } from '../http/transport.js'
import { paginate } from '../http/paginate.js'
import {
  attestationListingResponseSchema,
  attestationPageResponseSchema,
  type AttestationListingRow,
  type AttestationRow,
  type MalformedAttestationRow,
} from '../schemas/attestation.js'
import { normalizeAddress } from '../utils/address.js'
import { parsePositiveInteger } from '../utils/parse.js'


/** The paging of a listing (`http/listing`), re-exported beside the actions that use it. */
export {
  collectAttestationListing,
  defaultAttestationListingMaxItems,
  defaultAttestationListingMaxPages,
  type CollectAttestationListingParameters,
  type CollectAttestationListingReturnType,
  type ListingPageLike,
} from '../http/listing.js'

/** The public index (`{attestation_index_url}`). */
export const defaultAttestationIndexBaseUrl = 'https://mainnet-rpc.sign.global'

/** Default guard: most pages one read follows. */
export const defaultAttestationMaxPages = 100
/** Default guard: most rows one read collects. */
export const defaultAttestationMaxItems = 10_000

/** What {@link createAttestationIndexClient} accepts. */
export type CreateAttestationIndexClientParameters = TransportOptions & {
  /** Default `https://mainnet-rpc.sign.global`. */
  baseUrl?: string | undefined
}

/** What the index actions need. An {@link AttestationIndexClient} is one. */
export type AttestationIndexContext = { readonly transport: Transport }

/** The attestation-index client; it fits `verifyCredentials({ attestationIndex })`. */
export type AttestationIndexClient = AttestationIndexContext & {
  /** E8, every page: see {@link getIndexedAttestations}. */
  getAttestations(parameters: GetIndexedAttestationsParameters): Promise<GetIndexedAttestationsReturnType>
  /** E8, page by page: see {@link iterateIndexedAttestationPages}. */
  iterateAttestationPages(parameters: GetIndexedAttestationsParameters): AsyncGenerator<IndexedAttestationPage, void, undefined>
  /** The listing by schema and attester, one page: see {@link getAttestationListingPage}. */
  getAttestationListingPage(parameters: GetAttestationListingPageParameters): Promise<AttestationListingPageResult>
  /** The listing, page by page: see {@link iterateAttestationListing}. */
  iterateAttestationListing(parameters: ListAttestationsParameters): AsyncGenerator<AttestationListingPageResult, void, undefined>
  /** The listing, every page: see {@link listAttestations}. */
  listAttestations(parameters: ListAttestationsParameters): Promise<ListAttestationsReturnType>
}

/**
 * Creates a client of the attestation index (E8).
 *
 * @param config `baseUrl` (default `https://mainnet-rpc.sign.global`) and the transport options.
 * @throws {InvalidParameterError} when `baseUrl` is not an http(s) URL.
 * @example
 * import { createAttestationIndexClient, hasValidCleanHandsAttestation } from 'personhood'
 * const index = createAttestationIndexClient()
 * const rows = await index.getAttestations({ address: '0x52908400098527886E0F7030069857D2E4169EE7' })
 * hasValidCleanHandsAttestation(rows, { now: new Date() })
 */
export function createAttestationIndexClient(config: CreateAttestationIndexClientParameters = {}): AttestationIndexClient {
  const { baseUrl = defaultAttestationIndexBaseUrl, ...transportOptions } = config
  let ok = false
  try {
    ok = typeof baseUrl === 'string' && /^https?:$/.test(new URL(baseUrl).protocol)
  } catch {
    ok = false
  }
  if (!ok) throw new InvalidParameterError({ parameter: 'baseUrl', reason: 'Expected an http(s) URL such as https://mainnet-rpc.sign.global.' })
  const context: AttestationIndexContext = { transport: createTransport({ ...transportOptions, baseUrl }) }
  return {
    ...context,
    getAttestations: (parameters) => getIndexedAttestations(context, parameters),
    iterateAttestationPages: (parameters) => iterateIndexedAttestationPages(context, parameters),
    getAttestationListingPage: (parameters) => getAttestationListingPage(context, parameters),
    iterateAttestationListing: (parameters) => iterateAttestationListing(context, parameters),
    listAttestations: (parameters) => listAttestations(context, parameters),
  }
}

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

/** Every row of every page, in the index's order. */
export type GetIndexedAttestationsReturnType = IndexedAttestationRow[]

/** One page of the index: its rows, the page number (from 1) and the index's `total`, when sent. */
export type IndexedAttestationPage = { items: IndexedAttestationRow[]; page: number; total: number | undefined; next: string | null }

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
  parameters: GetIndexedAttestationsParameters,
): AsyncGenerator<IndexedAttestationPage, void, undefined> {
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
  const rows: IndexedAttestationRow[] = []
  const seen = new Set<string>()
  let total: number | undefined
  let pages = 0
  for await (const page of iterateIndexedAttestationPages(client, parameters)) {
    pages++
    total ??= page.total
    for (const row of page.items) {
      // Pages that shifted while read list a row twice: it is kept once, and counted against the total below.
      const id = listedAttestationId(row)
      if (id !== undefined) {
        if (seen.has(id)) continue
        seen.add(id)
      }
      rows.push(row)
    }
  }
  if (total !== undefined && rows.length < total) {
    const address = normalizeAddress(parameters.address)
    throw new ResponseValidationError({
      method: 'GET',
      url: client.transport.buildUrl(`/api/scan/addresses/${address}/attestations`, {}),
      issues: [{ path: ['data', 'total'], message: `The index said ${total} attestations of ${address} but ${pages} page(s) held ${rows.length} distinct ones: it changed while it was read. Read it again.` }],
    })
  }
  return rows
}

/**
 * Whether an index page is the last: an empty page, `page * size >= total`, a short page when no
 * `total` is sent, or any page of an index that sends neither `total` nor `size`.
 */
function checkGuard(value: unknown, name: string): number {
  return parsePositiveInteger(value, name)
}

/** Parameters of {@link getAttestationListingPage}: what to list, and which page. */
export type GetAttestationListingPageParameters = {
  /** The full schema id, e.g. `onchain_evm_10_0x8` (clean hands on Optimism). */
  schemaId: string
  /** The attester whose attestations are listed. */
  attester: string
  /** Only attestations naming this recipient. */
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

/**
 * Reads one page of the index's listing of attestations by schema and attester
 * (`GET /api/index/attestations?schemaId=&attester=[&recipient=]&page=N`, 100 rows a page on the
 * public index). The query carries the attester and recipient in lower case.
 *
 * @throws {InvalidAddressError} before any request for a malformed `attester` or `recipient`.
 * @throws {InvalidParameterError} before any request for an empty `schemaId` or a bad `page`.
 * @throws {ResponseValidationError} for a malformed page, or a page other than the one asked.
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
): Promise<AttestationListingPageResult> {
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
  return { items: rows, page, size, total, next: isLastPage({ page, rows: rows.length, size, total }) ? null : String(page + 1) }
}

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
  parameters: ListAttestationsParameters,
): AsyncGenerator<AttestationListingPageResult, void, undefined> {
  listingQuery(parameters)
  const maxPages = checkGuard(parameters.maxPages ?? defaultAttestationListingMaxPages, 'maxPages')
  const maxItems = checkGuard(parameters.maxItems ?? defaultAttestationListingMaxItems, 'maxItems')
  yield* paginate<ListedAttestationRow, AttestationListingPageResult>(
    (cursor) => getAttestationListingPage(client, { ...parameters, page: cursor === undefined ? 1 : Number(cursor) }),
    { maxPages, maxItems },
  )
}

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

const attestationListingPath = '/api/index/attestations'

function listingQuery(parameters: GetAttestationListingPageParameters | ListAttestationsParameters): Record<string, string> {
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
