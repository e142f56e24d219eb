/**
 * The conformance suite's own test: on a good fixture folder every check passes, and each check
 * fails on a folder that breaks its rule. So a folder under `strategies/` that passes the suite
 * passes it because it conforms, not because a check cannot fail.
 */
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { getAddress, type Address } from 'viem'
import { defineStrategy, createScoreApiStrategy, symbolOption } from '../../src/index.js'
import { z } from 'zod'
import {
  ConformanceError,
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
  isScoreApiImport,
  loadStrategyFolder,
  runExplicitForm,
  runScoreApiForm,
  type ExampleServer,
  type StrategyExample,
  type StrategyFolder,
  type StrategyModule,
} from './conformance.js'
import { chainClockProvider } from './world-server.js'

let good: StrategyFolder
const example = () => good.examples[0] as StrategyExample

/** A server for the fixture: only a chain clock (block 1,000 is the head). */
function fixtureServer(changes: { count: number } = { count: 0 }): ExampleServer {
  const provider = chainClockProvider({ genesisTime: 1_700_000_000, blockTimeSeconds: 2, chainId: 10, now: () => (1_700_000_000 + 2_000) * 1000 })
  return {
    env: {},
    context: () => ({ cache: false }),
    provider: () => provider,
    latestBlock: async () => provider.head(),
    voters: (count) => Array.from({ length: count }, (_, index) => getAddress(`0x${(index + 1).toString(16).padStart(40, '0')}`)),
    changeAfterSnapshot: async () => void changes.count++,
    close: async () => {},
  }
}

function withModule(folder: StrategyFolder, module: Partial<StrategyModule>): StrategyFolder {
  return { ...folder, module: { ...folder.module, ...module } }
}

function broken(change: (folder: StrategyFolder) => void): StrategyFolder {
  const copy = structuredClone({ ...good, module: undefined }) as unknown as StrategyFolder
  copy.module = good.module
  change(copy)
  return copy
}

/** A folder whose definition answers `score(address, addresses)` for every address. */
function scoring(score: (address: Address, addresses: readonly Address[], snapshotTime: number) => number, keys: (address: Address) => string = (address) => address): StrategyFolder {
  const definition = defineStrategy({
    name: 'parity-fixture',
    title: 'Parity (test fixture)',
    optionsSchema: z.object({ symbol: symbolOption, score: z.number().default(1), tags: z.array(z.string()).default([]) }).strict(),
    async score({ addresses, snapshot }) {
      return new Map(addresses.map((address) => [address, { score: score(address, addresses, snapshot.timestamp), detail: null }]))
    },
  })
  const scoreApi = createScoreApiStrategy(definition)
  const strategy = async (...parameters: Parameters<typeof scoreApi>) =>
    Object.fromEntries(Object.entries(await scoreApi(...parameters)).map(([address, value]) => [keys(address as Address), value]))
  return withModule(good, { definition: definition as StrategyModule['definition'], strategy: strategy as StrategyModule['strategy'] })
}

beforeAll(async () => {
  good = await loadStrategyFolder(join(import.meta.dirname, 'fixtures', 'parity-fixture'))
})

describe('a conforming folder passes every check', () => {
  test('static checks', () => {
    checkName(good)
    checkManifestAndModule(good)
    checkSchema(good)
    checkExamples(good)
    checkReadme(good)
  })

  test('the checks that run the examples', async () => {
    const server = fixtureServer()
    await checkSnapshotInPast(example(), server)
    const batch = checkScores(example().addresses, await runScoreApiForm(good, server, example()))
    checkSomePositive(batch)
    expect((await runExplicitForm(good, server, example())).scores).toEqual(batch)
    await checkOneByOne(good, server, example(), batch)
  })
})

