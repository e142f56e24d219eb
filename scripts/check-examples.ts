/**
 * Runs every score-api folder's examples.json (strategies/<name>/, validations/<name>/) against
 * real endpoints named in the environment, and reports per example. score-api's CI runs these
 * examples on the real networks and requires a positive score; nothing in this repository's tests
 * can reach them, so this is how an example is checked before a PR.
 *
 *   RPC_URL_10=https://... RPC_URL_1=https://... BLOCKFINDER_URL=https://blockfinder.snapshot.org \
 *   PASSPORT_API_KEY=... PASSPORT_SCORER_ID=... npm run strategies:check-examples [-- <folder>...]
 *
 * Without the endpoints an example needs it says what it needs and runs nothing. The folders are
 * laid out as score-api lays them out (`src/strategies/utils.ts`, `strategies/<name>/`,
 * `validations/<name>/`, `validations/validation.ts`) in a temporary folder and loaded as CommonJS;
 * the `utils.ts` there is this script's own, in our words, with score-api's exports: `getProvider`
 * reads the RPC URL of the network, `getSnapshots` asks the blockfinder, `customFetch` and
 * `getScoresDirect` behave as score-api's. They import nothing of `personhood`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { getAddress } from 'viem'

/** One example of one folder. */
export type ExampleCase = {
  /** `strategies/<name>` or `validations/<name>`. */
  folder: string
  kind: 'strategy' | 'validation'
  /** The strategy or validation name (the folder's name). */
  id: string
  index: number
  name: string
  network: string
  snapshot: number | 'latest'
  params: Record<string, unknown>
  /** Strategy examples: the voters. */
  addresses: string[]
  /** Validation examples: the author, the space and the expected answer (default true). */
  author?: string | undefined
  space?: string | undefined
  valid?: boolean | undefined
}

/** One setting an example needs: its variable(s) and what it is for. */
export type Need = { variable: string; alternatives: string[]; purpose: string }

/** The hub chain of Human ID: Optimism, or the Base Sepolia sandbox. */
const hubNetwork = (params: Record<string, unknown>) => (params.sandbox === true ? '84532' : '10')

const networkNames: Record<string, string> = { '1': 'Ethereum', '10': 'Optimism', '137': 'Polygon', '8453': 'Base', '42161': 'Arbitrum One', '84532': 'Base Sepolia' }

function rpcNeed(network: string): Need {
  return {
    variable: `RPC_URL_${network}`,
    alternatives: ['BROVIDER_URL'],
    purpose: `a JSON-RPC URL of ${networkNames[network] ?? `network ${network}`} that serves past blocks (an archive node)`,
  }
}

/** What an example needs from the environment, by what its strategy reads. */
export function needsOf(example: ExampleCase): Need[] {
  const needs: Need[] = [rpcNeed(example.network)]
  const humanId = example.id === 'human-id' || example.id === 'human-verification'
  const passport = example.id === 'passport-v2' || (example.id === 'human-verification' && example.params.passportScore !== 0)
  if (humanId) {
    const hub = hubNetwork(example.params)
    if (hub !== example.network) {
      needs.push(rpcNeed(hub))
      needs.push({ variable: 'BLOCKFINDER_URL', alternatives: [], purpose: "snapshot's blockfinder (https://blockfinder.snapshot.org), mapping the snapshot to the hub chain's block" })
    }
  }
  if (passport) {
    needs.push({ variable: 'PASSPORT_API_KEY', alternatives: [], purpose: 'a Passport API key, as score-api reads it' })
    if (example.params.scorerId === undefined) {
      needs.push({ variable: 'PASSPORT_SCORER_ID', alternatives: [], purpose: "the Passport scorer id (the example's params give none)" })
    }
  }
  return needs
}

/** The needs of `needs` that `env` does not meet. */
export function missingNeeds(needs: readonly Need[], env: Record<string, string | undefined>): Need[] {
  return needs.filter((need) => ![need.variable, ...need.alternatives].some((variable) => (env[variable] ?? '') !== ''))
}

