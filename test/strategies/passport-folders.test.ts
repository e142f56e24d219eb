/**
 * The score-api folders `strategies/passport-v2` and `strategies/human-verification` through
 * the faithful score-api host (laid out as score-api,
 * compiled with TypeScript 4.7 and its compiler options, required as its loader does; networks
 * through snapshot.js's `getProvider` and `getSnapshots` over the host's gateway), against the
 * local chain and the reference server of one demo world (scorer 1). Their scores must equal the
 * library's `runStrategy` on the same world and block, before and after voters are rescored; a
 * failing Passport source throws naming it; every request is counted: JSON-RPC and blockfinder by
 * the gateway, Passport by endpoint through a small proxy in front of the reference server (which
 * also stands in for a failing or a very large scorer).
 */
import { createServer, type Server } from 'node:http'
import { readFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { getAddress, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runStrategy } from '../../src/index.js'
import { humanVerificationStrategy, passportV2Strategy } from '../../src/strategy/index.js'
import { root } from '../helpers/built.js'
import { buildScoreApi, type ScoreApi, type ScoreApiBuild } from '../score-api-host/host.js'
import { startUpstreams, type UpstreamRequests, type Upstreams } from '../score-api-host/upstreams.js'
import { startChainWorld } from './human-id-serving.js'

type Example = { name: string; strategy: { name: string; params: Record<string, unknown> }; network: string; addresses: string[]; snapshot: number }
type Params = Record<string, unknown>

let world: Awaited<ReturnType<typeof startChainWorld>>
let upstreams: Upstreams
let build: ScoreApiBuild
let api: ScoreApi
let proxy: Server
let voters: Address[]
/** A block 100 blocks before the world's head: voters rescored now were rescored after it. */
let snapshot: number
const saved: Record<string, string | undefined> = {}

/** Passport requests by endpoint, counted by the proxy. */
let passport: Record<string, number> = {}
/** Requests the proxy itself sent on to the reference server (the gateway counts them too). */
let forwarded = 0
/** What the proxy answers instead of the reference server, when set. */
let override: ((url: URL) => Response | undefined) | undefined

function passportKind(url: URL): string {
  if (url.pathname.startsWith('/registry/score/')) return url.searchParams.has('address') ? 'C4 by address' : 'C4 page'
  if (url.pathname.endsWith('/history')) return 'A2'
  if (url.pathname.startsWith('/v2/stamps/')) return 'A1'
  return url.pathname
}

/**
 * Runs `run` counting every request the folders send: the gateway's count (JSON-RPC, blockfinder,
 * HTTP; `total` without the proxy's own forwarding), and Passport's by endpoint.
 */
async function counted<T>(run: () => Promise<T>): Promise<{ result: T; requests: UpstreamRequests; passport: Record<string, number> }> {
  passport = {}
  forwarded = 0
  const { result, requests } = await upstreams.record(run)
  return { result, requests: { ...requests, total: requests.total - forwarded }, passport }
}

async function fixture(path: string): Promise<Example[]> {
  return JSON.parse(await readFile(join(root, 'test/strategies/fixtures', path), 'utf8')) as Example[]
}

function withEnv<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
  Object.assign(process.env, env)
  return run().finally(() => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  })
}

const context = (baseUrl = world.baseUrl) => ({
  ...world.humanIdContext(),
  passport: { apiKey: world.apiKey, baseUrl, tier: 3 as const, scorerId: '1', rateLimiter: false as const },
})

/** A folder's strategy as score-api calls it; `loaded`: another load of the build (a cold module cache). */
const folder = (name: 'passport-v2' | 'human-verification', params: Params, addresses: string[], network = '10', at = snapshot, loaded: ScoreApi = api) =>
  loaded.strategies[name]!.strategy('personhood.eth', network, loaded.utils.getProvider(network), addresses, structuredClone(params), at)

