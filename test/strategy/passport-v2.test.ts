/**
 * passport-v2 against the reference server: the score as it stood at the snapshot (the listing for
 * voters scored before it, the history for voters rescored after it), gated and weighted, expiry,
 * never scored, independence from the other addresses, the requests of each plan, a key without
 * history, failing sources and a rate budget that cannot serve the call. Faults the reference server
 * cannot make (a 5xx, a listing that loses rows) are injected with nock.
 */
import nock from 'nock'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { getAddress, type Address } from 'viem'
import {
  PassportHistoryDeniedError,
  RateBudgetError,
  StrategyOptionsError,
  StrategySourceError,
  createRateLimiter,
  createStrategyCache,
  passportV2Strategy,
  readStrategyEnvironment,
  runStrategy,
  type PassportVerdict,
  type StrategyContext,
  type V2Score,
} from '../../src/index.js'
import { createStrategyRuntime, getPassportSources } from '../../src/strategy/context.js'
import { passportSourceNames, readPassportScoresAt } from '../../src/strategy/passport-scores.js'
import { chainClockProvider, startWorldServer, type WorldServer } from '../strategies/world-server.js'
import { failure } from '../helpers/async.js'

const hour = 60 * 60 * 1000
const day = 24 * hour
/** A scorer of this test only (scorer 1's weights), so that every score in it is one the test made. */
const scorerId = 901

let world: WorldServer
let N: number
const wallet = {
  /** Passes; loses its stamps and is rescored (to 0) an hour after the snapshot. */
  rescored: getAddress('0x03897733fe022d289bb6282b594cc9bda7cdd83a'),
  /** Passes; never rescored. */
  steady: getAddress('0x60346dccd20806982e70dc3e17839fb0945b6295'),
  /** Scored below the threshold. */
  low: getAddress('0xf76a51357848a11622eaa7861e79cfcccd345570'),
  /** Never scored by the test's scorer. */
  never: getAddress('0x2af11bf1a3a239cc8b38899ce27b1450cec9078a'),
  /** First scored an hour after the snapshot (and passes then). */
  late: getAddress('0x11d790c3b609dead57b49ee34929d299b984b294'),
  /** Passes; loses its stamps and is rescored in the test of a later rescoring. */
  later: getAddress('0xe5cf701e25d392a137ef35b1df2ff398246e6bb3'),
  /** Scored in April with a passing score that expires nine days later. */
  expiring: getAddress('0x82f2af49d4da20abef427b1e1d8e4b43d81bfa43'),
}
/** What A1 answered at each scoring of the test. */
const scored: Record<string, V2Score> = {}
/** The snapshot: two hours before the world's day. */
let snapshot: number

const score = (address: Address, at: number) => world.store.score(address, { scorerId, at, recordHistory: true })
const blockAt = (ms: number) => Number(world.blockAt(ms))

beforeAll(async () => {
  world = await startWorldServer()
  N = world.clock.now()
  world.store.mutate((state) => {
    state.scorers.push({ id: scorerId, name: 'passport-v2 test', type: 'unique-humanity', threshold: '20', weights: { ...world.store.scorer(1).weights } })
  })
  scored.rescoredBefore = score(wallet.rescored, N - 3 * hour)
  scored.steady = score(wallet.steady, N - 3 * hour)
  scored.low = score(wallet.low, N - 3 * hour)
  scored.later = score(wallet.later, N - 3 * hour)
  scored.expiring = score(wallet.expiring, Date.parse('2025-04-10T02:07:38.768Z'))
  snapshot = blockAt(N - 2 * hour)
  world.store.deleteStamps(wallet.rescored, world.store.stampRecords(wallet.rescored).map((record) => record.provider))
  scored.rescoredAfter = score(wallet.rescored, N - hour)
  scored.late = score(wallet.late, N - hour)
})
afterAll(async () => {
  await world?.close()
})

