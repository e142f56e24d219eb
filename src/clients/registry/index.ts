/**
 * Typed client of interface C (the legacy v1 registry): one function per endpoint, usable alone
 * with a {@link RegistryContext} or bound by {@link createRegistryClient}. One action per module.
 */
export { createRegistryClient, type CreateRegistryClientParameters, type RegistryClient } from './client.js'
export type { RegistryContext } from './context.js'
export {
  getSigningMessage,
  type GetSigningMessageErrorType,
  type GetSigningMessageParameters,
  type GetSigningMessageReturnType,
} from './get-signing-message.js'
export { submitPassport, type SubmitPassportErrorType, type SubmitPassportParameters, type SubmitPassportReturnType } from './submit-passport.js'
export {
  getRegistryScore,
  type GetRegistryScoreErrorType,
  type GetRegistryScoreParameters,
  type GetRegistryScoreReturnType,
} from './get-registry-score.js'
export { waitForScore, type WaitForScoreErrorType, type WaitForScoreParameters, type WaitForScoreReturnType } from './wait-for-score.js'
export { listScores, type ListScoresErrorType, type ListScoresParameters, type ListScoresReturnType, type ScoreFilters } from './list-scores.js'
export {
  iterateScores,
  type IterateScoresErrorType,
  type IterateScoresPage,
  type IterateScoresParameters,
  type IterateScoresReturnType,
} from './iterate-scores.js'
export {
  listRegistryStamps,
  type ListRegistryStampsErrorType,
  type ListRegistryStampsParameters,
  type ListRegistryStampsReturnType,
} from './list-registry-stamps.js'
export {
  iterateRegistryStamps,
  type IterateRegistryStampsErrorType,
  type IterateRegistryStampsParameters,
  type IterateRegistryStampsReturnType,
} from './iterate-registry-stamps.js'
export {
  getRegistryStampMetadata,
  type GetRegistryStampMetadataErrorType,
  type GetRegistryStampMetadataParameters,
  type GetRegistryStampMetadataReturnType,
} from './get-registry-stamp-metadata.js'
export { getTokenStake, type GetTokenStakeErrorType, type GetTokenStakeParameters, type GetTokenStakeReturnType } from './get-token-stake.js'
