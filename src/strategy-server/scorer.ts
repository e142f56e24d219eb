/**
 * The strategy server's engine: answers addresses for (strategy, options, network, snapshot) from
 * the answer store when it can, and otherwise through `runStrategy`, with every concurrent call for
 * the same snapshot sharing one run: addresses that arrive while a run is in flight wait for the
 * next run of their group, which starts as soon as the previous one ends. A burst of single-voter
 * calls therefore costs a few runs, not one run per voter.
 *
 * Only answers about a final snapshot (older than `finalityMs` by the block's own time) are kept;
 * they are a pure function of the chain (and the sources' history) at that block, so two instances
 * give the same answer for the same key whether or not they share a store.
 */
import type { Address } from 'viem'
import { InvalidAddressError, InvalidParameterError } from '../errors/input.js'
import { StrategyOptionsError } from '../errors/strategy.js'
import { createStrategyCache, type StrategyCache } from '../strategy/cache.js'
import { parseStrategyCall, prepareStrategyCall, type StrategyCall } from '../strategy/call.js'
import type { StrategyContext } from '../strategy/context.js'
import { runStrategy, type StrategyDefinition } from '../strategy/define.js'
import { readSnapshotHeader, type StrategyProvider } from '../strategy/snapshot.js'
import { stringifyJson } from '../utils/json.js'
import { isConfigurationIssue, StrategyServerRequestError } from './answer.js'
import { strategyServerDefaults } from './defaults.js'
import type { AnswerStore } from './store.js'

/** A strategy definition of any options, detail and prepared types (the server serves many). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each strategy has its own options
export type AnyStrategyDefinition = StrategyDefinition<any, unknown, any>

/** Options of {@link createStrategyScorer}. */
export type CreateStrategyScorerParameters = {
  /** A provider per network (chain id string). A network not listed is refused (400). */
  providers: Readonly<Record<string, StrategyProvider>>
  /** Where the sources are (Passport key and hosts, Human ID hub chain...): the operator's, never a space's. */
  context?: StrategyContext | undefined
  store: AnswerStore
  /** The clock, Unix ms. Default Date.now. */
  now?: (() => number) | undefined
  /** A snapshot older than this (by its block's timestamp) is final and its answers are kept for good. Default 15 minutes. */
  finalityMs?: number | undefined
  /**
   * A run starts once no new address has joined it for this long, ms (each arrival restarts the
   * wait), so a burst's calls ride together. Default 5.
   */
  batchWindowMs?: number | undefined
  /** The longest a run waits for more addresses after its first, ms. Default 250. */
  maxBatchWaitMs?: number | undefined
  /** Most addresses in one run. Default 10,000. */
  maxBatch?: number | undefined
  /** Hears of every run: its strategy, size and the requests it sent by source. */
  onRun?: ((run: { strategy: string; addresses: number; requests: Record<string, number> }) => void) | undefined
  /** Hears of the requests the scorer sends itself (snapshot headers), by source. */
  onRequest?: ((source: string) => void) | undefined
}

/** One call: parsed and prepared once ({@link readScoreCall}), with what the store keys it by. */
export type ScoreCall = {
  definition: AnyStrategyDefinition
  /** The call as parsed and prepared (`prepare` ran once, for the key and every run). */
  call: StrategyCall
  /** The options as the strategy reads them, canonical (sorted keys): part of every store key. */
  canonicalOptions: string
  network: string
  snapshot: bigint | 'latest'
  /** Distinct EIP-55 addresses. */
  addresses: readonly Address[]
  /**
   * Why the strategy cannot run on this server (configuration it lacks, a Passport key say): the
   * call is still answered when every answer is stored, and fails with this otherwise.
   */
  unconfigured?: StrategyOptionsError | undefined
}

/** What {@link StrategyScorer.score} answers. */
export type ScoreCallResult = {
  /** Score by EIP-55 address: one per address of the call. */
  scores: Map<Address, number>
  /** The block scored at (for 'latest', the head when it was read). */
  blockNumber: bigint
  /** Whether the snapshot is final (answers kept for good). */
  final: boolean
  /** Addresses answered from the store. */
  hits: number
}

