/**
 * `audit()`: a vote audited as data. Who voted, which of them were unique humans at the snapshot
 * and by what evidence, which wallets look like one person, and whether the outcome changes when
 * only verified humans count. The voters are judged by the strategy the space votes with (default
 * `human-verification`) at the snapshot, never by rules of the audit's own. Before any verdict the
 * audit checks that each chain client serves the chain it stands for and that the snapshot block is
 * not dated ahead of the clock; it never returns a partial result.
 *
 * The data walks one way: the caller (the CLI, a DAO tool) -> `audit()` -> the strategy (the
 * judge) -> the sources (`sources.ts`) -> the report writers, which take the returned data.
 */
import { existsSync } from 'node:fs'
import type { Address } from 'viem'
import { checkBlockTime, checkChainId } from '../chain/checks.js'
import type { ChainClient } from '../chain/provider.js'
import { createSnapshotHubClient, defaultSnapshotHubUrl, type SnapshotHubClient, type SnapshotProposal } from '../clients/snapshot-hub.js'
import type { AuditIncompleteError, ProposalNotFoundError, SnapshotHubError } from '../errors/audit.js'
import type { BlockInFutureError, BlockNotAvailableError, ChainMismatchError, ChainReadError } from '../errors/chain.js'
import type { HttpRequestError, NetworkError, RateLimitError, ResponseValidationError, TimeoutError } from '../errors/http.js'
import { InvalidParameterError, type PaginationLimitError } from '../errors/input.js'
import type { PassportHistoryDeniedError, RateBudgetError, StrategyOptionsError, StrategySourceError } from '../errors/strategy.js'
import { createStrategyRuntime, getPassportSources, type StrategyContext } from '../strategy/context.js'
import { parseStrategyCall, withCallStrategy } from '../strategy/call.js'
import { findStrategyDefinition, strategyDefinitions } from '../strategy/registry.js'
import { readSnapshotHeader } from '../strategy/snapshot.js'
import { defaultNetwork, parseBlockNumber, parseNetwork } from '../utils/parse.js'
import { redactUrl, urlSecrets } from '../utils/redact.js'
import { checkCacheFolder, type CacheStats } from '../http/cache.js'
import { version } from '../version.js'
import { summarizeGatedOutcome } from './gated.js'
import { createStrategyJudge } from './judge.js'
import { runAudit } from './run.js'
import { createAuditSources } from './sources.js'
import { createHistoryStampReader } from './stamps.js'
import type { AuditResult, AuditRun } from './types.js'
import { latestVotePerVoter, type AuditVote } from './votes.js'

/** The strategy an audit judges with when neither the caller nor the proposal names one of this package's. */
export const defaultAuditStrategy = 'human-verification'

