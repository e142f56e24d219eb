/**
 * The frame every strategy shares: options read before any request, addresses checksummed, the
 * snapshot resolved through any provider shape, a number for every address, deadlines and rate
 * budgets that refuse instead of waiting in silence, and the cache.
 */
import { describe, expect, test } from 'vitest'
import { recordingBlockProvider } from '../helpers/block-provider.js'
import { z } from 'zod'
import { getAddress, numberToHex, type Address } from 'viem'
import {
  BlockNotAvailableError,
  ChainReadError,
  InvalidAddressError,
  InvalidParameterError,
  RateBudgetError,
  StrategyDeadlineError,
  StrategyOptionsError,
  StrategySourceError,
  createRateLimiter,
  createScoreApiStrategy,
  createStrategyCache,
  defineStrategy,
  readStrategyEnvironment,
  resolveSnapshot,
  runStrategy,
  symbolOption,
  validateWithStrategy,
  type StrategyProvider,
} from '../../src/index.js'
import { createStrategyRuntime, getPassportSources } from '../../src/strategy/context.js'
import { checkRateBudget, createDeadline, readSource } from '../../src/strategy/deadline.js'
import { parseStrategyOptions } from '../../src/strategy/options.js'
import { failure } from '../helpers/async.js'

const alice = '0x52908400098527886e0f7030069857d2e4169ee7'
const bob = '0xde709f2102306220921060314715629080e2fb77'


const echo = defineStrategy({
  name: 'echo',
  title: 'Echo',
  optionsSchema: z.object({ symbol: symbolOption, score: z.number().positive().default(1) }).strict(),
  async score({ addresses, options, snapshot }) {
    return new Map(addresses.map((address) => [address, { score: options.score, detail: snapshot.timestamp }]))
  },
})

describe('options', () => {
  test('are read before any request; every issue is named', async () => {
    const provider = recordingBlockProvider()
    const error = await failure(runStrategy(echo, { network: '10', provider, addresses: [alice], options: { score: -1, api: 'https://evil.example' }, snapshot: 10 }))
    expect(error).toBeInstanceOf(StrategyOptionsError)
    expect(error.message).toMatchInlineSnapshot(`
      "The options of strategy "echo" are invalid.

      Issues:
      - score: Too small: expected number to be >0
      - (options): Unrecognized key: "api"

      Details: 2 issue(s)
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#strategy-options-invalid
      Version: personhood@0.1.0"
    `)
    expect(provider.calls).toEqual([])
  })

  test("undefined reads as {}; score-api's own start and end are dropped; symbol is accepted", () => {
    expect(parseStrategyOptions('echo', echo.optionsSchema, undefined)).toEqual({ score: 1 })
    expect(parseStrategyOptions('echo', echo.optionsSchema, { start: 1, end: 2, symbol: 'X', score: 3 })).toEqual({ symbol: 'X', score: 3 })
  })

  test('a bad address or snapshot is refused before any request', async () => {
    const provider = recordingBlockProvider()
    expect(await failure(runStrategy(echo, { network: '10', provider, addresses: [alice, '0x1234'], options: {}, snapshot: 10 }))).toBeInstanceOf(InvalidAddressError)
    expect(await failure(runStrategy(echo, { network: '10', provider, addresses: [alice], options: {}, snapshot: -1 }))).toBeInstanceOf(InvalidParameterError)
    expect(await failure(runStrategy(echo, { network: '10', provider, addresses: [alice], options: {}, snapshot: 'earliest' }))).toBeInstanceOf(InvalidParameterError)
    expect(provider.calls).toEqual([])
  })
})

