/**
 * `human-gated`: any strategy's voting power, counted only for verified humans. The inner
 * strategies (`[{ name, network?, params }]`, as score-api's `multichain` takes them) run in
 * process when they are this package's (or in a registry the caller passes as `context.strategies`),
 * and any other through score-api's `POST /api/scores` (`context.scoreApi`, the operator's); their
 * scores are summed per voter; the voters whose
 * sum is above 0 are put to `human-verification`'s test (its own code, run here); the mode says
 * what a human's power becomes: `gate` (as it is), `quadratic` (its square root) or `cap`.
 */
import type { Address } from 'viem'
import { z } from 'zod'
import { blockClocks, findBlockAtTime } from '../chain/block-at-time.js'
import type { ChainClient } from '../chain/provider.js'
import { createScoreApiClient, defaultScoreApiMaxAddresses, readScoreApiErrorReason, type ScoreApiClient } from '../clients/score-api.js'
import { HttpRequestError, ResponseValidationError } from '../errors/http.js'
import { InvalidParameterError } from '../errors/input.js'
import { StrategyOptionsError, StrategySourceError } from '../errors/strategy.js'
import { mapWithConcurrency } from '../http/concurrency.js'
import { readInnerScores as readInnerAnswer } from '../rules/inner-scores.js'
import { ConflictingRowsError } from '../rules/rows-error.js'
import { applyHumanGate, type HumanGateMode } from '../verify/human-gate.js'
import type { InnerStrategy, InnerStrategyRegistry, StrategyRuntime } from './context.js'
import { readSource } from './deadline.js'
import { defineStrategy, runStrategy, untilAborted, type StrategyDefinition } from './define.js'
import { humanIdStrategy } from './human-id.js'
import { humanVerificationOptionsSchema, refinePassportSource, humanVerificationStrategy, type HumanVerificationDetail, type HumanVerificationPrepared } from './human-verification.js'
import { passportV2Strategy } from './passport-v2.js'
import { parseStrategyOptions, symbolOption } from './options.js'
import type { ResolvedSnapshot, StrategyProvider } from './snapshot.js'

const humanTest = humanVerificationOptionsSchema.shape

/** The name of `human-gated`: never an inner strategy of itself. */
const humanGatedStrategyName = 'human-gated'

/**
 * The inner strategies `human-gated` finds when the context names none: this package's own
 * (`human-id`, `passport-v2`, `human-verification`), as definitions.
 */
export const defaultInnerStrategies: InnerStrategyRegistry = Object.freeze({
  'human-id': humanIdStrategy,
  'passport-v2': passportV2Strategy,
  'human-verification': humanVerificationStrategy,
})

/** One inner strategy, as a space configures it. */
export const innerStrategyOptionsSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9-]+$/, 'A strategy name is kebab-case (a-z, 0-9, -).').meta({ title: 'Strategy', description: 'The name of a registered strategy.' }),
    network: z
      .string()
      .regex(/^[1-9][0-9]{0,15}$/, 'A chain id, as a string of digits.')
      .optional()
      .meta({ title: 'Network', description: "The inner strategy's network (chain id); default the space's. Its block is the last at or before the snapshot's time." }),
    params: z.record(z.string(), z.unknown()).default({}).meta({ title: 'Params', description: "The inner strategy's own options." }),
  })
  .strict()