/** Parameters of {@link audit}. Exactly one of `votes` and `proposal`. */
export type AuditParameters = {
  /** The votes (a Snapshot vote export read with `parseVotes`). A voter listed twice counts once, by the latest vote. */
  votes?: readonly AuditVote[] | undefined
  /** A proposal id: its votes, snapshot, network, choices, voting system and strategy read from the Snapshot hub. */
  proposal?: string | undefined
  /** The Snapshot hub: a client, or its GraphQL URL. Default `https://hub.snapshot.org/graphql`. */
  hub?: SnapshotHubClient | string | undefined
  /** The strategy to judge with. Default: the proposal's own when it is one of this package's, else `human-verification`. */
  strategy?: string | undefined
  /** The strategy's options, as a space configures them. Default: the proposal's strategy's, else `{}`. */
  options?: Record<string, unknown> | undefined
  /** The space's network, a chain id ("10"). Default: the proposal's, else `defaultNetwork` (10, Optimism, where Human ID lives). */
  network?: string | undefined
  /** The snapshot block on that network. Default: the proposal's; needed with `votes`. */
  snapshot?: bigint | number | string | undefined
  /** The space network's client (viem, ethers or EIP-1193), or its JSON-RPC URL (read through the audit's fetch, so the disk cache applies). */
  provider: ChainClient | string
  /**
   * Where the strategy's sources are: `passport` (key, tier, scorer), `humanId` (the hub chain's
   * client or URL when the space is on another network, the Human ID API, the attestation index),
   * `fetch` (every HTTP request goes through it), `now`, `onWait`...
   */
  context?: StrategyContext | undefined
  /** Choice labels of `votes` (a proposal names its own). */
  choices?: readonly string[] | undefined
  /** Voting system of `votes`: single-choice (default), approval, ranked-choice, weighted, quadratic, basic. */
  type?: string | undefined
  /** Where `votes` came from, for the report (a file's name). Default: the hub's URL for a proposal, else "votes". */
  votesSource?: string | undefined
  /** Read each voter's stamps at the snapshot (one score-history read a voter) to find linked wallets. Default true. */
  linkedWallets?: boolean | undefined
  /** A folder for a disk cache of answers fixed for the snapshot (see `createCachingFetch`). Default: no disk cache. */
  cacheDir?: string | undefined
  /** Voters per strategy call. Default 5,384: what 8 calls of the Human ID reader hold (see `createStrategyJudge`). */
  batchSize?: number | undefined
  /** Hears how many voters are judged (first with 0, once the votes are known). */
  onProgress?: ((progress: { judged: number; total: number }) => void) | undefined
  /** How the chain clients are named in messages. Default `provider` and `hubChain`. */
  endpointNames?: { provider?: string | undefined; hubChain?: string | undefined } | undefined
}

/** What an audit cost, besides its result. */
export type AuditStats = {
  /** Earlier votes replaced by the same voter's latest vote, as Snapshot counts them. */
  replacedVotes: number
  /** Requests that reached the network through the audit's fetch, and answers the disk cache gave. */
  requests: { sent: number; fromCache: number }
  /** What the disk cache did (with `cacheDir`), else null. */
  cache: CacheStats | null
}

/** What {@link audit} returns: the audit's data (what the report writers take) and what it cost. */
export type AuditReturnType = AuditResult & { stats: AuditStats }

/** The errors {@link audit} throws. */
export type AuditErrorType =
  | InvalidParameterError
  | StrategyOptionsError
  | ProposalNotFoundError
  | SnapshotHubError
  | PaginationLimitError
  | ChainMismatchError
  | ChainReadError
  | BlockNotAvailableError
  | BlockInFutureError
  | StrategySourceError
  | PassportHistoryDeniedError
  | RateBudgetError
  | RateLimitError
  | HttpRequestError
  | NetworkError
  | TimeoutError
  | ResponseValidationError
  | AuditIncompleteError

/**
 * Audits a vote (see the module's comment) and returns it as data: the run (what was asked), every
 * voter's line, the summary, and a digest that is the same on every re-run of the same audit.
 *
 * Requests: the proposal and its votes from the hub (with `proposal`); each chain's id and the
 * snapshot's header once; then what the strategy reads for each batch of voters, where every block
 * header, the attestation index's listing and the Passport score listing are read once per audit
 * (see `sources.ts`); and, with `linkedWallets`, one score-history read per voter.
 *
 * Memory: about 1 KB a voter is kept; each batch's answers live a while and die. V8 lets its heap
 * grow to four times what survives before it collects: run a large audit with
 * `node --heap-growing-percent=100`, as `personhood audit` sets for itself (100,000 voters: 525 MB
 * with it, 713 MB without, report files included; docs/benchmarks.md).
 *
 * @throws {InvalidParameterError} for bad parameters (before any request), {@link StrategyOptionsError} for bad strategy options.
 * @throws {ProposalNotFoundError} or {@link SnapshotHubError} when the hub cannot give the votes.
 * @throws {ChainMismatchError} when a client serves another chain; {@link BlockInFutureError} or {@link BlockNotAvailableError} for a snapshot the chain cannot serve.
 * @throws {StrategySourceError} (or another typed error of a source) when a source fails: never a partial result.
 * @example
 * import { audit, writeAuditOutputs } from 'personhood/audit'
 * const result = await audit({
 *   proposal: '0x…',
 *   provider: process.env.OPTIMISM_RPC_URL!,
 *   context: { passport: { apiKey: process.env.PASSPORT_API_KEY, scorerId: 335 } },
 * })
 * console.log(result.summary.unverifiedShare)
 * writeAuditOutputs('report', result) // audit.json, audit.csv, audit.md, audit.html
 */