/** The setup is what the tests say it is. */
test('the scenario: who passed when', () => {
  expect(scored.rescoredBefore).toMatchObject({ passing_score: true })
  expect(scored.rescoredAfter).toMatchObject({ passing_score: false, score: '0.00000' })
  expect(scored.steady).toMatchObject({ passing_score: true })
  expect(scored.later).toMatchObject({ passing_score: true })
  expect(scored.low?.passing_score).toBe(false)
  expect(Number(scored.low?.score)).toBeGreaterThan(0)
  expect(scored.late).toMatchObject({ passing_score: true })
  expect(scored.expiring).toMatchObject({ passing_score: true, expiration_timestamp: '2025-04-19T07:44:05.760Z' })
})

function context(overrides: StrategyContext = {}): StrategyContext {
  return {
    passport: { apiKey: world.keys.indexer, baseUrl: world.url, scorerId: String(scorerId), rateLimiter: false },
    cache: false,
    now: world.clock.now,
    ...overrides,
  }
}

function run(options: Record<string, unknown>, addresses: readonly string[], parameters: { snapshot?: number | 'latest'; context?: StrategyContext } = {}) {
  return runStrategy(passportV2Strategy, {
    network: '10',
    provider: world.provider,
    addresses,
    options,
    snapshot: parameters.snapshot ?? snapshot,
    context: parameters.context ?? context(),
  })
}

const detail = (result: { detail: unknown } | undefined) => result?.detail as PassportVerdict
const scenario = () => [wallet.rescored, wallet.steady, wallet.low, wallet.never, wallet.late]

describe('the score at the snapshot', () => {
  test('gated: 1 for a Passport that passed then; the voter rescored after answers from the history, not its current 0', async () => {
    const { scores, results, requests } = await run({ mode: 'gated' }, scenario())
    expect(scores).toEqual({ [wallet.rescored]: 1, [wallet.steady]: 1, [wallet.low]: 0, [wallet.never]: 0, [wallet.late]: 0 })
    expect(detail(results.get(wallet.rescored))).toMatchObject({ source: 'passport-history', reason: 'valid', evidence: { score: scored.rescoredBefore?.score } })
    expect(detail(results.get(wallet.steady))).toMatchObject({ source: 'passport-listing', reason: 'valid' })
    expect(detail(results.get(wallet.low))).toMatchObject({ source: 'passport-listing', reason: 'below-threshold' })
    // Never scored: absent from the listing. First scored after the snapshot: no history then.
    expect(detail(results.get(wallet.never))).toMatchObject({ source: 'passport-listing', reason: 'never-scored' })
    expect(detail(results.get(wallet.late))).toMatchObject({ source: 'passport-history', reason: 'never-scored' })
    expect(requests).toEqual({ provider: 1, [passportSourceNames.listing]: 1, [passportSourceNames.history]: 2 })
  })

  test("gated: `score` for a pass; a threshold override moves the gate", async () => {
    const steady = Number(scored.steady?.score)
    expect((await run({ mode: 'gated', score: 7 }, scenario())).scores).toMatchObject({ [wallet.rescored]: 7, [wallet.steady]: 7, [wallet.low]: 0 })
    const above = (await run({ mode: 'gated', threshold: Math.floor(steady) + 1 }, [wallet.steady, wallet.low])).scores
    expect(above).toEqual({ [wallet.steady]: 0, [wallet.low]: 0 })
    const below = (await run({ mode: 'gated', threshold: Number(scored.low?.score) }, [wallet.steady, wallet.low])).scores
    expect(below).toEqual({ [wallet.steady]: 1, [wallet.low]: 1 })
  })

  test('weighted: the score then, capped; with a threshold, lower scores count 0', async () => {
    const value = (record: V2Score | undefined) => Number(record?.score)
    const weighted = (await run({ mode: 'weighted' }, scenario())).scores
    expect(weighted).toEqual({
      [wallet.rescored]: value(scored.rescoredBefore),
      [wallet.steady]: value(scored.steady),
      [wallet.low]: value(scored.low),
      [wallet.never]: 0,
      [wallet.late]: 0,
    })
    const cap = Math.floor(value(scored.steady)) - 1
    expect((await run({ mode: 'weighted', cap }, scenario())).scores).toMatchObject({ [wallet.steady]: cap, [wallet.low]: value(scored.low) })
    expect((await run({ mode: 'weighted', threshold: 20 }, scenario())).scores).toMatchObject({ [wallet.steady]: value(scored.steady), [wallet.low]: 0 })
  })

  test('a score whose expiry is at or before the snapshot counts 0, gated and weighted', async () => {
    const expiry = Math.floor(Date.parse('2025-04-19T07:44:05.760Z') / 1000)
    const { genesisTime } = world.store.state.chain
    const before = Math.floor((expiry - 1 - genesisTime) / 2)
    const after = Math.ceil((expiry - genesisTime) / 2)
    expect((await run({ mode: 'gated' }, [wallet.expiring], { snapshot: before })).scores).toEqual({ [wallet.expiring]: 1 })
    const expired = await run({ mode: 'gated' }, [wallet.expiring], { snapshot: after })
    expect(expired.scores).toEqual({ [wallet.expiring]: 0 })
    expect(detail(expired.results.get(wallet.expiring))).toMatchObject({ reason: 'expired', evidence: { at: genesisTime + 2 * after } })
    expect((await run({ mode: 'weighted' }, [wallet.expiring], { snapshot: after })).scores).toEqual({ [wallet.expiring]: 0 })
  })

  test("a voter's score does not depend on the other addresses of the call", async () => {
    const batch = (await run({ mode: 'weighted' }, [...scenario(), ...world.wallets().slice(0, 300)])).scores
    for (const address of scenario()) {
      const alone = await run({ mode: 'weighted' }, [address])
      expect(alone.scores[address]).toBe(batch[address])
    }
  })
})

