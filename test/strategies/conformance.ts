/**
 * score-api's per-strategy checks (snapshot-labs/score-api `test/strategies/unit/strategy.test.ts`
 * and the CI job that runs every strategy on 500 addresses), as functions that throw a
 * {@link ConformanceError} naming what is wrong. `conformance.test.ts` runs them on every folder
 * under `strategies/`, compiled and loaded by the score-api host (test/score-api-host);
 * `conformance-self.test.ts` shows each one fails on a folder that breaks it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import AjvModule from 'ajv'
import { getAddress, isAddress } from 'viem'
import type { ResolvedSnapshot, ScoreApiStrategy, StrategyContext, StrategyDefinition, StrategyProvider } from '../../src/index.js'
import { getStrategyJsonSchema, runStrategy } from '../../src/index.js'

export const strategiesRoot = join(import.meta.dirname, '..', '..', 'strategies')

/** A check that failed: what score-api (or this package) requires, and what the folder has. */
export class ConformanceError extends Error {
  override name = 'ConformanceError'
}

function fail(message: string): never {
  throw new ConformanceError(message)
}

/** One example of `examples.json`, as score-api reads it. */
export type StrategyExample = {
  name: string
  strategy: { name: string; params: Record<string, unknown> }
  network: string
  addresses: string[]
  snapshot: number | 'latest'
}

/** What a strategy folder's `index.ts` exports. */
export type StrategyModule = {
  strategy: ScoreApiStrategy
  author?: unknown
  version?: unknown
  /** The definition, for the explicit-context form (this package's folders export it). */
  definition?: StrategyDefinition<unknown, unknown, unknown>
}

/** A strategy folder, loaded. */
export type StrategyFolder = {
  name: string
  dir: string
  manifest: Record<string, unknown>
  schema: Record<string, unknown>
  examples: StrategyExample[]
  readme: string
  module: StrategyModule
}

/** The folder names under `root` (each a strategy). */
export function listStrategyFolders(root = strategiesRoot): string[] {
  if (!existsSync(root)) return []
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
}

/**
 * Loads a folder as score-api does: `index.ts`, `manifest.json`, `schema.json`, `examples.json`,
 * `README.md`. `loaded` is the module as the score-api host compiled and required it; without it,
 * `index.ts` is imported as it is (the suite's own library-form fixtures).
 */
export async function loadStrategyFolder(dir: string, loaded?: StrategyModule): Promise<StrategyFolder> {
  const name = dir.split(/[\\/]/).pop() as string
  const read = (file: string) => {
    const path = join(dir, file)
    if (!existsSync(path)) fail(`strategies/${name} has no ${file}.`)
    return readFileSync(path, 'utf8')
  }
  const json = (file: string) => {
    try {
      return JSON.parse(read(file)) as unknown
    } catch (error) {
      if (error instanceof ConformanceError) throw error
      return fail(`strategies/${name}/${file} is not JSON: ${(error as Error).message}`)
    }
  }
  read('index.ts')
  const module = loaded ?? ((await import(pathToFileURL(join(dir, 'index.ts')).href)) as StrategyModule)
  return {
    name,
    dir,
    manifest: json('manifest.json') as Record<string, unknown>,
    schema: json('schema.json') as Record<string, unknown>,
    examples: json('examples.json') as StrategyExample[],
    readme: read('README.md'),
    module,
  }
}

// ---------------------------------------------------------------------------------------------
// Static checks
// ---------------------------------------------------------------------------------------------

/** The name is kebab-case and the same in the folder, the manifest and every example. */
export function checkName(folder: StrategyFolder): void {
  if (!/^[a-z0-9-]+$/.test(folder.name)) fail(`Strategy name "${folder.name}" must match ^[a-z0-9-]+$.`)
  if (folder.manifest.name !== folder.name) fail(`manifest.json names "${String(folder.manifest.name)}", the folder is "${folder.name}".`)
  for (const [index, example] of folder.examples.entries()) {
    if (example?.strategy?.name !== folder.name) fail(`examples.json[${index}] names strategy "${String(example?.strategy?.name)}", the folder is "${folder.name}".`)
  }
  if (folder.module.definition && folder.module.definition.name !== folder.name) {
    fail(`index.ts exports the definition of "${folder.module.definition.name}", the folder is "${folder.name}".`)
  }
}

