export {
  checkCleanHandsAttestation,
  checkOnchainCleanHandsAttestation,
  hasValidCleanHandsAttestation,
  isValidCleanHandsAttestation,
  type CleanHandsOptions,
  type CleanHandsRow,
  type CleanHandsRowReason,
  type OnchainCleanHandsAttestation,
  type OnchainCleanHandsReason,
} from './clean-hands.js'
export {
  verifyCredentials,
  type AttestationEvidence,
  type AttestationIndex,
  type AttestationIndexEvidence,
  type CredentialEvidence,
  type CredentialReason,
  type CredentialResult,
  type LegacyStoreEvidence,
  type SbtEvidence,
  type VerifyCredentialsParameters,
  type VerifyCredentialsReturnType,
} from './credentials.js'
export {
  signStampCredential,
  stampIssuerDid,
  stampProofHeader,
  stampVerificationMethod,
  verifyStampCredential,
  type StampCredentialCheck,
  type StampProofReason,
} from './stamp-credential.js'
export { classifySbt, type ClassifySbtParameters, type SbtCallResult, type SbtClassification, type SbtOwnersState, type SbtReason } from './sbt.js'
