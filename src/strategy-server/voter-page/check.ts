/**
 * The voter page's check of one address: the space's strategy (from its configuration, or from a
 * Snapshot proposal read from the hub) run for that address at the snapshot, exactly as the
 * strategy server scores it, and its answer put in the shared words (src/utils/verdict-words.ts).
 * The page shows what the strategy decided: it judges nothing itself.
 */
import type { Address } from 'viem'
import type { SnapshotHubClient, SnapshotProposal } from '../../clients/snapshot-hub.js'
import { BaseError } from '../../errors/base.js'
import { InvalidParameterError } from '../../errors/input.js'
import { createStrategyCache, type StrategyCache } from '../../strategy/cache.js'
import { parseStrategyCall, withCallStrategy } from '../../strategy/call.js'
import type { StrategyContext } from '../../strategy/context.js'
import { runStrategy, type StrategyRun } from '../../strategy/define.js'
import { explainStrategyDetail, type StrategyExplanation } from '../../strategy/explain.js'
import { humanIdStrategy } from '../../strategy/human-id.js'
import type { StrategyProvider } from '../../strategy/snapshot.js'
import { describeErrorCause } from '../../utils/error-cause.js'
import { parseAddress } from '../../utils/parse.js'
import { describeRule, describeVerdict, describeVia, describeVoter, verdictWordsInput, type UnansweredSource, type VerdictWords, type VoterWords } from '../../utils/verdict-words.js'
import type { AnyStrategyDefinition } from '../scorer.js'

/** What a voter (or a space's link) gives the page: an address, and a proposal id or a configuration. */
export type VoterCheckInput = {
  address: string
  /** A Snapshot proposal id: its strategy, network and snapshot are read from the hub. */
  proposal?: string | undefined
  strategy?: string | undefined
  /** The strategy's options as JSON (as the space configures them). */
  options?: string | undefined
  network?: string | undefined
  /** A block number, or 'latest'. */
  snapshot?: string | undefined
}

/** One verdict as the page shows it: the shared words, and who answered. */
export type VoterVerdictRow = VerdictWords & { via?: string | undefined }

/** What the page shows about one address. */
export type VoterCheck = {
  address: Address
  strategy: string
  network: string
  /** The snapshot as asked, and the block it was judged at (null when no source answered). */
  requested: string
  snapshot: { blockNumber: string; timestamp: number } | null
  proposal?: { id: string; title: string; space: string } | undefined
  /** The rule that decides, in words. */
  rule: string
  /** The strategy's score for the address; null when it could not be computed. */
  score: number | null
  words: VoterWords
  verdicts: VoterVerdictRow[]
  unanswered: UnansweredSource[]
}

/** What {@link checkVoter} runs with: the server's strategies, providers and sources. */
export type CheckVoterParameters = {
  strategies: Readonly<Record<string, AnyStrategyDefinition>>
  providers: Readonly<Record<string, StrategyProvider>>
  context?: StrategyContext | undefined
  /** The hub a proposal id is read from. */
  hub: SnapshotHubClient
  /** Shared across checks: what never changes (a hub block at a time, listing pages). */
  cache?: StrategyCache | undefined
  /** Option names of score-api's api-v2 itself (url, type, decimals...), dropped from a proposal's api-v2 params. */
  apiV2OptionNames: readonly string[]
}

/** The space's configuration: from the proposal's own strategy of this server, else as given. */
async function configurationOf(input: VoterCheckInput, { hub, strategies, apiV2OptionNames }: CheckVoterParameters) {
  if (input.proposal?.trim()) {
    const proposal = await hub.getProposal({ id: input.proposal })
    const own = findOwnStrategy(proposal, strategies, apiV2OptionNames)
    if (!own) {
      throw new InvalidParameterError({
        parameter: 'proposal',
        reason: `Proposal ${proposal.id} votes with ${proposal.strategies.map((strategy) => strategy.name).join(', ') || 'no strategy'}: none of them is served here (${Object.keys(strategies).join(', ')}).`,
      })
    }
    return { ...own, network: own.network ?? proposal.network, snapshot: String(proposal.snapshot), proposal: { id: proposal.id, title: proposal.title, space: proposal.space.id } }
  }
  let options: unknown = {}
  if (input.options?.trim()) {
    try {
      options = JSON.parse(input.options)
    } catch {
      throw new InvalidParameterError({ parameter: 'options', reason: 'The options are not JSON: copy them from the space\u2019s strategy settings, e.g. {"credentials":["gov-id","phone"]}.' })
    }
  }
  if (!options || typeof options !== 'object' || Array.isArray(options)) throw new InvalidParameterError({ parameter: 'options', reason: 'The options must be a JSON object.' })
  return { strategy: input.strategy ?? '', options: options as Record<string, unknown>, network: input.network?.trim() || '10', snapshot: input.snapshot?.trim() || 'latest' }
}

