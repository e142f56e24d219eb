/**
 * Client of interface D, the bearer-authenticated stamp cache (path prefix `/stamp-cache`): wallet
 * sign-in (SIWE, D13), bulk stamp writes (D1-D4), reads (D5-D9) and terms of service (D10-D12).
 * One module per concern under `stamp-cache/`; this module is their public face.
 */
export { createStampCacheClient, type StampCacheClient } from './client.js'
export type { CreateStampCacheClientParameters, StampCacheContext, StampCacheRequestOptions, StampCacheSigner } from './context.js'
export {
  getStampCacheSignInNonce,
  signInToStampCache,
  type GetStampCacheSignInNonceErrorType,
  type GetStampCacheSignInNonceParameters,
  type GetStampCacheSignInNonceReturnType,
  type SignInToStampCacheErrorType,
  type SignInToStampCacheParameters,
  type SignInToStampCacheReturnType,
} from './sign-in.js'
export {
  addCachedStamps,
  deleteCachedStamps,
  updateCachedStamps,
  updateCachedStampSaveStatus,
  type AddCachedStampsErrorType,
  type AddCachedStampsParameters,
  type AddCachedStampsReturnType,
  type CacheStampInput,
  type DeleteCachedStampsErrorType,
  type DeleteCachedStampsParameters,
  type DeleteCachedStampsReturnType,
  type DeleteStampInput,
  type SaveStatusInput,
  type UpdateCachedStampSaveStatusErrorType,
  type UpdateCachedStampSaveStatusParameters,
  type UpdateCachedStampSaveStatusReturnType,
  type UpdateCachedStampsErrorType,
  type UpdateCachedStampsParameters,
  type UpdateCachedStampsReturnType,
} from './writes.js'
export {
  calculateStampCacheScore,
  getCachedStamps,
  getStampCacheScore,
  getStampCacheStakes,
  getStampCacheWeights,
  type CalculateStampCacheScoreErrorType,
  type CalculateStampCacheScoreParameters,
  type CalculateStampCacheScoreReturnType,
  type GetCachedStampsErrorType,
  type GetCachedStampsParameters,
  type GetCachedStampsReturnType,
  type GetStampCacheScoreErrorType,
  type GetStampCacheScoreParameters,
  type GetStampCacheScoreReturnType,
  type GetStampCacheStakesErrorType,
  type GetStampCacheStakesParameters,
  type GetStampCacheStakesReturnType,
  type GetStampCacheWeightsErrorType,
  type GetStampCacheWeightsParameters,
  type GetStampCacheWeightsReturnType,
} from './reads.js'
export {
  acceptStampCacheTos,
  getStampCacheTosMessage,
  isStampCacheTosAccepted,
  signAndAcceptStampCacheTos,
  type AcceptStampCacheTosErrorType,
  type AcceptStampCacheTosParameters,
  type AcceptStampCacheTosReturnType,
  type GetStampCacheTosMessageErrorType,
  type GetStampCacheTosMessageParameters,
  type GetStampCacheTosMessageReturnType,
  type IsStampCacheTosAcceptedErrorType,
  type IsStampCacheTosAcceptedParameters,
  type IsStampCacheTosAcceptedReturnType,
  type SignAndAcceptStampCacheTosErrorType,
  type SignAndAcceptStampCacheTosParameters,
  type SignAndAcceptStampCacheTosReturnType,
} from './terms.js'
