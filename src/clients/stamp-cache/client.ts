/** The stamp-cache client: a context (transport, bearer token) with every D action bound to it. */
import { createTransport } from '../../http/transport.js'
import type { InternalScore, ScorerWeights, StakeResponse, StampsResponse, StampsWithScoreResponse } from '../../schemas/stamp-cache.js'
import { checkBaseUrl } from '../shared.js'
import { checkAccessToken, type CreateStampCacheClientParameters, type StampCacheContext, type StampCacheRequestOptions } from './context.js'
import { acceptStampCacheTos, type AcceptStampCacheTosParameters } from './accept-stamp-cache-tos.js'
import { addCachedStamps, type AddCachedStampsParameters } from './add-cached-stamps.js'
import { calculateStampCacheScore, type CalculateStampCacheScoreParameters } from './calculate-stamp-cache-score.js'
import { deleteCachedStamps, type DeleteCachedStampsParameters } from './delete-cached-stamps.js'
import { getCachedStamps, type GetCachedStampsParameters } from './get-cached-stamps.js'
import { getStampCacheScore, type GetStampCacheScoreParameters } from './get-stamp-cache-score.js'
import { getStampCacheSignInNonce, type GetStampCacheSignInNonceReturnType } from './get-stamp-cache-sign-in-nonce.js'
import { getStampCacheStakes } from './get-stamp-cache-stakes.js'
import {
  getStampCacheTosMessage,
  type GetStampCacheTosMessageParameters,
  type GetStampCacheTosMessageReturnType,
} from './get-stamp-cache-tos-message.js'
import { getStampCacheWeights } from './get-stamp-cache-weights.js'
import { isStampCacheTosAccepted, type IsStampCacheTosAcceptedParameters } from './is-stamp-cache-tos-accepted.js'
import {
  signAndAcceptStampCacheTos,
  type SignAndAcceptStampCacheTosParameters,
  type SignAndAcceptStampCacheTosReturnType,
} from './sign-and-accept-stamp-cache-tos.js'
import { signInToStampCache, type SignInToStampCacheParameters, type SignInToStampCacheReturnType } from './sign-in-to-stamp-cache.js'
import {
  updateCachedStampSaveStatus,
  type UpdateCachedStampSaveStatusParameters,
  type UpdateCachedStampSaveStatusReturnType,
} from './update-cached-stamp-save-status.js'
import { updateCachedStamps, type UpdateCachedStampsParameters } from './update-cached-stamps.js'

/** The stamp-cache client: {@link StampCacheContext} plus every D action bound to it. */
export type StampCacheClient = StampCacheContext & {
  /** D13: see {@link signInToStampCache}. */
  signIn(parameters: SignInToStampCacheParameters): Promise<SignInToStampCacheReturnType>
  /** `GET /account/nonce` (not in the spec): see {@link getStampCacheSignInNonce}. */
  getSignInNonce(options?: StampCacheRequestOptions): Promise<GetStampCacheSignInNonceReturnType>
  /** D1: see {@link addCachedStamps}. */
  addStamps(parameters: AddCachedStampsParameters): Promise<StampsWithScoreResponse>
  /** D2: see {@link updateCachedStamps}. */
  updateStamps(parameters: UpdateCachedStampsParameters): Promise<StampsWithScoreResponse>
  /** D3: see {@link deleteCachedStamps}. */
  deleteStamps(parameters: DeleteCachedStampsParameters): Promise<StampsResponse>
  /** D4: see {@link updateCachedStampSaveStatus}. */
  updateSaveStatus(parameters: UpdateCachedStampSaveStatusParameters): Promise<UpdateCachedStampSaveStatusReturnType>
  /** D5: see {@link getStampCacheWeights}. */
  getWeights(options?: StampCacheRequestOptions): Promise<ScorerWeights>
  /** D6: see {@link getCachedStamps}. */
  getStamps(parameters: GetCachedStampsParameters): Promise<StampsResponse>
  /** D7: see {@link getStampCacheScore}. */
  getScore(parameters: GetStampCacheScoreParameters): Promise<InternalScore>
  /** D8: see {@link calculateStampCacheScore}. */
  calculateScore(parameters: CalculateStampCacheScoreParameters): Promise<InternalScore>
  /** D9: see {@link getStampCacheStakes}. */
  getStakes(options?: StampCacheRequestOptions): Promise<StakeResponse>
  /** D10: see {@link isStampCacheTosAccepted}. */
  isTosAccepted(parameters: IsStampCacheTosAcceptedParameters): Promise<boolean>
  /** D11: see {@link getStampCacheTosMessage}. */
  getTosMessage(parameters: GetStampCacheTosMessageParameters): Promise<GetStampCacheTosMessageReturnType>
  /** D12: see {@link acceptStampCacheTos}. */
  acceptTos(parameters: AcceptStampCacheTosParameters): Promise<void>
  /** D11, sign, D12: see {@link signAndAcceptStampCacheTos}. */
  signAndAcceptTos(parameters: SignAndAcceptStampCacheTosParameters): Promise<SignAndAcceptStampCacheTosReturnType>
}

