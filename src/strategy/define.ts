/**
 * The frame every strategy shares: options read before any request, addresses checked and
 * checksummed, the snapshot resolved to its block's time, a deadline, and a result with a plain
 * number for every address asked (never a silent 0 for one that could not be checked). A strategy
 * only writes its `score` step.
 */
import type { Address } from 'viem'
import { ChainReadError, type BlockNotAvailableErrorType, type ChainReadErrorType } from '../errors/chain.js'
import { InvalidParameterError, type InvalidAddressErrorType, type InvalidParameterErrorType } from '../errors/input.js'
import {
  StrategySourceError,
  type PassportHistoryDeniedErrorType,
  type RateBudgetErrorType,
  type StrategyDeadlineErrorType,
  type StrategyOptionsErrorType,
  type StrategySourceErrorType,
} from '../errors/strategy.js'
import type { StrategyCache } from './cache.js'
import { createStrategyCache } from './cache.js'
import { createStrategyRuntime, type StrategyContext, type StrategyRuntime } from './context.js'
import { toStrategyError } from './deadline.js'
import { keepHeader, knownHeader } from './headers.js'
import { strategyJsonSchema } from './options.js'
import { parseStrategyCall, type StrategyCall } from './call.js'
import type { AddressScore, StrategyDefinition } from './types.js'
import { readSnapshotHeader, type RequestedSnapshot, type ResolvedSnapshot, type StrategyProvider, type StrategySnapshot } from './snapshot.js'

export type { AddressScore, StrategyAuditGate, StrategyAuditPlan, StrategyDefinition, StrategyPrepareParameters, StrategyScoreParameters } from './types.js'

/**
 * Declares a strategy (checks its name; returns it as given).
 *
 * @throws {InvalidParameterError} when the name is not kebab-case (`^[a-z0-9-]+$`).
 * @example
 * import { z } from 'zod'
 * import { defineStrategy, symbolOption } from 'personhood'
 * const constant = defineStrategy({
 *   name: 'constant',
 *   title: 'Constant',
 *   optionsSchema: z.object({ symbol: symbolOption, score: z.number().default(1) }).strict(),
 *   async score({ addresses, options }) {
 *     return new Map(addresses.map((address) => [address, { score: options.score, detail: null }]))
 *   },
 * })
 */
export function defineStrategy<options, detail, prepared = options>(
  definition: StrategyDefinition<options, detail, prepared>,
): StrategyDefinition<options, detail, prepared> {
  if (!/^[a-z0-9-]+$/.test(definition.name)) {
    throw new InvalidParameterError({ parameter: 'name', reason: `A strategy name is kebab-case (a-z, 0-9, -), got "${definition.name}".` })
  }
  return definition
}

/** The `schema.json` of a strategy (see {@link strategyJsonSchema}). */
export function getStrategyJsonSchema(definition: Pick<StrategyDefinition, 'title' | 'optionsSchema'>): Record<string, unknown> {
  return strategyJsonSchema({ title: definition.title, options: definition.optionsSchema })
}

/**
 * The `schema.json` of a score-api validation that takes a strategy's options as its params: the
 * strategy's schema under `#/definitions/Validation`.
 */
export function validationJsonSchema(definition: Pick<StrategyDefinition, 'title' | 'optionsSchema'>): Record<string, unknown> {
  const schema = getStrategyJsonSchema(definition) as { definitions: { Strategy: unknown } }
  return { $schema: 'http://json-schema.org/draft-07/schema#', $ref: '#/definitions/Validation', definitions: { Validation: schema.definitions.Strategy } }
}

/**
 * Parameters of {@link runStrategy}: score-api's arguments by name and the context
 * ({@link RunStrategyInputParameters}), or a call already parsed ({@link RunStrategyCallParameters}).
 */
export type RunStrategyParameters = RunStrategyInputParameters | RunStrategyCallParameters

/** Parameters of {@link runStrategy} as score-api passes them: read once, by {@link parseStrategyCall}. */
export type RunStrategyInputParameters = {
  /** The space (score-api passes its ENS name); strategies here do not depend on it. Default ''. */
  space?: string | undefined
  /** The space's network, a chain id string ("1", "10"). */
  network: string
  /** A provider of that network (an ethers provider, a viem client or an EIP-1193 provider). */
  provider: StrategyProvider
  addresses: readonly string[]
  /** The options as a space configures them (`params` in score-api). */
  options: unknown
  /** A block number of the network, or 'latest'. */
  snapshot: StrategySnapshot
  context?: StrategyContext | undefined
}

