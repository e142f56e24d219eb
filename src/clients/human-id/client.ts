/** The Human ID client: a {@link HumanIdContext} with the E1-E7 actions bound to it. */
import { InvalidParameterError } from '../../errors/index.js'
import { createTransport, type TransportOptions } from '../../http/transport.js'
import { parseInteger } from '../../utils/parse.js'
import { checkBaseUrl } from '../shared.js'
import {
  defaultHumanIdBaseUrl,
  defaultMaxUrlLength,
  defaultVotingStrategyPath,
  publicVotingStrategyPath,
  type HumanIdContext,
} from './context.js'
import {
  getHumanIdCleanHandsSbt,
  type GetHumanIdCleanHandsSbtParameters,
  type GetHumanIdCleanHandsSbtReturnType,
} from './get-human-id-clean-hands-sbt.js'
import {
  getHumanIdVerification,
  type GetHumanIdVerificationParameters,
  type GetHumanIdVerificationReturnType,
} from './get-human-id-verification.js'
import {
  getHumanIdVotingStrategyScores,
  type GetHumanIdVotingStrategyScoresParameters,
  type GetHumanIdVotingStrategyScoresReturnType,
} from './get-human-id-voting-strategy-scores.js'

/** The E4-E6 path for a base URL: the public service's on the public host, else the spec's. */
function votingStrategyPathFor(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return defaultVotingStrategyPath
  }
  const publicHost = new URL(defaultHumanIdBaseUrl)
  const onPublicHost = url.protocol === publicHost.protocol && url.host.toLowerCase() === publicHost.host && /^\/*$/.test(url.pathname)
  return onPublicHost ? publicVotingStrategyPath : defaultVotingStrategyPath
}

/** What {@link createHumanIdClient} accepts. */
export type CreateHumanIdClientParameters = TransportOptions & {
  /** Default `https://api.holonym.io`. */
  baseUrl?: string | undefined
  /**
   * Path of E4-E6 without the credential. Default: {@link publicVotingStrategyPath} on the public
   * host (`https://api.holonym.io`), the spec's `/voting-strategies/sybil-resistance` on any other.
   */
  votingStrategyPath?: string | undefined
  /** Longest URL one E4-E6 request may have, in characters. Default 8,000. */
  maxUrlLength?: number | undefined
}

/** The Human ID client: {@link HumanIdContext} plus every E1-E7 action bound to it. */
export type HumanIdClient = HumanIdContext & {
  /** E1-E3: see {@link getHumanIdVerification}. */
  getVerification(parameters: GetHumanIdVerificationParameters): Promise<GetHumanIdVerificationReturnType>
  /** E4-E6: see {@link getHumanIdVotingStrategyScores}. */
  getVotingStrategyScores(
    parameters: GetHumanIdVotingStrategyScoresParameters,
  ): Promise<GetHumanIdVotingStrategyScoresReturnType>
  /** E7: see {@link getHumanIdCleanHandsSbt}. */
  getCleanHandsSbt(parameters: GetHumanIdCleanHandsSbtParameters): Promise<GetHumanIdCleanHandsSbtReturnType>
}

/**
 * Creates a client of the Human ID verification service (interface E1-E7).
 *
 * @param config `baseUrl` (default `https://api.holonym.io`), `votingStrategyPath` (default: the
 * public service's `/snapshot-strategies/sybil-resistance` on the public host, the spec's
 * `/voting-strategies/sybil-resistance` on any other), `maxUrlLength` (default 8,000) and the transport
 * options (`fetch`, `timeoutMs`, `retry`, `concurrency`, `sleep`, `headers`).
 * @throws {InvalidParameterError} for a `baseUrl` that is not http(s), a `votingStrategyPath` that
 * does not start with `/`, or a `maxUrlLength` below 200.
 * @example
 * import { createHumanIdClient } from 'personhood'
 * const humanId = createHumanIdClient() // E4-E6 at https://api.holonym.io/snapshot-strategies/sybil-resistance/...
 * const { result } = await humanId.getVerification({ credential: 'gov-id', user: '0x52908400098527886E0F7030069857D2E4169EE7' })
 */
export function createHumanIdClient(config: CreateHumanIdClientParameters = {}): HumanIdClient {
  const {
    baseUrl = defaultHumanIdBaseUrl,
    votingStrategyPath = votingStrategyPathFor(baseUrl),
    maxUrlLength = defaultMaxUrlLength,
    ...transportOptions
  } = config
  checkBaseUrl(baseUrl)
  if (typeof votingStrategyPath !== 'string' || !/^\/[^?#\s]*$/.test(votingStrategyPath)) {
    throw new InvalidParameterError({
      parameter: 'votingStrategyPath',
      reason: `Expected a path starting with "/", such as "${defaultVotingStrategyPath}" or "${publicVotingStrategyPath}".`,
    })
  }
  parseInteger(maxUrlLength, 'maxUrlLength', { min: 200 })
  const context: HumanIdContext = {
    transport: createTransport({ ...transportOptions, baseUrl }),
    votingStrategyPath: votingStrategyPath.replace(/\/+$/, ''),
    maxUrlLength,
    concurrency: transportOptions.concurrency ?? 4,
  }
  return {
    ...context,
    getVerification: (parameters) => getHumanIdVerification(context, parameters),
    getVotingStrategyScores: (parameters) => getHumanIdVotingStrategyScores(context, parameters),
    getCleanHandsSbt: (parameters) => getHumanIdCleanHandsSbt(context, parameters),
  }
}
