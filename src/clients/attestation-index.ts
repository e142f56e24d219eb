/**
 * Client of the attestation index (E8): the Sign Protocol attestations of an address, every page.
 * The clean-hands rule that reads them is re-exported from `verify/clean-hands`.
 */
import { InvalidParameterError, ResponseValidationError } from '../errors/index.js'
import { createTransport, type Transport, type TransportOptions } from '../http/transport.js'
import { paginate } from '../http/paginate.js'
import { attestationPageResponseSchema, type AttestationRow, type MalformedAttestationRow } from '../schemas/attestation.js'
import { normalizeAddress } from '../utils/address.js'
import { parsePositiveInteger } from '../utils/parse.js'

/** The clean-hands rule (interface E, rule 6), from `verify/clean-hands`: judge the rows this client reads. */
export {
  hasValidCleanHandsAttestation,
  isValidCleanHandsAttestation,
  type CleanHandsOptions,
  type CleanHandsRow,
} from '../verify/clean-hands.js'

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
      const last =
        rows.length === 0 ||
        (total !== undefined ? page * (size ?? rows.length) >= total : size === undefined || rows.length < size)
      return { items: rows, page, total, next: last ? null : String(page + 1) }
    },
    { maxPages, maxItems },
  )
}

/**
 * Reads every attestation row of an address from the index (E8), following all pages. Judge the
 * rows with {@link isValidCleanHandsAttestation} / {@link hasValidCleanHandsAttestation}.
 *
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
  for await (const page of iterateIndexedAttestationPages(client, parameters)) rows.push(...page.items)
  return rows
}

function checkGuard(value: unknown, name: string): number {
  return parsePositiveInteger(value, name)
}
