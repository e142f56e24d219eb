/**
 * score-api's scoring endpoint (snapshot-labs/score-api `POST /api/scores`; field notes §7.2), as
 * an upstream of `human-gated`: the scores of any strategy score-api runs, at a network and block.
 *
 * Request: `{ params: { space, network, snapshot, strategies: [{ name, network, params }], addresses } }`,
 * the key (optional) as `X-API-KEY`. Answer: `{ jsonrpc: '2.0', result: { state, scores }, id: null,
 * cache }`, one map per strategy in order, holding only requested addresses whose score is above 0
 * (a missing address is 0 there, as in score-api itself). An error is `{ jsonrpc, error: { code,
 * message: 'unauthorized', data: <reason> }, id }` with the HTTP status equal to `code`.
 */
import { z } from 'zod'
import { HttpRequestError, ResponseValidationError, type ResponseValidationErrorType, type ValidationIssue } from '../errors/http.js'
import { InvalidParameterError, type InvalidParameterErrorType } from '../errors/input.js'
import { createTransport, type RequestErrorType, type Transport, type TransportOptions } from '../http/transport.js'
import { uniqueScoresByAddress } from '../rules/inner-scores.js'
import { ConflictingRowsError } from '../rules/rows-error.js'
import { checkBaseUrl, createApiKeyTransport } from './shared.js'

/** score-api's `MAX_STRATEGIES`: most strategies in one request. */
export const scoreApiMaxStrategies = 10

/** Default most addresses in one request: what score-api asks every strategy to handle (500). */
export const defaultScoreApiMaxAddresses = 500

/** The answer of `POST /api/scores`, as score-api's `rpcSuccess` writes it. */
export const scoreApiScoresAnswerSchema = z.object({
  jsonrpc: z.literal('2.0'),
  result: z.object({
    state: z.enum(['final', 'pending']),
    scores: z.array(z.record(z.string(), z.number())),
  }),
  id: z.null(),
  cache: z.boolean(),
})

/** An error body of score-api (`rpcError`): the reason is in `error.data`. */
const scoreApiErrorSchema = z.object({ error: z.object({ code: z.number(), message: z.string(), data: z.unknown() }) })

/** One strategy of a score-api request. */
export type ScoreApiRequestStrategy = { name: string; network: string; params: Record<string, unknown> }

/** Parameters of {@link createScoreApiClient}: where score-api is, its optional key, and transport options. */
export type CreateScoreApiClientParameters = TransportOptions & {
  /** score-api's origin, e.g. `https://score.snapshot.org` (the operator's, never a space's). */
  url: string
  /** An API key (keycard), sent as `X-API-KEY` and never shown in an error. */
  apiKey?: string | undefined
}

/** Parameters of {@link ScoreApiClient.getScores}. */
export type GetScoreApiScoresParameters = {
  space?: string | undefined
  /** The request's network (chain id string): the snapshot's network. */
  network: string
  /** A block number of `network`, or 'latest'. */
  snapshot: bigint | number | 'latest'
  /** 1 to {@link scoreApiMaxStrategies}; each with its own network (score-api maps the block by time). */
  strategies: readonly ScoreApiRequestStrategy[]
  /** Distinct addresses. */
  addresses: readonly string[]
  signal?: AbortSignal | undefined
}

/** What {@link ScoreApiClient.getScores} answers: one map per strategy (lower-case address to score, only scores above 0), and score-api's state. */
export type GetScoreApiScoresReturnType = {
  /** `final` for a numeric snapshot at or below score-api's head; `pending` when it scored at 'latest'. */
  state: 'final' | 'pending'
  /** Whether score-api answered from its cache. */
  cache: boolean
  scores: Map<string, number>[]
}

/** What {@link getScoreApiScores} throws: a refused argument, score-api's error (by status), no answer, or an answer not of score-api's shape. */
export type GetScoreApiScoresErrorType = InvalidParameterErrorType | RequestErrorType | ResponseValidationErrorType

/** A client of score-api's scoring endpoint. */
export type ScoreApiClient = {
  readonly transport: Transport
  /** `POST /api/scores`: see {@link getScoreApiScores}. */
  getScores(parameters: GetScoreApiScoresParameters): Promise<GetScoreApiScoresReturnType>
}

/**
 * Creates a score-api client. The request is a pure computation, so it is retried like a GET
 * (408, 429, 502-504 and network errors; a 500 is a strategy that threw, never retried).
 *
 * @throws {InvalidParameterError} when `url` is not an http(s) URL or the key is not header-safe.
 * @example
 * import { createScoreApiClient } from './score-api.js'
 * const scoreApi = createScoreApiClient({ url: 'https://score.snapshot.org', apiKey: process.env.SCORE_API_KEY })
 * const { scores } = await scoreApi.getScores({ network: '1', snapshot: 21_000_000n, strategies: [{ name: 'erc20-balance-of', network: '1', params: { address: token, decimals: 18 } }], addresses })
 */