/** `manifest.json` has an author and a version, and `index.ts` exports the same ones and `strategy`. */
export function checkManifestAndModule(folder: StrategyFolder): void {
  const { manifest, module } = folder
  if (typeof manifest.author !== 'string' || !/^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,38})$/.test(manifest.author)) {
    fail(`manifest.json author must be a GitHub user name, got ${JSON.stringify(manifest.author)}.`)
  }
  if (typeof manifest.version !== 'string' || !/^\d+\.\d+\.\d+$/.test(manifest.version)) {
    fail(`manifest.json version must be x.y.z, got ${JSON.stringify(manifest.version)}.`)
  }
  if (typeof module.strategy !== 'function') fail('index.ts must export a function `strategy`.')
  if (module.strategy.length !== 6) fail(`strategy must take (space, network, provider, addresses, options, snapshot), it takes ${module.strategy.length} parameters.`)
  if (module.author !== manifest.author) fail(`index.ts exports author ${JSON.stringify(module.author)}, manifest.json says ${JSON.stringify(manifest.author)}.`)
  if (module.version !== manifest.version) fail(`index.ts exports version ${JSON.stringify(module.version)}, manifest.json says ${JSON.stringify(manifest.version)}.`)
}

/** What a folder copied into score-api may import: what score-api already has, and its own files. */
export function isScoreApiImport(specifier: string): boolean {
  return (
    specifier === '@snapshot-labs/snapshot.js' ||
    /^@ethersproject\/[a-z0-9-]+$/.test(specifier) ||
    specifier === '../../utils' ||
    specifier === '..' ||
    /^\.\.\/[a-z0-9-]+$/.test(specifier) ||
    /^\.\/[A-Za-z0-9_.-]+$/.test(specifier)
  )
}

/**
 * Every `.ts` file of the folder imports only what score-api has (`@snapshot-labs/snapshot.js`,
 * `@ethersproject/*`, `../../utils`, the registry `..`, a sibling folder `../<name>`, and the folder's
 * own files), so the folder copies into score-api with no new dependency.
 */
export function checkImports(folder: StrategyFolder): void {
  const sources = readdirSync(folder.dir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  const specifiers = sources.flatMap((file) => {
    const source = readFileSync(join(folder.dir, file), 'utf8')
    return [...source.matchAll(/^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]/gm), ...source.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1] as string)
  })
  const others = [...new Set(specifiers.filter((specifier) => !isScoreApiImport(specifier)))]
  if (others.length) {
    fail(`strategies/${folder.name} may import only what score-api has (@snapshot-labs/snapshot.js, @ethersproject/*, ../../utils, .., ../<folder>, ./<file>); it imports ${others.map((other) => `"${other}"`).join(', ')}.`)
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- ajv ships CommonJS; its default export sits under .default in ESM
const Ajv = ((AjvModule as any).default ?? AjvModule) as typeof AjvModule.default

function newAjv() {
  return new Ajv({ allErrors: true, strict: true, strictRequired: false })
}

function arraysWithoutItems(node: unknown, path: string, found: string[]): string[] {
  if (Array.isArray(node)) node.forEach((child, index) => arraysWithoutItems(child, `${path}[${index}]`, found))
  else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>
    const type = record.type
    if ((type === 'array' || (Array.isArray(type) && type.includes('array'))) && record.items === undefined) found.push(path || '(root)')
    for (const [key, child] of Object.entries(record)) arraysWithoutItems(child, path ? `${path}.${key}` : key, found)
  }
  return found
}

/**
 * `schema.json`: a valid draft-07 schema, `$ref: "#/definitions/Strategy"`, an object with
 * `additionalProperties: false`, `items` on every array, `symbol` not required; and, when the
 * folder exports its definition, the very schema its zod options give.
 */