describe('results', () => {
  test('keyed by the checksummed input addresses, once each; the snapshot is resolved to its time', async () => {
    const provider = recordingBlockProvider()
    const run = await runStrategy(echo, { network: '10', provider, addresses: [alice, getAddress(alice), bob], options: { score: 2 }, snapshot: 10 })
    expect(run.scores).toEqual({ [getAddress(alice)]: 2, [getAddress(bob)]: 2 })
    expect(run.snapshot).toEqual({ network: '10', requested: 10n, blockNumber: 10n, timestamp: 1_700_000_020 })
    expect(run.requests).toEqual({ provider: 1 })
    expect(provider.calls).toEqual(['eth_getBlockByNumber'])
  })

  test('no address: no request, no score', async () => {
    const provider = recordingBlockProvider()
    expect((await runStrategy(echo, { network: '10', provider, addresses: [], options: {}, snapshot: 'latest' })).scores).toEqual({})
    expect(provider.calls).toEqual([])
  })

  test('an address a strategy leaves unanswered is an error, never a silent 0', async () => {
    const partial = defineStrategy({
      ...echo,
      async score({ addresses }) {
        return new Map(addresses.slice(1).map((address) => [address, { score: 1, detail: null }]))
      },
    })
    const error = await failure(runStrategy(partial, { network: '10', provider: recordingBlockProvider(), addresses: [alice, bob], options: {}, snapshot: 10 }))
    expect(error).toBeInstanceOf(StrategySourceError)
    expect(error.addresses).toEqual([getAddress(alice)])
  })

  test('a name that is not kebab-case is refused', () => {
    expect(() => defineStrategy({ ...echo, name: 'Echo_Strategy' })).toThrow(InvalidParameterError)
  })
})

describe('the snapshot through any provider', () => {
  const headerOf = (number: bigint) => ({ number: numberToHex(number), hash: `0x${'cd'.repeat(32)}`, timestamp: numberToHex(1_600_000_000n + number) })

  test('an ethers-style send, an EIP-1193 request, an ethers getBlock', async () => {
    const ethersLike = { send: async (method: string, params: unknown[]) => (method === 'eth_getBlockByNumber' && params[0] === numberToHex(7n) ? headerOf(7n) : null) }
    const getBlockOnly = { getBlock: async (tag: number | string) => (tag === 7 ? { number: 7, timestamp: { toHexString: () => numberToHex(1_600_000_007n) } } : null) }
    for (const provider of [ethersLike, recordingBlockProvider(), getBlockOnly] as StrategyProvider[]) {
      const resolved = await resolveSnapshot(provider, { snapshot: 7, network: '1' })
      expect(resolved.blockNumber).toBe(7n)
    }
    expect((await resolveSnapshot(getBlockOnly as StrategyProvider, { snapshot: 7, network: '1' })).timestamp).toBe(1_600_000_007)
  })

  test("'latest' is the head; a future block is not available; a failed read names the block and addresses", async () => {
    expect(await resolveSnapshot(recordingBlockProvider(), { snapshot: 'latest', network: '10' })).toMatchObject({ requested: 'latest', blockNumber: 1000n })
    const future = await failure(runStrategy(echo, { network: '10', provider: recordingBlockProvider(), addresses: [alice], options: {}, snapshot: 2000 }))
    expect(future).toBeInstanceOf(BlockNotAvailableError)
    expect(future.addresses).toEqual([getAddress(alice)])
    const broken = { request: async () => Promise.reject(new Error('connection refused')) }
    const failed = await failure(runStrategy(echo, { network: '10', provider: broken, addresses: [alice], options: {}, snapshot: 5 }))
    expect(failed).toBeInstanceOf(ChainReadError)
    expect(failed.blockNumber).toBe(5n)
  })
})