export function createScoreApiClient(parameters: CreateScoreApiClientParameters): ScoreApiClient {
  const { url, apiKey, ...options } = parameters
  checkBaseUrl(url, 'scoreApi.url')
  const transportOptions: TransportOptions = { retry: { limit: 2, statusCodes: [408, 429, 502, 503, 504] }, ...options }
  const transport = apiKey === undefined || apiKey === '' ? createTransport({ ...transportOptions, baseUrl: url }) : createApiKeyTransport({ ...transportOptions, apiKey, baseUrl: url })
  return { transport, getScores: (call) => getScoreApiScores(transport, call) }
}

/**
 * Asks score-api for `strategies`' scores of `addresses` and checks the answer: one map per
 * strategy, every key a requested address, every value a finite number, and an address under
 * several casings only with one score (src/rules/inner-scores.ts's uniqueScoresByAddress: two scores for one address are an error).
 *
 * @throws {InvalidParameterError} for more than {@link scoreApiMaxStrategies} strategies or none.
 * @throws {ResponseValidationError} when the answer is not score-api's shape (an address with two
 * scores, an address not asked for, a map missing).
 * @throws {HttpRequestError} (and its subclasses) when score-api answers an error: its reason is
 * {@link readScoreApiErrorReason}.
 */
export async function getScoreApiScores(transport: Transport, parameters: GetScoreApiScoresParameters): Promise<GetScoreApiScoresReturnType> {
  const { strategies, addresses } = parameters
  if (strategies.length === 0 || strategies.length > scoreApiMaxStrategies) {
    throw new InvalidParameterError({ parameter: 'strategies', reason: `score-api takes 1 to ${scoreApiMaxStrategies} strategies a request; got ${strategies.length}.` })
  }
  const snapshot = parameters.snapshot === 'latest' ? 'latest' : Number(parameters.snapshot)
  const body = {
    params: {
      space: parameters.space ?? '',
      network: parameters.network,
      snapshot,
      strategies: strategies.map((strategy) => ({ name: strategy.name, network: strategy.network, params: strategy.params })),
      addresses,
    },
  }
  const { data } = await transport.request({ method: 'POST', path: '/api/scores', body, schema: scoreApiScoresAnswerSchema, idempotent: true, signal: parameters.signal })
  const asked = new Set(addresses.map((address) => address.toLowerCase()))
  const issues: ValidationIssue[] = []
  if (data.result.scores.length !== strategies.length) {
    issues.push({ path: ['result', 'scores'], message: `${data.result.scores.length} score maps for ${strategies.length} strategies.` })
  }
  const scores = data.result.scores.map((answer, index) => {
    for (const [address, score] of Object.entries(answer)) {
      if (!asked.has(address.toLowerCase())) issues.push({ path: ['result', 'scores', index, address], message: 'An address that was not asked for.' })
      else if (!Number.isFinite(score)) issues.push({ path: ['result', 'scores', index, address], message: 'Not a finite number.' })
    }
    // The rule for rows about one address: the same score under several casings is one answer; two scores are an error.
    try {
      return uniqueScoresByAddress(answer, `score-api (strategy ${strategies[index]?.name ?? index})`)
    } catch (error) {
      if (!(error instanceof ConflictingRowsError)) throw error
      issues.push({ path: ['result', 'scores', index, error.address], message: error.message })
      return new Map<string, number>()
    }
  })
  if (issues.length > 0) throw new ResponseValidationError({ method: 'POST', url: transport.buildUrl('/api/scores'), issues })
  return { state: data.result.state, cache: data.cache, scores }
}

/**
 * The reason score-api gave with an error answer (`error.data`: "invalid strategies: a,b",
 * "invalid address", a strategy's own message), or undefined when the body is not score-api's.
 *
 * @example
 * readScoreApiErrorReason(error) // 'invalid strategies: erc20-balance-off'
 */
export function readScoreApiErrorReason(error: unknown): string | undefined {
  if (!(error instanceof HttpRequestError) || error.body === undefined) return undefined
  let body: unknown
  try {
    body = JSON.parse(error.body)
  } catch {
    return undefined
  }
  const parsed = scoreApiErrorSchema.safeParse(body)
  if (!parsed.success) return undefined
  const { data } = parsed.data.error
  return typeof data === 'string' ? data : JSON.stringify(data)
}