export function checkSchema(folder: StrategyFolder): void {
  const { schema } = folder
  if (schema.$schema !== 'http://json-schema.org/draft-07/schema#') fail(`schema.json must declare draft-07, it declares ${JSON.stringify(schema.$schema)}.`)
  if (schema.$ref !== '#/definitions/Strategy') fail(`schema.json must have $ref "#/definitions/Strategy", it has ${JSON.stringify(schema.$ref)}.`)
  const strategy = (schema.definitions as Record<string, Record<string, unknown>> | undefined)?.Strategy
  if (strategy === undefined) fail('schema.json has no definitions.Strategy.')
  if (strategy.type !== 'object') fail('definitions.Strategy must be of type object.')
  if (strategy.additionalProperties !== false) fail('definitions.Strategy must set additionalProperties: false.')
  const missingItems = arraysWithoutItems(strategy.properties, '', [])
  if (missingItems.length) fail(`Every array must have items: ${missingItems.join(', ')} has none.`)
  if (Array.isArray(strategy.required) && strategy.required.includes('symbol')) fail('symbol must never be required.')
  const ajv = newAjv()
  try {
    ajv.compile(schema)
  } catch (error) {
    fail(`schema.json does not compile with ajv (draft-07, strict): ${(error as Error).message}`)
  }
  const definition = folder.module.definition
  if (definition) {
    const expected = getStrategyJsonSchema(definition)
    if (JSON.stringify(sortKeys(expected)) !== JSON.stringify(sortKeys(schema))) {
      fail(`schema.json is not the schema of the options in index.ts; run \`npm run strategies:schemas\`. Expected:\n${JSON.stringify(expected, null, 2)}`)
    }
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, child]) => [key, sortKeys(child)]))
  }
  return value
}

/** Validates `params` against the folder's schema with ajv; returns ajv's errors as text (empty when valid). */
export function schemaErrors(folder: StrategyFolder, params: unknown): string {
  const ajv = newAjv()
  const validate = ajv.compile(folder.schema)
  return validate(params) ? '' : ajv.errorsText(validate.errors)
}

/**
 * `examples.json`: at least one example; each names a network, 3 to 20 valid addresses, a numeric
 * snapshot, and params that validate against the schema (with and without `symbol`).
 */
export function checkExamples(folder: StrategyFolder): void {
  const { examples } = folder
  if (!Array.isArray(examples) || examples.length === 0) fail('examples.json must be a non-empty array.')
  for (const [index, example] of examples.entries()) {
    const where = `examples.json[${index}]`
    if (typeof example.name !== 'string') fail(`${where} needs a name.`)
    if (typeof example.network !== 'string' || !/^[0-9]+$/.test(example.network)) fail(`${where}.network must be a chain id string, got ${JSON.stringify(example.network)}.`)
    if (!Array.isArray(example.addresses) || example.addresses.length < 3 || example.addresses.length > 20) {
      fail(`${where} must have 3 to 20 addresses, it has ${Array.isArray(example.addresses) ? example.addresses.length : 'none'}.`)
    }
    const invalid = example.addresses.filter((address) => typeof address !== 'string' || !isAddress(address, { strict: false }))
    if (invalid.length) fail(`${where} has invalid addresses: ${invalid.join(', ')}.`)
    if (typeof example.snapshot !== 'number' || !Number.isSafeInteger(example.snapshot) || example.snapshot < 0) {
      fail(`${where}.snapshot must be a block number in the past, got ${JSON.stringify(example.snapshot)}.`)
    }
    const errors = schemaErrors(folder, example.strategy?.params)
    if (errors) fail(`${where}.strategy.params do not validate against schema.json: ${errors}.`)
    const { symbol: _symbol, ...withoutSymbol } = example.strategy.params ?? {}
    const withoutSymbolErrors = schemaErrors(folder, withoutSymbol)
    if (withoutSymbolErrors) fail(`${where}.strategy.params without symbol do not validate: ${withoutSymbolErrors}.`)
  }
}