/** Reads the examples of the folders (all of strategies/ and validations/ when none is named). */
export function loadExamples(root: string, only: readonly string[] = []): ExampleCase[] {
  const cases: ExampleCase[] = []
  for (const kind of ['strategy', 'validation'] as const) {
    const parent = kind === 'strategy' ? 'strategies' : 'validations'
    if (!existsSync(join(root, parent))) continue
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      const folder = `${parent}/${entry.name}`
      if (!entry.isDirectory() || !existsSync(join(root, folder, 'examples.json'))) continue
      if (only.length > 0 && !only.includes(folder) && !only.includes(entry.name)) continue
      const examples = JSON.parse(readFileSync(join(root, folder, 'examples.json'), 'utf8')) as Array<Record<string, unknown>>
      examples.forEach((example, index) => {
        const strategy = example.strategy as { name?: string; params?: Record<string, unknown> } | undefined
        cases.push({
          folder,
          kind,
          id: entry.name,
          index,
          name: String(example.name ?? `example ${index}`),
          network: String(example.network),
          snapshot: example.snapshot === 'latest' ? 'latest' : Number(example.snapshot),
          params: (kind === 'strategy' ? strategy?.params : (example.params as Record<string, unknown> | undefined)) ?? {},
          addresses: (example.addresses as string[] | undefined) ?? [],
          author: example.author as string | undefined,
          space: example.space as string | undefined,
          valid: example.valid as boolean | undefined,
        })
      })
    }
  }
  return cases
}

/** What `npm run strategies:check-examples` prints when an example cannot run: each missing setting, once. */
export function describeNeeds(cases: readonly ExampleCase[], env: Record<string, string | undefined>): string {
  const byVariable = new Map<string, { need: Need; examples: string[] }>()
  for (const example of cases) {
    for (const need of missingNeeds(needsOf(example), env)) {
      const entry = byVariable.get(need.variable) ?? { need, examples: [] }
      entry.examples.push(`${example.folder} #${example.index}`)
      byVariable.set(need.variable, entry)
    }
  }
  const lines = [...byVariable.values()].map(({ need, examples }) => {
    const or = need.alternatives.length > 0 ? ` (or ${need.alternatives.join(', ')})` : ''
    return `  ${need.variable}${or}: ${need.purpose}; for ${examples.join(', ')}`
  })
  return lines.join('\n')
}

/** The outcome of one example. */
export type ExampleReport = { example: ExampleCase; status: 'passed' | 'failed'; details: string; ms: number }

// ---------------------------------------------------------------------------------------------
// The score-api layout (run only when every example's needs are met)
// ---------------------------------------------------------------------------------------------

