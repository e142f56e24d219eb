/**
 * Client of the attestation index: the Sign Protocol attestations of an address, every page (E8),
 * and the listing of every attestation of a schema by an attester, 100 rows a page (one listing
 * serves many addresses at once). The clean-hands rule that judges them is in `verify/clean-hands`
 * (a layer above: it is not re-exported here). One action per module.
 */

export { createAttestationIndexClient, type AttestationIndexClient, type CreateAttestationIndexClientParameters } from './client.js'
export type { AttestationIndexContext } from './context.js'
export {
  iterateIndexedAttestationPages,
  type GetIndexedAttestationsParameters,
  type IndexedAttestationPage,
  type IndexedAttestationRow,
  type IterateIndexedAttestationPagesErrorType,
  type IterateIndexedAttestationPagesParameters,
  type IterateIndexedAttestationPagesReturnType,
} from './iterate-indexed-attestation-pages.js'
export { getIndexedAttestations, type GetIndexedAttestationsErrorType, type GetIndexedAttestationsReturnType } from './get-indexed-attestations.js'
export {
  getAttestationListingPage,
  type AttestationListingPageResult,
  type GetAttestationListingPageErrorType,
  type GetAttestationListingPageParameters,
  type GetAttestationListingPageReturnType,
  type ListedAttestationRow,
} from './get-attestation-listing-page.js'
export {
  iterateAttestationListing,
  type IterateAttestationListingErrorType,
  type IterateAttestationListingParameters,
  type IterateAttestationListingReturnType,
} from './iterate-attestation-listing.js'
export {
  listAttestations,
  type ListAttestationsErrorType,
  type ListAttestationsParameters,
  type ListAttestationsReturnType,
} from './list-attestations.js'