/** The options of `human-gated`, as a space configures them. */
export const humanGatedOptionsSchema = z
  .object({
    symbol: symbolOption,
    strategies: z
      .array(innerStrategyOptionsSchema)
      .min(1)
      .max(8)
      .meta({ title: 'Inner strategies', description: "The strategies whose scores are summed into a voter's power (1 to 8)." }),
    mode: z
      .enum(['gate', 'quadratic', 'cap'])
      .default('gate')
      .meta({
        title: 'Mode',
        description: "What a human's power becomes. gate: as it is; quadratic: its square root (a power below 1 counts more than itself); cap: at most `cap`. Non-humans get 0.",
      }),
    cap: z.number().positive().optional().meta({ title: 'Cap', description: 'The most a human counts with mode cap (required there, refused elsewhere).' }),
    credentials: humanTest.credentials,
    match: humanTest.match,
    actionId: humanTest.actionId,
    source: humanTest.source,
    sandbox: humanTest.sandbox,
    passportScore: z
      .number()
      .min(0)
      .default(1)
      .meta({
        title: 'Weight of a passing Passport',
        description: "For voters Human ID did not verify: the share of their power a passing Passport gives. Default 1 (as Human ID); 0 turns the fallback off.",
      }),
    passportSource: humanTest.passportSource,
    scorerId: humanTest.scorerId,
    threshold: humanTest.threshold,
    allowLiveScore: humanTest.allowLiveScore,
  })
  .strict()
  .superRefine((options, issues) => {
    refinePassportSource(options, issues)
    if (options.mode === 'cap' && options.cap === undefined) issues.addIssue({ code: 'custom', path: ['cap'], message: 'Mode cap needs a cap (a positive number).' })
    if (options.mode !== 'cap' && options.cap !== undefined) issues.addIssue({ code: 'custom', path: ['cap'], message: `A cap is read only with mode cap (the mode is ${options.mode}).` })
  })

/** The options of `human-gated`, read. */
export type HumanGatedOptions = z.output<typeof humanGatedOptionsSchema>

/**
 * One inner strategy as `human-gated` runs it: in process (a strategy of this package, or of the
 * registry given as `context.strategies`), or through score-api (`context.scoreApi`). What it runs
 * is part of the strategy server's store key; the score-api host and key are not.
 */
export type PlannedInnerStrategy = { name: string; network?: string | undefined; params: Record<string, unknown> } & (
  | { via: 'process'; strategy: InnerStrategy }
  | { via: 'score-api' }
)

/** What `human-gated` scores with: the options, the inner strategies found, the human test prepared. */
export type HumanGatedPrepared = HumanGatedOptions & {
  inner: PlannedInnerStrategy[]
  humanTest: HumanVerificationPrepared
}

/**
 * One inner strategy's answer for a voter. `blockNumber` is the block it was read at; null for a
 * strategy score-api ran on another network than the space's (score-api maps the snapshot to that
 * network's block by time, through its blockfinder, and does not say which block).
 */
export type InnerScore = { strategy: string; network: string; blockNumber: bigint | null; score: number; via: 'process' | 'score-api' }

/** What a voter's `human-gated` answer rests on. */
export type HumanGatedDetail = {
  /** The sum of the inner scores. */
  power: number
  /** Each inner strategy's score, at the block of its network. */
  inner: InnerScore[]
  /** The human test's answer; null when it was not asked (power not above 0). */
  human: HumanVerificationDetail | null
  /** 1 for Human ID, `passportScore` for a passing Passport, 0 for a voter judged not human. */
  weight: number
  mode: HumanGateMode
}

/**
 * The source name of an inner strategy, in errors and request counts: `inner strategy "<name>" on
 * network <n>`. A module in score-api's shape counts one per call (its own requests are not seen
 * from here); a definition of this package counts its requests by source, under this name.
 */
export function innerStrategySource(name: string, network: string): string {
  return `inner strategy "${name}" on network ${network}`
}

/**
 * The `human-gated` strategy. An inner strategy runs in process when the context's registry has
 * it (`strategies`, default {@link defaultInnerStrategies}; other networks' clients in `networks`),
 * else through score-api (`scoreApi`: any strategy score-api runs); else its name is refused. A
 * gate never nests (`human-gated` is no inner strategy), and an inner strategy of this package has
 * its options read before any request (a bad one is a {@link StrategyOptionsError} naming
 * `strategies.<i>.params.<option>`). The human test reads what `human-verification` reads
 * (`humanId`, `passport`).
 *
 * Requests: the inner strategies' own (plus, for an inner strategy in process on another network,
 * the header reads that find its block at the snapshot's time); through score-api, one request per
 * inner strategy and `scoreApi.maxAddresses` voters (default 500); then `human-verification`'s for
 * the voters whose power is above 0 only. Everything within the call's deadline.
 *
 * @example
 * import { humanGatedStrategy, runStrategy, strategyDefinitions } from 'personhood'
 * const { scores } = await runStrategy(humanGatedStrategy, {
 *   network: '10', provider, addresses, snapshot: 130_000_000,
 *   options: { strategies: [{ name: 'erc20-balance-of', params: { address: token, decimals: 18 } }], mode: 'quadratic', scorerId: 335 },
 *   context: { scoreApi: { url: 'https://score.snapshot.org' }, passport: { apiKey: process.env.PASSPORT_API_KEY } },
 * })
 */
