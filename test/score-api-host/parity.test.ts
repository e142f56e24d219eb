/**
 * Parity: each score-api folder, compiled and loaded by the score-api host, and the library
 * definition of the same name (`personhood/strategies`, run with `runStrategy` and an explicit
 * context) score the same 2,000 voters on the same served world identically, for every option set
 * of the folder's examples (its real-network `examples.json` and its demo-world examples), each on
 * its example's network (10 or 1) at a past block of the served world.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getAddress, keccak256, toHex } from 'viem'
import type { Eip1193ProviderLike } from '../../src/index.js'
import { runStrategy } from '../../src/index.js'
import { asLibraryParams } from '../strategies/library-params.js'
import { strategies as libraryStrategies } from '../../src/strategies/index.js'
import { listStrategyFolders, runScoreApiForm, strategiesRoot, type ExampleServer, type StrategyExample, type StrategyFolder, type StrategyModule } from '../strategies/conformance.js'
import { loadStrategyFolder } from '../strategies/conformance.js'
import { servings } from '../strategies/servings.js'
import { buildScoreApi, type ScoreApiBuild } from './host.js'
import { startUpstreams, type Upstreams } from './upstreams.js'

const voterCount = 2_000
const names = listStrategyFolders()
const readExamples = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as StrategyExample[]

/** Every distinct (network, params) of a folder's examples, with the demo example's snapshot on that network when there is one. */
function optionSets(name: string): { label: string; network: string; params: Record<string, unknown>; snapshot?: number }[] {
  const demo = readExamples(join(strategiesRoot, '..', 'test', 'strategies', 'fixtures', name, 'examples.json'))
  const real = readExamples(join(strategiesRoot, name, 'examples.json'))
  const sets = new Map<string, { label: string; network: string; params: Record<string, unknown>; snapshot?: number }>()
  for (const [origin, examples] of [['demo', demo], ['examples.json', real]] as const) {
    for (const example of examples) {
      const key = JSON.stringify([example.network, example.strategy.params])
      if (sets.has(key)) continue
      const snapshot = demo.find((candidate) => candidate.network === example.network)?.snapshot
      sets.set(key, { label: `${origin}: ${example.name}`, network: example.network, params: example.strategy.params, ...(typeof snapshot === 'number' ? { snapshot } : {}) })
    }
  }
  // A strategy that wraps others (human-gated) names score-api's own inner strategies in its
  // real-network examples (erc20-balance-of): they are not folders of this package, so those sets
  // run where they exist (test/score-api-host/human-gated.test.ts with a stand-in on token chains,
  // and a score-api checkout), not here.
  const ours = new Set(names)
  return [...sets.values()].filter((set) => {
    const inner = (set.params as { strategies?: { name?: unknown }[] }).strategies
    return !Array.isArray(inner) || inner.every((entry) => typeof entry?.name === 'string' && ours.has(entry.name))
  })
}

/** The world's voters, then addresses it does not know, up to `count`. */
function voters(server: ExampleServer, count: number): string[] {
  const known = server.voters(count).map((address) => getAddress(address))
  const unknown = Array.from({ length: count - known.length }, (_, index) => getAddress(keccak256(toHex(`parity voter ${index}`)).slice(0, 42)))
  return [...known, ...unknown]
}

let build: ScoreApiBuild

beforeAll(() => {
  build = buildScoreApi({ strategies: Object.fromEntries(names.map((name) => [name, join(strategiesRoot, name)])) })
}, 600_000)

afterAll(() => build?.remove())

describe.each(names)('strategies/%s and its library definition', (name) => {
  const saved: Record<string, string | undefined> = {}
  let server: ExampleServer
  let upstreams: Upstreams
  let hosted: ExampleServer
  let folder: StrategyFolder
  let addresses: string[]

  beforeAll(async () => {
    server = await servings[name]!.start()
    upstreams = await startUpstreams({ '10': server.provider('10') as Eip1193ProviderLike, '1': server.provider('1') as Eip1193ProviderLike })
    const env = { ...server.env, ...upstreams.env }
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key]
      process.env[key] = value
    }
    const api = build.load()
    folder = await loadStrategyFolder(join(strategiesRoot, name), api.strategies[name] as unknown as StrategyModule)
    hosted = { ...server, env, provider: (network) => api.utils.getProvider(network) as never }
    addresses = voters(server, voterCount)
  }, 300_000)

  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    await upstreams?.close()
    await server?.close()
  })

  test.each(optionSets(name))('$label (network $network): identical scores for 2,000 voters', async ({ network, params, snapshot }) => {
    const block = snapshot ?? Number(await server.latestBlock(network)) - 100
    const example: StrategyExample = { name: 'parity', strategy: { name, params }, network, addresses, snapshot: block }
    const folderScores = await runScoreApiForm(folder, hosted, example)
    const definition = libraryStrategies[name]?.definition
    if (!definition) throw new Error(`personhood/strategies has no definition of ${name}`)
    const library = await runStrategy(definition, { space: 'personhood.eth', network, provider: server.provider(network), addresses, options: asLibraryParams(name, params), snapshot: block, context: server.context() })
    expect(Object.keys(folderScores)).toHaveLength(voterCount)
    // A comparison of all zeros proves little: the world's voters must score for this option set.
    expect(Object.values(folderScores).filter((score) => score > 0).length).toBeGreaterThan(0)
    expect(folderScores).toEqual(library.scores)
  }, 300_000)
})