const utilsSource = `// score-api's src/strategies/utils.ts as far as the folders use it, written for
// npm run strategies:check-examples: real endpoints from the environment.
import { StaticJsonRpcProvider } from '@ethersproject/providers';

const providers: Record<string, StaticJsonRpcProvider> = {};

function rpcUrl(network: string): string {
  const url = process.env['RPC_URL_' + network];
  if (url) return url;
  if (process.env.BROVIDER_URL) return process.env.BROVIDER_URL.replace(/\\/+$/, '') + '/' + network;
  throw new Error('no RPC URL for network ' + network + ': set RPC_URL_' + network);
}

export function getProvider(network: string) {
  const key = String(network);
  if (!providers[key]) providers[key] = new StaticJsonRpcProvider(rpcUrl(key), Number(key));
  return providers[key];
}

export async function customFetch(url: any, options: any = {}, timeout = 20000): Promise<any> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    return await fetch(url, { ...options, signal: controller.signal });
  } catch (error: any) {
    if (error && error.name === 'AbortError') throw new Error('API request timeout');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

// As snapshot.js: the snapshot's own network keeps its block; the others are found by the
// blockfinder from the block's timestamp.
export async function getSnapshots(network: string, snapshot: any, provider: any, networks: string[]) {
  const result: Record<string, any> = {};
  for (const n of networks) result[n] = snapshot;
  const others = networks.filter((n) => n !== network);
  if (snapshot === 'latest' || others.length === 0) return result;
  const block = await provider.getBlock(snapshot);
  const url = process.env.BLOCKFINDER_URL as string;
  const query = 'query { blocks(where: { ts: ' + block.timestamp + ', network_in: ' + JSON.stringify(others) + ' }) { network number } }';
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query }) });
  if (!response.ok) throw new Error('blockfinder answered HTTP ' + response.status);
  const body: any = await response.json();
  if (body.errors) throw new Error('blockfinder: ' + JSON.stringify(body.errors));
  for (const found of body.data.blocks) result[String(found.network)] = Number(found.number);
  return result;
}

// As score-api: each strategy on its network at its snapshot; scores not above 0, or of addresses
// not asked, dropped.
export async function getScoresDirect(space: string, strategies: any[], network: string, provider: any, addresses: string[], snapshot: any) {
  const registry = (globalThis as any).__checkExamplesRegistry;
  const networks = Array.from(new Set(strategies.map((s) => s.network || network)));
  const snapshots = await getSnapshots(network, snapshot, provider, networks);
  const asked = new Set(addresses.map((a) => a.toLowerCase()));
  return Promise.all(
    strategies.map(async (s) => {
      const on = s.network || network;
      const score = await (await registry(s.name)).strategy(space, on, getProvider(on), addresses, s.params, snapshots[on]);
      const kept: Record<string, number> = {};
      for (const [address, vp] of Object.entries(score)) if ((vp as number) > 0 && asked.has(address.toLowerCase())) kept[address] = vp as number;
      return kept;
    })
  );
}
`

const validationSource = `// score-api's Validation base class as far as the folders use it: an author that is not an
// address does not pass; subclasses implement doValidate.
import { getAddress } from '@ethersproject/address';

export default class Validation {
  public author: string;
  public space: string;
  public network: string;
  public snapshot: any;
  public params: any;
  constructor(author: string, space: string, network: string, snapshot: any, params: any) {
    this.author = author;
    this.space = space;
    this.network = network;
    this.snapshot = snapshot;
    this.params = params;
  }
  async validate(customAuthor = this.author): Promise<boolean> {
    try {
      getAddress(customAuthor);
    } catch {
      return false;
    }
    return this.doValidate(customAuthor);
  }
  protected async doValidate(_customAuthor: string): Promise<boolean> {
    return true;
  }
}
`

type ScoreApiUtils = { getScoresDirect: (...args: unknown[]) => Promise<Array<Record<string, number>>>; getProvider: (network: string) => unknown }
type StrategyModule = { strategy: (...args: unknown[]) => Promise<Record<string, number>> }
type ValidationModule = { default: new (author: string, space: string, network: string, snapshot: number | 'latest', params: unknown) => { validate(): Promise<boolean> } }

/** Lays the folders out as score-api does, under `dir`; returns how to load a strategy or validation. */
export function layScoreApi(root: string, dir: string) {
  const strategies = join(dir, 'src/strategies/strategies')
  const validations = join(dir, 'src/strategies/validations')
  mkdirSync(strategies, { recursive: true })
  mkdirSync(validations, { recursive: true })
  // CommonJS, as score-api compiles its TypeScript.
  writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n')
  writeFileSync(join(dir, 'src/strategies/utils.ts'), utilsSource)
  writeFileSync(join(validations, 'validation.ts'), validationSource)
  for (const [parent, target] of [['strategies', strategies], ['validations', validations]] as const) {
    if (!existsSync(join(root, parent))) continue
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      if (entry.isDirectory()) cpSync(join(root, parent, entry.name), join(target, entry.name), { recursive: true })
    }
  }
  // Loaded with require, as score-api loads its compiled folders (tsx compiles them on the way).
  const require = createRequire(join(dir, 'package.json'))
  const strategy = async (name: string) => require(join(strategies, name, 'index.ts')) as StrategyModule
  ;(globalThis as Record<string, unknown>).__checkExamplesRegistry = strategy
  return {
    strategy,
    validation: async (name: string) => require(join(validations, name, 'index.ts')) as ValidationModule,
    utils: () => require(join(dir, 'src/strategies/utils.ts')) as ScoreApiUtils,
  }
}

