/**
 * `personhood audit`: the flags read, then `audit()` of `personhood/audit`, then the report
 * written and the summary printed. What the audit does (judging, checks, the disk cache) is in
 * src/audit/; this file only turns flags and files into its parameters, and its result into files,
 * lines and an exit code.
 */
import { readFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { audit } from '../audit/audit.js'
import { renderAuditSummaryTable } from '../audit/report/render.js'
import { auditFiles, checkOutputFolder, writeAuditOutputs } from '../audit/report/write.js'
import type { AuditResult } from '../audit/types.js'
import { parseVotes, type AuditVote } from '../audit/votes.js'
import { ConfigFileError } from '../errors/audit.js'
import { InvalidParameterError, UsageError } from '../errors/input.js'
import type { CacheStats } from '../http/cache.js'
import { findStrategyDefinition, strategyDefinitions } from '../strategy/registry.js'
import type { Colours } from '../utils/colour.js'
import { parseBlockNumber, parseNetwork } from '../utils/parse.js'
import { commandRpcUrl, commandStrategyContext, type SourceFlags } from './context.js'
import { createProgress, type Progress } from './progress.js'

/** A `--config` file: the strategy and its options, as a space configures them. */
export type AuditConfig = { strategy: string; options: Record<string, unknown> }

/**
 * Reads a `--config` file: `{ "strategy": name, "options": {...} }`, or a strategy entry of a
 * Snapshot space (`{ "name": ..., "params": {...} }`).
 *
 * @throws {ConfigFileError} naming the file and what is wrong.
 */
export function readAuditConfig(file: string): AuditConfig {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigFileError({ file, reason: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).` })
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ConfigFileError({ file, reason: `is not JSON: ${(error as Error).message}` })
  }
  return readConfigValue(value, file)
}

function readConfigValue(value: unknown, file: string): AuditConfig {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ConfigFileError({ file, reason: 'must be a JSON object with "strategy" and "options".' })
  const record = value as Record<string, unknown>
  const strategy = record.strategy ?? record.name
  const options = record.options ?? record.params ?? {}
  if (typeof strategy !== 'string') throw new ConfigFileError({ file, reason: 'names no strategy: set "strategy" (or "name").' })
  if (!findStrategyDefinition(strategy)) {
    throw new ConfigFileError({ file, reason: `names the strategy "${strategy.slice(0, 60)}", which this package does not have (${Object.keys(strategyDefinitions).join(', ')}).` })
  }
  if (!options || typeof options !== 'object' || Array.isArray(options)) throw new ConfigFileError({ file, reason: '"options" must be an object.' })
  const unknown = Object.keys(record).filter((key) => !['strategy', 'name', 'options', 'params', 'network'].includes(key))
  if (unknown.length) throw new ConfigFileError({ file, reason: `has unknown fields: ${unknown.join(', ')}.` })
  return { strategy, options: options as Record<string, unknown> }
}

/** Options of {@link runAuditCommand} (the command line's flags, read). */
export type AuditCommandOptions = SourceFlags & {
  votes?: string | undefined
  proposal?: string | undefined
  hub?: string | undefined
  snapshot?: string | undefined
  network?: string | undefined
  config?: string | undefined
  out: string
  cacheDir?: string | undefined
  cache?: boolean | undefined
  linkedWallets?: boolean | undefined
  failIfUnverifiedShare?: number | undefined
  /** Choice labels of a votes file (a proposal names its own). */
  choices?: string[] | undefined
  /** Voting system of a votes file: single-choice (default), approval, ranked-choice, weighted, quadratic, basic. */
  type?: string | undefined
}

/** What {@link runAuditCommand} did. */
export type AuditCommandResult = {
  result: AuditResult
  files: string[]
  /** Requests that went to the network, and answers served from the disk cache. */
  cache: CacheStats | null
  /** Whether the unverified share is above `--fail-if-unverified-share`. */
  policyFailed: boolean
}

/** Where the command writes what it has to say. */
export type AuditCommandIo = {
  env: Readonly<Record<string, string | undefined>>
  /** Lines for the person running it. */
  log: (line: string) => void
  /** Where the progress line draws (a TTY only). */
  stderr?: { isTTY?: boolean; write(text: string): unknown; columns?: number } | undefined
  /** The fetch every request goes through (below the disk cache). Default global fetch. */
  fetch?: typeof fetch | undefined
  now?: (() => number) | undefined
  /** Colour for the summary (see createColours). Default none. */
  colours?: Colours | undefined
}

/**
 * Runs an audit as `personhood audit` does and writes its files.
 *
 * @throws {ConfigFileError}, {@link VotesFileError} or {@link InvalidParameterError} for bad input.
 * @throws {ProposalNotFoundError} or {@link SnapshotHubError} when the hub cannot give the votes.
 * @throws {BlockNotAvailableError} for a snapshot in the future or not served by the RPC.
 * @throws {StrategySourceError} (or another typed error) when a source fails: never a partial result.
 */
export async function runAuditCommand(options: AuditCommandOptions, io: AuditCommandIo): Promise<AuditCommandResult> {
  // Everything the flags say is checked before any request.
  if ((options.votes === undefined) === (options.proposal === undefined)) {
    throw new InvalidParameterError({ parameter: '--votes/--proposal', reason: 'Give exactly one: --votes <file.json|file.csv> or --proposal <id>.' })
  }
  const out = resolve(options.out)
  checkOutputFolder(out)
  const votes: AuditVote[] | undefined = options.votes === undefined ? undefined : parseVotes({ text: readVotesFile(options.votes), file: options.votes })
  const config = options.config !== undefined ? readAuditConfig(options.config) : undefined
  if (options.network !== undefined) parseNetwork(options.network, '--network')
  if (options.snapshot === undefined && options.proposal === undefined) throw new UsageError({ option: '--snapshot', reason: 'A votes file names no snapshot: give --snapshot <block>.' })
  if (options.snapshot !== undefined) parseBlockNumber(options.snapshot, '--snapshot')
  const rpcUrl = commandRpcUrl({ flags: options, env: io.env, network: options.network })
  const cacheDir = options.cache === false ? undefined : resolve(options.cacheDir ?? join(out, 'cache'))

  let progress: Progress | undefined
  const context = commandStrategyContext({ flags: options, env: io.env, fetch: io.fetch, now: io.now, onWait: (waitMs, budget) => progress?.waiting(waitMs, budget) })
  let judged = 0
  let result
  try {
    result = await audit({
      ...(votes ? { votes, votesSource: basename(options.votes!) } : { proposal: options.proposal!, hub: options.hub }),
      ...(config ? { strategy: config.strategy, options: config.options } : {}),
      network: options.network,
      snapshot: options.snapshot,
      provider: rpcUrl,
      context,
      choices: options.choices,
      type: options.type,
      linkedWallets: options.linkedWallets,
      cacheDir,
      endpointNames: { provider: '--rpc', hubChain: '--hub-chain-rpc' },
      onProgress: ({ judged: count, total }) => {
        progress ??= createProgress({ label: 'Judging voters', total, stream: io.stderr, ...(io.now ? { now: io.now } : {}) })
        progress.tick(count - judged)
        judged = count
      },
    })
  } finally {
    progress?.done()
  }
  const { stats, ...data } = result
  const replaced = stats.replacedVotes
  if (replaced > 0) io.log(`${replaced} earlier ${replaced === 1 ? 'vote was' : 'votes were'} replaced by the same voter's latest vote (as Snapshot counts them).`)
  const files = writeAuditOutputs(out, data)
  for (const line of renderAuditSummaryTable(data, { colours: io.colours }).split('\n')) io.log(line)
  io.log('')
  io.log(`Wrote ${auditFiles.map((name) => join(options.out, name)).join(', ')}`)
  if (cacheDir !== undefined) io.log(`Requests: ${stats.requests.sent} sent, ${stats.requests.fromCache} answered from the cache (${options.cacheDir ?? join(options.out, 'cache')}).`)
  const policyFailed = options.failIfUnverifiedShare !== undefined && data.summary.unverifiedShare > options.failIfUnverifiedShare
  if (policyFailed) {
    io.log(`Unverified voters: ${data.summary.unverifiedShare.toFixed(1)}%, above --fail-if-unverified-share ${options.failIfUnverifiedShare}%.`)
  }
  return { result: data, files, cache: stats.cache, policyFailed }
}

function readVotesFile(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new InvalidParameterError({ parameter: '--votes', reason: `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).` })
  }
}
