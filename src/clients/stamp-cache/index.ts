/**
 * Client of interface D, the bearer-authenticated stamp cache (path prefix `/stamp-cache`): wallet
 * sign-in (SIWE, D13), bulk stamp writes (D1-D4), reads (D5-D9) and terms of service (D10-D12).
 * One module per concern under `stamp-cache/`; this module is their public face.
 */
export { createStampCacheClient, type StampCacheClient } from './client.js'
export {
  type CreateStampCacheClientParameters,
  type StampCacheContext,
  type StampCacheRequestOptions,
  type StampCacheSigner,
} from './context.js'
export {
  getStampCacheSignInNonce,
  signInNoncePath,
  signInToStampCache,
  type GetStampCacheSignInNonceReturnType,
  type SignInToStampCacheParameters,
  type SignInToStampCacheReturnType,
} from './sign-in.js'
export {
  addCachedStamps,
  deleteCachedStamps,
  updateCachedStamps,
  updateCachedStampSaveStatus,
  type AddCachedStampsParameters,
  type CacheStampInput,
  type DeleteCachedStampsParameters,
  type DeleteStampInput,
  type SaveStatusInput,
  type UpdateCachedStampSaveStatusParameters,
  type UpdateCachedStampSaveStatusReturnType,
  type UpdateCachedStampsParameters,
} from './writes.js'
export {
  calculateStampCacheScore,
  getCachedStamps,
  getStampCacheScore,
  getStampCacheStakes,
  getStampCacheWeights,
  type CalculateStampCacheScoreParameters,
  type GetCachedStampsParameters,
  type GetStampCacheScoreParameters,
} from './reads.js'
export {
  acceptStampCacheTos,
  defaultTosType,
  getStampCacheTosMessage,
  isStampCacheTosAccepted,
  signAndAcceptStampCacheTos,
  type AcceptStampCacheTosParameters,
  type GetStampCacheTosMessageParameters,
  type GetStampCacheTosMessageReturnType,
  type IsStampCacheTosAcceptedParameters,
  type SignAndAcceptStampCacheTosParameters,
  type SignAndAcceptStampCacheTosReturnType,
} from './terms.js'