describe('a strategy that resolves the snapshot itself (scoreRequested)', () => {
  /** Scores 1 at the block its own source returns; reads the header only when `needsTime`. */
  const ownBlock = defineStrategy({
    name: 'own-block',
    title: 'Own block',
    optionsSchema: z.object({ symbol: symbolOption, needsTime: z.boolean().default(false) }).strict(),
    async score() {
      throw new Error('runStrategy calls scoreRequested')
    },
    async scoreRequested({ addresses, options, snapshot }) {
      const resolved = options.needsTime
        ? await Promise.all([snapshot.resolve(), snapshot.resolve()]).then(([first]) => first)
        : { network: snapshot.network, requested: snapshot.requested, blockNumber: 42n, timestamp: 1_700_000_084 }
      return { snapshot: resolved, results: new Map(addresses.map((address) => [address, { score: 1, detail: resolved.timestamp }])) }
    },
  })

  test('no header is read unless it asks; then once, counted as the provider; the run answers the block it gives', async () => {
    const provider = recordingBlockProvider()
    const own = await runStrategy(ownBlock, { network: '10', provider, addresses: [alice], options: {}, snapshot: 'latest' })
    expect(provider.calls).toEqual([])
    expect(own.requests).toEqual({})
    expect(own.snapshot).toEqual({ network: '10', requested: 'latest', blockNumber: 42n, timestamp: 1_700_000_084 })
    const timed = await runStrategy(ownBlock, { network: '10', provider, addresses: [alice, bob], options: { needsTime: true }, snapshot: 7 })
    expect(provider.calls).toEqual(['eth_getBlockByNumber'])
    expect(timed.requests).toEqual({ provider: 1 })
    expect(timed.snapshot).toEqual({ network: '10', requested: 7n, blockNumber: 7n, timestamp: 1_700_000_014 })
    expect(timed.scores).toEqual({ [getAddress(alice)]: 1, [getAddress(bob)]: 1 })
  })

  test('a bad snapshot is refused before any request, as for score', async () => {
    const provider = recordingBlockProvider()
    await expect(runStrategy(ownBlock, { network: '10', provider, addresses: [alice], options: {}, snapshot: 'yesterday' })).rejects.toThrow(InvalidParameterError)
    expect(provider.calls).toEqual([])
  })
})

describe('deadline and rate budget', () => {
  test('a source still answering when the deadline passes: StrategyDeadlineError naming the source and addresses', async () => {
    const stuck = defineStrategy({
      ...echo,
      async score({ addresses, runtime }) {
        await readSource({ source: 'a slow source', addresses, deadline: runtime.deadline }, (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))))
        return new Map()
      },
    })
    const error = await failure(runStrategy(stuck, { network: '10', provider: recordingBlockProvider(), addresses: [alice], options: {}, snapshot: 5, context: { deadlineMs: 30 } }))
    expect(error).toBeInstanceOf(StrategyDeadlineError)
    expect(error.source).toBe('a slow source')
    expect(error.addresses).toEqual([getAddress(alice)])
  })

  test('a budget that cannot serve the requests in time is refused at once, with when it returns', async () => {
    let now = 1_000_000
    const limiter = createRateLimiter({ limit: 3, windowMs: 15 * 60_000, now: () => now })
    await limiter.acquire()
    now += 60_000
    await limiter.acquire()
    const deadline = createDeadline({ deadlineMs: 20_000, now: () => now })
    try {
      const budget = { limiter, name: 'Passport API key (tier 1, A and C together)' }
      // One request fits; two would wait until the first one leaves the window (14 min).
      checkRateBudget({ budget, count: 1, deadline, addresses: [alice], now: () => now })
      const error = (() => {
        try {
          checkRateBudget({ budget, count: 2, deadline, addresses: [alice], now: () => now })
        } catch (caught) {
          return caught as RateBudgetError
        }
      })()
      expect(error).toBeInstanceOf(RateBudgetError)
      expect(error?.returnsAt).toBe(1_000_000 + 15 * 60_000)
      expect(error?.message).toMatchInlineSnapshot(`
        "The rate budget cannot serve this call before its deadline: Passport API key (tier 1, A and C together): 3 requests per 15 min.

        Addresses (1): 0x52908400098527886e0f7030069857d2e4169ee7

        Details: 2 request(s) needed, 1 available now; the budget allows them again at 1970-01-01T00:31:40.000Z.
        Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#rate-budget-exhausted
        Version: personhood@0.1.0"
      `)
    } finally {
      deadline.dispose()
    }
  })

  test('the rate limiter tells how long `count` more requests would wait', async () => {
    let now = 0
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000, now: () => now })
    expect(limiter.waitTimeMs?.(2)).toBe(0)
    await limiter.acquire()
    now = 100
    await limiter.acquire()
    now = 300
    expect(limiter.waitTimeMs?.(1)).toBe(700) // the first leaves the window at 1000
    expect(limiter.waitTimeMs?.(2)).toBe(800) // the second at 1100
    expect(limiter.waitTimeMs?.(3)).toBe(1700) // the third takes the first's place again
  })
})