/** Runs one example as score-api's CI does and says whether it passes. */
export async function runExample(example: ExampleCase, loader: ReturnType<typeof layScoreApi>): Promise<ExampleReport> {
  const utils = loader.utils()
  const started = Date.now()
  const report = (status: ExampleReport['status'], details: string): ExampleReport => ({ example, status, details, ms: Date.now() - started })
  try {
    if (example.kind === 'validation') {
      const Validation = (await loader.validation(example.id)).default
      const expected = example.valid ?? true
      const actual = await new Validation(example.author ?? '', example.space ?? '', example.network, example.snapshot, example.params).validate()
      return actual === expected ? report('passed', `${example.author}: ${actual}, as expected`) : report('failed', `${example.author}: ${actual}, expected ${expected}`)
    }
    // score-api's example checks, before any request.
    if (example.addresses.length < 3 || example.addresses.length > 20) {
      return report('failed', `${example.addresses.length} addresses: score-api wants 3 to 20 per example`)
    }
    if (typeof example.snapshot !== 'number' || !Number.isSafeInteger(example.snapshot)) {
      return report('failed', `snapshot ${String(example.snapshot)}: score-api wants a past block number`)
    }
    const [scores = {}] = await utils.getScoresDirect('personhood.eth', [{ name: example.id, network: example.network, params: example.params }], example.network, utils.getProvider(example.network), example.addresses, example.snapshot)
    const ms = Date.now() - started
    const positive = Object.values(scores).filter((score) => score > 0).length
    const summary = `${positive} of ${example.addresses.length} addresses with a positive score`
    const notChecksummed = Object.keys(scores).filter((address) => address !== getAddress(address))
    // score-api's strategy test: a positive score, checksummed addresses, within 10 seconds.
    if (positive === 0) return report('failed', `${summary}: score-api requires at least one`)
    if (notChecksummed.length > 0) return report('failed', `${summary}, but not checksummed: ${notChecksummed.join(', ')}`)
    if (ms > 10_000) return report('failed', `${summary}, in ${(ms / 1000).toFixed(1)} s: score-api allows 10 s`)
    return report('passed', summary)
  } catch (error) {
    return report('failed', `threw: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The command: plan, say what is missing or run, report. Returns the exit code. */
export async function checkExamples(parameters: { root: string; env: Record<string, string | undefined>; only?: readonly string[]; log?: (line: string) => void }): Promise<number> {
  const { root, env } = parameters
  const log = parameters.log ?? ((line: string) => console.log(line))
  const cases = loadExamples(root, parameters.only)
  if (cases.length === 0) {
    log(`No examples.json found${parameters.only?.length ? ` for ${parameters.only.join(', ')}` : ''}.`)
    return 1
  }
  const blocked = cases.filter((example) => missingNeeds(needsOf(example), env).length > 0)
  if (blocked.length > 0) {
    log(`Ran nothing: ${blocked.length} of ${cases.length} examples need settings the environment does not give. Set:`)
    log(describeNeeds(blocked, env))
    log('Then run npm run strategies:check-examples again (folders may be named after --).')
    return 2
  }
  const dir = join(root, '.tmp', `check-examples-${process.pid}`)
  rmSync(dir, { recursive: true, force: true })
  try {
    const loader = layScoreApi(root, dir)
    const reports: ExampleReport[] = []
    for (const example of cases) {
      const result = await runExample(example, loader)
      reports.push(result)
      log(`${result.status === 'passed' ? 'PASS' : 'FAIL'} ${example.folder} #${example.index} "${example.name}" (network ${example.network}, snapshot ${example.snapshot}, ${(result.ms / 1000).toFixed(1)} s): ${result.details}`)
    }
    const failed = reports.filter((result) => result.status === 'failed').length
    log(`${reports.length - failed} of ${reports.length} examples passed.`)
    return failed === 0 ? 0 : 1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await checkExamples({ root: join(import.meta.dirname, '..'), env: process.env, only: process.argv.slice(2) })
}
