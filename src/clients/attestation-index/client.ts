/** The attestation-index client: an {@link AttestationIndexContext} with the E8 and listing actions bound to it. */
import { InvalidParameterError } from '../../errors/index.js'
import { createTransport, type TransportOptions } from '../../http/transport.js'
import { defaultAttestationIndexBaseUrl, type AttestationIndexContext } from './context.js'
import {
  getAttestationListingPage,
  type AttestationListingPageResult,
  type GetAttestationListingPageParameters,
} from './get-attestation-listing-page.js'
import { getIndexedAttestations, type GetIndexedAttestationsReturnType } from './get-indexed-attestations.js'
import { iterateAttestationListing } from './iterate-attestation-listing.js'
import {
  iterateIndexedAttestationPages,
  type GetIndexedAttestationsParameters,
  type IndexedAttestationPage,
} from './iterate-indexed-attestation-pages.js'
import { listAttestations, type ListAttestationsParameters, type ListAttestationsReturnType } from './list-attestations.js'

/** What {@link createAttestationIndexClient} accepts. */
export type CreateAttestationIndexClientParameters = TransportOptions & {
  /** Default `https://mainnet-rpc.sign.global`. */
  baseUrl?: string | undefined
}

/** The attestation-index client; it fits `verifyCredentials(client, { attestationIndex })`. */
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
