/**
 * What the commands that run strategies (`audit`, `score`, `verify`) share: the sources a strategy
 * reads (flags first, then the environment: the names score-api operators set, then the names
 * `personhood serve` prints), the space network's provider, and reading addresses and options.
 */
import { existsSync, readFileSync } from 'node:fs'
import { createRpcUrlClient } from '../chain/rpc-url.js'
import { checkChainId } from '../chain/checks.js'
import { checkBaseUrl } from '../clients/shared.js'
import { InvalidParameterError } from '../errors/input.js'
import { readStrategyEnvironment, type StrategyContext } from '../strategy/context.js'
import type { StrategyProvider } from '../strategy/snapshot.js'
import { parseAddress } from '../utils/parse.js'
import { redactUrl, urlSecrets } from '../utils/redact.js'

/** The flags that point a strategy at its sources. */
export type SourceFlags = {
  rpc?: string | undefined
  hubChainRpc?: string | undefined
  passportUrl?: string | undefined
  registryUrl?: string | undefined
  humanIdUrl?: string | undefined
  indexUrl?: string | undefined
  /** `--score-api`: score-api, for `human-gated`'s inner strategies that are not this package's. */
  scoreApi?: string | undefined
  /** `--max-wait`: longest a request may wait for rate budget, ms (a RateLimitError past it). */
  maxWait?: number | undefined
}

/** The environment, read as the commands read it: empty values are unset. */
export type CommandEnvironment = Readonly<Record<string, string | undefined>>

function first(env: CommandEnvironment, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim()
    if (value) return value
  }
  return undefined
}

/**
 * The strategy context of a command: Passport access from `PASSPORT_API_KEY`, `PASSPORT_SCORER_ID`,
 * `PASSPORT_API_TIER`, `PASSPORT_API_URL`, `PASSPORT_REGISTRY_URL` (score-api's names), else from
 * what `personhood serve` prints (`PERSONHOOD_API_KEY`, `PERSONHOOD_API_TIER`, `PERSONHOOD_SCORER_ID`,
 * `PERSONHOOD_BASE_URL`); Human ID from `HUMAN_ID_RPC_URL`, `HUMAN_ID_API_URL` (else
 * `PERSONHOOD_HUMAN_ID_URL`) and `ATTESTATION_INDEX_URL` (else `PERSONHOOD_ATTESTATION_INDEX_URL`);
 * flags win over both. No deadline: a command may wait for rate budget,
 * and says so on its progress line.
 *
 * @throws {InvalidParameterError} for an invalid variable (named).
 */
export function commandStrategyContext(parameters: {
  flags: SourceFlags
  env: CommandEnvironment
  fetch?: typeof fetch | undefined
  now?: (() => number) | undefined
  onWait?: ((waitMs: number, budget: string) => void) | undefined
}): StrategyContext {
  const { flags, env } = parameters
  const base = readStrategyEnvironment(env)
  const passportUrl = flags.passportUrl ?? first(env, 'PASSPORT_API_URL', 'PERSONHOOD_BASE_URL')
  const servedTier = first(env, 'PERSONHOOD_API_TIER')
  if (servedTier !== undefined && !/^[1-4]$/.test(servedTier)) {
    throw new InvalidParameterError({ parameter: 'PERSONHOOD_API_TIER', reason: `Expected 1, 2, 3 or 4, got "${servedTier.slice(0, 20)}".` })
  }
  const tier = base.passport?.tier ?? (servedTier === undefined ? undefined : (Number(servedTier) as 1 | 2 | 3 | 4))
  const scoreApiUrl = flags.scoreApi ?? first(env, 'PERSONHOOD_SCORE_API_URL')
  if (scoreApiUrl !== undefined) checkBaseUrl(scoreApiUrl, flags.scoreApi === undefined ? 'PERSONHOOD_SCORE_API_URL' : '--score-api')
  return {
    ...base,
    passport: {
      ...base.passport,
      ...(tier === undefined ? {} : { tier }),
      apiKey: first(env, 'PASSPORT_API_KEY', 'PERSONHOOD_API_KEY'),
      scorerId: first(env, 'PASSPORT_SCORER_ID', 'PERSONHOOD_SCORER_ID'),
      baseUrl: passportUrl,
      registryBaseUrl: flags.registryUrl ?? first(env, 'PASSPORT_REGISTRY_URL'),
    },
    humanId: {
      ...base.humanId,
      hubChain: flags.hubChainRpc ?? first(env, 'HUMAN_ID_RPC_URL'),
      baseUrl: flags.humanIdUrl ?? first(env, 'HUMAN_ID_API_URL', 'PERSONHOOD_HUMAN_ID_URL'),
      attestationIndexBaseUrl: flags.indexUrl ?? first(env, 'ATTESTATION_INDEX_URL', 'PERSONHOOD_ATTESTATION_INDEX_URL'),
    },
    ...(scoreApiUrl === undefined ? {} : { scoreApi: { url: scoreApiUrl, apiKey: first(env, 'PERSONHOOD_SCORE_API_KEY') } }),
    deadlineMs: Infinity,
    ...(flags.maxWait === undefined ? {} : { maxWaitMs: flags.maxWait }),
    ...(parameters.onWait ? { onWait: ({ waitMs }: { waitMs: number }) => parameters.onWait!(waitMs, `Passport API key (tier ${tier ?? 1})`) } : {}),
    ...(parameters.fetch ? { fetch: parameters.fetch } : {}),
    ...(parameters.now ? { now: parameters.now } : {}),
  }
}