/**
 * The proposal's strategy this server answers: one of its strategies by name (the score-api
 * folder), or an `api-v2` strategy whose `url` ends with `/strategies/<name>` (this server), its
 * own option names removed.
 */
export function findOwnStrategy(proposal: Pick<SnapshotProposal, 'strategies'>, strategies: CheckVoterParameters['strategies'], apiV2OptionNames: readonly string[]): { strategy: string; options: Record<string, unknown>; network?: string | undefined } | undefined {
  for (const entry of proposal.strategies) {
    const params = entry.params && typeof entry.params === 'object' && !Array.isArray(entry.params) ? (entry.params as Record<string, unknown>) : {}
    if (Object.hasOwn(strategies, entry.name)) return { strategy: entry.name, options: params, network: entry.network }
    if (entry.name === 'api-v2' && typeof params.url === 'string') {
      const name = /\/strategies\/([a-z0-9-]+)\/*(?:[?#].*)?$/.exec(params.url)?.[1]
      if (name && Object.hasOwn(strategies, name)) {
        return { strategy: name, options: Object.fromEntries(Object.entries(params).filter(([key]) => !apiV2OptionNames.includes(key))), network: entry.network }
      }
    }
  }
  return undefined
}

/** The source an error names, in words. */
function failedSource(error: unknown, strategy: string): string {
  const named = error as { source?: unknown; budget?: unknown }
  if (typeof named.source === 'string') return named.source
  if (typeof named.budget === 'string') return named.budget
  if (error instanceof BaseError && error.code === 'STRATEGY_OPTIONS_INVALID') return `The server's configuration of ${strategy}`
  return `The strategy ${strategy}`
}

/** A failure that is the request's, not a source's: the block cannot be judged, or the address is bad. */
function isInputFailure(error: unknown): boolean {
  return error instanceof BaseError && ['BLOCK_NOT_AVAILABLE', 'BLOCK_IN_FUTURE', 'INVALID_ADDRESS', 'INVALID_PARAMETER'].includes(error.code)
}

/**
 * Checks one address under a space's configuration: runs its strategy for that address at the
 * snapshot and says why it counts or not. A source that cannot answer is named with its real cause
 * (and, for a strategy that falls back on Passport, Human ID's verdicts are still shown); it is
 * never read as a "no".
 *
 * @throws {InvalidParameterError} or {@link InvalidAddressError} for input the voter can fix.
 * @throws {ProposalNotFoundError} or {@link SnapshotHubError} when the proposal cannot be read.
 * @example
 * import { checkVoter } from 'personhood/strategy-server'
 * import { createSnapshotHubClient } from 'personhood/audit'
 * import { strategyDefinitions } from 'personhood'
 * const check = await checkVoter({ address, proposal: '0x…' }, { strategies: strategyDefinitions, providers: { '10': client }, hub: createSnapshotHubClient(), apiV2OptionNames: ['url', 'type', 'decimals', 'additionalParameters'] })
 * check.words.headline // 'Not counted: Government ID expired and no Passport score.'
 */
export async function checkVoter(input: VoterCheckInput, parameters: CheckVoterParameters): Promise<VoterCheck> {
  const address = parseAddress(input.address.trim(), 'address')
  const config = await configurationOf(input, parameters)
  const definition = Object.hasOwn(parameters.strategies, config.strategy) ? parameters.strategies[config.strategy] : undefined
  if (!definition) throw new InvalidParameterError({ parameter: 'strategy', reason: `"${config.strategy.slice(0, 60)}" is not served here: one of ${Object.keys(parameters.strategies).join(', ')}.` })
  // The call, parsed once (options, then the network among the server's, then the snapshot); the
  // address was read above, before the hub, and is the call's one address as read there.
  const call = { ...parseStrategyCall(definition, { network: config.network, snapshot: config.snapshot, options: config.options, addresses: [] }, { networks: Object.keys(parameters.providers) }), addresses: [address] }
  const options = call.options as Record<string, unknown>
  const { snapshot } = call
  const provider = parameters.providers[call.network]!
  const base = parameters.context ?? {}
  // The page shows until when each credential holds: Human ID on chain reads the expiries too.
  const context: StrategyContext = { ...base, humanId: { ...base.humanId, expiries: true }, cache: parameters.cache ?? createStrategyCache() }
  const run = (strategy: AnyStrategyDefinition, strategyOptions?: unknown) =>
    runStrategy(strategy, { call: strategyOptions === undefined ? call : withCallStrategy(call, strategy, strategyOptions), provider, context })
  const rule = ruleOf(definition.name, options)
  let answer: StrategyRun | undefined
  let explanation: StrategyExplanation | undefined
  const unanswered: UnansweredSource[] = []
  let gatedPower: number | undefined
  try {
    answer = await run(definition)
    const detail = answer.results.get(address)?.detail as { human?: unknown; power?: number } | undefined
    if (definition.name === 'human-gated' && detail && 'human' in detail) {
      gatedPower = detail.power
      explanation = detail.human === null ? { verdicts: [], eligible: false, method: null } : explainStrategyDetail(detail.human)
    } else {
      explanation = explainStrategyDetail(detail)
    }
  } catch (error) {
    if (isInputFailure(error)) throw error
    unanswered.push({ source: failedSource(error, definition.name), cause: describeErrorCause(error, secretsOf(base)).message })
    // A fallback strategy failed on Passport (or its configuration): Human ID's verdicts still say something.
    if (Array.isArray(options.credentials) && definition.name !== 'human-id') {
      try {
        const human = await run(humanIdStrategy, { credentials: options.credentials, match: options.match, source: options.source, sandbox: options.sandbox, ...(options.actionId === undefined ? {} : { actionId: options.actionId }) })
        answer = human
        explanation = { verdicts: explainStrategyDetail(human.results.get(address)?.detail).verdicts }
      } catch {
        // Human ID could not answer either: the first cause is the one shown.
      }
    }
  }
  const verdicts = explanation?.verdicts ?? []
  const inputs = verdicts.map((verdict) => verdictWordsInput(verdict))
  const eligible = unanswered.length ? null : (explanation?.eligible ?? (answer?.results.get(address)?.score ?? 0) > 0)
  const words = describeVoter({
    verdicts: inputs,
    eligible,
    method: explanation?.method ?? null,
    ...(Array.isArray(options.credentials) ? { credentials: options.credentials as string[] } : {}),
    match: options.match === 'all' ? 'all' : 'any',
    passport: rule.passport,
    ...(typeof options.threshold === 'number' ? { threshold: options.threshold } : {}),
    ...(options.actionId === undefined ? {} : { actionId: String(options.actionId) }),
    unanswered,
  })
  if (gatedPower === 0 && explanation?.verdicts.length === 0) {
    words.headline = 'Not counted: this address has no power from the space\u2019s inner strategies, so the human test was not asked.'
    words.reasons = ['The inner strategies (a token balance, delegations...) give this address 0 at the snapshot.']
    words.nextSteps = [{ text: 'Hold or be delegated what the space\u2019s inner strategies count at the next snapshot.' }]
    words.label = 'No power'
  }
  return {
    address,
    strategy: definition.name,
    network: config.network,
    requested: String(snapshot),
    snapshot: answer?.snapshot ? { blockNumber: answer.snapshot.blockNumber.toString(), timestamp: answer.snapshot.timestamp } : null,
    ...('proposal' in config ? { proposal: config.proposal } : {}),
    rule: rule.text,
    score: unanswered.length || !answer ? null : (answer.results.get(address)?.score ?? null),
    words,
    verdicts: inputs.map((verdict) => ({ ...describeVerdict(verdict), ...(verdict.via ? { via: describeVia(verdict.via) } : {}) })),
    unanswered,
  }
}

/** The strategy's rule in words, from its options as read. */
function ruleOf(strategy: string, options: Record<string, unknown>): { text: string; passport: boolean } {
  const passport = strategy === 'passport-v2' || ((strategy === 'human-verification' || strategy === 'human-gated') && options.passportScore !== 0)
  const credentials = strategy === 'passport-v2' ? undefined : (options.credentials as string[] | undefined)
  const text = describeRule({
    strategy,
    ...(credentials ? { credentials } : {}),
    match: options.match === 'all' ? 'all' : 'any',
    ...(options.actionId === undefined ? {} : { actionId: options.actionId as string | number }),
    passport: passport ? (typeof options.threshold === 'number' ? { threshold: options.threshold } : {}) : false,
    sandbox: options.sandbox === true,
  })
  return { text, passport }
}

/** The operator's secrets, never to be shown (keys, and RPC URLs that may carry one). */
function secretsOf(context: StrategyContext): string[] {
  const hubChain = context.humanId?.hubChain
  return [context.passport?.apiKey, typeof hubChain === 'string' ? hubChain : undefined].filter((value): value is string => typeof value === 'string')
}
