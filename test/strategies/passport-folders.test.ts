/**
 * The score-api folders `strategies/passport-v2` and `strategies/human-verification` (Passport read
 * on chain, from the local chain's decoder seeded from the world) through the faithful score-api host (laid out as score-api,
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
import type { Address } from 'viem'
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

const context = (baseUrl = world.baseUrl) => ({
  ...world.humanIdContext(),
  passport: { apiKey: world.apiKey, baseUrl, tier: 3 as const, scorerId: '1', rateLimiter: false as const },
})

/** A folder's strategy as score-api calls it; `loaded`: another load of the build (a cold module cache). */
const folder = (name: 'passport-v2' | 'human-verification', params: Params, addresses: string[], network = '10', at = snapshot, loaded: ScoreApi = api) =>
  loaded.strategies[name]!.strategy('personhood.eth', network, loaded.utils.getProvider(network), addresses, structuredClone(params), at)

/** The library form with the folders' Passport source: on chain. */
const library = async (name: 'passport-v2' | 'human-verification', params: Params, addresses: string[], network = '10', at = snapshot, baseUrl = world.baseUrl) => {
  const options = { ...structuredClone(params), ...(name === 'passport-v2' ? { source: 'onchain' } : { passportSource: 'onchain' }) }
  const run = { network, provider: world.provider(network), addresses, options, snapshot: at, context: context(baseUrl) }
  return (name === 'passport-v2' ? await runStrategy(passportV2Strategy, run) : await runStrategy(humanVerificationStrategy, run)).scores
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

/** The folders' params without the API's options (scorerId, allowLiveScore). */
const onchainParams = (params: Params): Params => {
  const { scorerId: _scorer, allowLiveScore: _live, ...rest } = params
  return rest
}

/** Blocks of the world's 2 s chain: 1 hour, 1 day and 7 days before the head. */
const ages = { '1 hour': 1_800, '1 day': 43_200, '7 days': 302_400 } as const

describe('Passport on chain in the folders: no request per voter at any snapshot age', () => {
  for (const name of ['passport-v2', 'human-verification'] as const) {
    it(`${name}: the library's on-chain scores, cold, at 1 hour, 1 day and 7 days old, 1 and 500 voters: at most 5 requests (2 for one voter), none to Passport's API`, async () => {
      const examples = (await fixture(`${name}/examples.json`)).filter((example) => example.network === '10')
      const head = Number(await world.latestBlock('10'))
      const seen: number[] = []
      for (const [age, blocks] of Object.entries(ages)) {
        for (const count of [1, 500]) {
          for (const example of examples) {
            const params = onchainParams(example.strategy.params)
            const addresses = count === 1 ? [voters[0]!] : voters.slice(0, 500)
            const fresh = build.load()
            const { result, requests, passport } = await counted(() => folder(name, params, addresses, '10', head - blocks, fresh))
            expect(result, `${name} ${age} ${count}`).toEqual(await library(name, params, addresses, '10', head - blocks))
            expect(passport, `${name} ${age} ${count}: Passport's API`).toEqual({})
            expect(requests.total, `${name} ${age} ${count}: ${JSON.stringify(requests)}`).toBeLessThanOrEqual(count === 1 ? 2 : 5)
            seen.push(...Object.values(result))
          }
        }
      }
      expect(seen.some((score) => score > 0)).toBe(true)
      expect(seen.some((score) => score === 0)).toBe(true)
    }, 600_000)
  }

  it("passport-v2 for a space on Ethereum: the snapshot's header and the decoder on Optimism at its clock's block, 2 requests for one voter (1 warm), at most 5 for 500, no blockfinder, at 1 hour, 1 day and 7 days old", async () => {
    const head = Number(await world.latestBlock('1'))
    const ethereumAges = { '1 hour': 300, '1 day': 7_200, '7 days': 50_400 }
    const seen: number[] = []
    for (const [age, blocks] of Object.entries(ethereumAges)) {
      for (const count of [1, 500]) {
        const addresses = count === 1 ? [voters[0]!] : voters.slice(0, 500)
        const fresh = build.load()
        const params = { mode: 'weighted' }
        const { result, requests, passport } = await counted(() => folder('passport-v2', params, addresses, '1', head - blocks, fresh))
        const what = `${age} ${count}: ${JSON.stringify(requests)}`
        expect(result, what).toEqual(await library('passport-v2', params, addresses, '1', head - blocks))
        expect(passport, what).toEqual({})
        expect(requests.subgraph.blockfinder ?? 0, what).toBe(0)
        expect(requests.rpc.eth_getBlockByNumber, what).toBe(1)
        expect(requests.total, what).toBeLessThanOrEqual(count === 1 ? 2 : 5)
        seen.push(...Object.values(result))
        if (count === 1) {
          // The snapshot's time is kept for the process: the same call again reads the decoder only.
          const { requests: warm } = await counted(() => folder('passport-v2', params, addresses, '1', head - blocks, fresh))
          expect(warm.total, `${age} warm: ${JSON.stringify(warm)}`).toBe(1)
        }
      }
    }
    expect(seen.some((score) => score > 0)).toBe(true)
  }, 600_000)

  it("passport-v2 counts the world's on-chain Passports: pushed and standing, expired, revoked, never", async () => {
    const head = Number(await world.latestBlock('10'))
    const scores = await folder('passport-v2', { mode: 'weighted' }, voters.slice(0, 500), '10', head)
    expect(Object.values(scores).filter((score) => score > 0).length).toBeGreaterThan(10)
    expect(scores).toEqual(await library('passport-v2', { mode: 'weighted' }, voters.slice(0, 500), '10', head))
  }, 120_000)

  it("refuses the API's options, naming the strategy server, before any request", async () => {
    const { result, requests } = await counted(() => folder('passport-v2', { scorerId: 1 }, voters.slice(0, 3)).catch((error: unknown) => error))
    expect(String(result)).toMatchInlineSnapshot(
      `"Error: passport-v2: scorerId belongs to the Passport API, which this strategy does not read: it reads Passport's own on-chain scores. A space's scorer is served by the personhood strategy server through api-v2 (see the README)"`,
    )
    expect(requests.total).toBe(0)
  }, 60_000)
})