/**
 * Creates a client of the stamp cache (interface D). The bearer token (from `accessToken`, `signIn`
 * or `setAccessToken`) goes in `Authorization: Bearer <token>` and never appears in an error.
 * Reads and the idempotent writes (D4, D8) are retried; the other writes never are.
 *
 * @param config `baseUrl` (required: the spec names no host), an optional `accessToken`, and the
 * transport options (`fetch`, `timeoutMs`, `retry`, `concurrency`, `now`, `sleep`, `headers`).
 * @throws {InvalidParameterError} when `baseUrl` is not an http(s) URL or `accessToken` is malformed.
 * @example
 * import { createStampCacheClient } from 'personhood'
 * import { privateKeyToAccount } from 'viem/accounts'
 * const account = privateKeyToAccount(key)
 * const cache = createStampCacheClient({ baseUrl: 'http://127.0.0.1:8787' })
 * await cache.signIn({ account, domain: 'app.example.org', uri: 'https://app.example.org' })
 * const score = await cache.getScore({ address: account.address })
 */
export function createStampCacheClient(config: CreateStampCacheClientParameters): StampCacheClient {
  const { baseUrl, accessToken: initialToken, ...transportOptions } = config
  checkBaseUrl(baseUrl)
  let accessToken = initialToken === undefined ? undefined : checkAccessToken(initialToken)
  const transport = createTransport({
    ...transportOptions,
    baseUrl,
    authHeaders: (): Record<string, string> => (accessToken === undefined ? {} : { Authorization: `Bearer ${accessToken}` }),
    secrets: () => [accessToken],
  })
  const context: StampCacheContext = {
    transport,
    now: transportOptions.now ?? Date.now,
    getAccessToken: () => accessToken,
    setAccessToken: (token) => {
      accessToken = token === undefined ? undefined : checkAccessToken(token)
    },
  }
  return {
    ...context,
    signIn: (parameters) => signInToStampCache(context, parameters),
    getSignInNonce: (options) => getStampCacheSignInNonce(context, options),
    addStamps: (parameters) => addCachedStamps(context, parameters),
    updateStamps: (parameters) => updateCachedStamps(context, parameters),
    deleteStamps: (parameters) => deleteCachedStamps(context, parameters),
    updateSaveStatus: (parameters) => updateCachedStampSaveStatus(context, parameters),
    getWeights: (options) => getStampCacheWeights(context, options),
    getStamps: (parameters) => getCachedStamps(context, parameters),
    getScore: (parameters) => getStampCacheScore(context, parameters),
    calculateScore: (parameters) => calculateStampCacheScore(context, parameters),
    getStakes: (options) => getStampCacheStakes(context, options),
    isTosAccepted: (parameters) => isStampCacheTosAccepted(context, parameters),
    getTosMessage: (parameters) => getStampCacheTosMessage(context, parameters),
    acceptTos: (parameters) => acceptStampCacheTos(context, parameters),
    signAndAcceptTos: (parameters) => signAndAcceptStampCacheTos(context, parameters),
  }
}