export const humanGatedStrategy = defineStrategy<HumanGatedOptions, HumanGatedDetail, HumanGatedPrepared>({
  name: 'human-gated',
  title: 'Any strategy, counted only for verified humans (gate, quadratic or cap)',
  optionsSchema: humanGatedOptionsSchema,
  prepare({ strategy, options, runtime }) {
    const inner = options.strategies.map((entry, index) => planInner({ strategy, entry, index, runtime }))
    const { mode: _mode, cap: _cap, strategies: _strategies, ...human } = options
    const testOptions = { ...human, verifiedScore: 1 }
    const humanTest = humanVerificationStrategy.prepare!({ strategy, options: testOptions, runtime })
    return { ...options, inner, humanTest }
  },
  // An audit does not call the inner strategies (the export records the power): its voters are
  // judged by the human test, and the mode is applied to the recorded power afterwards.
  audit(options) {
    const { strategies, mode, cap, symbol: _symbol, ...human } = options
    const humanTest = Object.fromEntries(Object.entries(human).filter(([, value]) => value !== undefined))
    return {
      judge: humanVerificationStrategy,
      options: { ...humanTest, verifiedScore: 1 },
      gate: { mode, cap, inner: strategies.map(({ name, network }) => ({ name, ...(network ? { network } : {}) })) },
    }
  },
  async score({ strategy, space, network, provider, addresses, options, snapshot, runtime }) {
    const inner = await readInnerScores({ space, network, provider, addresses, prepared: options, snapshot, runtime, strategy })
    const power = new Map(addresses.map((address) => [address, inner.get(address)!.reduce((sum, entry) => sum + entry.score, 0)]))
    const holders = addresses.filter((address) => power.get(address)! > 0)
    const human = new Map<Address, HumanVerificationDetail>()
    const weight = new Map<Address, number>()
    if (holders.length > 0) {
      const judged = await humanVerificationStrategy.score({ strategy, space, network, provider, addresses: holders, options: options.humanTest, snapshot, runtime })
      for (const address of holders) {
        const answer = judged.get(address)
        if (!answer) throw new StrategySourceError({ source: 'the human test (human-verification)', addresses: [address], reason: `The human test left ${address} without an answer.` })
        human.set(address, answer.detail)
        weight.set(address, answer.score)
      }
    }
    return new Map(
      addresses.map((address) => {
        const voterPower = power.get(address)!
        const voterWeight = weight.get(address) ?? 0
        const score = applyHumanGate({ power: voterPower, weight: voterWeight, mode: options.mode, cap: options.cap })
        return [address, { score, detail: { power: voterPower, inner: inner.get(address)!, human: human.get(address) ?? null, weight: voterWeight, mode: options.mode } }]
      }),
    )
  },
})

