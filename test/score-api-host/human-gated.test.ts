/**
 * strategies/human-gated through the faithful score-api host, on the world of the library's tests
 * (test/strategy/gated-world.ts: the demo world's hub chain and reference server, a real ERC-20 on
 * an Ethereum and a Base chain): it compiles with TypeScript 4.7 and loads with the folders it
 * calls (human-verification, human-id, passport-v2, and an erc20-balance-of stand-in); it equals
 * the library form (`runStrategy(humanGatedStrategy)`) voter for voter in every mode; the human
 * test costs nothing when no voter holds anything; a failing source is an error, not a 0.
 */
import { join } from 'node:path'
import type { Address } from 'viem'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Eip1193ProviderLike } from '../../src/index.js'
import { asLibraryParams } from '../strategies/library-params.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanGatedStrategy } from '../../src/strategy/human-gated.js'
import { startGatedWorld, type GatedWorld } from '../strategy/gated-world.js'
import { buildScoreApi, type ScoreApi, type ScoreApiBuild } from './host.js'
import { startUpstreams, type Upstreams } from './upstreams.js'

const root = join(import.meta.dirname, '..', '..')
let world: GatedWorld
let upstreams: Upstreams
let build: ScoreApiBuild
let api: ScoreApi
const saved: Record<string, string | undefined> = {}

beforeAll(async () => {
  world = await startGatedWorld()
  upstreams = await startUpstreams({
    '10': world.server.provider('10') as Eip1193ProviderLike,
    '1': world.ethereum.provider,
    '8453': world.base.provider,
  })
  for (const [name, value] of Object.entries({ ...world.server.env, ...upstreams.env })) {
    saved[name] = process.env[name]
    process.env[name] = value
  }
  build = buildScoreApi({
    strategies: {
      'human-gated': join(root, 'strategies', 'human-gated'),
      'human-verification': join(root, 'strategies', 'human-verification'),
      'human-id': join(root, 'strategies', 'human-id'),
      'passport-v2': join(root, 'strategies', 'passport-v2'),
      'erc20-balance-of': join(import.meta.dirname, 'fixtures', 'strategies', 'erc20-balance-of'),
    },
  })
  api = build.load()
}, 300_000)

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  build?.remove()
  await upstreams?.close()
  await world?.close()
})

function folder(options: Record<string, unknown>, addresses: readonly string[] = world.voters) {
  const gated = api.strategies['human-gated']!
  return gated.strategy('space.eth', '1', api.utils.getProvider('1'), [...addresses], { strategies: world.inner(), ...options }, Number(world.snapshot))
}

function library(options: Record<string, unknown>, addresses: readonly string[] = world.voters) {
  return runStrategy(humanGatedStrategy, {
    network: '1',
    provider: world.ethereum.provider,
    addresses,
    options: asLibraryParams('human-gated', { strategies: world.inner(), ...options }),
    snapshot: world.snapshot,
    context: world.context(),
  })
}

