/** The passport client: a {@link PassportContext} with the interface A and B actions bound to it. */
import type { RateLimiter, RateLimitTier } from '../../http/rate-limit.js'
import type { Transport, TransportOptions } from '../../http/transport.js'
import { createApiKeyTransport, resolveRateLimiter } from '../shared.js'
import { getModelScore, type GetModelScoreParameters, type GetModelScoreReturnType } from './get-model-score.js'
import { getScore, type GetScoreParameters, type GetScoreReturnType } from './get-score.js'
import { getScoreHistory, type GetScoreHistoryParameters, type GetScoreHistoryReturnType } from './get-score-history.js'
import { getStampMetadata, type GetStampMetadataParameters, type GetStampMetadataReturnType } from './get-stamp-metadata.js'
import { iterateStamps, type IterateStampsParameters, type IterateStampsReturnType } from './iterate-stamps.js'
import { listStamps, type ListStampsParameters, type ListStampsReturnType } from './list-stamps.js'

const defaultBaseUrl = 'https://api.passport.xyz'

/** Parameters of {@link createPassportClient}: the API key, where and how fast to call, and transport options. */
export type CreatePassportClientParameters = TransportOptions & {
  /** The API key, sent as `X-API-KEY` and never shown in an error. */
  apiKey: string
  /** Default `https://api.passport.xyz`. */
  baseUrl?: string | undefined
  /** The key's tier for A (and C): 1 = 125, 2 = 350, 3 = 2,000 requests per 15 minutes, or `{ limit, windowMs }`. Default 1. */
  tier?: RateLimitTier | undefined
  /** The key's tier for B: 1 = 15, 2 = 350, 3 = 2,000 requests per 15 minutes, or `{ limit, windowMs }`. Default 1. */
  modelTier?: RateLimitTier | undefined
  /**
   * Limiters to draw on instead of the process-wide ones of this API key (`scoring` for A, `model`
   * for B); `false` (for both, or for one budget) sends without pacing.
   */
  rateLimiters?: { scoring?: RateLimiter | false | undefined; model?: RateLimiter | false | undefined } | false | undefined
}

/** A client of interfaces A and B: the {@link PassportContext} and its functions bound to it. */
export type PassportClient = {
  readonly transport: Transport
  readonly rateLimiters: { readonly scoring: RateLimiter | undefined; readonly model: RateLimiter | undefined }
  /** A1: see {@link getScore}. */
  getScore(parameters: GetScoreParameters): Promise<GetScoreReturnType>
  /** A2: see {@link getScoreHistory}. */
  getScoreHistory(parameters: GetScoreHistoryParameters): Promise<GetScoreHistoryReturnType>
  /** A3, one page: see {@link listStamps}. */
  listStamps(parameters: ListStampsParameters): Promise<ListStampsReturnType>
  /** A3, every page: see {@link iterateStamps}. */
  iterateStamps(parameters: IterateStampsParameters): IterateStampsReturnType
  /** A4: see {@link getStampMetadata}. */
  getStampMetadata(parameters?: GetStampMetadataParameters): Promise<GetStampMetadataReturnType>
  /** B1: see {@link getModelScore}. */
  getModelScore(parameters: GetModelScoreParameters): Promise<GetModelScoreReturnType>
}

/**
 * Creates a client of interfaces A (stamp scoring v2) and B (model scoring). Requests draw on the
 * API key's budgets: by default the process-wide limiters of the key, so every client with the
 * same key (a registry client included) shares the scoring budget, paced to the configured tier.
 *
 * @param parameters `apiKey`, optional `baseUrl`, `tier`, `modelTier`, `rateLimiters` and
 * transport options (`fetch`, `timeoutMs`, `retry`, `concurrency`, `now`, `sleep`, `random`, `headers`).
 * @throws {InvalidParameterError} when `apiKey` is missing or empty, `baseUrl` is not an http(s)
 * URL, or a tier is not valid.
 * @example
 * import { createPassportClient } from 'personhood'
 * const passport = createPassportClient({ apiKey: process.env.PASSPORT_API_KEY!, tier: 2 })
 * const { score, passing_score } = await passport.getScore({ scorerId: 335, address: '0x52908400098527886e0f7030069857d2e4169ee7' })
 */
export function createPassportClient({
  apiKey,
  baseUrl = defaultBaseUrl,
  tier = 1,
  modelTier = 1,
  rateLimiters,
  ...transportOptions
}: CreatePassportClientParameters): PassportClient {
  const transport = createApiKeyTransport({ ...transportOptions, apiKey, baseUrl })
  const pacing = { now: transportOptions.now, sleep: transportOptions.sleep }
  const context = {
    transport,
    rateLimiters: {
      scoring: resolveRateLimiter({
        limiter: rateLimiters === false ? false : rateLimiters?.scoring,
        apiKey,
        budget: 'scoring',
        tier,
        ...pacing,
      }),
      model: resolveRateLimiter({
        limiter: rateLimiters === false ? false : rateLimiters?.model,
        apiKey,
        budget: 'model',
        tier: modelTier,
        ...pacing,
      }),
    },
  }
  return {
    ...context,
    getScore: (parameters) => getScore(context, parameters),
    getScoreHistory: (parameters) => getScoreHistory(context, parameters),
    listStamps: (parameters) => listStamps(context, parameters),
    iterateStamps: (parameters) => iterateStamps(context, parameters),
    getStampMetadata: (parameters) => getStampMetadata(context, parameters),
    getModelScore: (parameters) => getModelScore(context, parameters),
  }
}