/** The engine: `score(call)` answers a call's addresses. */
export type StrategyScorer = {
  score(call: ScoreCall): Promise<ScoreCallResult>
  /** Runs in flight or waiting. */
  readonly pending: number
  /** Addresses waiting for a run or in one, over every group (a burst's depth). */
  readonly queued: number
  /** Resolves when no run is in flight or waiting. */
  idle(): Promise<void>
}

/**
 * Reads a call's strategy options, network, snapshot and addresses, once ({@link parseStrategyCall}),
 * each checked before any request, and prepares it once (what it runs with is part of the key).
 *
 * @throws {StrategyOptionsError} naming the options at fault (configuration the server lacks is
 * not thrown here but kept as `unconfigured`: stored answers need none).
 * @throws {InvalidParameterError} naming `network`, `snapshot` or `addresses[i]`.
 * @throws {StrategyServerRequestError} 413 for more than `maxAddresses` addresses.
 */
export function readScoreCall(
  definition: AnyStrategyDefinition,
  input: { options: Record<string, unknown>; network: unknown; snapshot: unknown; addresses: unknown },
  parameters: { networks: readonly string[]; context?: StrategyContext | undefined; maxAddresses: number },
): ScoreCall {
  if (Array.isArray(input.addresses) && input.addresses.length > parameters.maxAddresses) {
    throw new StrategyServerRequestError(413, 'TOO_MANY_ADDRESSES', `At most ${parameters.maxAddresses} addresses a call; got ${input.addresses.length}.`, 'addresses')
  }
  const parsed = parseStrategyCall(definition, input, { networks: parameters.networks, onInvalidAddress: describeInvalidAddress })
  // What the strategy will run with (a scorer id from the operator's configuration, say) is part of the key.
  let call: StrategyCall
  let unconfigured: StrategyOptionsError | undefined
  try {
    call = prepareStrategyCall(parsed, parameters.context)
  } catch (error) {
    // Without the operator's keys, answers already stored can still be served: the key is what the
    // strategy reads with a key (a key is never part of it); a call that needs a run fails then.
    if (!(error instanceof StrategyOptionsError) || !error.issues.every(isConfigurationIssue)) throw error
    unconfigured = error
    call = prepareStrategyCall(parsed, withPlaceholderKeys(parameters.context))
  }
  return {
    definition,
    call,
    canonicalOptions: stringifyJson(call.prepared?.value, { sortKeys: true }) ?? 'null',
    network: call.network,
    snapshot: call.snapshot,
    addresses: call.addresses,
    ...(unconfigured ? { unconfigured } : {}),
  }
}

/** The server's words for a bad address: the parameter, the value and why. */
function describeInvalidAddress(error: unknown, index: number, value: unknown): InvalidParameterError {
  const reason = error instanceof InvalidAddressError ? (error.details ?? error.shortMessage) : 'Expected an address.'
  return new InvalidParameterError({ parameter: `addresses[${index}]`, reason: `"${String(value).slice(0, 60)}" is not an address: ${reason}` })
}

/** The context with a stand-in for each missing key and score-api: preparing builds clients and sends nothing, and neither a key nor score-api's host is part of a store key. */
function withPlaceholderKeys(context: StrategyContext | undefined): StrategyContext {
  return {
    ...context,
    passport: { ...context?.passport, apiKey: context?.passport?.apiKey || 'placeholder-never-sent' },
    scoreApi: context?.scoreApi ?? { url: 'http://placeholder-never-called.invalid' },
  }
}

/**
 * A provider that keeps the headers of final blocks (and the chain id): a block's header never
 * changes once no reorg can reach it, so every run of a snapshot after the first reads it for free.
 * Anything else goes to the provider. Providers without `request` are used as they are.
 */
function withHeaderCache(provider: StrategyProvider, isFinal: (timestampSeconds: number) => boolean): StrategyProvider {
  const inner = provider as { request?: (arguments_: { method: string; params?: unknown }) => Promise<unknown> }
  if (typeof inner.request !== 'function') return provider
  const request = inner.request.bind(inner)
  const kept = new Map<string, unknown>()
  let chainId: Promise<unknown> | undefined
  return {
    async request(arguments_: { method: string; params?: unknown }) {
      const { method, params } = arguments_
      if (method === 'eth_chainId') {
        chainId ??= request(arguments_).catch((error: unknown) => {
          chainId = undefined
          throw error
        })
        return chainId
      }
      const list = Array.isArray(params) ? (params as unknown[]) : []
      if (method !== 'eth_getBlockByNumber' || typeof list[0] !== 'string' || !/^0x[0-9a-f]+$/i.test(list[0]) || list[1] === true) return request(arguments_)
      const key = (list[0] as string).toLowerCase()
      if (kept.has(key)) return kept.get(key)
      const block = (await request(arguments_)) as { timestamp?: unknown } | null
      if (block && typeof block.timestamp === 'string' && isFinal(Number(BigInt(block.timestamp)))) {
        kept.set(key, block)
        if (kept.size > 10_000) kept.delete(kept.keys().next().value as string)
      }
      return block
    },
  } as StrategyProvider
}