/** Parameters of {@link runStrategy} with a call already parsed ({@link parseStrategyCall}): nothing of it is read again. */
export type RunStrategyCallParameters<options = unknown, prepared = options> = {
  call: StrategyCall<options, prepared>
  /** A provider of the call's network. */
  provider: StrategyProvider
  context?: StrategyContext | undefined
}

/** What {@link runStrategy} returns: the checksummed scores, each address's score with what it rests on, the block, and the requests by source. */
export type StrategyRun<detail = unknown> = {
  /** Checksummed address to score: what score-api takes. Every address asked is a key. */
  scores: Record<Address, number>
  /** Each address's score and what it rests on. */
  results: ReadonlyMap<Address, AddressScore<detail>>
  /** The block scored at (null when no address was asked and nothing was read). */
  snapshot: ResolvedSnapshot | null
  /** Requests sent, by source. */
  requests: Record<string, number>
}

/** What {@link runStrategy} returns. */
export type RunStrategyReturnType<detail = unknown> = StrategyRun<detail>

/**
 * What {@link runStrategy} throws: options or configuration refused, a bad address or snapshot, the
 * snapshot's block unreadable, a source that failed (Passport history refused included), or a
 * deadline or rate budget that cannot be met. A source's own error is the `cause`, never thrown bare.
 */
export type RunStrategyErrorType =
  | StrategyOptionsErrorType
  | InvalidAddressErrorType
  | InvalidParameterErrorType
  | BlockNotAvailableErrorType
  | ChainReadErrorType
  | StrategySourceErrorType
  | PassportHistoryDeniedErrorType
  | StrategyDeadlineErrorType
  | RateBudgetErrorType

/**
 * Runs a strategy with an explicit context: reads the options (before any request), checks and
 * checksums the addresses (all three once, through {@link parseStrategyCall}; pass `{ call }` to
 * run a call already parsed, and prepared with `prepareStrategyCall`), resolves the snapshot to its block's time through `provider` (one
 * request; a strategy with `scoreRequested` asks for it only when it needs it), and scores within
 * the context's deadline.
 *
 * A voter's score does not depend on the other addresses of the call: sources are read in bulk
 * when that is cheaper, but each address is judged alone.
 *
 * @throws {StrategyOptionsError} on invalid options or missing configuration (no request sent).
 * @throws {InvalidAddressError} or {@link InvalidParameterError} on a bad address or snapshot (no request sent).
 * @throws {ChainReadError} or {@link BlockNotAvailableError} when the snapshot's block cannot be read.
 * @throws {StrategySourceError} when a source fails (it names the source and the addresses left unanswered).
 * @throws {StrategyDeadlineError} or {@link RateBudgetError} when the call cannot finish within its deadline.
 * @example
 * import { runStrategy, passportV2Strategy } from 'personhood'
 * const { scores, requests } = await runStrategy(passportV2Strategy, {
 *   network: '1',
 *   provider, // an ethers provider of network 1
 *   addresses: ['0x52908400098527886E0F7030069857D2E4169EE7'],
 *   options: { scorerId: 335, mode: 'gated' },
 *   snapshot: 21_000_000,
 *   context: { passport: { apiKey: process.env.PASSPORT_API_KEY } },
 * })
 */
