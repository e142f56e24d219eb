/** E4-E6 of Human ID: the voting-strategy scores of many addresses at a block. */
import type { Address } from 'viem'
import { InvalidParameterError, ResponseValidationError, type ValidationIssue } from '../../errors/index.js'
import { mapWithConcurrency } from '../../http/concurrency.js'
import { votingStrategyResponseSchema, type HumanIdCredential } from '../../schemas/human-id.js'
import { normalizeAddress } from '../../utils/address.js'
import { checkActionId, checkChainId, checkCredential, checkSnapshot } from './checks.js'
import type { ActionId, HumanIdContext, SnapshotBlock } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getHumanIdVotingStrategyScores}. */
export type GetHumanIdVotingStrategyScoresParameters = {
  credential: HumanIdCredential
  /** The chain id (number or digits). Default 10 (Optimism). */
  network?: number | string | undefined
  /** The block the scores are for: a block number or `'latest'`. Required: a vote's scores must be reproducible. */
  snapshot: SnapshotBlock
  /** Any number of addresses; each is checked before any request. Duplicates are asked once. */
  addresses: readonly string[]
  /** Default 123456789. */
  actionId?: ActionId | undefined
  /** Aborts the requests. */
  signal?: AbortSignal | undefined
}

/** Each input address, spelled as given, to 1 (verified) or 0 (not verified). */
export type GetHumanIdVotingStrategyScoresReturnType = Record<string, 0 | 1>

/** What {@link getHumanIdVotingStrategyScores} throws (see its `@throws`). */
export type GetHumanIdVotingStrategyScoresErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Reads the voting-strategy scores of many addresses (E4-E6,
 * `GET {votingStrategyPath}/{credential}?network=&snapshot=&addresses=a,b,c&action-id=`). The
 * addresses are split into as few requests as keep every URL within `maxUrlLength`, run with the
 * client's concurrency, and merged. The answer is checked strictly: an address missing from an
 * answer, an answer for an address not asked, or a score other than 0 or 1 is an error, never a 0.
 *
 * @returns A record keyed by the input addresses exactly as given (answers are matched case-insensitively).
 * @throws {InvalidAddressError} before any request, naming the first malformed address.
 * @throws {InvalidParameterError} before any request for an unknown credential, a bad network, snapshot or action id.
 * @throws {ResponseValidationError} when an answer leaves an address out, adds one, or holds a score other than 0/1.
 * @throws {HttpRequestError} and subclasses as the server answers (a batch fails as a whole).
 * @example
 * import { createHumanIdClient, getHumanIdVotingStrategyScores } from 'personhood'
 * const scores = await getHumanIdVotingStrategyScores(createHumanIdClient({ baseUrl: 'http://127.0.0.1:8787' }), {
 *   credential: 'gov-id',
 *   snapshot: 123_456_789n,
 *   addresses: ['0x52908400098527886E0F7030069857D2E4169EE7'],
 * })
 * // { '0x52908400098527886E0F7030069857D2E4169EE7': 1 }
 */