describe('context', () => {
  test('from the environment: key, scorer, tier, hosts, Human ID sources, deadline; a bad value names its variable', () => {
    expect(
      readStrategyEnvironment({ PASSPORT_API_KEY: 'k', PASSPORT_SCORER_ID: '335', PASSPORT_API_TIER: '2', PASSPORT_API_URL: 'http://127.0.0.1:1', PASSPORT_REGISTRY_URL: '', STRATEGY_DEADLINE_MS: '15000' }),
    ).toEqual({
      passport: { apiKey: 'k', scorerId: '335', tier: 2, baseUrl: 'http://127.0.0.1:1', registryBaseUrl: undefined },
      humanId: { hubChain: undefined, baseUrl: undefined, attestationIndexBaseUrl: undefined },
      deadlineMs: 15_000,
    })
    expect(readStrategyEnvironment({ HUMAN_ID_RPC_URL: 'http://127.0.0.1:2', HUMAN_ID_API_URL: 'http://127.0.0.1:3', ATTESTATION_INDEX_URL: ' ' }).humanId).toEqual({
      hubChain: 'http://127.0.0.1:2',
      baseUrl: 'http://127.0.0.1:3',
      attestationIndexBaseUrl: undefined,
    })
    expect(() => readStrategyEnvironment({ PASSPORT_API_TIER: '5' })).toThrow('Parameter "PASSPORT_API_TIER" is invalid.')
  })

  test('no API key: an options error before any request', () => {
    const runtime = createStrategyRuntime({ passport: {} })
    try {
      expect(() => getPassportSources(runtime, 'passport-v2')).toThrow(StrategyOptionsError)
    } finally {
      runtime.deadline.dispose()
    }
  })

  test('the score-api form keeps one cache across calls and reads its context on every call', async () => {
    const seen: unknown[] = []
    const caching = defineStrategy({
      ...echo,
      async score({ addresses, runtime }) {
        seen.push(runtime.cache)
        return new Map(addresses.map((address: Address) => [address, { score: 1, detail: null }]))
      },
    })
    let reads = 0
    const strategy = createScoreApiStrategy(caching, () => (reads++, {}))
    await strategy('space.eth', '10', recordingBlockProvider(), [alice], {}, 10)
    await strategy('space.eth', '10', recordingBlockProvider(), [bob], {}, 10)
    expect(reads).toBe(2)
    expect(seen[0]).toBeDefined()
    expect(seen[0]).toBe(seen[1])
  })
})

describe('cache', () => {
  test('least recently used entries go first; entries with a time to live expire', () => {
    let now = 0
    const cache = createStrategyCache({ maxEntries: 2, now: () => now })
    cache.set('a', 1)
    cache.set('b', 2)
    expect(cache.get('a')).toBe(1) // a is now the most recent
    cache.set('c', 3)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe(1)
    cache.set('d', 4, 100)
    now = 99
    expect(cache.get('d')).toBe(4)
    now = 100
    expect(cache.get('d')).toBeUndefined()
    expect(() => createStrategyCache({ maxEntries: 0 })).toThrow(InvalidParameterError)
  })
})

