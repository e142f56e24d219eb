/**
 * How answers and failures go out in score-api's `api-v2` language.
 *
 * api-v2 reads each score as `parseFloat(formatUnits(score.toString(), decimals))`: an integer
 * string scaled by `decimals` (default 0). A fractional score such as Passport's 23.45678 cannot be
 * read with decimals 0 (formatUnits refuses "23.45678"), so the server answers every score as an
 * integer string: the score times 10^decimals, rounded half-even when the strategy has more
 * digits than `decimals` allows.
 *
 * api-v2 does not look at the status code: any JSON body with a `score` key is read as scores, and
 * a missing address counts 0. So an error body never has a `score` key, and every failure is a
 * non-2xx status with `{ error: { code, message, field | source } }`.
 */
import { BlockNotAvailableError, ChainReadError } from '../errors/chain.js'
import type { BaseError } from '../errors/base.js'
import { InvalidAddressError, InvalidParameterError } from '../errors/input.js'
import { HttpAnswerError } from '../errors/server.js'
import { RateBudgetError, StrategyDeadlineError, StrategyOptionsError, StrategySourceError } from '../errors/strategy.js'
import { AnswerStoreError } from './store.js'

/**
 * A score as api-v2 reads it with `decimals`: the decimal digits of `score * 10^decimals`,
 * rounded half-even to an integer.
 *
 * @example
 * scaleScore(23.45678, 5) // { text: '2345678', rounded: false }
 * scaleScore(23.45678, 0) // { text: '23', rounded: true }
 */
export function scaleScore(score: number, decimals: number): { text: string; rounded: boolean } {
  if (!Number.isFinite(score)) throw new InvalidParameterError({ parameter: 'score', reason: `Expected a finite number, got ${String(score)}.` })
  const negative = score < 0
  // The shortest text that reads back as this number: "23.45678", "1e-7", "1.5e+21".
  const [mantissa = '0', exponentText = '0'] = String(Math.abs(score)).split('e')
  const [whole = '0', fraction = ''] = mantissa.split('.')
  const digits = `${whole}${fraction}`
  // The value is digits * 10^(point - digits.length).
  const point = whole.length + Number(exponentText) + decimals
  let integer: bigint
  let rounded = false
  if (point >= digits.length) integer = BigInt(digits + '0'.repeat(point - digits.length))
  else if (point <= 0) {
    // Below 0.5 after scaling unless it is at least half: compare against 5 * 10^(-point-1)...
    const value = Number(`0.${'0'.repeat(-point)}${digits}`)
    integer = value > 0.5 ? 1n : 0n
    rounded = /[1-9]/.test(digits)
  } else {
    const kept = BigInt(digits.slice(0, point))
    const rest = digits.slice(point)
    rounded = /[1-9]/.test(rest)
    const half = rest[0] === '5' && /^5?0*$/.test(rest)
    const up = rest[0] !== undefined && (rest[0] > '5' || (rest[0] === '5' && !half) || (half && kept % 2n === 1n))
    integer = up ? kept + 1n : kept
  }
  return { text: `${negative && integer !== 0n ? '-' : ''}${integer}`, rounded }
}

/** An answer that is not scores: a status, the JSON error and headers. */
export type ErrorAnswer = {
  status: 400 | 401 | 404 | 413 | 500 | 502 | 503 | 504
  body: { error: { code: string; message: string; field?: string; source?: string; addresses?: readonly string[]; retryAfterSeconds?: number } }
  headers: Record<string, string>
}

/** A request error the server raises itself (a bad body, a wrong secret, an unknown strategy): the {@link HttpAnswerError} of api-v2's error body. */
export class StrategyServerRequestError extends HttpAnswerError<ErrorAnswer['body']> {
  override name = 'StrategyServerRequestError'
  constructor(
    override readonly status: 400 | 401 | 404 | 413 | 503,
    code: string,
    message: string,
    readonly field?: string,
    headers: Record<string, string> = {},
  ) {
    super({ status, code, message, headers, body: { error: { code, message, ...(field === undefined ? {} : { field }) } } })
  }
}

function message(error: BaseError): string {
  return error.details && error.details !== error.shortMessage ? `${error.shortMessage} ${error.details}` : error.shortMessage
}

/** Env-style names: configuration the operator owes, not options a space got wrong. */
const configurationName = /^[A-Z][A-Z0-9_]+$/

/** Whether an option issue names configuration the operator owes (`PASSPORT_API_KEY`), not an option a space got wrong. */
export function isConfigurationIssue(issue: { path: readonly PropertyKey[] }): boolean {
  return configurationName.test(String(issue.path[0] ?? ''))
}

/**
 * Maps an error to its answer: bad input 4xx naming the field; a failed source 502 naming it; a
 * spent rate budget or an unavailable block 503 with Retry-After; a deadline 504; anything else 500.
 * `now` reads the clock of a budget's `returnsAt`.
 */
export function toErrorAnswer(error: unknown, now: () => number = Date.now): ErrorAnswer {
  const answer = (status: ErrorAnswer['status'], code: string, text: string, extra: Omit<ErrorAnswer['body']['error'], 'code' | 'message'> = {}, headers: Record<string, string> = {}): ErrorAnswer => ({
    status,
    body: { error: { code, message: text, ...extra } },
    headers,
  })
  if (error instanceof StrategyServerRequestError) return { status: error.status, body: error.body, headers: error.headers }
  if (error instanceof StrategyOptionsError) {
    const operator = error.issues.filter(isConfigurationIssue)
    if (operator.length) {
      return answer(500, 'SERVER_NOT_CONFIGURED', `This server is not configured for this call: ${operator.map((issue) => issue.message).join(' ')}`, { source: `configuration (${operator.map((issue) => String(issue.path[0])).join(', ')})` })
    }
    const first = error.issues[0]
    const issues = error.issues.map((issue) => `${['options', ...issue.path].join('.')}: ${issue.message}`).join('; ')
    return answer(400, error.code, `The options of strategy "${error.strategy}" are invalid: ${issues}`, { field: ['options', ...(first?.path ?? [])].join('.') })
  }
  if (error instanceof InvalidParameterError) return answer(400, error.code, message(error), { field: error.parameter })
  if (error instanceof InvalidAddressError) return answer(400, error.code, message(error), { field: 'addresses' })
  if (error instanceof RateBudgetError) {
    const seconds = Math.max(1, Math.ceil((error.returnsAt - now()) / 1000))
    return answer(503, error.code, message(error), { source: error.budget, retryAfterSeconds: seconds }, { 'Retry-After': String(seconds) })
  }
  if (error instanceof BlockNotAvailableError) {
    // The node may lag behind the chain (or behind another node of the same load balancer).
    return answer(503, error.code, `${message(error)}`, { source: 'the JSON-RPC of the network', field: 'snapshot', retryAfterSeconds: 5 }, { 'Retry-After': '5' })
  }
  if (error instanceof StrategyDeadlineError) return answer(504, error.code, message(error), { source: error.source, addresses: error.addresses.slice(0, 20) })
  if (error instanceof StrategySourceError) return answer(502, error.code, message(error), { source: error.source, addresses: error.addresses.slice(0, 20) })
  if (error instanceof ChainReadError) return answer(502, error.code, message(error), { source: 'the JSON-RPC of the network' })
  if (error instanceof AnswerStoreError) return answer(503, error.code, error.shortMessage, { source: 'answer store', retryAfterSeconds: 5 }, { 'Retry-After': '5' })
  return answer(500, 'INTERNAL', 'The server failed to answer; the failure is in its log.')
}