export async function runStrategy<options, detail, prepared>(
  definition: StrategyDefinition<options, detail, prepared>,
  parameters: RunStrategyParameters,
  sharedCache?: StrategyCache,
): Promise<RunStrategyReturnType<detail>> {
  const { name } = definition
  const call = ('call' in parameters ? parameters.call : parseStrategyCall(definition, parameters)) as StrategyCall<options, prepared>
  if (call.definition !== definition) {
    throw new InvalidParameterError({ parameter: 'call', reason: `The call was parsed for strategy "${call.definition.name}", not "${name}".` })
  }
  const { addresses, network, provider } = { ...call, provider: parameters.provider }
  const runtime = createStrategyRuntime(parameters.context, sharedCache)
  try {
    const prepared = call.prepared ? call.prepared.value : definition.prepare ? definition.prepare({ strategy: name, options: call.options, runtime }) : (call.options as unknown as prepared)
    if (addresses.length === 0) return { scores: {}, results: new Map(), snapshot: null, requests: runtime.requests }
    const common = { strategy: name, space: call.space, network, provider, addresses, options: prepared, runtime }
    let snapshot: ResolvedSnapshot
    let results: ReadonlyMap<Address, AddressScore<detail>>
    if (definition.scoreRequested) {
      let read: Promise<ResolvedSnapshot> | undefined
      const requested: RequestedSnapshot = { network, requested: call.snapshot, resolve: () => (read ??= readSnapshot(runtime, call, provider)) }
      ;({ snapshot, results } = await definition.scoreRequested({ ...common, snapshot: requested }))
    } else {
      snapshot = await readSnapshot(runtime, call, provider)
      results = await definition.score({ ...common, snapshot })
    }
    const missing = addresses.filter((address) => !isScore(results.get(address)?.score))
    if (missing.length) {
      throw new StrategySourceError({
        source: `strategy "${name}"`,
        addresses: missing,
        reason: `Strategy "${name}" left ${missing.length} address(es) without a numeric score.`,
      })
    }
    const scores = Object.fromEntries(addresses.map((address) => [address, (results.get(address) as AddressScore<detail>).score])) as Record<Address, number>
    return { scores, results, snapshot, requests: runtime.requests }
  } finally {
    runtime.deadline.dispose()
  }
}

/** What score-api calls: `strategy(space, network, provider, addresses, options, snapshot)`. */
export type ScoreApiStrategy = (
  space: string,
  network: string,
  provider: StrategyProvider,
  addresses: string[],
  options: unknown,
  snapshot: number | 'latest',
) => Promise<Record<string, number>>

/**
 * Makes a strategy callable as score-api calls strategies. The context is read on every call (pass
 * a function to read it from the environment each time); the cache is kept across calls by this
 * instance unless the context gives its own.
 *
 * @example
 * import { createScoreApiStrategy, passportV2Strategy, readStrategyEnvironment } from 'personhood'
 * export const strategy = createScoreApiStrategy(passportV2Strategy, () => readStrategyEnvironment(process.env))
 */
export function createScoreApiStrategy<options, detail, prepared>(
  definition: StrategyDefinition<options, detail, prepared>,
  context: StrategyContext | (() => StrategyContext) = {},
): ScoreApiStrategy {
  const cache = createStrategyCache()
  return async (space, network, provider, addresses, options, snapshot) => {
    const resolved = typeof context === 'function' ? context() : context
    const run = await runStrategy(definition, { space, network, provider, addresses, options, snapshot, context: resolved }, cache)
    return run.scores
  }
}

/**
 * The snapshot's block and time: from the process's headers when this provider's block was read
 * before (./headers.ts; not with `cache: false`), else one request.
 */
async function readSnapshot(runtime: StrategyRuntime, call: StrategyCall<unknown, unknown>, provider: StrategyProvider): Promise<ResolvedSnapshot> {
  const { snapshot: requested, network, addresses } = call
  const keeps = runtime.context.cache !== false && requested !== 'latest'
  const known = keeps ? knownHeader(provider, network, requested, runtime.now()) : undefined
  if (known) return { network, requested, ...known }
  runtime.countRequest('provider')
  try {
    const resolved = await untilAborted(readSnapshotHeader(provider, { requested, network, addresses }), runtime.deadline.signal)
    if (keeps) keepHeader(provider, network, { blockNumber: resolved.blockNumber, timestamp: resolved.timestamp }, runtime.now())
    return resolved
  } catch (error) {
    // A chain error already names the block and the addresses; a bad provider is the caller's.
    if (error instanceof ChainReadError || error instanceof InvalidParameterError) throw error
    throw toStrategyError(error, { source: `the block of snapshot ${String(requested)} on network ${network} (provider)`, addresses, deadline: runtime.deadline })
  }
}

/** Resolves as `promise`, or rejects with the signal's reason when it aborts first. */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

function isScore(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}