describe('a later rescoring', () => {
  test('does not change the answer at a past snapshot; the answer is then cached for good', async () => {
    const voters = [...scenario(), wallet.later]
    const before = (await run({ mode: 'weighted' }, voters)).scores
    expect(before[wallet.later]).toBe(Number(scored.later?.score))
    world.clock.advance(hour)
    world.store.deleteStamps(wallet.later, world.store.stampRecords(wallet.later).map((record) => record.provider))
    expect(score(wallet.later, world.clock.now()).score).toBe('0.00000')
    expect((await run({ mode: 'weighted' }, voters)).scores).toEqual(before)
    // Today (one block time on: the latest block is at or before now), the rescoring shows.
    world.clock.advance(2_000)
    expect((await run({ mode: 'weighted' }, [wallet.later], { snapshot: 'latest' })).scores).toEqual({ [wallet.later]: 0 })

    const cache = createStrategyCache({ now: world.clock.now })
    const runCached = () => runStrategy(passportV2Strategy, { network: '10', provider: world.provider, addresses: voters, options: { mode: 'weighted' }, snapshot, context: context({ cache }) })
    const first = await runCached()
    const again = await runCached()
    expect(first.scores).toEqual(before)
    expect(again.scores).toEqual(before)
    // The snapshot is a past block: its header is kept for the process, so a warm call sends nothing.
    expect(first.requests.provider).toBe(1)
    expect(again.requests).toEqual({})
  })
})

