/**
 * Typed client of interface A (stamp scoring v2) and interface B (model scoring): one function per
 * endpoint, usable alone with a {@link PassportContext} or bound by {@link createPassportClient}.
 * One action per module.
 */
export { createPassportClient, type CreatePassportClientParameters, type PassportClient } from './client.js'
export type { PassportContext } from './context.js'
export { getScore, type GetScoreErrorType, type GetScoreParameters, type GetScoreReturnType } from './get-score.js'
export {
  getScoreHistory,
  type GetScoreHistoryErrorType,
  type GetScoreHistoryParameters,
  type GetScoreHistoryReturnType,
} from './get-score-history.js'
export { listStamps, type ListStampsErrorType, type ListStampsParameters, type ListStampsReturnType } from './list-stamps.js'
export { iterateStamps, type IterateStampsErrorType, type IterateStampsParameters, type IterateStampsReturnType } from './iterate-stamps.js'
export {
  getStampMetadata,
  type GetStampMetadataErrorType,
  type GetStampMetadataParameters,
  type GetStampMetadataReturnType,
} from './get-stamp-metadata.js'
export { getModelScore, type GetModelScoreErrorType, type GetModelScoreParameters, type GetModelScoreReturnType } from './get-model-score.js'
