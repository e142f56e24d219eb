/**
 * Client of interface D, the bearer-authenticated stamp cache (path prefix `/stamp-cache`): wallet
 * sign-in (SIWE, D13), bulk stamp writes (D1-D4), reads (D5-D9) and terms of service (D10-D12).
 * One action per module under `stamp-cache/`; this module is their public face.
 */
export { createStampCacheClient, type StampCacheClient } from './client.js'
export type { CacheStampInput, CreateStampCacheClientParameters, StampCacheContext, StampCacheRequestOptions, StampCacheSigner } from './context.js'
export {
  signInToStampCache,
  type SignInToStampCacheErrorType,
  type SignInToStampCacheParameters,
  type SignInToStampCacheReturnType,
} from './sign-in-to-stamp-cache.js'
export {
  getStampCacheSignInNonce,
  type GetStampCacheSignInNonceErrorType,
  type GetStampCacheSignInNonceParameters,
  type GetStampCacheSignInNonceReturnType,
} from './get-stamp-cache-sign-in-nonce.js'
export {
  addCachedStamps,
  type AddCachedStampsErrorType,
  type AddCachedStampsParameters,
  type AddCachedStampsReturnType,
} from './add-cached-stamps.js'
export {
  updateCachedStamps,
  type UpdateCachedStampsErrorType,
  type UpdateCachedStampsParameters,
  type UpdateCachedStampsReturnType,
} from './update-cached-stamps.js'
export {
  deleteCachedStamps,
  type DeleteCachedStampsErrorType,
  type DeleteCachedStampsParameters,
  type DeleteCachedStampsReturnType,
  type DeleteStampInput,
} from './delete-cached-stamps.js'
export {
  updateCachedStampSaveStatus,
  type SaveStatusInput,
  type UpdateCachedStampSaveStatusErrorType,
  type UpdateCachedStampSaveStatusParameters,
  type UpdateCachedStampSaveStatusReturnType,
} from './update-cached-stamp-save-status.js'
export {
  getStampCacheWeights,
  type GetStampCacheWeightsErrorType,
  type GetStampCacheWeightsParameters,
  type GetStampCacheWeightsReturnType,
} from './get-stamp-cache-weights.js'
export {
  getCachedStamps,
  type GetCachedStampsErrorType,
  type GetCachedStampsParameters,
  type GetCachedStampsReturnType,
} from './get-cached-stamps.js'
export {
  getStampCacheScore,
  type GetStampCacheScoreErrorType,
  type GetStampCacheScoreParameters,
  type GetStampCacheScoreReturnType,
} from './get-stamp-cache-score.js'
export {
  calculateStampCacheScore,
  type CalculateStampCacheScoreErrorType,
  type CalculateStampCacheScoreParameters,
  type CalculateStampCacheScoreReturnType,
} from './calculate-stamp-cache-score.js'
export {
  getStampCacheStakes,
  type GetStampCacheStakesErrorType,
  type GetStampCacheStakesParameters,
  type GetStampCacheStakesReturnType,
} from './get-stamp-cache-stakes.js'
export {
  isStampCacheTosAccepted,
  type IsStampCacheTosAcceptedErrorType,
  type IsStampCacheTosAcceptedParameters,
  type IsStampCacheTosAcceptedReturnType,
} from './is-stamp-cache-tos-accepted.js'
export {
  getStampCacheTosMessage,
  type GetStampCacheTosMessageErrorType,
  type GetStampCacheTosMessageParameters,
  type GetStampCacheTosMessageReturnType,
} from './get-stamp-cache-tos-message.js'
export {
  acceptStampCacheTos,
  type AcceptStampCacheTosErrorType,
  type AcceptStampCacheTosParameters,
  type AcceptStampCacheTosReturnType,
} from './accept-stamp-cache-tos.js'
export {
  signAndAcceptStampCacheTos,
  type SignAndAcceptStampCacheTosErrorType,
  type SignAndAcceptStampCacheTosParameters,
  type SignAndAcceptStampCacheTosReturnType,
} from './sign-and-accept-stamp-cache-tos.js'