const library = async (name: 'passport-v2' | 'human-verification', params: Params, addresses: string[], network = '10', at = snapshot, baseUrl = world.baseUrl) => {
  const run = { network, provider: world.provider(network), addresses, options: structuredClone(params), snapshot: at, context: context(baseUrl) }
  return (name === 'passport-v2' ? await runStrategy(passportV2Strategy, run) : await runStrategy(humanVerificationStrategy, run)).scores
}

/** Rescores `addresses` now (A1 on the reference server): their listing rows move past the snapshot. */
async function rescore(addresses: readonly string[]) {
  for (const address of addresses) {
    const response = await fetch(`${world.baseUrl}/v2/stamps/1/score/${address.toLowerCase()}`, { headers: { 'X-API-KEY': world.apiKey } })
    expect(response.status).toBe(200)
  }
}

beforeAll(async () => {
  world = await startChainWorld()
  upstreams = await startUpstreams({ '10': world.provider('10') as never, '1': world.provider('1') as never })
  proxy = createServer(async (request, response) => {
    const url = new URL(request.url!, world.baseUrl)
    passport[passportKind(url)] = (passport[passportKind(url)] ?? 0) + 1
    const replaced = override?.(url)
    if (!replaced) forwarded++
    const answer =
      replaced ?? (await fetch(new URL(`${url.pathname}${url.search}`, world.baseUrl), { headers: { 'X-API-KEY': String(request.headers['x-api-key'] ?? '') } }))
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' })
    response.end(Buffer.from(await answer.arrayBuffer()))
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const env = {
    ...world.env,
    ...upstreams.env,
    PASSPORT_API_KEY: world.apiKey,
    PASSPORT_SCORER_ID: '1',
    PASSPORT_API_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
  }
  for (const [name, value] of Object.entries(env)) {
    saved[name] = process.env[name]
    process.env[name] = value
  }
  build = buildScoreApi({
    strategies: Object.fromEntries(['passport-v2', 'human-verification', 'human-id'].map((name) => [name, join(root, 'strategies', name)])),
  })
  api = build.load()
  voters = world.voters(1000) as Address[]
  snapshot = Number(await world.latestBlock('10')) - 100
}, 240_000)

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  build?.remove()
  await new Promise((resolve) => proxy?.close(resolve))
  await upstreams?.close()
  await world?.close()
})