describe('strategies/human-gated in the score-api host', () => {
  test('loads with its schema, manifest and README', () => {
    const loaded = api.strategies['human-gated']!
    expect(loaded.author).toBe('personhood-dao')
    expect(loaded.about).toMatch(/^# human-gated/)
    expect((loaded.schema as { $ref: string }).$ref).toBe('#/definitions/Strategy')
  })

  for (const options of [
    { mode: 'gate' },
    { mode: 'quadratic' },
    { mode: 'cap', cap: 5, passportScore: 0.5 },
    { mode: 'gate', passportScore: 0, credentials: ['gov-id'] },
  ]) {
    test(`equals the library form voter for voter: ${JSON.stringify(options)}`, async () => {
      const [hosted, reference] = await Promise.all([folder(options), library(options)])
      expect(hosted).toEqual(reference.scores)
      const scores = Object.values(hosted)
      expect(scores.some((score) => score > 0)).toBe(true)
      expect(scores.some((score) => score === 0)).toBe(true)
    }, 180_000)
  }

  test('from a cold start: the inner strategies cost their own, the human test at most what human-verification costs, and nothing when no voter holds anything', async () => {
    const options = { mode: 'gate' }
    const cold = () => build.load()
    const empty = world.voters.filter((_, index) => index % 5 === 0)
    const holders = world.voters.filter((voter) => world.power(voter) > 0)
    // No holder: only the inner strategies' reads: two multicalls, and getSnapshots for Base (the
    // snapshot block's header, one blockfinder query). No reader call, no index, no Passport.
    const none = await upstreams.record(() => {
      const gated = cold().strategies['human-gated']!
      return gated.strategy('space.eth', '1', api.utils.getProvider('1'), empty, { strategies: world.inner(), ...options }, Number(world.snapshot))
    })
    expect(Object.values(none.result).every((score) => score === 0)).toBe(true)
    expect(none.requests.http).toEqual({})
    expect(none.requests.rpc).toEqual({ eth_call: 2, eth_getBlockByNumber: 1 })
    expect(none.requests.subgraph).toEqual({ blockfinder: 1 })
    // human-verification alone on the holders, cold.
    const human = await upstreams.record(() => {
      const verification = cold().strategies['human-verification']!
      return verification.strategy('space.eth', '1', api.utils.getProvider('1'), holders, {}, Number(world.snapshot))
    })
    // Every voter, cold: the inner reads plus at most the human test's.
    const all = await upstreams.record(() => {
      const gated = cold().strategies['human-gated']!
      return gated.strategy('space.eth', '1', api.utils.getProvider('1'), world.voters, { strategies: world.inner(), ...options }, Number(world.snapshot))
    })
    console.log(`human-gated, network 1, ${world.voters.length} voters (${holders.length} holders), cold: ${all.requests.total} requests`, JSON.stringify(all.requests))
    console.log(`  inner strategies alone: ${none.requests.total}; human-verification alone on the holders: ${human.requests.total}`)
    expect(all.requests.total).toBeLessThanOrEqual(none.requests.total + human.requests.total)
    expect(all.requests.total).toBeGreaterThan(none.requests.total)
  }, 180_000)

  test('a failing inner strategy is an error naming it, never a 0', async () => {
    const options = { strategies: [world.inner()[0], { name: 'erc20-balance-of', network: '8453', params: { address: '0x000000000000000000000000000000000000dEaD', decimals: 6 } }] }
    const gated = api.strategies['human-gated']!
    await expect(gated.strategy('space.eth', '1', api.utils.getProvider('1'), world.voters.slice(0, 5), options, Number(world.snapshot))).rejects.toThrow(
      /human-gated: inner strategy erc20-balance-of on network 8453 failed/,
    )
  }, 60_000)

  test("the Passport API's options are refused before any request: the folder reads Passport on chain, the API's scorer is the strategy server's", async () => {
    const refused = await upstreams.record(() => folder({ mode: 'gate', scorerId: 1 }).then(() => 'scored', (error: Error) => error.message))
    expect(refused.result).toMatch(/scorerId belongs to the Passport API/)
    expect(refused.requests.rpc).toEqual({})
  }, 60_000)

  test('voters the library and the folder both score: the address keys are the checksummed inputs', async () => {
    const lower = world.voters.slice(0, 10).map((voter) => voter.toLowerCase() as Address)
    const hosted = await folder({ mode: 'quadratic' }, lower)
    expect(Object.keys(hosted).sort()).toEqual(world.voters.slice(0, 10).sort())
  }, 60_000)

  test("an inner answer duplicated under other casings and reordered gives the same scores; two scores for one voter are an error (rows.ts's rule)", async () => {
    const voters = world.voters.filter((voter) => world.power(voter) > 0).slice(0, 4).concat(world.voters.slice(0, 2))
    const options = { mode: 'gate', passportScore: 0, credentials: ['gov-id'], strategies: [{ name: 'erc20-balance-of', params: world.inner()[0]!.params }] }
    const gated = api.strategies['human-gated']!
    const inner = api.strategies['erc20-balance-of']!
    const run = () => gated.strategy('space.eth', '1', api.utils.getProvider('1'), voters, options, Number(world.snapshot))
    const baseline = await run()
    const answer = await inner.strategy('space.eth', '1', api.utils.getProvider('1'), voters, options.strategies[0]!.params, Number(world.snapshot))
    expect(Object.values(baseline).some((score) => score > 0)).toBe(true)
    const original = inner.strategy
    const recase = (address: string, how: number) => (how === 0 ? address.toLowerCase() : how === 1 ? `0x${address.slice(2).toUpperCase()}` : address)
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.shuffledSubarray(Object.keys(answer), { minLength: 0 }),
          fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 8, maxLength: 8 }),
          fc.boolean(),
          async (doubled, casings, conflict) => {
            const entries = Object.entries(answer).reverse()
            doubled.forEach((address, index) => entries.push([recase(address, casings[index % 8]!), answer[address]!]))
            const varied = doubled.find((address) => recase(address, casings[doubled.indexOf(address) % 8]!) !== address)
            if (conflict && varied) entries.push([`0x${varied.slice(2).toUpperCase()}` === varied ? varied.toLowerCase() : `0x${varied.slice(2).toUpperCase()}`, answer[varied]! + 1])
            ;(inner as { strategy: unknown }).strategy = async () => Object.fromEntries(entries)
            if (conflict && varied) await expect(run()).rejects.toThrow(/human-gated: inner strategy erc20-balance-of answered two different rows for 0x/i)
            else expect(await run()).toEqual(baseline)
          },
        ),
        { numRuns: 12 },
      )
    } finally {
      ;(inner as { strategy: unknown }).strategy = original
    }
  }, 180_000)
})