describe('requests', () => {
  /** 500 wallets of the world, on the world's scorer 1, a day before the world's day. */
  const worldSnapshot = () => blockAt(N - day)
  const voters = () => world.wallets().slice(0, 500).map((address) => getAddress(address))
  /** Voters whose row in scorer 1's listing is later than the snapshot (computed from the server's state). */
  const rescoredSince = (addresses: readonly Address[], at: number) =>
    addresses.filter((address) => (world.store.submission(1, address)?.submittedAt ?? 0) > at * 1000).sort()

  async function readWith(plan: 'auto' | 'listing' | 'per-voter', addresses: readonly Address[], extra: { pageSize?: number; cache?: StrategyContext['cache'] } = {}) {
    const runtime = createStrategyRuntime(context({ cache: extra.cache ?? false, passport: { apiKey: world.keys.indexer, baseUrl: world.url, rateLimiter: false } }))
    try {
      const at = world.store.state.chain.genesisTime + 2 * worldSnapshot()
      const result = await readPassportScoresAt({ sources: getPassportSources(runtime, 'test'), scorerId: '1', addresses, at, runtime, plan, pageSize: extra.pageSize })
      return { ...result, at, requests: runtime.requests }
    } finally {
      runtime.deadline.dispose()
    }
  }

  test('500 voters: the whole listing costs its pages plus one history read per voter rescored since; one read per voter costs 500 more', async () => {
    const listing = await readWith('auto', voters())
    const perVoter = await readWith('per-voter', voters())
    const rescored = rescoredSince(voters(), listing.at)
    expect(rescored.length).toBeGreaterThan(0)
    expect(listing.plan).toBe('listing')
    expect([...listing.rescored].sort()).toEqual(rescored)
    expect(listing.requests).toEqual({ [passportSourceNames.listing]: 1, [passportSourceNames.history]: rescored.length })
    expect(perVoter.plan).toBe('per-voter')
    expect(perVoter.requests).toEqual({ [passportSourceNames.byAddress]: 500, [passportSourceNames.history]: rescored.length })
    // The same verdicts either way.
    expect(perVoter.verdicts).toEqual(listing.verdicts)
    console.log(
      `passport-v2, 500 voters (scorer 1: ${listing.listingCount} scored, ${rescored.length} of the voters rescored since the snapshot)\n` +
        `  whole listing:      ${listing.requests[passportSourceNames.listing]} listing page(s) + ${rescored.length} history = ${rescored.length + 1} requests\n` +
        `  one read per voter: 500 listing reads + ${rescored.length} history = ${500 + rescored.length} requests`,
    )
  })

  test('the listing is read whole only when that is cheaper: with more pages than voters, one read per voter', async () => {
    const few = voters().slice(0, 3)
    const cache = createStrategyCache({ now: world.clock.now })
    // The count is unknown: the first page is read, then the voters not on it one by one (35 pages of 10 would cost more).
    const first = await readWith('auto', few, { pageSize: 10, cache })
    expect(first.plan).toBe('per-voter')
    expect(first.listingCount).toBe(world.store.submissions(1).length)
    expect(first.requests[passportSourceNames.listing]).toBe(1)
    expect(first.requests[passportSourceNames.byAddress] ?? 0).toBeLessThanOrEqual(3)
    // The count is known: one read per voter straight away (the answers of `few` are cached: other voters).
    const next = await readWith('auto', voters().slice(3, 6), { pageSize: 10, cache })
    expect(next.plan).toBe('per-voter')
    expect(next.requests[passportSourceNames.listing]).toBeUndefined()
    expect(next.requests[passportSourceNames.byAddress]).toBe(3)
    // With as many voters as pages, the whole listing; kept, it answers a later call about an earlier moment.
    const all = await readWith('auto', voters().slice(0, 60), { pageSize: 10, cache })
    expect(all.plan).toBe('listing')
    expect(all.requests[passportSourceNames.listing]).toBe(Math.ceil(world.store.submissions(1).length / 10))
    const kept = await readWith('auto', voters().slice(100, 160), { pageSize: 10, cache })
    expect(kept.plan).toBe('listing')
    expect(kept.requests[passportSourceNames.listing]).toBeUndefined()
    expect(kept.verdicts).toEqual((await readWith('per-voter', voters().slice(100, 160))).verdicts)
  })
})

describe('a key without score history', () => {
  const demoContext = () => context({ passport: { apiKey: world.keys.demo, baseUrl: world.url, scorerId: String(scorerId), rateLimiter: false } })

  test('voters rescored after the snapshot: PassportHistoryDeniedError naming them, after one refused request', async () => {
    const error = await failure(run({ mode: 'gated' }, scenario(), { context: demoContext() }))
    expect(error).toBeInstanceOf(PassportHistoryDeniedError)
    expect(error).toBeInstanceOf(StrategySourceError)
    expect(error.code).toBe('PASSPORT_HISTORY_DENIED')
    expect(error.source).toBe(passportSourceNames.history)
    expect([...error.addresses].sort()).toEqual([wallet.late, wallet.rescored].sort())
    expect(error.cause).toMatchObject({ name: 'PermissionDeniedError', status: 403 })
    expect(error.shortMessage).toContain('set allowLiveScore')
  })

  test('no voter rescored after the snapshot: no history needed, no error', async () => {
    expect((await run({ mode: 'gated' }, [wallet.steady, wallet.low, wallet.never], { context: demoContext() })).scores).toEqual({
      [wallet.steady]: 1,
      [wallet.low]: 0,
      [wallet.never]: 0,
    })
  })

  test('allowLiveScore: their current score instead, marked live', async () => {
    const { scores, results, requests } = await run({ mode: 'gated', allowLiveScore: true }, scenario(), { context: demoContext() })
    // The rescored voter counts its current 0, the late one its current pass: live, not at the snapshot.
    expect(scores).toEqual({ [wallet.rescored]: 0, [wallet.steady]: 1, [wallet.low]: 0, [wallet.never]: 0, [wallet.late]: 1 })
    expect(detail(results.get(wallet.rescored))).toMatchObject({ source: 'passport-live' })
    expect(detail(results.get(wallet.late))).toMatchObject({ source: 'passport-live', reason: 'valid' })
    expect(requests).toEqual({ provider: 1, [passportSourceNames.listing]: 1, [passportSourceNames.history]: 1, [passportSourceNames.live]: 2 })
  })
})