export async function getHumanIdVotingStrategyScores(
  client: HumanIdContext,
  parameters: GetHumanIdVotingStrategyScoresParameters,
): Promise<GetHumanIdVotingStrategyScoresReturnType> {
  const credential = checkCredential(parameters.credential)
  const network = checkChainId(parameters.network ?? 10)
  const snapshot = checkSnapshot(parameters.snapshot)
  const actionId = checkActionId(parameters.actionId)
  if (!Array.isArray(parameters.addresses)) {
    throw new InvalidParameterError({ parameter: 'addresses', reason: 'Expected an array of addresses.' })
  }
  const inputs: readonly string[] = parameters.addresses
  const normalized = inputs.map((address, index) => normalizeAddress(address, `addresses[${index}]`))
  const unique = [...new Set(normalized)]
  if (unique.length === 0) return {}

  const path = `${client.votingStrategyPath}/${credential}`
  const queryFor = (addresses: readonly Address[]) => ({ network, snapshot, addresses, 'action-id': actionId })
  const chunks = splitByUrlLength(unique, (addresses) => client.transport.buildUrl(path, queryFor(addresses)).length, client.maxUrlLength)

  const answers = await mapWithConcurrency(chunks, client.concurrency, async (chunk) => {
    const { data } = await client.transport.request({ method: 'GET', path, query: queryFor(chunk), schema: votingStrategyResponseSchema, signal: parameters.signal })
    return readChunkScores(chunk, data.score, () => shortUrl(client.transport.buildUrl(path, queryFor(chunk.slice(0, 1))), chunk.length))
  })
  const scores = new Map<string, 0 | 1>()
  for (const answer of answers) for (const [address, score] of answer) scores.set(address, score)

  const result: GetHumanIdVotingStrategyScoresReturnType = {}
  inputs.forEach((input, index) => {
    const score = scores.get(normalized[index] as Address)
    // Every chunk was checked to answer each of its addresses, so this holds; a defect here must not become a 0.
    if (score === undefined) throw new Error(`personhood: no score for ${input} after a complete answer (a bug).`)
    result[input] = score
  })
  return result
}

/** Splits `items` greedily into runs whose `length(run)` stays within `max`; keeps the order. */
function splitByUrlLength<T>(items: readonly T[], length: (run: readonly T[]) => number, max: number): T[][] {
  const chunks: T[][] = []
  let current: T[] = []
  for (const item of items) {
    const candidate = [...current, item]
    if (length(candidate) <= max) {
      current = candidate
      continue
    }
    if (current.length === 0) {
      throw new InvalidParameterError({
        parameter: 'maxUrlLength',
        reason: `A request for a single address is ${length(candidate)} characters long, more than maxUrlLength (${max}).`,
      })
    }
    chunks.push(current)
    current = [item]
    if (length(current) > max) {
      throw new InvalidParameterError({
        parameter: 'maxUrlLength',
        reason: `A request for a single address is ${length(current)} characters long, more than maxUrlLength (${max}).`,
      })
    }
  }
  if (current.length) chunks.push(current)
  return chunks
}

function readChunkScores(
  asked: readonly Address[],
  answer: readonly { address: string; score: number }[],
  url: () => string,
): Map<Address, 0 | 1> {
  const askedSet = new Set<string>(asked)
  const scores = new Map<Address, 0 | 1>()
  const issues: ValidationIssue[] = []
  answer.forEach((entry, index) => {
    const address = entry.address.toLowerCase() as Address
    if (!askedSet.has(address)) {
      issues.push({ path: ['score', index, 'address'], message: `Answered ${entry.address}, which was not asked` })
      return
    }
    if (entry.score !== 0 && entry.score !== 1) {
      issues.push({ path: ['score', index, 'score'], message: `Expected 0 or 1 for ${entry.address}, got ${entry.score}` })
      return
    }
    const previous = scores.get(address)
    if (previous !== undefined && previous !== entry.score) {
      issues.push({ path: ['score', index, 'score'], message: `${entry.address} is answered twice, with ${previous} and ${entry.score}` })
      return
    }
    scores.set(address, entry.score)
  })
  const flagged = new Set(answer.map((entry) => entry.address.toLowerCase()))
  for (const address of asked) {
    if (!scores.has(address) && !flagged.has(address)) issues.push({ path: ['score'], message: `No score for ${address}` })
  }
  if (issues.length) throw new ResponseValidationError({ method: 'GET', url: url(), issues })
  return scores
}

/** The URL of a batch for messages: the first address and a count instead of thousands of addresses. */
function shortUrl(urlWithFirstAddress: string, count: number): string {
  return count > 1 ? urlWithFirstAddress.replace(/(addresses=[^&]*)/, `$1,...(${count} addresses)`) : urlWithFirstAddress
}