/**
 * `README.md`: a ready-to-paste configuration (a ```json block: the params to type in Snapshot's
 * strategy form, or `{ "name": <folder>, "params": {...} }`), every one valid against the schema;
 * what the options cost in requests; and, for a folder that reads Passport (its README names
 * `PASSPORT_API_KEY`), what a tier-1 key can serve.
 */
export function checkReadme(folder: StrategyFolder): void {
  const blocks = [...folder.readme.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] as string)
  const configurations = blocks.flatMap((block) => {
    try {
      const parsed = JSON.parse(block) as unknown
      const list = Array.isArray(parsed) ? parsed : [parsed]
      return list
        .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item))
        .filter((item) => item.name === undefined || item.name === folder.name)
        .map((item) => (item.name === folder.name ? item.params : item))
    } catch {
      return []
    }
  })
  if (configurations.length === 0) fail(`README.md needs a \`\`\`json configuration: the params of ${folder.name} (or { "name": "${folder.name}", "params": { ... } }).`)
  for (const params of configurations) {
    const errors = schemaErrors(folder, params)
    if (errors) fail(`README.md's configuration of ${folder.name} does not validate against schema.json: ${errors}.`)
  }
  if (!/\brequests?\b/i.test(folder.readme)) fail('README.md must say what each option costs in requests.')
  if (/PASSPORT_API_KEY/.test(folder.readme) && !/tier[- ]1/i.test(folder.readme)) fail('README.md must say what a tier-1 key can serve (the folder reads Passport).')
}

// ---------------------------------------------------------------------------------------------
// Checks that run the examples
// ---------------------------------------------------------------------------------------------

/** The sources a folder's examples run against, as its serving starts them. */
export type ExampleServer = {
  /** What the score-api form reads from the environment while it runs. */
  env: Record<string, string>
  /** The same sources for the explicit-context form (no pacing, no cache: each call reads). */
  context(): StrategyContext
  /** A provider of `network`, as score-api hands one to the strategy. */
  provider(network: string): StrategyProvider
  /** The head block of `network`. */
  latestBlock(network: string): Promise<bigint>
  /** `count` distinct addresses of the served world (answered and not), for the bulk run. */
  voters(count: number): string[]
  /**
   * Changes the sources after the block `snapshot` (rescores, revokes, moves time on), so that the
   * addresses' answers now differ from what they were at the snapshot for at least one of them.
   */
  changeAfterSnapshot(parameters: { addresses: string[]; params: Record<string, unknown>; snapshot: number }): Promise<void>
  close(): Promise<void>
}

/** How a strategy's examples are served: one per folder, declared in `servings.ts`. */
export type ExampleServing = {
  /** In words: what serves the examples. */
  description: string
  start(): Promise<ExampleServer>
}

