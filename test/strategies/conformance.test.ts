/**
 * The conformance suite: score-api's per-strategy checks, run on every folder under `strategies/`
 * against the sources its serving starts (the reference server with the demo world, and whatever
 * else the folder declares in `servings.ts`).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { getAddress } from 'viem'
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
  runExplicitForm,
  runScoreApiForm,
  strategiesRoot,
  totalRequests,
  type ExampleServer,
  type StrategyExample,
  type StrategyFolder,
} from './conformance.js'
import { servings } from './servings.js'

const names = listStrategyFolders()

test('the package entry (personhood/strategies) lists every folder, and every folder declares how its examples are served', async () => {
  const { strategies } = await import('../../src/strategies/index.js')
  expect(Object.keys(strategies).sort()).toEqual(names)
  expect(names.filter((name) => servings[name] === undefined)).toEqual([])
})

describe.each(names)('strategies/%s', (name) => {
  const examples = JSON.parse(readFileSync(join(strategiesRoot, name, 'examples.json'), 'utf8')) as StrategyExample[]
  let folder: StrategyFolder
  let server: ExampleServer

  beforeAll(async () => {
    folder = await loadStrategyFolder(join(strategiesRoot, name))
    const serving = servings[name]
    if (serving === undefined) throw new Error(`strategies/${name} declares no serving in test/strategies/servings.ts`)
    server = await serving.start()
  })
  afterAll(async () => {
    await server?.close()
  })

  test('its name matches ^[a-z0-9-]+$ and is the folder, manifest and examples name', () => checkName(folder))
  test('manifest.json has an author and a version, and index.ts exports them with strategy()', () => checkManifestAndModule(folder))
  test('index.ts imports only "personhood"', () => checkImports(folder))
  test('schema.json is draft-07, $ref Strategy, additionalProperties false, items on every array, symbol not required, and the options of index.ts', () =>
    checkSchema(folder))
  test('each example has 3 to 20 addresses, a numeric snapshot and params valid against schema.json (ajv)', () => checkExamples(folder))
  test('README.md has a space configuration valid against schema.json, the cost in requests and what a tier-1 key serves', () => checkReadme(folder))

  describe.each(examples.map((example, index) => ({ index, example })))('example $index', ({ example }) => {
    let batch: Record<string, number>

    test('its snapshot is a block in the past', () => checkSnapshotInPast(example, server))

    test('score-api form: checksummed keys for every address, plain numbers, at least one positive', async () => {
      batch = checkScores(example.addresses, await runScoreApiForm(folder, server, example))
      checkSomePositive(batch)
    })

    test('the explicit-context form answers the same', async () => {
      const { scores } = await runExplicitForm(folder, server, example)
      expect(scores).toEqual(batch)
    })

    test('the first 10 addresses scored one by one equal the batch', () => checkOneByOne(folder, server, example, batch))

    test("the 'latest' snapshot answers every address with a number", async () => {
      checkScores(example.addresses, await runScoreApiForm(folder, server, example, { snapshot: 'latest' }))
    })

    test('500 addresses: every one answered, in fewer requests than addresses', async () => {
      const addresses = server.voters(500)
      expect(new Set(addresses.map((address) => getAddress(address))).size).toBe(500)
      const run = await runExplicitForm(folder, server, example, { addresses })
      checkScores(addresses, run.scores)
      console.log(`strategies/${name}, 500 addresses: ${totalRequests(run.requests)} requests`, run.requests)
      expect(totalRequests(run.requests)).toBeLessThan(addresses.length)
    })
  })

  // Last: it changes the served sources.
  test('the score at a past snapshot does not change after a later change of the sources', async () => {
    const example = examples[0] as StrategyExample
    await checkStableAfterChange(folder, server, example)
  })
})
