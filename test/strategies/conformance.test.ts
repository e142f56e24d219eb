/**
 * The conformance suite: score-api's per-strategy checks, run on every folder under `strategies/`
 * as score-api runs it. The folders are compiled with TypeScript 4.7 and score-api's compiler
 * options and loaded as its loader loads them (the score-api host, test/score-api-host); their
 * networks are the local chain and a chain clock behind the host's gateway, their services the
 * reference server of the demo world (each folder's serving in `servings.ts`). The examples run
 * here are the demo-world ones of `fixtures/<name>/examples.json`; a folder's own
 * `examples.json` names real networks and gets the static checks only.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getAddress } from 'viem'
import type { Eip1193ProviderLike } from '../../src/index.js'
import { runStrategy } from '../../src/index.js'
import { strategies as libraryStrategies } from '../../src/strategies/index.js'
import { buildScoreApi, type ScoreApi, type ScoreApiBuild } from '../score-api-host/host.js'
import { startUpstreams, type Upstreams } from '../score-api-host/upstreams.js'
import {
  checkExamples,
  checkImports,
  checkManifestAndModule,
  checkName,
  checkOneByOne,
  checkReadme,
  checkSchema,
  checkScores,
  checkSnapshotInPast,
  checkSomePositive,
  checkStableAfterChange,
  listStrategyFolders,
  loadStrategyFolder,
  runScoreApiForm,
  strategiesRoot,
  type ExampleServer,
  type StrategyExample,
  type StrategyFolder,
  type StrategyModule,
} from './conformance.js'
import { asLibraryParams } from './library-params.js'
import { servings } from './servings.js'


const names = listStrategyFolders()
const demoExamplesPath = (name: string) => join(import.meta.dirname, 'fixtures', name, 'examples.json')
const demoExamples = (name: string) => (existsSync(demoExamplesPath(name)) ? (JSON.parse(readFileSync(demoExamplesPath(name), 'utf8')) as StrategyExample[]) : [])

/**
 * Requests per call, at most (issues 22 and 26): 5 at 500 voters, 2 for one voter on the hub's
 * network. Every folder, passport-v2 too since it reads Passport on chain.
 */
const budget = { many: 5, single: 2 }

/**
 * Strategies that wrap others (issue 18, `human-gated`) are held to their own rule instead: the
 * inner strategies' requests plus at most what `human-verification` costs on the same voters,
 * both measured here from a cold start.
 */
const wrappers: Record<string, (params: Record<string, unknown>) => { inner: { name: string; network?: string; params: Record<string, unknown> }[]; human: Record<string, unknown> }> = {
  'human-gated': ({ strategies: inner, mode: _mode, cap: _cap, symbol: _symbol, ...human }) => ({
    inner: inner as { name: string; network?: string; params: Record<string, unknown> }[],
    human,
  }),
}

let build: ScoreApiBuild

beforeAll(() => {
  build = buildScoreApi({ strategies: Object.fromEntries(names.map((name) => [name, join(strategiesRoot, name)])) })
}, 600_000)

afterAll(() => build?.remove())

test('the package entry (personhood/strategies) names every folder; every folder declares how its examples are served and has demo examples', () => {
  expect(Object.keys(libraryStrategies).sort()).toEqual(names)
  expect(names.filter((name) => servings[name] === undefined)).toEqual([])
  expect(names.filter((name) => demoExamples(name).length === 0)).toEqual([])
})

