/**
 * Client of interface E1-E7, Human ID individual verifications: per-user results (E1-E3), the
 * voting-strategy batch format (E4-E6) and the clean-hands SBT check (E7). One action per module.
 */

export { createHumanIdClient, type CreateHumanIdClientParameters, type HumanIdClient } from './client.js'
export type { ActionId, HumanIdContext, SnapshotBlock } from './context.js'
export {
  getHumanIdVerification,
  type GetHumanIdVerificationErrorType,
  type GetHumanIdVerificationParameters,
  type GetHumanIdVerificationReturnType,
} from './get-human-id-verification.js'
export {
  getHumanIdVotingStrategyScores,
  type GetHumanIdVotingStrategyScoresErrorType,
  type GetHumanIdVotingStrategyScoresParameters,
  type GetHumanIdVotingStrategyScoresReturnType,
} from './get-human-id-voting-strategy-scores.js'
export {
  getHumanIdCleanHandsSbt,
  type GetHumanIdCleanHandsSbtErrorType,
  type GetHumanIdCleanHandsSbtParameters,
  type GetHumanIdCleanHandsSbtReturnType,
} from './get-human-id-clean-hands-sbt.js'