/** Where `human-gated` finds an inner strategy, checked before any request. */
function planInner({ strategy, entry, index, runtime }: { strategy: string; entry: HumanGatedOptions['strategies'][number]; index: number; runtime: StrategyRuntime }): PlannedInnerStrategy {
  const { context } = runtime
  const registry = context.strategies ?? defaultInnerStrategies
  const at = (...path: (string | number)[]) => ['strategies', index, ...path]
  // Depth 1: a gate inside a gate would ask the human test twice and could call itself without end.
  if (entry.name === strategy || entry.name === humanGatedStrategyName) {
    throw new StrategyOptionsError({ strategy, issues: [{ path: at('name'), message: `"${entry.name}" cannot be an inner strategy of human-gated: gates do not nest (put its inner strategies here instead).` }] })
  }
  if (Object.hasOwn(registry, entry.name)) {
    const found = registry[entry.name]!
    // A strategy of this package: its options are read now, so a bad one is named (a 400), not a failed source.
    if ('optionsSchema' in found && isZodSchema(found.optionsSchema)) {
      try {
        parseStrategyOptions(entry.name, found.optionsSchema, entry.params)
      } catch (error) {
        if (!(error instanceof StrategyOptionsError)) throw error
        throw new StrategyOptionsError({ strategy, issues: error.issues.map((issue) => ({ path: at('params', ...issue.path), message: issue.message })) })
      }
    }
    return { ...entry, via: 'process', strategy: found }
  }
  if (context.scoreApi) return { ...entry, via: 'score-api' }
  if (context.strategies) {
    throw new StrategyOptionsError({ strategy, issues: [{ path: at('name'), message: `No strategy "${entry.name}" in the registry given (context.strategies), and no score-api is configured to run it (context.scoreApi).` }] })
  }
  // Not the space's fault: the operator has not said where score-api is (a configuration issue, by its variable's name).
  throw new StrategyOptionsError({
    strategy,
    issues: [
      {
        path: ['PERSONHOOD_SCORE_API_URL'],
        message: `strategies.${index}.name: no strategy "${entry.name}" among this package's (${Object.keys(defaultInnerStrategies).join(', ')}), and no score-api is configured to run it: set PERSONHOOD_SCORE_API_URL (context.scoreApi).`,
      },
    ],
  })
}

function isZodSchema(value: unknown): value is z.ZodType {
  return value instanceof z.ZodType
}

type ReadInnerParameters = {
  strategy: string
  space: string
  network: string
  provider: StrategyProvider
  addresses: readonly Address[]
  prepared: HumanGatedPrepared
  snapshot: ResolvedSnapshot
  runtime: StrategyRuntime
}

/**
 * Calls every inner strategy and returns each voter's inner scores: in process at its network's
 * block, or through score-api (at the space's network and snapshot; score-api maps other networks'
 * blocks by time itself).
 */
async function readInnerScores(parameters: ReadInnerParameters): Promise<Map<Address, InnerScore[]>> {
  const { strategy, network, addresses, prepared, snapshot, runtime } = parameters
  const networks = runtime.context.networks ?? {}
  const missing = prepared.inner.flatMap((inner, index) => {
    const innerNetwork = inner.network ?? network
    if (inner.via === 'score-api' || innerNetwork === network) return []
    if (!Object.hasOwn(networks, innerNetwork)) return [{ path: ['strategies', index, 'network'], message: `No client of network ${innerNetwork}: pass it in context.networks["${innerNetwork}"].` }]
    if (!networks[innerNetwork]!.clock && !blockClocks[Number(innerNetwork)]) {
      return [{ path: ['strategies', index, 'network'], message: `No block clock of network ${innerNetwork}: pass context.networks["${innerNetwork}"].clock.` }]
    }
    return []
  })
  if (missing.length > 0) throw new StrategyOptionsError({ strategy, issues: missing })
  const scoreApi = prepared.inner.some((inner) => inner.via === 'score-api') ? scoreApiOf(runtime) : undefined

  const answers = await Promise.all(
    prepared.inner.map(async (inner, index) => {
      const innerNetwork = inner.network ?? network
      const source = innerStrategySource(inner.name, innerNetwork)
      const onSpaceNetwork = innerNetwork === network
      if (inner.via === 'score-api') {
        const scores = await readThroughScoreApi({ scoreApi: scoreApi!, strategy, index, name: inner.name, params: inner.params, network: innerNetwork, parameters })
        return { name: inner.name, network: innerNetwork, blockNumber: onSpaceNetwork ? snapshot.blockNumber : null, scores, via: inner.via }
      }
      const innerProvider = onSpaceNetwork ? parameters.provider : networks[innerNetwork]!.provider
      const blockNumber = onSpaceNetwork ? snapshot.blockNumber : await innerBlockAt({ runtime, network: innerNetwork, snapshot, addresses })
      const scores = await readSource({ source, addresses, deadline: runtime.deadline }, (signal) =>
        callInner({ inner: inner.strategy, name: inner.name, space: parameters.space, network: innerNetwork, provider: innerProvider, addresses, params: inner.params, blockNumber, runtime, signal, source }),
      )
      return { name: inner.name, network: innerNetwork, blockNumber, scores: readScores(scores, addresses, source), via: inner.via }
    }),
  )
  return new Map(
    addresses.map((address) => [
      address,
      answers.map((answer) => ({ strategy: answer.name, network: answer.network, blockNumber: answer.blockNumber, score: answer.scores.get(address)!, via: answer.via })),
    ]),
  )
}

