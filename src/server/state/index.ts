export { buildStampCredential, checkStampCredential, type CredentialProblem, type CredentialInput, type StampCredentialJson } from './credentials.js'
export {
  createEmptyState,
  defaultChain,
  issuerFromKey,
  parseState,
  randomSecret,
  referenceIssuer,
  secretsEqual,
  Store,
  type ChangeListener,
  type NonceFailure,
  type NonceKind,
  type ScoreOptions,
  type StampWrite,
} from './store.js'
export { readAt, readCount, recordRead, type HistoryWrite } from './history.js'
export { SubmissionIndex, type SubmissionPage, type SubmissionPageQuery } from './listing.js'
export { stateFromWorld, type StateFromWorldOptions } from './world.js'
export * from './types.js'