/** Runs the folder's score-api form with the server's environment (restored afterwards). */
export async function runScoreApiForm(folder: StrategyFolder, server: ExampleServer, example: StrategyExample, overrides: Partial<StrategyExample> = {}) {
  const run = { ...example, ...overrides }
  const saved = Object.fromEntries(Object.keys(server.env).map((key) => [key, process.env[key]]))
  Object.assign(process.env, server.env)
  try {
    return await folder.module.strategy('personhood.eth', run.network, server.provider(run.network), [...run.addresses], structuredClone(run.strategy.params), run.snapshot)
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
}

/** Runs the folder's definition with the server's explicit context (fresh: no cache). */
export async function runExplicitForm(folder: StrategyFolder, server: ExampleServer, example: StrategyExample, overrides: Partial<StrategyExample> = {}) {
  const definition = folder.module.definition
  if (!definition) fail(`strategies/${folder.name}/index.ts must export its definition (the explicit-context form).`)
  const run = { ...example, ...overrides }
  return runStrategy(definition, {
    space: 'personhood.eth',
    network: run.network,
    provider: server.provider(run.network),
    addresses: run.addresses,
    options: structuredClone(run.strategy.params),
    snapshot: run.snapshot,
    context: server.context(),
  })
}

/** The snapshot is a block at or before the network's head. */
export async function checkSnapshotInPast(example: StrategyExample, server: ExampleServer): Promise<void> {
  const head = await server.latestBlock(example.network)
  if (typeof example.snapshot !== 'number' || BigInt(example.snapshot) > head) {
    fail(`The example's snapshot ${String(example.snapshot)} is not in the past: the head of network ${example.network} is block ${head}.`)
  }
}

/**
 * A result as score-api wants it, and stricter: its keys are exactly the checksummed input
 * addresses (every address answered; none the caller did not ask), its values plain finite numbers.
 */
export function checkScores(addresses: readonly string[], scores: unknown): Record<string, number> {
  if (typeof scores !== 'object' || scores === null || Array.isArray(scores)) fail(`The strategy must answer an object of scores, got ${JSON.stringify(scores)}.`)
  const record = scores as Record<string, unknown>
  const expected: string[] = [...new Set(addresses.map((address) => getAddress(address.toLowerCase())))].sort()
  const keys = Object.keys(record).sort()
  const notChecksummed = keys.filter((key) => !isAddress(key, { strict: false }) || getAddress(key.toLowerCase()) !== key)
  if (notChecksummed.length) fail(`Result keys must be checksummed addresses: ${notChecksummed.slice(0, 3).join(', ')}.`)
  const missing = expected.filter((address) => !(address in record))
  const extra = keys.filter((key) => !expected.includes(key))
  if (missing.length) fail(`Every address asked must be answered; missing: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''}.`)
  if (extra.length) fail(`The result names addresses that were not asked: ${extra.slice(0, 3).join(', ')}.`)
  const notNumbers = keys.filter((key) => typeof record[key] !== 'number' || !Number.isFinite(record[key]))
  if (notNumbers.length) fail(`Scores must be plain numbers: ${notNumbers[0]} is ${JSON.stringify(record[notNumbers[0] as string])}.`)
  return record as Record<string, number>
}

/** At least one address of the example scores above 0. */
export function checkSomePositive(scores: Record<string, number>): void {
  if (!Object.values(scores).some((score) => score > 0)) fail('The example must have at least one address with a positive score.')
}

/** The first 10 addresses scored one by one equal the batch: no score depends on the other addresses. */
export async function checkOneByOne(folder: StrategyFolder, server: ExampleServer, example: StrategyExample, batch: Record<string, number>): Promise<void> {
  for (const address of example.addresses.slice(0, 10)) {
    const scores = await runScoreApiForm(folder, server, example, { addresses: [address] })
    const key = getAddress(address.toLowerCase())
    if (scores[key] !== batch[key]) fail(`${key} scores ${String(scores[key])} alone and ${String(batch[key])} in the batch: a score must not depend on the other addresses.`)
  }
}

/** The score of a past snapshot stays the same after the sources change later. */
export async function checkStableAfterChange(folder: StrategyFolder, server: ExampleServer, example: StrategyExample): Promise<{ before: Record<string, number>; latestBefore: Record<string, number>; latestAfter: Record<string, number> }> {
  if (typeof example.snapshot !== 'number') fail('The example must have a numeric snapshot.')
  const before = await runScoreApiForm(folder, server, example)
  const latestBefore = await runScoreApiForm(folder, server, example, { snapshot: 'latest' })
  await server.changeAfterSnapshot({ addresses: example.addresses, params: example.strategy.params, snapshot: example.snapshot })
  const after = await runScoreApiForm(folder, server, example)
  const latestAfter = await runScoreApiForm(folder, server, example, { snapshot: 'latest' })
  if (JSON.stringify(after) !== JSON.stringify(before)) {
    fail(`The scores at block ${example.snapshot} changed after a later change of the sources:\nbefore ${JSON.stringify(before)}\nafter  ${JSON.stringify(after)}`)
  }
  if (JSON.stringify(latestAfter) === JSON.stringify(latestBefore)) {
    fail('The change after the snapshot changed no current score: the check proves nothing (the serving must change a current answer).')
  }
  return { before, latestBefore, latestAfter }
}

/** Totals a run's requests. */
export function totalRequests(requests: Record<string, number>): number {
  return Object.values(requests).reduce((sum, count) => sum + count, 0)
}

export type { ResolvedSnapshot }