/** The score-api client of a call and how many addresses one request carries. */
type ScoreApiOfCall = { client: ScoreApiClient; maxAddresses: number }

function scoreApiOf(runtime: StrategyRuntime): ScoreApiOfCall {
  const access = runtime.context.scoreApi!
  const maxAddresses = access.maxAddresses ?? defaultScoreApiMaxAddresses
  if (!Number.isSafeInteger(maxAddresses) || maxAddresses < 1) throw new InvalidParameterError({ parameter: 'scoreApi.maxAddresses', reason: `Expected a positive integer, got ${String(maxAddresses)}.` })
  const client =
    access.client ??
    createScoreApiClient({
      url: access.url,
      apiKey: access.apiKey,
      ...(runtime.context.fetch ? { fetch: runtime.context.fetch } : {}),
      now: runtime.now,
      sleep: runtime.sleep,
      concurrency: runtime.concurrency,
    })
  return { client, maxAddresses }
}

/**
 * One inner strategy through score-api: one request per `maxAddresses` voters (at most
 * `concurrency` in flight), at the space's network and snapshot block. A missing address is 0 (as
 * in score-api); an error, an answer of another shape, an address twice, or an answer scored at
 * 'latest' (score-api's node behind the snapshot) fails the call, naming the inner strategy.
 */
async function readThroughScoreApi(call: {
  scoreApi: ScoreApiOfCall
  strategy: string
  index: number
  name: string
  params: Record<string, unknown>
  network: string
  parameters: ReadInnerParameters
}): Promise<Map<Address, number>> {
  const { scoreApi, parameters } = call
  const { runtime, addresses, snapshot } = parameters
  const source = `${innerStrategySource(call.name, call.network)} through score-api`
  const chunks: Address[][] = []
  for (let start = 0; start < addresses.length; start += scoreApi.maxAddresses) chunks.push(addresses.slice(start, start + scoreApi.maxAddresses))
  const answers = await mapWithConcurrency(chunks, runtime.concurrency, async (chunk) => {
    runtime.countRequest(source)
    try {
      return await readSource({ source, addresses: chunk, deadline: runtime.deadline, describe: describeScoreApiError }, async (signal) => {
        const answer = await scoreApi.client.getScores({
          space: parameters.space,
          network: parameters.network,
          snapshot: snapshot.blockNumber,
          strategies: [{ name: call.name, network: call.network, params: call.params }],
          addresses: chunk,
          signal,
        })
        if (answer.state !== 'final') {
          throw new StrategySourceError({
            source,
            addresses: chunk,
            reason: `score-api scored at 'latest' (state pending): its node of network ${parameters.network} has not reached block ${snapshot.blockNumber} yet. Retry later.`,
          })
        }
        return answer.scores[0]!
      })
    } catch (error) {
      const reason = error instanceof StrategySourceError ? readScoreApiErrorReason(error.cause) : undefined
      const unknown = reason === undefined ? undefined : /^invalid strategies: /.exec(reason)
      if (unknown) throw new StrategyOptionsError({ strategy: call.strategy, issues: [{ path: ['strategies', call.index, 'name'], message: `score-api has no strategy "${call.name}" (it answered "${reason}").` }] })
      throw error
    }
  })
  const scores = new Map<Address, number>()
  chunks.forEach((chunk, index) => {
    for (const address of chunk) scores.set(address, answers[index]!.get(address.toLowerCase()) ?? 0)
  })
  return scores
}