describe.each(names)('strategies/%s', (name) => {
  const examples = demoExamples(name)
  const saved: Record<string, string | undefined> = {}
  let folder: StrategyFolder
  let server: ExampleServer
  let upstreams: Upstreams
  let api: ScoreApi
  /** The served world, with score-api's providers (snapshot.js's getProvider through the host's gateway). */
  let hosted: ExampleServer

  /** A fresh require of the compiled tree (no module cache from earlier calls), as score-api starts. */
  function coldFolder(): StrategyFolder {
    return { ...folder, module: build.load().strategies[name] as unknown as StrategyModule }
  }

  /** For a wrapping strategy: its inner strategies' cold cost plus human-verification's, on these voters. */
  async function wrapperBudget(example: StrategyExample, addresses: string[]): Promise<number | undefined> {
    const split = wrappers[name]?.(structuredClone(example.strategy.params))
    if (!split) return undefined
    let total = 0
    for (const inner of split.inner) {
      const network = inner.network ?? example.network
      const loaded = build.load().strategies[inner.name]!
      const { requests } = await upstreams.record(() => runInEnvironment(() => loaded.strategy('personhood.eth', network, hosted.provider(network), [...addresses], structuredClone(inner.params), example.snapshot)))
      total += requests.total
    }
    const human = build.load().strategies['human-verification']!
    const { requests } = await upstreams.record(() => runInEnvironment(() => human.strategy('personhood.eth', example.network, hosted.provider(example.network), [...addresses], split.human, example.snapshot)))
    console.log(`strategies/${name}: budget ${total} (inner) + ${requests.total} (human-verification) for ${addresses.length} address(es)`)
    return total + requests.total
  }

  /** Runs with the served environment set, as runScoreApiForm does. */
  async function runInEnvironment<T>(run: () => Promise<T>): Promise<T> {
    const saved = Object.fromEntries(Object.keys(hosted.env).map((key) => [key, process.env[key]]))
    Object.assign(process.env, hosted.env)
    try {
      return await run()
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    }
  }

  beforeAll(async () => {
    const serving = servings[name]
    if (serving === undefined) throw new Error(`strategies/${name} declares no serving in test/strategies/servings.ts`)
    server = await serving.start()
    upstreams = await startUpstreams({ '10': server.provider('10') as Eip1193ProviderLike, '1': server.provider('1') as Eip1193ProviderLike })
    // score-api's process has its environment from the start: a folder may read it when loaded.
    const env = { ...server.env, ...upstreams.env }
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key]
      process.env[key] = value
    }
    api = build.load()
    folder = await loadStrategyFolder(join(strategiesRoot, name), api.strategies[name] as unknown as StrategyModule)
    hosted = { ...server, env, provider: (network) => api.utils.getProvider(network) as never }
  }, 300_000)

  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    await upstreams?.close()
    await server?.close()
  })

  test('its name matches ^[a-z0-9-]+$ and is the folder, manifest and examples name', () => checkName(folder))
  test('manifest.json has an author and a version, and index.ts exports them with strategy()', () => checkManifestAndModule(folder))
  test('its files import only what score-api has', () => checkImports(folder))
  test('schema.json is draft-07, $ref Strategy, additionalProperties false, items on every array, symbol not required', () => checkSchema(folder))
  test('examples.json (real networks): 3 to 20 addresses, a numeric snapshot, params valid against schema.json (ajv)', () => checkExamples(folder))
  test('the demo-world examples: the same checks', () => checkExamples({ ...folder, examples }))
  test('README.md has a configuration valid against schema.json, the cost in requests, and what a tier-1 key serves when it reads Passport', () => checkReadme(folder))

  describe.each(examples.map((example, index) => ({ index, example })))('demo example $index', ({ example }) => {
    let batch: Record<string, number>

    test('its snapshot is a block in the past', () => checkSnapshotInPast(example, server))

    test('the folder: checksummed keys for every address, plain numbers, at least one positive', async () => {
      batch = checkScores(example.addresses, await runScoreApiForm(folder, hosted, example))
      checkSomePositive(batch)
    })

    test("score-api's getScoresDirect keeps the positive scores, keyed by checksummed input addresses", async () => {
      const [scores] = await api.utils.getScoresDirect('personhood.eth', [example.strategy], example.network, api.utils.getProvider(example.network), example.addresses, example.snapshot)
      expect(scores).toEqual(Object.fromEntries(Object.entries(batch).filter(([, score]) => score > 0)))
    })

    test('the library definition (personhood/strategies, runStrategy) answers the same', async () => {
      const definition = libraryStrategies[name]?.definition
      if (!definition) throw new Error(`personhood/strategies has no definition of ${name}`)
      const { scores } = await runStrategy(definition, {
        space: 'personhood.eth',
        network: example.network,
        provider: server.provider(example.network),
        addresses: example.addresses,
        options: asLibraryParams(name, example.strategy.params),
        snapshot: example.snapshot,
        context: server.context(),
      })
      expect(scores).toEqual(batch)
    })

    test('the first 10 addresses scored one by one equal the batch', () => checkOneByOne(folder, hosted, example, batch))

    test("the 'latest' snapshot answers every address with a number", async () => {
      checkScores(example.addresses, await runScoreApiForm(folder, hosted, example, { snapshot: 'latest' }))
    })

    test(`500 addresses from a cold start: every one answered, in at most ${budget.many} requests`, async () => {
      const addresses = server.voters(500)
      expect(new Set(addresses.map((address) => getAddress(address))).size).toBe(500)
      const cold = coldFolder()
      const { result, requests } = await upstreams.record(() => runScoreApiForm(cold, hosted, example, { addresses }))
      checkScores(addresses, result)
      console.log(`strategies/${name}, network ${example.network}, 500 addresses, cold: ${requests.total} requests`, requests)
      expect(requests.total).toBeLessThanOrEqual((await wrapperBudget(example, addresses)) ?? budget.many)
    })

    test(`one voter from a cold start: at most ${budget.single} requests on Optimism; on another network 1 more cold (the snapshot's header: Optimism's block by its clock, no blockfinder), none more warm`, async () => {
      const cold = coldFolder()
      const one = { addresses: example.addresses.slice(0, 1) }
      const { result, requests } = await upstreams.record(() => runScoreApiForm(cold, hosted, example, one))
      checkScores(example.addresses.slice(0, 1), result)
      console.log(`strategies/${name}, network ${example.network}, 1 address, cold: ${requests.total} requests`, requests)
      const wrapped = await wrapperBudget(example, example.addresses.slice(0, 1))
      if (wrapped !== undefined) {
        // A wrapper (human-gated) is held to its inner strategies' cost plus human-verification's.
        expect(requests.total).toBeLessThanOrEqual(wrapped)
        return
      }
      if (example.network === '10') {
        expect(requests.total).toBeLessThanOrEqual(budget.single)
        return
      }
      // score-api's own getSnapshots for the space's network alone sends nothing, so the folder
      // pays its mapping to Optimism: the snapshot block's header (its time), then Optimism's block
      // at that time by Optimism's clock (the world's Optimism is numbered as OP Mainnet is), checked
      // by the read itself. No blockfinder query.
      // One request for each source the voter needs: the header, the hub chain (one eth_call),
      // and, when asked, the attestation index and Passport. The budget of 2 holds where the
      // options need at most two of them (the README of each folder has the table).
      expect(requests.subgraph.blockfinder ?? 0).toBe(0)
      expect(requests.rpc.eth_getBlockByNumber).toBe(1)
      expect(requests.rpc.eth_call ?? 0).toBeLessThanOrEqual(1)
      for (const count of Object.values(requests.http)) expect(count).toBe(1)
      expect(requests.total).toBe(1 + (requests.rpc.eth_call ?? 0) + Object.keys(requests.http).length)
      const { requests: warm } = await upstreams.record(() => runScoreApiForm(cold, hosted, example, one))
      console.log(`strategies/${name}, network ${example.network}, 1 address, warm: ${warm.total} requests`, warm)
      // Warm: the folder keeps a past block's time (human-id and the folders that use it); a folder
      // that reads only Passport (passport-v2) reads the header again.
      expect(warm.subgraph.blockfinder ?? 0).toBe(0)
      expect(warm.total).toBe(requests.total - (warm.rpc.eth_getBlockByNumber ? 0 : 1))
    })
  })

  // Last: it changes the served sources.
  test('the score at a past snapshot does not change after a later change of the sources', async () => {
    await checkStableAfterChange(folder, hosted, examples[0] as StrategyExample)
  })
})