type Waiter = { resolve: (score: number) => void; reject: (error: unknown) => void; promise: Promise<number> }

function waiter(): Waiter {
  let resolve!: (score: number) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<number>((yes, no) => {
    resolve = yes
    reject = no
  })
  // A rejection is handled by every call that awaits it; an unawaited one must not crash the process.
  promise.catch(() => {})
  return { resolve, reject, promise }
}

type Group = {
  key: string
  call: ScoreCall
  blockNumber: bigint
  final: boolean
  waiting: Map<Address, Waiter>
  running: Map<Address, Waiter>
  active: boolean
  timer: ReturnType<typeof setTimeout> | undefined
  /** When the first address of the next run started waiting (performance.now()). */
  firstWaitAt: number | undefined
}

/**
 * Creates the engine `createStrategyServer` runs on: answers from the store when it can, else through
 * `runStrategy`, every concurrent call for a snapshot sharing one run.
 *
 * @throws {InvalidParameterError} on a bad `finalityMs`, `batchWindowMs` or `maxBatch`.
 */
export function createStrategyScorer(parameters: CreateStrategyScorerParameters): StrategyScorer {
  const {
    store,
    now = Date.now,
    finalityMs = strategyServerDefaults.finalityMs,
    batchWindowMs = strategyServerDefaults.batchWindowMs,
    maxBatchWaitMs = strategyServerDefaults.maxBatchWaitMs,
    maxBatch = strategyServerDefaults.maxBatch,
  } = parameters
  if (!(finalityMs >= 0)) throw new InvalidParameterError({ parameter: 'finalityMs', reason: `Expected a number of ms, got ${String(finalityMs)}.` })
  if (!(maxBatchWaitMs >= 0)) throw new InvalidParameterError({ parameter: 'maxBatchWaitMs', reason: `Expected a number of ms, got ${String(maxBatchWaitMs)}.` })
  if (!(batchWindowMs >= 0)) throw new InvalidParameterError({ parameter: 'batchWindowMs', reason: `Expected a number of ms, got ${String(batchWindowMs)}.` })
  if (!Number.isSafeInteger(maxBatch) || maxBatch < 1) throw new InvalidParameterError({ parameter: 'maxBatch', reason: `Expected a positive integer, got ${String(maxBatch)}.` })
  const context = parameters.context ?? {}
  const providers = Object.fromEntries(
    Object.entries(parameters.providers).map(([network, provider]) => [network, withHeaderCache(provider, (seconds) => seconds * 1000 <= now() - finalityMs)]),
  )
  // Strategies keep what never changes (a hub block at a time, listing pages) across runs here.
  const cache: StrategyCache = context.cache === false ? createStrategyCache({ maxEntries: 1 }) : (context.cache ?? createStrategyCache({ now }))
  const groups = new Map<string, Group>()
  const headers = new Map<string, Promise<{ blockNumber: bigint; timestamp: number }>>()
  const idlers: (() => void)[] = []

  /** A block's header, shared by concurrent calls; kept once the block is final. */
  function header(network: string, snapshot: bigint | 'latest'): Promise<{ blockNumber: bigint; timestamp: number }> {
    const key = `${network}:${snapshot}`
    const known = headers.get(key)
    if (known) return known
    parameters.onRequest?.('provider')
    const read = readSnapshotHeader(providers[network] as StrategyProvider, { requested: snapshot, network }).then(({ blockNumber, timestamp }) => ({ blockNumber, timestamp }))
    headers.set(key, read)
    const forget = () => headers.delete(key)
    read.then(({ timestamp }) => {
      // 'latest' is shared only by the calls that overlap it; a block is kept once final.
      if (snapshot === 'latest' || timestamp * 1000 > now() - finalityMs) forget()
    }, forget)
    return read
  }

  /** (Re)starts the wait of the group's next run: `batchWindowMs` after the last arrival, at most `maxBatchWaitMs` after the first. */
  function schedule(group: Group): void {
    if (group.active || group.waiting.size === 0) return
    const at = performance.now()
    group.firstWaitAt ??= at
    if (group.timer !== undefined) clearTimeout(group.timer)
    const delay = Math.max(0, Math.min(batchWindowMs, group.firstWaitAt + maxBatchWaitMs - at))
    group.timer = setTimeout(() => {
      group.timer = undefined
      group.firstWaitAt = undefined
      void run(group)
    }, delay)
  }

  async function run(group: Group): Promise<void> {
    group.active = true
    const batch = new Map<Address, Waiter>()
    for (const [address, entry] of group.waiting) {
      if (batch.size >= maxBatch) break
      batch.set(address, entry)
    }
    for (const [address, entry] of batch) {
      group.waiting.delete(address)
      group.running.set(address, entry)
    }
    const { call } = group
    const addresses = [...batch.keys()]
    try {
      // The call as parsed and prepared, at the block read, for this run's addresses: nothing is parsed or prepared again.
      const result = await runStrategy(call.definition, {
        call: { ...call.call, snapshot: group.blockNumber, addresses },
        provider: providers[call.network] as StrategyProvider,
        context: { ...context, cache },
      })
      parameters.onRun?.({ strategy: call.definition.name, addresses: addresses.length, requests: result.requests })
      const scores = result.scores as Record<Address, number>
      // Durable before anyone hears of it: an acknowledged answer survives a crash.
      if (group.final) await store.put(group.key, scores)
      for (const [address, entry] of batch) entry.resolve(scores[address] as number)
    } catch (error) {
      for (const entry of batch.values()) entry.reject(error)
    } finally {
      for (const address of batch.keys()) group.running.delete(address)
      group.active = false
      if (group.waiting.size) schedule(group)
      else if (group.running.size === 0) groups.delete(group.key)
      if (groups.size === 0) for (const idle of idlers.splice(0)) idle()
    }
  }

  return {
    async score(call) {
      const { network, snapshot } = call
      const prefix = `${call.definition.name}|${call.canonicalOptions}|${network}|`
      // A numeric snapshot every address of which is stored needs no request at all.
      if (snapshot !== 'latest') {
        const stored = call.addresses.map((address) => store.get(`${prefix}${snapshot}`, address))
        if (stored.every((score) => score !== undefined)) {
          return { scores: new Map(call.addresses.map((address, index) => [address, stored[index] as number])), blockNumber: snapshot, final: true, hits: call.addresses.length }
        }
      }
      if (call.unconfigured) throw call.unconfigured
      const block = await header(network, snapshot)
      const final = block.timestamp * 1000 <= now() - finalityMs
      const key = `${prefix}${block.blockNumber}`
      const scores = new Map<Address, number>()
      const waits: Promise<void>[] = []
      let hits = 0
      let group = groups.get(key)
      for (const address of call.addresses) {
        const stored = final ? store.get(key, address) : undefined
        if (stored !== undefined) {
          scores.set(address, stored)
          hits += 1
          continue
        }
        if (!group) {
          group = { key, call, blockNumber: block.blockNumber, final, waiting: new Map(), running: new Map(), active: false, timer: undefined, firstWaitAt: undefined }
          groups.set(key, group)
        }
        let entry = group.running.get(address) ?? group.waiting.get(address)
        if (!entry) group.waiting.set(address, (entry = waiter()))
        waits.push(entry.promise.then((score) => void scores.set(address, score)))
      }
      if (group) schedule(group)
      await Promise.all(waits)
      // In the caller's order.
      return { scores: new Map(call.addresses.map((address) => [address, scores.get(address) as number])), blockNumber: block.blockNumber, final, hits }
    },
    get pending() {
      return groups.size
    },
    get queued() {
      let count = 0
      for (const group of groups.values()) count += group.waiting.size + group.running.size
      return count
    },
    idle() {
      if (groups.size === 0) return Promise.resolve()
      return new Promise<void>((resolve) => idlers.push(resolve))
    },
  }
}
