/**
 * Client of interface E1-E7, Human ID individual verifications: per-user results (E1-E3), the
 * voting-strategy batch format (E4-E6) and the clean-hands SBT check (E7).
 */
import type { Address } from 'viem'
import { InvalidParameterError, ResponseValidationError, type ValidationIssue } from '../errors/index.js'
import { mapWithConcurrency } from '../http/concurrency.js'
import { createTransport, type Transport, type TransportOptions } from '../http/transport.js'
import {
  cleanHandsResultResponseSchema,
  defaultActionId,
  humanIdCredentials,
  humanIdNetworks,
  verificationResultResponseSchema,
  votingStrategyResponseSchema,
  type CleanHandsResult,
  type HumanIdCredential,
  type HumanIdNetwork,
  type VerificationResult,
} from '../schemas/human-id.js'
import { normalizeAddress } from '../utils/address.js'
import { parseActionId, parseBlockNumber, parseInteger, parsePositiveIntegerId } from '../utils/parse.js'
import { checkBaseUrl } from './shared.js'

/** The default action id, 123456789n: universal (not app-specific) uniqueness. */
export { defaultActionId }

/** The public Human ID service (`{verification_url}`). */
export const defaultHumanIdBaseUrl = 'https://api.holonym.io'

/** Where the spec puts E4-E6 (our reference server follows it): the default path on any host but the public one. */
export const defaultVotingStrategyPath = '/voting-strategies/sybil-resistance'

/**
 * Where the public service serves E4-E6 (docs/interface.md §4). A client of the public host
 * (`https://api.holonym.io`) calls this path unless given another `votingStrategyPath`: the spec's
 * path does not exist there.
 */
export const publicVotingStrategyPath = '/snapshot-strategies/sybil-resistance'

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

/** Longest request URL E4-E6 send by default; longer address lists are split into several requests. */
export const defaultMaxUrlLength = 8000

/** An action id (a uint256): a bigint, a safe integer, or a string of decimal digits. */
export type ActionId = bigint | number | string

/** A block to read at: a block number (bigint or safe integer) or `'latest'`. */
export type SnapshotBlock = bigint | number | 'latest'

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

/**
 * What the Human ID actions need. A {@link HumanIdClient} is one; pass it to the standalone
 * actions (`getHumanIdVerification(client, ...)`).
 */
export type HumanIdContext = {
  readonly transport: Transport
  readonly votingStrategyPath: string
  readonly maxUrlLength: number
  /** E4-E6 requests in flight at once. */
  readonly concurrency: number
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

// ---------------------------------------------------------------------------------------------
// E1-E3
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link getHumanIdVerification}. */
export type GetHumanIdVerificationParameters = {
  credential: HumanIdCredential
  /** Default `optimism`. */
  network?: HumanIdNetwork | undefined
  /** The user's address. */
  user: string
  /** Default 123456789 (universal uniqueness); a custom id asks for app-specific uniqueness. */
  actionId?: ActionId | undefined
  signal?: AbortSignal | undefined
}

/** `{ result: true, expirationDate }` (Unix seconds) or `{ result: false }`. */
export type GetHumanIdVerificationReturnType = VerificationResult

/**
 * Tells whether a user holds a valid Human ID verification for an action (E1-E3,
 * `GET /sybil-resistance/{credential}/{network}?user=&action-id=`).
 *
 * @throws {InvalidParameterError} before any request for an unknown credential or network, or a bad action id.
 * @throws {InvalidAddressError} before any request for a malformed `user`.
 * @throws {InvalidRequestError} (400) and other {@link HttpRequestError}s as the server answers;
 * {@link ResponseValidationError} when `result` is not a boolean (or `expirationDate` is missing when true).
 * @example
 * import { createHumanIdClient, getHumanIdVerification } from 'personhood'
 * const { result } = await getHumanIdVerification(createHumanIdClient(), {
 *   credential: 'phone',
 *   user: '0x52908400098527886E0F7030069857D2E4169EE7',
 * })
 */
