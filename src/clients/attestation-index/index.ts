/**
 * Client of the attestation index: the Sign Protocol attestations of an address, every page (E8),
 * and the listing of every attestation of a schema by an attester, 100 rows a page (one listing
 * serves many addresses at once). The clean-hands rule that judges them is in `verify/clean-hands`
 * (a layer above: it is not re-exported here). One action per module.
 */

/** The paging of a listing (`http/listing`), re-exported beside the actions that use it. */
export {
  collectAttestationListing,
  defaultAttestationListingMaxItems,
  defaultAttestationListingMaxPages,
  type CollectAttestationListingParameters,
  type CollectAttestationListingReturnType,
  type ListingPageLike,
} from '../../http/listing.js'
export {
  createAttestationIndexClient,
  type AttestationIndexClient,
  type CreateAttestationIndexClientParameters,
} from './client.js'
export {
  defaultAttestationIndexBaseUrl,
  defaultAttestationMaxItems,
  defaultAttestationMaxPages,
  type AttestationIndexContext,
} from './context.js'
export {
  iterateIndexedAttestationPages,
  type GetIndexedAttestationsParameters,
  type IndexedAttestationPage,
  type IndexedAttestationRow,
} from './iterate-indexed-attestation-pages.js'
export { getIndexedAttestations, type GetIndexedAttestationsReturnType } from './get-indexed-attestations.js'
export {
  getAttestationListingPage,
  type AttestationListingPageResult,
  type GetAttestationListingPageParameters,
  type ListedAttestationRow,
} from './get-attestation-listing-page.js'
export { iterateAttestationListing } from './iterate-attestation-listing.js'
export { listAttestations, type ListAttestationsParameters, type ListAttestationsReturnType } from './list-attestations.js'
