/**
 * Client of interface E1-E7, Human ID individual verifications: per-user results (E1-E3), the
 * voting-strategy batch format (E4-E6) and the clean-hands SBT check (E7). One action per module.
 */

/** The default action id, 123456789n: universal (not app-specific) uniqueness. */
export { defaultActionId } from '../../schemas/human-id.js'
export { createHumanIdClient, type CreateHumanIdClientParameters, type HumanIdClient } from './client.js'
export {
  defaultHumanIdBaseUrl,
  defaultMaxUrlLength,
  defaultVotingStrategyPath,
  publicVotingStrategyPath,
  type ActionId,
  type HumanIdContext,
  type SnapshotBlock,
} from './context.js'
export {
  getHumanIdVerification,
  type GetHumanIdVerificationParameters,
  type GetHumanIdVerificationReturnType,
} from './get-human-id-verification.js'
export {
  getHumanIdVotingStrategyScores,
  type GetHumanIdVotingStrategyScoresParameters,
  type GetHumanIdVotingStrategyScoresReturnType,
} from './get-human-id-voting-strategy-scores.js'
export {
  getHumanIdCleanHandsSbt,
  type GetHumanIdCleanHandsSbtParameters,
  type GetHumanIdCleanHandsSbtReturnType,
} from './get-human-id-clean-hands-sbt.js'
