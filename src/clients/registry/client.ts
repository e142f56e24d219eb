/** The registry client: a {@link RegistryContext} with the interface C actions bound to it. */
import type { RateLimiter, RateLimitTier } from '../../http/rate-limit.js'
import { defaultSleep, type Sleep } from '../../http/sleep.js'
import type { Transport, TransportOptions } from '../../http/transport.js'
import { createApiKeyTransport, resolveRateLimiter } from '../shared.js'
import { checkTokenStakePath, defaultTokenStakePath } from './context.js'
import { getRegistryScore, type GetRegistryScoreParameters, type GetRegistryScoreReturnType } from './get-registry-score.js'
import {
  getRegistryStampMetadata,
  type GetRegistryStampMetadataParameters,
  type GetRegistryStampMetadataReturnType,
} from './get-registry-stamp-metadata.js'
import { getSigningMessage, type GetSigningMessageParameters, type GetSigningMessageReturnType } from './get-signing-message.js'
import { getTokenStake, type GetTokenStakeParameters, type GetTokenStakeReturnType } from './get-token-stake.js'
import {
  iterateRegistryStamps,
  type IterateRegistryStampsParameters,
  type IterateRegistryStampsReturnType,
} from './iterate-registry-stamps.js'
import { iterateScores, type IterateScoresParameters, type IterateScoresReturnType } from './iterate-scores.js'
import { listRegistryStamps, type ListRegistryStampsParameters, type ListRegistryStampsReturnType } from './list-registry-stamps.js'
import { listScores, type ListScoresParameters, type ListScoresReturnType } from './list-scores.js'
import { submitPassport, type SubmitPassportParameters, type SubmitPassportReturnType } from './submit-passport.js'
import { waitForScore, type WaitForScoreParameters, type WaitForScoreReturnType } from './wait-for-score.js'

const defaultBaseUrl = 'https://api.scorer.gitcoin.co'

/** Parameters of {@link createRegistryClient}: the API key, where and how fast to call, and transport options. */
export type CreateRegistryClientParameters = TransportOptions & {
  /** The API key, sent as `X-API-KEY` and never shown in an error. */
  apiKey: string
  /** Default `https://api.scorer.gitcoin.co`. */
  baseUrl?: string | undefined
  /** The key's tier (shared with interface A): 1 = 125, 2 = 350, 3 = 2,000 requests per 15 minutes, or `{ limit, windowMs }`. Default 1. */
  tier?: RateLimitTier | undefined
  /** Path of C7. Default `/registry/token-stake` (the spec); the public service uses `/registry/gtc-stake`. */
  tokenStakePath?: string | undefined
  /** A limiter to draw on instead of the process-wide scoring limiter of this API key; `false` sends without pacing. */
  rateLimiter?: RateLimiter | false | undefined
}

/** A client of interface C: the {@link RegistryContext} and its functions bound to it. */
export type RegistryClient = {
  readonly transport: Transport
  readonly rateLimiter: RateLimiter | undefined
  readonly tokenStakePath: string
  readonly now: () => number
  readonly sleep: Sleep
  /** C1: see {@link getSigningMessage}. */
  getSigningMessage(parameters?: GetSigningMessageParameters): Promise<GetSigningMessageReturnType>
  /** C2: see {@link submitPassport}. */
  submitPassport(parameters: SubmitPassportParameters): Promise<SubmitPassportReturnType>
  /** C3: see {@link getRegistryScore}. */
  getScore(parameters: GetRegistryScoreParameters): Promise<GetRegistryScoreReturnType>
  /** C3, polled until done: see {@link waitForScore}. */
  waitForScore(parameters: WaitForScoreParameters): Promise<WaitForScoreReturnType>
  /** C4, one page: see {@link listScores}. */
  listScores(parameters: ListScoresParameters): Promise<ListScoresReturnType>
  /** C4, every page: see {@link iterateScores}. */
  iterateScores(parameters: IterateScoresParameters): IterateScoresReturnType
  /** C5, one page: see {@link listRegistryStamps}. */
  listStamps(parameters: ListRegistryStampsParameters): Promise<ListRegistryStampsReturnType>
  /** C5, every page: see {@link iterateRegistryStamps}. */
  iterateStamps(parameters: IterateRegistryStampsParameters): IterateRegistryStampsReturnType
  /** C6: see {@link getRegistryStampMetadata}. */
  getStampMetadata(parameters?: GetRegistryStampMetadataParameters): Promise<GetRegistryStampMetadataReturnType>
  /** C7: see {@link getTokenStake}. */
  getTokenStake(parameters: GetTokenStakeParameters): Promise<GetTokenStakeReturnType>
}

/**
 * Creates a client of interface C (the legacy v1 registry). By default its requests draw on the
 * process-wide scoring limiter of the API key, the same one a passport client (interface A) with
 * that key uses, as the services count A and C together.
 *
 * @param parameters `apiKey`, optional `baseUrl`, `tier`, `tokenStakePath`, `rateLimiter` and
 * transport options (`fetch`, `timeoutMs`, `retry`, `concurrency`, `now`, `sleep`, `random`, `headers`).
 * @throws {InvalidParameterError} when `apiKey` is missing or empty, `baseUrl` is not an http(s)
 * URL, `tokenStakePath` is not a path, or `tier` is not valid.
 * @example
 * import { createRegistryClient } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY!, tokenStakePath: '/registry/gtc-stake' })
 * await registry.submitPassport({ address: '0x52908400098527886e0f7030069857d2e4169ee7', scorerId: 335 })
 * const { score } = await registry.waitForScore({ address: '0x52908400098527886e0f7030069857d2e4169ee7', scorerId: 335 })
 */
export function createRegistryClient({
  apiKey,
  baseUrl = defaultBaseUrl,
  tier = 1,
  tokenStakePath = defaultTokenStakePath,
  rateLimiter,
  ...transportOptions
}: CreateRegistryClientParameters): RegistryClient {
  const transport = createApiKeyTransport({ ...transportOptions, apiKey, baseUrl })
  const context = {
    transport,
    rateLimiter: resolveRateLimiter({
      limiter: rateLimiter,
      apiKey,
      budget: 'scoring',
      tier,
      now: transportOptions.now,
      sleep: transportOptions.sleep,
    }),
    tokenStakePath: checkTokenStakePath(tokenStakePath),
    now: transportOptions.now ?? Date.now,
    sleep: transportOptions.sleep ?? defaultSleep,
  }
  return {
    ...context,
    getSigningMessage: (parameters) => getSigningMessage(context, parameters),
    submitPassport: (parameters) => submitPassport(context, parameters),
    getScore: (parameters) => getRegistryScore(context, parameters),
    waitForScore: (parameters) => waitForScore(context, parameters),
    listScores: (parameters) => listScores(context, parameters),
    iterateScores: (parameters) => iterateScores(context, parameters),
    listStamps: (parameters) => listRegistryStamps(context, parameters),
    iterateStamps: (parameters) => iterateRegistryStamps(context, parameters),
    getStampMetadata: (parameters) => getRegistryStampMetadata(context, parameters),
    getTokenStake: (parameters) => getTokenStake(context, parameters),
  }
}