describe('human-verification and its validation through the score-api host', () => {
  it('scores every voter of the world as the library does, Passport asked only about the voters Human ID did not verify, within 5 requests', async () => {
    const examples = (await fixture('human-verification/examples.json')).filter((example) => example.network === '10')
    const optionSets: Params[] = [
      ...examples.map((example) => example.strategy.params),
      { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'all', verifiedScore: 3, passportScore: 2 },
      { credentials: ['phone'], passportScore: 1, threshold: 25 },
    ]
    for (const params of optionSets) {
      const { result, requests, passport } = await counted(() => folder('human-verification', params, voters))
      expect(result).toEqual(await library('human-verification', params, voters))
      expect(new Set(Object.values(result)).size).toBeGreaterThan(1)
      expect(Object.values(result)).toContain(0)
      expect(passport['C4 page']).toBe(1)
      expect(passport['C4 by address']).toBeUndefined()
      expect(requests.total).toBeLessThanOrEqual(5)
    }
  }, 240_000)

  it("a space on Ethereum: the Ethereum block read once (its time maps Optimism's block by the clock and dates the Passport score), the same scores as the library", async () => {
    const [example] = (await fixture('human-verification/examples.json')).filter((each) => each.network === '1')
    for (const params of [example!.strategy.params, { credentials: ['gov-id', 'phone', 'biometrics'], scorerId: 1 }]) {
      const { result, requests, passport } = await counted(() => folder('human-verification', params, voters, '1', example!.snapshot))
      expect(result).toEqual(await library('human-verification', params, voters, '1', example!.snapshot))
      expect(new Set(Object.values(result)).size).toBeGreaterThan(1)
      // The folder keeps a past block's time for the process: a repeat call for the block reads
      // no header. Optimism's block comes from its clock: no blockfinder query.
      expect(requests.rpc.eth_getBlockByNumber ?? 0).toBeLessThanOrEqual(1)
      expect(requests.subgraph.blockfinder ?? 0).toBe(0)
      expect(passport).toEqual({ 'C4 page': 1 })
    }
  }, 240_000)

  it('passportScore 0 turns Passport off: no Passport request and no key needed', async () => {
    const params = { credentials: ['gov-id', 'phone', 'biometrics'], passportScore: 0 }
    const { result, passport } = await withEnv({ PASSPORT_API_KEY: '', PASSPORT_SCORER_ID: '' }, () => counted(() => folder('human-verification', params, voters)))
    expect(passport).toEqual({})
    expect(result).toEqual(await library('human-verification', params, voters))
  }, 120_000)

  it('a failing Passport source throws naming it', async () => {
    override = () => new Response('upstream down', { status: 503 })
    try {
      await expect(folder('human-verification', { scorerId: 1 }, voters)).rejects.toThrow(/^human-verification: the Passport score listing \(C4\) page 1 answered HTTP 503$/)
    } finally {
      override = undefined
    }
  }, 120_000)

  it('scores every voter of the world as the library does, for each example option set: 1 listing page, and the block read once per process', async () => {
    expect(voters.length).toBeGreaterThan(500)
    const fresh = build.load()
    for (const [index, example] of (await fixture('passport-v2/examples.json')).entries()) {
      const { result, requests, passport } = await counted(() => folder('passport-v2', example.strategy.params, voters, '10', snapshot, fresh))
      expect(result).toEqual(await library('passport-v2', example.strategy.params, voters))
      expect(Object.values(result).some((score) => score > 0)).toBe(true)
      expect(Object.values(result).some((score) => score === 0)).toBe(true)
      expect(passport).toEqual({ 'C4 page': 1 })
      // The snapshot's time: read by the first call for the block, then kept (a past block's time).
      expect(requests.rpc).toEqual(index === 0 ? { eth_getBlockByNumber: 1 } : {})
      expect(requests.total).toBe(index === 0 ? 2 : 1)
    }
  }, 120_000)

  it('voters rescored after the snapshot: the same scores as before, read from the history (A2), one request each', async () => {
    const examples = await fixture('passport-v2/examples.json')
    const scored = voters.slice(0, 60)
    const before = await Promise.all(examples.map((example) => folder('passport-v2', example.strategy.params, scored)))
    await rescore(scored.slice(0, 12))
    for (const [index, example] of examples.entries()) {
      const { result, passport } = await counted(() => folder('passport-v2', example.strategy.params, scored))
      expect(result).toEqual(before[index])
      expect(result).toEqual(await library('passport-v2', example.strategy.params, scored))
      expect(passport).toEqual({ 'C4 page': 1, A2: 12 })
    }
  }, 120_000)

  it('a single voter: one listing read by address, plus A2 when rescored since; the block read by the first call only', async () => {
    const [example] = await fixture('passport-v2/examples.json')
    const fresh = build.load()
    for (const [index, address] of voters.slice(0, 16).entries()) {
      const { result, requests, passport } = await counted(() => folder('passport-v2', example!.strategy.params, [address], '10', snapshot, fresh))
      expect(result).toEqual(await library('passport-v2', example!.strategy.params, [address]))
      expect(passport).toEqual(index < 12 ? { 'C4 by address': 1, A2: 1 } : { 'C4 by address': 1 })
      expect(requests.rpc).toEqual(index === 0 ? { eth_getBlockByNumber: 1 } : {})
    }
  }, 120_000)

  it('throws, naming the source, when Passport fails; never answers 0', async () => {
    const params = { mode: 'gated' }
    const few = voters.slice(0, 5)
    try {
      override = () => new Response('<html>Bad gateway</html>', { status: 502 })
      await expect(folder('passport-v2', params, few)).rejects.toThrowErrorMatchingInlineSnapshot(`[Error: passport-v2: the Passport score listing (C4) page 1 answered HTTP 502]`)
      await expect(folder('passport-v2', params, [voters[20]!])).rejects.toThrow(`passport-v2: the Passport score listing (C4) for ${getAddress(voters[20]!)} answered HTTP 502`)
      override = (url) => (url.pathname.endsWith('/history') ? new Response('{}', { status: 500 }) : undefined)
      await expect(folder('passport-v2', params, voters.slice(0, 12))).rejects.toThrow(/^passport-v2: the Passport score history \(A2\) of 0x[0-9a-fA-F]{40} answered HTTP 500$/)
      override = (url) => (url.pathname.endsWith('/history') ? Response.json({ detail: 'Forbidden' }, { status: 403 }) : undefined)
      const refused = await counted(() => folder('passport-v2', params, voters.slice(0, 12)).catch((error: unknown) => error))
      expect(String(refused.result)).toMatch(/^Error: passport-v2: the API key may not read Passport score history \(A2 answered 403; .*12 voter\(s\) were rescored after/)
      expect(refused.passport.A2).toBe(1)
      // allowLiveScore: their current score (A1) instead.
      const live = await counted(() => folder('passport-v2', { ...params, allowLiveScore: true }, voters.slice(0, 12)))
      expect(live.passport).toEqual({ 'C4 page': 1, A2: 1, A1: 12 })
      expect(Object.keys(live.result)).toEqual(voters.slice(0, 12).map((address) => getAddress(address)))
    } finally {
      override = undefined
    }
    await withEnv({ PASSPORT_API_KEY: 'not-a-key' }, () =>
      expect(folder('passport-v2', params, few)).rejects.toThrowErrorMatchingInlineSnapshot(`[Error: passport-v2: the Passport score listing (C4) page 1 answered HTTP 401 (check PASSPORT_API_KEY)]`),
    )
  }, 120_000)

  it('a scorer of real size (2,000,000 scores) at 500 voters: one listing page, then an error naming the cost and the strategy server', async () => {
    const many = Array.from({ length: 500 }, (_, index) => getAddress(`0x${(index + 1).toString(16).padStart(40, '0')}`))
    override = (url) => (url.pathname.startsWith('/registry/score/') ? Response.json({ items: [], count: 2_000_000 }) : undefined)
    try {
      const { result, passport } = await counted(() => folder('passport-v2', { mode: 'gated' }, many).catch((error: unknown) => error))
      expect(result).toMatchInlineSnapshot(
        `[Error: passport-v2: reading the Passport scores of 500 voters takes 500 requests (scorer 1 lists 2000000 scores: 2000 pages of 1000), over the 50 one call may send: a scorer this size needs the personhood strategy server, which keeps scores across calls (docs/strategy-server.md)]`,
      )
      expect(passport).toEqual({ 'C4 page': 1 })
    } finally {
      override = undefined
    }
  })

  it('a scorer of 3,500 scores at 20 voters: the whole listing (4 pages) when it is fewer requests; rows lost while reading throw', async () => {
    // Voters on the listing's last page: not on the first.
    const few = Array.from({ length: 20 }, (_, index) => getAddress(`0x${(3000 + index + 1).toString(16).padStart(38, '0')}bb`))
    const row = (page: number, index: number) => ({
      address: `0x${(page * 1000 + index + 1).toString(16).padStart(38, '0')}bb`,
      score: '25.000000000',
      status: 'DONE',
      last_score_timestamp: '2020-01-01T00:00:00.000Z',
      expiration_date: null,
      evidence: null,
      error: null,
    })
    const pageOf = (url: URL) => Number(url.searchParams.get('offset')) / 1000
    override = (url) => {
      if (!url.pathname.startsWith('/registry/score/')) return undefined
      const page = pageOf(url)
      return Response.json({ items: Array.from({ length: page < 3 ? 1000 : 500 }, (_, index) => row(page, index)), count: 3_500 })
    }
    try {
      const { result, passport } = await counted(() => folder('passport-v2', { mode: 'weighted', cap: 21 }, few))
      expect(passport).toEqual({ 'C4 page': 4 })
      expect(Object.values(result)).toEqual(Array.from({ length: 20 }, () => 21))
      override = (url) => (url.pathname.startsWith('/registry/score/') ? Response.json({ items: pageOf(url) === 0 ? [row(0, 0)] : [], count: 3_500 }) : undefined)
      await expect(folder('passport-v2', { mode: 'gated' }, few)).rejects.toThrow(/counted 3500 scores but page 2 holds 0 rows instead of 1000: an absent voter cannot be taken as never scored$/)
    } finally {
      override = undefined
    }
  })

  it("reads the public service's shapes: a binary scorer's C4 row (evidence rawScore and threshold as numbers, +00:00 times), a bare A2 score object", async () => {
    const [a, b] = [getAddress(`0x${'a1'.repeat(20)}`), getAddress(`0x${'b2'.repeat(20)}`)]
    const later = '2099-01-01T00:00:00+00:00'
    override = (url) => {
      if (url.pathname.startsWith('/registry/score/')) {
        const row = (address: string, scoredAt: string) => ({
          address: address.toLowerCase(),
          score: '1.000000000',
          status: 'DONE',
          last_score_timestamp: scoredAt,
          expiration_date: later,
          evidence: { type: 'ThresholdScoreCheck', success: true, rawScore: 25.5, threshold: 20 },
          error: null,
        })
        return Response.json({ items: [row(a, '2020-01-01T00:00:00.123456+00:00'), row(b, later)], count: 2 })
      }
      if (url.pathname.endsWith(`${b.toLowerCase()}/history`)) {
        return Response.json({ address: b.toLowerCase(), score: '19.50000', passing_score: false, threshold: '20.00000', last_score_timestamp: '2020-01-01T00:00:00Z', expiration_timestamp: later, error: null, stamps: {} })
      }
      return undefined
    }
    const expected: [Params, Record<string, number>][] = [
      [{ mode: 'weighted' }, { [a]: 25.5, [b]: 19.5 }],
      [{ mode: 'weighted', threshold: 20 }, { [a]: 25.5, [b]: 0 }],
      [{ mode: 'gated' }, { [a]: 1, [b]: 0 }],
      [{ mode: 'gated', threshold: 25.50001 }, { [a]: 0, [b]: 0 }],
    ]
    try {
      for (const [params, scores] of expected) {
        expect(await folder('passport-v2', params, [a, b])).toEqual(scores)
        // The library, reading the same answers through the proxy, agrees.
        expect(await library('passport-v2', params, [a, b], '10', snapshot, process.env.PASSPORT_API_URL)).toEqual(scores)
      }
    } finally {
      override = undefined
    }
  })

  it('checks its options and settings before any request', async () => {
    const run = (params: Params) => counted(() => folder('passport-v2', params, voters.slice(0, 3)).catch((error: unknown) => String(error)))
    const answers = [await run({ mode: 'gated', cap: 3 }), await run({ mode: 'weighted', score: 3 }), await run({ mode: 'ranked' })]
    expect(answers.map((answer) => answer.result)).toEqual([
      'Error: passport-v2: cap applies in weighted mode only',
      'Error: passport-v2: score applies in gated mode only',
      "Error: passport-v2: mode must be 'gated' or 'weighted'",
    ])
    const unset = await withEnv({ PASSPORT_SCORER_ID: '' }, () => run({}))
    expect(unset.result).toBe('Error: passport-v2: no Passport scorer: set scorerId in the options or PASSPORT_SCORER_ID (a positive integer)')
    expect([...answers, unset].every((answer) => answer.requests.total === 0)).toBe(true)
  })
})