describe('each check fails on a folder that breaks its rule', () => {
  const fails = (check: () => unknown, message: RegExp) => expect(check).toThrowError(message)
  const failsAsync = async (check: () => Promise<unknown>, message: RegExp) => {
    const error = await check().then(
      () => undefined,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(ConformanceError)
    expect((error as Error).message).toMatch(message)
  }

  test('name: not kebab-case, or not the folder in the manifest or an example', () => {
    fails(() => checkName({ ...good, name: 'Parity_Fixture' }), /must match \^\[a-z0-9-\]\+\$/)
    fails(() => checkName(broken((folder) => (folder.manifest.name = 'Parity Fixture'))), /manifest.json names "Parity Fixture"/)
    fails(() => checkName(broken((folder) => ((folder.examples[0] as StrategyExample).strategy.name = 'parity'))), /examples.json\[0\] names strategy "parity"/)
  })

  test('manifest and module: author, version, strategy(6 parameters), the same author and version', () => {
    fails(() => checkManifestAndModule(broken((folder) => (folder.manifest.author = 'not a user'))), /GitHub user name/)
    fails(() => checkManifestAndModule(broken((folder) => (folder.manifest.version = 'v1'))), /version must be x.y.z/)
    fails(() => checkManifestAndModule(withModule(good, { version: '9.9.9' })), /exports version "9.9.9"/)
    fails(() => checkManifestAndModule(withModule(good, { strategy: (async () => ({})) as unknown as StrategyModule['strategy'] })), /it takes 0 parameters/)
  })

  test('imports: the fixture imports zod and personhood, which a folder copied into score-api may not', () => {
    expect(['@snapshot-labs/snapshot.js', '@ethersproject/abi', '../../utils', '..', '../human-id', './rules'].filter((specifier) => !isScoreApiImport(specifier))).toEqual([])
    expect(['personhood', 'zod', 'viem', '../../../src/index', '@ethersproject/abi/lib/coders', 'cross-fetch'].filter(isScoreApiImport)).toEqual([])
    fails(() => checkImports(good), /may import only what score-api has \(.*\); it imports "zod", "personhood"/)
  })

  test('schema: draft, $ref, additionalProperties, items on arrays, symbol required, drift from the options', () => {
    fails(() => checkSchema(broken((folder) => (folder.schema.$schema = 'http://json-schema.org/draft-04/schema#'))), /must declare draft-07/)
    fails(() => checkSchema(broken((folder) => delete folder.schema.$ref)), /must have \$ref/)
    const strategyOf = (folder: StrategyFolder) => (folder.schema.definitions as Record<string, Record<string, unknown>>).Strategy as Record<string, unknown>
    fails(() => checkSchema(broken((folder) => delete strategyOf(folder).additionalProperties)), /additionalProperties: false/)
    fails(() => checkSchema(broken((folder) => delete ((strategyOf(folder).properties as Record<string, Record<string, unknown>>).tags as Record<string, unknown>).items)), /tags has none/)
    fails(() => checkSchema(broken((folder) => (strategyOf(folder).required = ['symbol']))), /symbol must never be required/)
    fails(() => checkSchema(broken((folder) => (((strategyOf(folder).properties as Record<string, Record<string, unknown>>).score as Record<string, unknown>).minimum = 5))), /not the schema of the options in index.ts/)
  })

  test('examples: too few or too many addresses, a snapshot that is not a block number, params the schema refuses', () => {
    fails(() => checkExamples(broken((folder) => (folder.examples[0] as StrategyExample).addresses.splice(2))), /3 to 20 addresses, it has 2/)
    fails(() => checkExamples(broken((folder) => ((folder.examples[0] as StrategyExample).addresses = Array.from({ length: 21 }, (_, index) => getAddress(`0x${(index + 1).toString(16).padStart(40, '0')}`))))), /it has 21/)
    fails(() => checkExamples(broken((folder) => ((folder.examples[0] as StrategyExample).snapshot = 'latest'))), /snapshot must be a block number/)
    fails(() => checkExamples(broken((folder) => ((folder.examples[0] as StrategyExample).strategy.params.api = 'https://evil.example'))), /must NOT have additional properties/)
    fails(() => checkExamples(broken((folder) => ((folder.examples[0] as StrategyExample).strategy.params.score = '2'))), /must be number/)
  })

  test('README: no configuration to paste, one the schema refuses, no word on requests or tier-1 keys', () => {
    fails(() => checkReadme(broken((folder) => (folder.readme = folder.readme.replace(/```json[\s\S]*```/, '')))), /needs a ```json configuration/)
    fails(() => checkReadme(broken((folder) => (folder.readme = folder.readme.replace('"score": 1', '"score": "one"')))), /does not validate against schema.json/)
    fails(() => checkReadme(broken((folder) => (folder.readme = folder.readme.replace(/requests?/g, 'calls')))), /costs in requests/)
    fails(() => checkReadme(broken((folder) => (folder.readme = `${folder.readme.replace(/tier-1/g, 'basic')}\nSet PASSPORT_API_KEY.\n`))), /tier-1 key can serve \(the folder reads Passport\)/)
    // A folder that does not read Passport need not speak of its keys; params alone are a configuration.
    checkReadme(broken((folder) => (folder.readme = folder.readme.replace(/tier-1/g, 'basic'))))
    checkReadme(broken((folder) => (folder.readme = folder.readme.replace(/\{ "name": "parity-fixture", "network": "10", "params": (\{[^}]*\}) \}/, '$1'))))
    fails(() => checkReadme(broken((folder) => (folder.readme = folder.readme.replace(/\{ "name": "parity-fixture", "network": "10", "params": \{[^}]*\} \}/, '{ "score": "one" }')))), /does not validate/)
  })

  test('results: keys not checksummed, an address left out or added, a value that is not a number, nothing positive', async () => {
    const addresses = example().addresses
    const server = fixtureServer()
    await failsAsync(async () => checkScores(addresses, await runScoreApiForm(scoring(() => 1, (address) => address.toLowerCase()), server, example())), /must be checksummed/)
    fails(() => checkScores(addresses, { [getAddress(addresses[0] as string)]: 1 }), /Every address asked must be answered/)
    fails(() => checkScores(addresses.slice(0, 1), { [getAddress(addresses[0] as string)]: 1, [getAddress(addresses[1] as string)]: 0 }), /names addresses that were not asked/)
    fails(() => checkScores(addresses.slice(0, 1), { [getAddress(addresses[0] as string)]: '1' }), /must be plain numbers/)
    fails(() => checkSomePositive({ [getAddress(addresses[0] as string)]: 0 }), /at least one address with a positive score/)
  })

  test('a snapshot past the head of the chain', async () => {
    await failsAsync(() => checkSnapshotInPast({ ...example(), snapshot: 5_000 }, fixtureServer()), /is not in the past: the head of network 10 is block 1000/)
  })

  test('a score that depends on the other addresses of the call', async () => {
    const folder = scoring((_address, addresses) => addresses.length)
    const server = fixtureServer()
    const batch = checkScores(example().addresses, await runScoreApiForm(folder, server, example()))
    await failsAsync(() => checkOneByOne(folder, server, example(), batch), /scores 1 alone and 4 in the batch/)
  })

  test('a score at a past snapshot that follows a later change, and a change that changes nothing', async () => {
    const changes = { count: 0 }
    const server = fixtureServer(changes)
    // Reads the current state whatever the snapshot: after the change, every score moves.
    const followsChanges = scoring(() => 1 + changes.count)
    await failsAsync(() => checkStableAfterChange(followsChanges, server, example()), /changed after a later change of the sources/)
    await failsAsync(() => checkStableAfterChange(good, server, example()), /changed no current score/)
  })
})