export async function audit(parameters: AuditParameters): Promise<AuditReturnType> {
  const context = parameters.context ?? {}
  const now = context.now ?? Date.now
  if ((parameters.votes === undefined) === (parameters.proposal === undefined)) {
    throw new InvalidParameterError({ parameter: 'votes', reason: 'Give exactly one of votes (the votes, read with parseVotes) and proposal (a proposal id).' })
  }
  if (parameters.strategy !== undefined) checkStrategy(parameters.strategy)
  if (parameters.options !== undefined) checkOptions(parameters.options)
  // With a proposal, what the caller gives instead of the proposal's is refused before the hub is
  // read (with votes, the call is parsed before any request: see below).
  if (parameters.proposal !== undefined && parameters.network !== undefined) parseNetwork(parameters.network)
  if (parameters.proposal !== undefined && parameters.snapshot !== undefined) parseBlockNumber(parameters.snapshot, 'snapshot')
  if (parameters.votes !== undefined && parameters.snapshot === undefined) {
    throw new InvalidParameterError({ parameter: 'snapshot', reason: 'Votes name no snapshot: give snapshot (a block number of the network).' })
  }
  // A cache folder someone else could plant answers in is refused before any request.
  if (parameters.cacheDir !== undefined && existsSync(parameters.cacheDir)) checkCacheFolder(parameters.cacheDir)
  const sources = createAuditSources({ provider: parameters.provider, context })

  // The votes, and what the proposal says of the vote. The hub's votes are current state (an open
  // proposal gains votes): they are read before the disk cache opens.
  let proposal: SnapshotProposal | undefined
  let read: readonly AuditVote[]
  let votesSource: string
  if (parameters.proposal !== undefined) {
    // Through the audit's fetch (counted; the disk cache is not open yet).
    const hub = typeof parameters.hub === 'object' ? parameters.hub : createSnapshotHubClient({ url: parameters.hub ?? defaultSnapshotHubUrl, fetch: sources.context.fetch })
    proposal = await hub.getProposal({ id: parameters.proposal })
    read = await hub.getVotes({ proposal: proposal.id })
    votesSource = parameters.votesSource ?? hub.url
  } else {
    read = parameters.votes!
    votesSource = parameters.votesSource ?? 'votes'
  }
  const { votes, duplicates } = latestVotePerVoter(read, { source: votesSource })

  const config = parameters.strategy !== undefined ? { strategy: parameters.strategy, options: parameters.options ?? {} } : configFromProposal(proposal, parameters.options)
  // The call, parsed once: options, network, snapshot and every voter. A strategy whose audit is not
  // a run of itself says how its voters are judged (its `audit` hook: human-gated's human test).
  const asked = parseStrategyCall(findStrategyDefinition(config.strategy)!, {
    network: parameters.network ?? proposal?.network ?? defaultNetwork,
    snapshot: parameters.snapshot ?? proposal?.snapshot,
    options: config.options,
    addresses: votes.map((vote) => vote.voter),
  })
  const plan = asked.definition.audit?.(asked.options)
  const call = plan ? withCallStrategy(asked, plan.judge, plan.options) : asked
  const { network, definition } = call

  // Every chain client serves the chain it stands for, and the block is not dated ahead of the clock.
  const names = { provider: parameters.endpointNames?.provider ?? 'provider', hubChain: parameters.endpointNames?.hubChain ?? 'hubChain' }
  await checkChainId(sources.provider, { network, endpoint: describeEndpoint(names.provider, parameters.provider) })
  if (sources.hubChain && sources.hubChain !== sources.provider) {
    await checkChainId(sources.hubChain, { network: '10', endpoint: describeEndpoint(names.hubChain, context.humanId?.hubChain) })
  }
  const resolved = await readSnapshotHeader(sources.provider, { requested: call.snapshot, network })
  checkBlockTime({ blockNumber: resolved.blockNumber, timestamp: resolved.timestamp, network, now: now() })
  if (parameters.cacheDir !== undefined) sources.openCache({ dir: parameters.cacheDir, scope: { chainId: network, blockNumber: resolved.blockNumber } })

  const run: AuditRun = {
    packageVersion: version,
    strategy: config.strategy,
    options: config.options,
    network,
    snapshot: resolved.blockNumber.toString(),
    blockTimestamp: resolved.timestamp,
    ...(proposal ? { proposal: { id: proposal.id, title: proposal.title, type: proposal.type, choices: proposal.choices, space: proposal.space.id } } : {}),
    votesSource,
    ...(proposal === undefined && parameters.choices ? { choices: [...parameters.choices] } : {}),
    ...(proposal === undefined && parameters.type ? { type: parameters.type } : {}),
  }
  const judge = createStrategyJudge({
    call: { ...call, snapshot: resolved.blockNumber },
    provider: sources.provider,
    context: sources.context,
    batchSize: parameters.batchSize,
    readStamps: parameters.linkedWallets === false ? undefined : stampReader(sources.context, definition.name, config.options, resolved.timestamp),
  })
  parameters.onProgress?.({ judged: 0, total: votes.length })
  let result = await runAudit({ votes, run, judge, onJudged: (judged) => parameters.onProgress?.({ judged, total: votes.length }) })
  if (plan?.gate) result = { ...result, gated: summarizeGatedOutcome(result, plan.gate) }
  const requests = sources.requests()
  return { ...result, stats: { replacedVotes: duplicates, requests: { sent: requests.sent, fromCache: requests.fromCache }, cache: requests.cache } }
}