describe("the snapshot's header, kept for the process", () => {
  /** Another strategy of the library: a second instance, its own options. */
  const other = defineStrategy({ ...echo, name: 'echo-other' })
  /** Block n of recordingProvider's chain is at 1,700,000,000 + 2n seconds. */
  const blockTimeMs = (n: number) => (1_700_000_000 + 2 * n) * 1000
  const run = (definition: typeof echo, provider: StrategyProvider, snapshot: number | 'latest', context: Parameters<typeof runStrategy>[1]['context'] = {}) =>
    runStrategy(definition, { network: '10', provider, addresses: [alice], options: {}, snapshot, context })

  test("a final block's header is read once per process, by every strategy and cache; the answer is the same", async () => {
    const provider = recordingBlockProvider()
    const first = await run(echo, provider, 100)
    expect(first.requests).toEqual({ provider: 1 })
    const again = await run(echo, provider, 100, { cache: createStrategyCache() })
    const another = await runStrategy(other, { network: '10', provider, addresses: [bob], options: { score: 3 }, snapshot: 100 })
    expect(again.requests).toEqual({})
    expect(another.requests).toEqual({})
    expect(again.snapshot).toEqual(first.snapshot)
    expect(another.results.get(getAddress(bob))!.detail).toBe(1_700_000_200)
    expect(provider.calls).toEqual(['eth_getBlockByNumber'])
    // Another block, another network, another provider: read.
    await run(echo, provider, 101)
    await runStrategy(echo, { network: '1', provider, addresses: [alice], options: {}, snapshot: 100 })
    const elsewhere = recordingBlockProvider()
    await run(echo, elsewhere, 100)
    expect(provider.calls).toHaveLength(3)
    expect(elsewhere.calls).toHaveLength(1)
  })

  test("'latest' is read every time; cache: false reads every time", async () => {
    const provider = recordingBlockProvider()
    await run(echo, provider, 'latest')
    await run(echo, provider, 'latest')
    await run(echo, provider, 200, { cache: false })
    await run(echo, provider, 200, { cache: false })
    expect(provider.calls).toHaveLength(4)
  })

  test('a block not yet final (under 15 minutes old by the call\'s clock) is kept 20 s, then read again', async () => {
    const provider = recordingBlockProvider()
    let now = blockTimeMs(300) + 60_000
    const clock = { now: () => now }
    expect((await run(echo, provider, 300, clock)).requests).toEqual({ provider: 1 })
    now += 19_999
    expect((await run(echo, provider, 300, clock)).requests).toEqual({})
    now += 1
    expect((await run(echo, provider, 300, clock)).requests).toEqual({ provider: 1 })
    // Read again 15 minutes after its time: final now, kept for good.
    now = blockTimeMs(300) + 15 * 60_000
    expect((await run(echo, provider, 300, clock)).requests).toEqual({ provider: 1 })
    now += 365 * 86_400_000
    expect((await run(echo, provider, 300, clock)).requests).toEqual({})
    expect(provider.calls).toHaveLength(3)
  })

  test('at most 1,000 blocks a provider: the least recently used goes first', async () => {
    const provider = recordingBlockProvider()
    for (let block = 0; block < 1000; block++) await run(echo, provider, block)
    await run(echo, provider, 0) // now the most recent
    await run(echo, provider, 1000) // block 1 goes
    expect(provider.calls).toHaveLength(1001)
    await run(echo, provider, 0)
    expect(provider.calls).toHaveLength(1001)
    await run(echo, provider, 1)
    expect(provider.calls).toHaveLength(1002)
  })

  test('a failed read is not kept', async () => {
    let fail = true
    const provider = recordingBlockProvider()
    const flaky = { request: async (args: { method: string; params?: unknown }) => (fail ? Promise.reject(new Error('connection refused')) : provider.request(args)) }
    await expect(run(echo, flaky, 5)).rejects.toBeInstanceOf(ChainReadError)
    fail = false
    expect((await run(echo, flaky, 5)).requests).toEqual({ provider: 1 })
  })
})

describe('validations', () => {
  const onlyAlice = defineStrategy({
    ...echo,
    name: 'only-alice',
    async score({ addresses }) {
      return new Map(addresses.map((address) => [address, { score: address === getAddress(alice) ? 1 : 0, detail: null }]))
    },
  })
  const ask = (provider: StrategyProvider, author: string, params: unknown = {}) => validateWithStrategy(onlyAlice, { author, network: '10', provider, snapshot: 10, params })

  test('an author passes when the strategy scores it above 0, at the snapshot', async () => {
    const provider = recordingBlockProvider()
    expect(await ask(provider, alice)).toBe(true)
    expect(await ask(provider, bob)).toBe(false)
    // The snapshot is a final block: its header is read once for both.
    expect(provider.calls).toEqual(['eth_getBlockByNumber'])
  })

  test('a malformed author does not pass and costs no request; invalid params are an error, not a false', async () => {
    const provider = recordingBlockProvider()
    expect(await ask(provider, '0x1234')).toBe(false)
    expect(await failure(ask(provider, alice, { score: -1 }))).toBeInstanceOf(StrategyOptionsError)
    expect(provider.calls).toEqual([])
  })
})