describe('options and configuration', () => {
  test('the scorer comes from the options, else PASSPORT_SCORER_ID; neither is an options error before any request', async () => {
    const fromEnvironment = readStrategyEnvironment({ PASSPORT_API_KEY: world.keys.indexer, PASSPORT_API_URL: world.url, PASSPORT_SCORER_ID: String(scorerId) })
    const viaEnvironment = await run({}, [wallet.steady], { context: { ...fromEnvironment, passport: { ...fromEnvironment.passport, rateLimiter: false }, cache: false } })
    expect(viaEnvironment.scores).toEqual({ [wallet.steady]: 1 })
    const calls: string[] = []
    const provider = { request: async ({ method }: { method: string }) => void calls.push(method) }
    const missing = await failure(
      runStrategy(passportV2Strategy, { network: '10', provider, addresses: [wallet.steady], options: { mode: 'gated' }, snapshot, context: { passport: { apiKey: 'key' } } }),
    )
    expect(missing).toBeInstanceOf(StrategyOptionsError)
    expect(missing.issues).toEqual([{ path: ['scorerId'], message: 'No scorer: set scorerId in the options, or PASSPORT_SCORER_ID on the score server.' }])
    const mixed = await failure(runStrategy(passportV2Strategy, { network: '10', provider, addresses: [wallet.steady], options: { scorerId: 1, mode: 'gated', cap: 5 }, snapshot }))
    expect(mixed).toBeInstanceOf(StrategyOptionsError)
    expect(calls).toEqual([])
  })
})

describe('a rate budget that cannot serve the call before its deadline', () => {
  test('RateBudgetError naming the budget, the voters and when it returns; no voter answered 0', async () => {
    // Four requests per 15 minutes: the listing page fits, the history of the voters rescored since does not.
    const limiter = createRateLimiter({ limit: 4, now: world.clock.now })
    const voters = world.wallets().slice(0, 500)
    const error = await failure(
      runStrategy(passportV2Strategy, {
        network: '10',
        provider: world.provider,
        addresses: voters,
        options: { scorerId: 1 },
        snapshot: blockAt(N - day),
        context: context({ passport: { apiKey: world.keys.indexer, baseUrl: world.url, rateLimiter: limiter } }),
      }),
    )
    expect(error).toBeInstanceOf(RateBudgetError)
    expect(error.budget).toBe('Passport API key (tier 1, A and C together): 4 requests per 15 min')
    expect(error.available).toBe(3)
    expect(error.needed).toBeGreaterThan(3)
    expect(error.returnsAt).toBeGreaterThan(world.clock.now() + 20_000)
    expect(error.addresses).toHaveLength(error.needed)
    expect(limiter.inWindow()).toBe(1)
  })
})