/**
 * A provider of the space's network from `--rpc` (else `PERSONHOOD_RPC_URL`).
 *
 * @throws {InvalidParameterError} when neither is set.
 */
export function commandProvider(parameters: { flags: SourceFlags; env: CommandEnvironment; network: string; fetch?: typeof fetch | undefined }): { provider: StrategyProvider; url: string } {
  const url = commandRpcUrl(parameters)
  return { provider: createRpcUrlClient(url, { fetch: parameters.fetch }), url }
}

/**
 * The JSON-RPC URL of the space's network: `--rpc`, else `PERSONHOOD_RPC_URL`.
 *
 * @throws {InvalidParameterError} when neither is set, or it is not an http(s) URL.
 */
export function commandRpcUrl(parameters: { flags: SourceFlags; env: CommandEnvironment; network?: string | undefined }): string {
  const url = parameters.flags.rpc ?? first(parameters.env, 'PERSONHOOD_RPC_URL')
  if (!url) {
    throw new InvalidParameterError({
      parameter: '--rpc',
      reason: `The snapshot is a block of ${parameters.network === undefined ? "the space's network" : `network ${parameters.network}`}: give that network's JSON-RPC URL with --rpc (or PERSONHOOD_RPC_URL); any provider's endpoint for that chain works (Alchemy, Infura, QuickNode... have free tiers), with archive access for a past snapshot.`,
    })
  }
  if (!/^https?:\/\//i.test(url)) throw new InvalidParameterError({ parameter: '--rpc', reason: `Expected an http(s) URL, got "${redactUrl(url, urlSecrets(url)).slice(0, 60)}".` })
  return url
}

/**
 * Reads `--addresses`: a comma-separated list, or a file with one address per line (a CSV's first
 * column; a header line and `#` comments are skipped). Addresses come back EIP-55, each once.
 *
 * @throws {InvalidParameterError} naming the line of a malformed address, or an empty list.
 */
export function readAddressList(value: string): string[] {
  const fromFile = existsSync(value)
  const lines = fromFile ? readFileSync(value, 'utf8').split(/\r?\n/) : value.split(',')
  const addresses = new Set<string>()
  lines.forEach((line, index) => {
    const cell = (fromFile ? (line.split(',')[0] ?? '') : line).trim()
    if (cell === '' || cell.startsWith('#')) return
    if (fromFile && index === 0 && !/^0x/i.test(cell)) return // a header
    try {
      addresses.add(parseAddress(cell))
    } catch {
      throw new InvalidParameterError({ parameter: '--addresses', reason: `${fromFile ? `${value}, line ${index + 1}` : `item ${index + 1}`}: "${cell.slice(0, 60)}" is not an address.` })
    }
  })
  if (addresses.size === 0) throw new InvalidParameterError({ parameter: '--addresses', reason: `No address in ${fromFile ? value : 'the list'}.` })
  return [...addresses]
}

/**
 * Reads `--options`: JSON text, or the path of a JSON file.
 *
 * @throws {InvalidParameterError} when it is neither.
 */
export function readOptionsArgument(value: string): unknown {
  const text = value.trim().startsWith('{') ? value : existsSync(value) ? readFileSync(value, 'utf8') : undefined
  if (text === undefined) throw new InvalidParameterError({ parameter: '--options', reason: `Expected JSON or the path of a JSON file, got "${value.slice(0, 60)}".` })
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new InvalidParameterError({ parameter: '--options', reason: `Not JSON: ${(error as Error).message}` })
  }
}

/**
 * Checks that an RPC endpoint serves the chain it stands for (`eth_chainId`), so no verdict is
 * judged on another chain's state or at another chain's block time.
 *
 * @throws {ChainMismatchError} when it serves another chain.
 * @throws {ChainReadError} when it cannot say.
 */
export async function checkEndpointChain(parameters: { url: string; network: string; label: string; fetch?: typeof fetch | undefined }): Promise<void> {
  const client = createRpcUrlClient(parameters.url, { fetch: parameters.fetch })
  await checkChainId(client, { network: parameters.network, endpoint: `${parameters.label} (${redactUrl(parameters.url, urlSecrets(parameters.url))})` })
}

/**
 * Checks every RPC endpoint a command uses: the space network's against `network`, and the Human
 * ID hub chain's (`--hub-chain-rpc` / `HUMAN_ID_RPC_URL`) against Optimism (10).
 *
 * @throws {ChainMismatchError} or {@link ChainReadError}.
 */
export async function checkCommandChains(parameters: { rpcUrl: string; network: string; hubChain?: unknown; fetch?: typeof fetch | undefined }): Promise<void> {
  await checkEndpointChain({ url: parameters.rpcUrl, network: parameters.network, label: '--rpc', fetch: parameters.fetch })
  if (typeof parameters.hubChain === 'string' && parameters.hubChain !== parameters.rpcUrl) {
    await checkEndpointChain({ url: parameters.hubChain, network: '10', label: '--hub-chain-rpc', fetch: parameters.fetch })
  }
}