export async function getHumanIdVerification(
  client: HumanIdContext,
  parameters: GetHumanIdVerificationParameters,
): Promise<GetHumanIdVerificationReturnType> {
  const credential = checkCredential(parameters.credential)
  const network = parameters.network ?? 'optimism'
  if (!(humanIdNetworks as readonly unknown[]).includes(network)) {
    throw new InvalidParameterError({ parameter: 'network', reason: `Expected one of ${humanIdNetworks.join(', ')}, got ${JSON.stringify(network)}.` })
  }
  const user = normalizeAddress(parameters.user, 'user')
  const actionId = checkActionId(parameters.actionId)
  const { data } = await client.transport.request({
    method: 'GET',
    path: `/sybil-resistance/${credential}/${network}`,
    query: { user, 'action-id': actionId },
    schema: verificationResultResponseSchema,
    signal: parameters.signal,
  })
  return data
}

// ---------------------------------------------------------------------------------------------
// E4-E6
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// E7
// ---------------------------------------------------------------------------------------------

/** Parameters of {@link getHumanIdCleanHandsSbt}. */
export type GetHumanIdCleanHandsSbtParameters = {
  /** The user's address on the non-EVM chain the SBT lives on (any non-empty string without whitespace). */
  address: string
  /** Default 123456789. */
  actionId?: ActionId | undefined
  /** Aborts the requests. */
  signal?: AbortSignal | undefined
}

/** `{ isUnique: true, signature, circuitId }` for a verified user, `{ isUnique: false }` otherwise. */
export type GetHumanIdCleanHandsSbtReturnType = CleanHandsResult

/**
 * Reads the clean-hands (sanctions / PEP screening) SBT status of an address on the non-EVM chain
 * (E7, `GET /attestation/sbts/clean-hands?address=&action-id=`).
 *
 * @throws {InvalidParameterError} before any request for an empty address or a bad action id.
 * @throws {HttpRequestError} and subclasses as the server answers; {@link ResponseValidationError} for a malformed answer.
 * @example
 * import { createHumanIdClient, getHumanIdCleanHandsSbt } from 'personhood'
 * const answer = await getHumanIdCleanHandsSbt(createHumanIdClient(), { address: 'neutron1...' })
 * if (answer.isUnique) console.log(answer.circuitId)
 */
export async function getHumanIdCleanHandsSbt(
  client: HumanIdContext,
  parameters: GetHumanIdCleanHandsSbtParameters,
): Promise<GetHumanIdCleanHandsSbtReturnType> {
  const { address } = parameters
  if (typeof address !== 'string' || address === '' || /\s/.test(address)) {
    throw new InvalidParameterError({ parameter: 'address', reason: 'Expected the address on the non-EVM chain as a non-empty string without whitespace.' })
  }
  const actionId = checkActionId(parameters.actionId)
  const { data } = await client.transport.request({
    method: 'GET',
    path: '/attestation/sbts/clean-hands',
    query: { address, 'action-id': actionId },
    schema: cleanHandsResultResponseSchema,
    signal: parameters.signal,
  })
  return data
}

// ---------------------------------------------------------------------------------------------
// Checks (all before any request)
// ---------------------------------------------------------------------------------------------

function checkCredential(credential: unknown): HumanIdCredential {
  if (!(humanIdCredentials as readonly unknown[]).includes(credential)) {
    throw new InvalidParameterError({
      parameter: 'credential',
      reason: `Expected one of ${humanIdCredentials.join(', ')}, got ${JSON.stringify(credential) ?? String(credential)}.`,
    })
  }
  return credential as HumanIdCredential
}

/** Reads an action id by the package's one rule and returns it as the decimal digits the service takes. */
function checkActionId(actionId: unknown): string {
  return parseActionId(actionId).toString()
}

function checkChainId(network: unknown): string {
  return parsePositiveIntegerId(network, 'network')
}

function checkSnapshot(snapshot: unknown): string {
  // E4-E6 require a snapshot: no default to 'latest' here.
  if (snapshot === undefined) throw new InvalidParameterError({ parameter: 'snapshot', reason: "Expected a block number or 'latest', got undefined." })
  const block = parseBlockNumber(snapshot, 'snapshot')
  return typeof block === 'bigint' ? block.toString() : block
}