describe('a failing source (faults injected with nock)', () => {
  const api = 'https://passport.test'
  const alice = getAddress('0x52908400098527886e0f7030069857d2e4169ee7')
  const bob = getAddress('0xde709f2102306220921060314715629080e2fb77')
  const provider = chainClockProvider({ genesisTime: 1_700_000_000, blockTimeSeconds: 2, chainId: 10, now: () => 1_750_000_000_000 })
  const at = 1_700_000_000 + 2 * 1000
  const row = (address: string, scoredAt: number) => ({
    address: address.toLowerCase(),
    score: '25.000000000',
    status: 'DONE',
    last_score_timestamp: new Date(scoredAt * 1000).toISOString(),
    expiration_date: null,
    evidence: null,
    error: null,
  })
  const noWait = async () => {}
  const nockContext = (): StrategyContext => ({ passport: { apiKey: 'key', baseUrl: api, scorerId: '7', rateLimiter: false }, cache: false, sleep: noWait, now: () => 1_750_000_000_000 })
  const runNocked = (addresses: readonly string[], pageSize?: number) =>
    pageSize === undefined
      ? runStrategy(passportV2Strategy, { network: '10', provider, addresses, options: {}, snapshot: 1000, context: nockContext() })
      : (async () => {
          const runtime = createStrategyRuntime(nockContext())
          try {
            return await readPassportScoresAt({ sources: getPassportSources(runtime, 'test'), scorerId: '7', addresses: addresses as Address[], at, runtime, pageSize })
          } finally {
            runtime.deadline.dispose()
          }
        })()

  beforeAll(() => nock.disableNetConnect())
  afterEach(() => nock.cleanAll())
  afterAll(() => nock.enableNetConnect())

  test('the listing fails: StrategySourceError naming it and every voter, never a 0', async () => {
    nock(api).get('/registry/score/7').query(true).times(4).reply(503, 'down')
    const error = await failure(runNocked([alice, bob]))
    expect(error).toBeInstanceOf(StrategySourceError)
    expect(error.source).toBe(passportSourceNames.listing)
    expect(error.addresses).toEqual([alice, bob])
    expect(error.cause).toMatchObject({ status: 503 })
  })

  test('the history of a rescored voter fails: StrategySourceError naming the history and that voter', async () => {
    nock(api).get('/registry/score/7').query(true).reply(200, { items: [row(alice, at - 10), row(bob, at + 10)], count: 2 })
    nock(api).get(`/v2/stamps/7/score/${bob.toLowerCase()}/history`).query(true).times(4).reply(500, 'oops')
    const error = await failure(runNocked([alice, bob]))
    expect(error).toBeInstanceOf(StrategySourceError)
    expect(error.source).toBe(passportSourceNames.history)
    expect(error.addresses).toEqual([bob])
  })

  test('a 401: the key is named as the reason', async () => {
    nock(api).get('/registry/score/7').query(true).reply(401, { detail: 'Unauthorized' })
    const error = await failure(runNocked([alice, bob]))
    expect(error).toBeInstanceOf(StrategySourceError)
    expect(error.shortMessage).toBe('The Passport service refused the API key (401): check PASSPORT_API_KEY.')
  })

  test('a listing that loses rows while it is read: an error, not "never scored"', async () => {
    nock(api).get('/registry/score/7').query({ limit: '2', offset: '0' }).reply(200, { items: [row(alice, at - 10), row(alice.replace(/.$/, '0'), at - 10)], count: 3 })
    nock(api).get('/registry/score/7').query({ limit: '2', offset: '2' }).reply(200, { items: [], count: 2 })
    const error = await failure(runNocked([bob, getAddress('0x0000000000000000000000000000000000000b0b')], 2))
    expect(error).toBeInstanceOf(StrategySourceError)
    expect(error.shortMessage).toContain('rows went missing while it was read')
  })

  test('a listing that shifts while it is read (a row repeated, another dropped, pages full): an error naming the listing, not "never scored"', async () => {
    const carol = getAddress('0x0000000000000000000000000000000000000ca1')
    const dave = getAddress('0x0000000000000000000000000000000000000da7')
    nock(api).get('/registry/score/7').query({ limit: '2', offset: '0' }).reply(200, { items: [row(alice, at - 10), row(carol, at - 10)], count: 4 })
    // Bob (row 3) was pushed out by a row inserted before page 2 was read: carol comes again.
    nock(api).get('/registry/score/7').query({ limit: '2', offset: '2' }).reply(200, { items: [row(carol, at - 10), row(dave, at - 10)], count: 4 })
    const error = await failure(runNocked([bob, carol], 2))
    expect(error).toBeInstanceOf(StrategySourceError)
    expect(error.source).toBe(passportSourceNames.listing)
    expect(error.addresses).toEqual([bob])
    expect(error.shortMessage).toContain(`lists ${carol} twice (again on page 2): it shifted while it was read`)
  })

  describe('duplicated rows (issue #27: one rule for duplicates)', () => {
    const scoreOf = (answer: unknown) => Object.values((answer as { scores: Record<string, number> }).scores)
    const history = (address: string, score: string) => ({
      address: address.toLowerCase(),
      score,
      passing_score: Number(score) >= 20,
      threshold: '20.00000',
      last_score_timestamp: new Date((at - 5) * 1000).toISOString(),
      expiration_timestamp: null,
      error: null,
      stamps: {},
    })

    test('by address: two different rows for the voter are an error naming the source and the voter, in either order', async () => {
      for (const items of [[{ ...row(alice, at - 10), score: '0.000000000' }, row(alice, at - 10)], [row(alice, at - 10), { ...row(alice, at - 10), score: '0.000000000' }]]) {
        nock(api).get('/registry/score/7').query(true).reply(200, { items, count: 2 })
        const error = await failure(runNocked([alice]))
        expect(error).toBeInstanceOf(StrategySourceError)
        expect(error.source).toBe(passportSourceNames.byAddress)
        expect(error.addresses).toEqual([alice])
        expect(error.shortMessage).toBe(`${passportSourceNames.byAddress} answered two different rows for ${alice}: which one is true cannot be told, so no score is given.`)
      }
    })

    test('by address: the same row twice, under two casings, counts once', async () => {
      nock(api).get('/registry/score/7').query(true).reply(200, { items: [row(alice, at - 10), { ...row(alice, at - 10), address: alice }], count: 2 })
      expect(scoreOf(await runNocked([alice]))).toEqual([1])
    })

    test('listing: one page naming a voter twice with different scores is an error, in either order', async () => {
      for (const items of [[row(alice, at - 10), row(bob, at - 10), { ...row(alice, at - 10), score: '0.000000000' }], [{ ...row(alice, at - 10), score: '0.000000000' }, row(bob, at - 10), row(alice, at - 10)]]) {
        nock(api).get('/registry/score/7').query(true).reply(200, { items, count: 3 })
        const error = await failure(runNocked([alice, bob]))
        expect(error).toBeInstanceOf(StrategySourceError)
        expect(error.source).toBe(passportSourceNames.listing)
        expect(error.addresses).toEqual([alice])
      }
    })

    test('history: two different records for the voter are an error; the same one twice counts once', async () => {
      nock(api).get('/registry/score/7').query(true).reply(200, { items: [row(bob, at + 10)], count: 1 })
      nock(api).get(`/v2/stamps/7/score/${bob.toLowerCase()}/history`).query(true).reply(200, { items: [history(bob, '0.00000'), history(bob, '25.00000')] })
      const error = await failure(runNocked([bob]))
      expect(error).toBeInstanceOf(StrategySourceError)
      expect(error.source).toBe(passportSourceNames.history)
      expect(error.addresses).toEqual([bob])
      nock(api).get('/registry/score/7').query(true).reply(200, { items: [row(bob, at + 10)], count: 1 })
      nock(api).get(`/v2/stamps/7/score/${bob.toLowerCase()}/history`).query(true).reply(200, { items: [history(bob, '25.00000'), history(bob.toUpperCase().replace('0X', '0x'), '25.00000')] })
      expect(scoreOf(await runNocked([bob]))).toEqual([1])
    })
  })

  test('a history answer computed after the snapshot is refused', async () => {
    nock(api).get('/registry/score/7').query(true).reply(200, { items: [row(bob, at + 10)], count: 1 })
    nock(api)
      .get(`/v2/stamps/7/score/${bob.toLowerCase()}/history`)
      .query(true)
      .reply(200, { items: [{ address: bob.toLowerCase(), score: '25.00000', passing_score: true, threshold: '20.00000', last_score_timestamp: new Date((at + 5) * 1000).toISOString(), expiration_timestamp: null, error: null, stamps: {} }] })
    const error = await failure(runNocked([bob, alice]))
    expect(error).toBeInstanceOf(StrategySourceError)
    expect(error.addresses).toEqual([bob])
  })
})