function describeScoreApiError(error: unknown): string | undefined {
  if (error instanceof StrategySourceError) return undefined
  const reason = readScoreApiErrorReason(error)
  if (reason !== undefined && error instanceof HttpRequestError) return `score-api answered ${error.status}: ${reason.slice(0, 300)}`
  if (error instanceof ResponseValidationError) return `score-api's answer is not its documented shape: ${error.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`
  return undefined
}

/** The block of another network at the snapshot's time: the last at or before it, by that network's clock. */
async function innerBlockAt({ runtime, network, snapshot, addresses }: { runtime: StrategyRuntime; network: string; snapshot: ResolvedSnapshot; addresses: readonly Address[] }): Promise<bigint> {
  const cacheKey = `human-gated:block:${network}:${snapshot.timestamp}`
  const cached = runtime.cache?.get(cacheKey) as bigint | undefined
  if (cached !== undefined) return cached
  const given = runtime.context.networks![network]!
  const clock = given.clock ?? blockClocks[Number(network)]!
  const source = `block of network ${network} at the snapshot's time`
  const found = await readSource({ source, addresses, deadline: runtime.deadline }, () =>
    findBlockAtTime(given.provider, { timestamp: snapshot.timestamp, clock, chainId: Number(network) }),
  )
  runtime.countRequest(source, found.reads)
  runtime.cache?.set(cacheKey, found.number)
  return found.number
}

type CallInnerParameters = {
  inner: InnerStrategy
  name: string
  space: string
  network: string
  provider: StrategyProvider | ChainClient
  addresses: readonly Address[]
  params: Record<string, unknown>
  blockNumber: bigint
  runtime: StrategyRuntime
  signal: AbortSignal
  source: string
}

/** One inner call: score-api's `strategy(...)` for a module, `runStrategy` for a definition of this package. */
async function callInner(parameters: CallInnerParameters): Promise<Record<string, unknown>> {
  const { inner, runtime, source } = parameters
  if ('strategy' in inner && typeof inner.strategy === 'function') {
    runtime.countRequest(source)
    const call = inner.strategy as (...args: unknown[]) => Promise<Record<string, number>>
    return untilAborted(call(parameters.space, parameters.network, parameters.provider, [...parameters.addresses], parameters.params, Number(parameters.blockNumber)), parameters.signal)
  }
  const definition = inner as unknown as StrategyDefinition
  const remainingMs = runtime.deadline.remainingMs()
  const run = await runStrategy(definition, {
    space: parameters.space,
    network: parameters.network,
    provider: parameters.provider,
    addresses: parameters.addresses,
    options: parameters.params,
    snapshot: parameters.blockNumber,
    context: { ...runtime.context, signal: parameters.signal, ...(Number.isFinite(remainingMs) ? { deadlineMs: Math.max(1, remainingMs) } : {}) },
  })
  for (const [name, count] of Object.entries(run.requests)) runtime.countRequest(`${source}: ${name}`, count)
  return run.scores
}

/** An inner answer read as a number per voter: a missing voter is 0 (score-api's convention); an address with two scores (in any casing) or a value not a finite number is an error. */
function readScores(answer: unknown, addresses: readonly Address[], source: string): Map<Address, number> {
  let read: ReturnType<typeof readInnerAnswer>
  try {
    // The ground floor's reading (src/rules/inner-scores.ts, the folder's too): a missing voter is 0, one score per address.
    read = readInnerAnswer(answer, addresses, `The ${source}`)
  } catch (error) {
    if (!(error instanceof ConflictingRowsError)) throw error
    const twice = addresses.filter((address) => address.toLowerCase() === error.address.toLowerCase())
    throw new StrategySourceError({ source, addresses: twice.length ? twice : addresses, reason: error.message, cause: error })
  }
  if (read === undefined) {
    throw new StrategySourceError({ source, addresses, reason: `The ${source} answered ${Array.isArray(answer) ? 'an array' : typeof answer}, not scores by address.` })
  }
  if (read.notNumbers.length > 0) throw new StrategySourceError({ source, addresses: read.notNumbers as Address[], reason: `The ${source} answered a score that is not a finite number.` })
  return read.scores as Map<Address, number>
}