function checkStrategy(name: string): void {
  if (!findStrategyDefinition(name)) {
    throw new InvalidParameterError({ parameter: 'strategy', reason: `"${name.slice(0, 60)}" is not a strategy of this package (${Object.keys(strategyDefinitions).join(', ')}).` })
  }
}

function checkOptions(options: unknown): void {
  if (!options || typeof options !== 'object' || Array.isArray(options)) throw new InvalidParameterError({ parameter: 'options', reason: 'Expected an object: the options as the space configures them.' })
}

/** The proposal's own strategy when it votes with one of this package's, else the default. */
function configFromProposal(proposal: SnapshotProposal | undefined, options: Record<string, unknown> | undefined): { strategy: string; options: Record<string, unknown> } {
  const own = proposal?.strategies.find((strategy) => findStrategyDefinition(strategy.name))
  if (!own) return { strategy: defaultAuditStrategy, options: options ?? {} }
  const params = options ?? own.params ?? {}
  if (!params || typeof params !== 'object' || Array.isArray(params)) {
    throw new InvalidParameterError({ parameter: 'proposal', reason: `The proposal's strategy ${own.name} has params that are not an object.` })
  }
  return { strategy: own.name, options: params as Record<string, unknown> }
}

/** An endpoint in messages: its name, and its URL without secrets when it is one. */
function describeEndpoint(name: string, endpoint: unknown): string {
  if (typeof endpoint !== 'string') return name
  return `${name} (${redactUrl(endpoint, urlSecrets(endpoint))})`
}

/**
 * The reader of voters' stamps at the snapshot (for linked wallets): the score history of the
 * strategy's scorer, else the context's. Without a scorer there is nothing to read.
 */
function stampReader(context: StrategyContext, strategy: string, options: Record<string, unknown>, at: number): ((addresses: readonly Address[]) => ReturnType<ReturnType<typeof createHistoryStampReader>>) | undefined {
  const scorerId = String((options.scorerId as number | string | undefined) ?? context.passport?.scorerId ?? '')
  if (!scorerId) return undefined
  const runtime = createStrategyRuntime({ ...context, deadlineMs: Infinity })
  return createHistoryStampReader({ passport: getPassportSources(runtime, strategy).passport, scorerId, at })
}
