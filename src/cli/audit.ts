/**
 * `personhood audit`: who voted, which of them were unique humans at the snapshot and by what
 * evidence, which wallets look like one person, and whether the outcome changes when only verified
 * humans count. The voters are judged by the strategy the space votes with (default
 * `human-verification`), at the proposal's snapshot. Before any verdict it checks each RPC's chain
 * id and the block's time; answers that cannot change for the snapshot are cached on disk (keyed by
 * chain and block), so an interrupted run resumes and a re-run asks only for current state.
 */
import { readFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { checkBlockTime } from '../chain/checks.js'
import { createCachingFetch, type CacheStats } from '../http/cache.js'
import { createSnapshotHubClient, defaultSnapshotHubUrl, type SnapshotProposal } from '../clients/snapshot-hub.js'
import { readHumanGatedAudit, summarizeGatedOutcome } from '../audit/gated.js'
import { createStrategyJudge } from '../audit/judge.js'
import { renderAuditSummaryTable } from '../audit/report/render.js'
import type { Colours } from '../utils/colour.js'
import { runAudit } from '../audit/run.js'
import { auditFiles, checkOutputFolder, writeAuditOutputs } from '../audit/report/write.js'
import { createHistoryStampReader } from '../audit/stamps.js'
import type { AuditResult, AuditRun } from '../audit/types.js'
import { latestVotePerVoter, parseVotes, type AuditVote } from '../audit/votes.js'
import { ConfigFileError } from '../errors/audit.js'
import { InvalidParameterError, UsageError } from '../errors/input.js'
import { createStrategyRuntime, getPassportSources } from '../strategy/context.js'
import { resolveSnapshot } from '../strategy/snapshot.js'
import { humanGatedStrategy } from '../strategy/human-gated.js'
import { humanVerificationStrategy } from '../strategy/human-verification.js'
import { findStrategyDefinition, strategyDefinitions } from '../strategy/registry.js'
import { parseBlockNumber } from '../utils/parse.js'
import { version } from '../version.js'
import { checkCommandChains, commandProvider, commandStrategyContext, type SourceFlags } from './context.js'
import { createProgress } from './progress.js'

/** The strategy an audit judges with when no `--config` names one. */
export const defaultAuditStrategy = 'human-verification'

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
  if ((options.votes === undefined) === (options.proposal === undefined)) {
    throw new InvalidParameterError({ parameter: '--votes/--proposal', reason: 'Give exactly one: --votes <file.json|file.csv> or --proposal <id>.' })
  }
  const out = resolve(options.out)
  checkOutputFolder(out)
  // The hub's votes are current state (an open proposal gains votes): never read from the disk cache.
  const direct: typeof fetch = io.fetch ?? fetch
  const now = io.now ?? Date.now

  // The votes, and what the proposal says of the vote.
  let votes: AuditVote[]
  let proposal: SnapshotProposal | undefined
  let votesSource: string
  let duplicates = 0
  if (options.proposal !== undefined) {
    const hub = createSnapshotHubClient({ url: options.hub ?? defaultSnapshotHubUrl, fetch: direct })
    proposal = await hub.getProposal({ id: options.proposal })
    const read = await hub.getVotes({ proposal: proposal.id })
    votesSource = hub.url
    ;({ votes, duplicates } = latestVotePerVoter(read))
  } else {
    const file = options.votes!
    ;({ votes, duplicates } = latestVotePerVoter(parseVotes({ text: readVotesFile(file), file })))
    votesSource = basename(file)
  }

  const config = options.config !== undefined ? readAuditConfig(options.config) : configFromProposal(proposal)
  // human-gated: the inner strategies are not called (the export records the power); the voters
  // are judged by its human test, and the mode is applied to the recorded power afterwards.
  const gated = config.strategy === humanGatedStrategy.name ? readHumanGatedAudit(config.options) : undefined
  const definition = gated ? humanVerificationStrategy : findStrategyDefinition(config.strategy)!
  const judgeOptions = gated ? gated.humanTest : config.options
  const network = options.network ?? proposal?.network ?? '1'
  if (!/^[0-9]{1,12}$/.test(network)) throw new InvalidParameterError({ parameter: '--network', reason: `Expected a chain id, got "${network.slice(0, 20)}".` })
  const snapshotText = options.snapshot ?? proposal?.snapshot.toString()
  if (snapshotText === undefined) throw new UsageError({ option: '--snapshot', reason: 'A votes file names no snapshot: give --snapshot <block>.' })
  const snapshot = parseBlockNumber(snapshotText, '--snapshot')

  // Every RPC serves the chain it stands for, and the block is not dated ahead of the clock.
  const { provider: directProvider, url: rpcUrl } = commandProvider({ flags: options, env: io.env, network, fetch: direct })
  const directContext = commandStrategyContext({ flags: options, env: io.env })
  await checkCommandChains({ rpcUrl, network, hubChain: directContext.humanId?.hubChain, fetch: direct })
  const resolved = await resolveSnapshot({ provider: directProvider, snapshot, network })
  checkBlockTime({ blockNumber: resolved.blockNumber, timestamp: resolved.timestamp, network, now: now() })

  // The disk cache keeps only answers fixed for this chain and block (see createCachingFetch).
  const cacheDir = resolve(options.cacheDir ?? join(out, 'cache'))
  const caching = options.cache === false ? null : createCachingFetch({ dir: cacheDir, scope: { chainId: network, blockNumber: resolved.blockNumber }, now, ...(io.fetch ? { fetch: io.fetch } : {}) })
  const fetcher: typeof fetch = caching?.fetch ?? direct
  const { provider } = commandProvider({ flags: options, env: io.env, network, fetch: fetcher })
  const progress = createProgress({ label: 'Judging voters', total: votes.length, stream: io.stderr, ...(io.now ? { now: io.now } : {}) })
  const context = commandStrategyContext({ flags: options, env: io.env, fetch: fetcher, now: io.now, onWait: (waitMs, budget) => progress.waiting(waitMs, budget) })
  if (duplicates > 0) io.log(`${duplicates} earlier ${duplicates === 1 ? 'vote was' : 'votes were'} replaced by the same voter's latest vote (as Snapshot counts them).`)

  const run: AuditRun = {
    packageVersion: version,
    strategy: config.strategy,
    options: config.options,
    network,
    snapshot: resolved.blockNumber.toString(),
    blockTimestamp: resolved.timestamp,
    ...(proposal ? { proposal: { id: proposal.id, title: proposal.title, type: proposal.type, choices: proposal.choices, space: proposal.space.id } } : {}),
    votesSource,
    ...(proposal === undefined && options.choices ? { choices: options.choices } : {}),
    ...(proposal === undefined && options.type ? { type: options.type } : {}),
  }
  const readStamps =
    options.linkedWallets === false
      ? undefined
      : (() => {
          const runtime = createStrategyRuntime({ ...context, deadlineMs: Infinity })
          const sources = getPassportSources(runtime, definition.name)
          const scorerId = String((config.options.scorerId as number | string | undefined) ?? context.passport?.scorerId ?? '')
          return scorerId ? createHistoryStampReader({ passport: sources.passport, scorerId, at: resolved.timestamp }) : undefined
        })()
  const judge = createStrategyJudge({ definition, options: judgeOptions, network, provider, snapshot: resolved.blockNumber, context, readStamps })
  let result: AuditResult
  let judged = 0
  try {
    result = await runAudit({
      votes,
      run,
      judge,
      onJudged: (count) => {
        progress.tick(count - judged)
        judged = count
      },
    })
  } finally {
    progress.done()
  }
  if (gated) result = { ...result, gated: summarizeGatedOutcome(result, gated) }
  const files = writeAuditOutputs(out, result)
  for (const line of renderAuditSummaryTable(result, { colours: io.colours }).split('\n')) io.log(line)
  io.log('')
  io.log(`Wrote ${auditFiles.map((name) => join(options.out, name)).join(', ')}`)
  if (caching) io.log(`Requests: ${caching.stats.misses + caching.stats.uncacheable} sent, ${caching.stats.hits} answered from the cache (${options.cacheDir ?? join(options.out, 'cache')}).`)
  const policyFailed = options.failIfUnverifiedShare !== undefined && result.summary.unverifiedShare > options.failIfUnverifiedShare
  if (policyFailed) {
    io.log(`Unverified voters: ${result.summary.unverifiedShare.toFixed(1)}%, above --fail-if-unverified-share ${options.failIfUnverifiedShare}%.`)
  }
  return { result, files, cache: caching?.stats ?? null, policyFailed }
}

function readVotesFile(file: string): string {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    throw new InvalidParameterError({ parameter: '--votes', reason: `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).` })
  }
}

/** The proposal's own strategy when it votes with one of this package's, else the default. */
function configFromProposal(proposal: SnapshotProposal | undefined): AuditConfig {
  const own = proposal?.strategies.find((strategy) => findStrategyDefinition(strategy.name))
  if (own) return readConfigValue({ strategy: own.name, options: own.params ?? {} }, `the proposal's strategy ${own.name}`)
  return { strategy: defaultAuditStrategy, options: {} }
}

