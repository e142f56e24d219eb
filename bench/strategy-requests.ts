/**
 * Requests per call of the score-api folders, as score-api would send them: each folder compiled
 * and loaded by the test's score-api host (TypeScript 4.7, CommonJS, snapshot.js's getProvider and
 * getSnapshots behind a counting gateway), run against the demo world (the reference server and
 * the local chain), by strategy, credential set (or mode), network (10: the hub chain; 1: a space
 * on Ethereum), voters (the world's, then addresses it does not know) at 100 blocks before the
 * head, and cold (a fresh load: no module cache, as a new score-api process) or warm (the same
 * load, the same call again). A call that throws is a row naming the error. Beside each row, the
 * library form (`personhood/strategies`' definition run with `runStrategy` and the served world's
 * explicit context): its own count of requests (`requests` of the run), cold (a new cache) and warm
 * (the same cache, the same call again).
 *
 *   npx tsx bench/strategy-requests.ts                      # VOTERS=1,500,10000
 *   VOTERS=1,500 STRATEGIES=human-id npx tsx bench/strategy-requests.ts
 *   VOTERS=10000 STRATEGIES=human-id SETS='gov-id;gov-id, phone, biometrics' npx tsx bench/strategy-requests.ts
 */
import { join } from 'node:path'
import { getAddress, keccak256, toHex } from 'viem'
import type { Eip1193ProviderLike } from '../src/index.js'
import { createStrategyCache, runStrategy } from '../src/index.js'
import { strategies as libraryStrategies } from '../src/strategies/index.js'
import { buildScoreApi } from '../test/score-api-host/host.js'
import { startUpstreams, type UpstreamRequests } from '../test/score-api-host/upstreams.js'
import { listStrategyFolders, strategiesRoot, type ExampleServer } from '../test/strategies/conformance.js'
import { asLibraryParams } from '../test/strategies/library-params.js'
import { servings } from '../test/strategies/servings.js'

const voterCounts = (process.env.VOTERS ?? '1,500,10000').split(',').map(Number)
const only = process.env.STRATEGIES?.split(',')
const onlySets = process.env.SETS?.split(';')

/**
 * The option sets measured per strategy: a label (credential set or mode) and the folder's params
 * (the folders read Passport on chain; the library form runs the same params with its on-chain
 * source named, as test/strategies/library-params.ts gives them). No clean hands: the folders do not
 * read it (the library and the strategy server do).
 */
const optionSets: Record<string, { label: string; params: Record<string, unknown> }[]> = {
  'human-id': [
    { label: 'gov-id', params: { credentials: ['gov-id'] } },
    { label: 'gov-id, phone, biometrics', params: { credentials: ['gov-id', 'phone', 'biometrics'], match: 'any' } },
    { label: 'gov-id, phone, biometrics, all', params: { credentials: ['gov-id', 'phone', 'biometrics'], match: 'all' } },
  ],
  'human-verification': [
    { label: 'gov-id, phone, biometrics + Passport', params: { credentials: ['gov-id', 'phone', 'biometrics'] } },
    { label: 'gov-id + Passport', params: { credentials: ['gov-id'] } },
  ],
  'passport-v2': [
    { label: 'gated', params: { mode: 'gated' } },
    { label: 'weighted', params: { mode: 'weighted' } },
  ],
  // Inner strategies from the demo world's own folders (a token vote needs a token: see
  // test/score-api-host/human-gated.test.ts for erc20-balance-of on two networks).
  'human-gated': [
    {
      label: 'quadratic: passport-v2 weighted, Human ID (3) only',
      params: { strategies: [{ name: 'passport-v2', params: { mode: 'weighted' } }], mode: 'quadratic', credentials: ['gov-id', 'phone', 'biometrics'], passportScore: 0 },
    },
    {
      label: 'cap: passport-v2 gated, Human ID (3) + Passport',
      params: { strategies: [{ name: 'passport-v2', params: { mode: 'gated', score: 10 } }], mode: 'cap', cap: 5, credentials: ['gov-id', 'phone', 'biometrics'] },
    },
  ],
}

const names = listStrategyFolders().filter((name) => !only || only.includes(name))
const missing = names.filter((name) => !optionSets[name])
if (missing.length) throw new Error(`bench/strategy-requests.ts has no option sets for ${missing.join(', ')}`)

function voters(server: ExampleServer, count: number): string[] {
  const known = server.voters(count).map((address) => getAddress(address))
  return [...known, ...Array.from({ length: count - known.length }, (_, index) => getAddress(keccak256(toHex(`bench voter ${index}`)).slice(0, 42)))]
}

function describeRequests(requests: UpstreamRequests): string {
  const parts = [
    ...Object.entries(requests.rpc).map(([method, count]) => `${count} ${method}`),
    ...Object.entries(requests.subgraph).map(([name, count]) => `${count} ${name}`),
    ...Object.entries(requests.http).map(([path, count]) => `${count} ${path.replace(/^[^/]+/, '')}`),
  ]
  return parts.join(', ')
}

type Library = { cold: number; warm: number; what: string } | { error: string }
type Row = { strategy: string; set: string; network: string; voters: number; cold?: UpstreamRequests; warm?: UpstreamRequests; seconds: number; error?: string; library?: Library }

const sum = (requests: Record<string, number>) => Object.values(requests).reduce((total, count) => total + count, 0)

/** The library form of the same call: cold (a new cache), then warm (the same cache again). */
async function library(name: string, server: ExampleServer, network: string, addresses: string[], params: Record<string, unknown>, snapshot: number): Promise<Library> {
  const definition = libraryStrategies[name]?.definition
  if (!definition) return { error: `personhood/strategies has no definition of ${name}` }
  const cache = createStrategyCache()
  const call = () =>
    runStrategy(definition, { space: 'personhood.eth', network, provider: server.provider(network), addresses, options: asLibraryParams(name, params), snapshot, context: { ...server.context(), cache } })
  try {
    const cold = await call()
    const warm = await call()
    return { cold: sum(cold.requests), warm: sum(warm.requests), what: Object.entries(cold.requests).map(([source, count]) => `${count} ${source}`).join(', ') }
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0] as string }
  }
}

function describeLibrary(result: Library | undefined): string {
  if (!result) return '-'
  return 'error' in result ? `fails: ${result.error}` : `cold ${result.cold} (${result.what}) | warm ${result.warm}`
}
const rows: Row[] = []

let started = Date.now()
// Every folder is laid out, as in score-api: a strategy may call others (human-gated).
const build = buildScoreApi({ strategies: Object.fromEntries(listStrategyFolders().map((name) => [name, join(strategiesRoot, name)])) })
console.log(`Compiled ${listStrategyFolders().join(', ')} with TypeScript 4.7 in ${((Date.now() - started) / 1000).toFixed(1)} s.`)

for (const name of names) {
  const server = await servings[name]!.start()
  const upstreams = await startUpstreams({ '10': server.provider('10') as Eip1193ProviderLike, '1': server.provider('1') as Eip1193ProviderLike })
  Object.assign(process.env, server.env, upstreams.env)
  try {
    for (const network of ['10', '1']) {
      const snapshot = Number(await server.latestBlock(network)) - 100
      for (const { label, params } of optionSets[name]!.filter((set) => !onlySets || onlySets.includes(set.label))) {
        for (const count of voterCounts) {
          const addresses = voters(server, count)
          const api = build.load()
          const strategy = api.strategies[name]!.strategy
          const call = () => strategy('personhood.eth', network, api.utils.getProvider(network), [...addresses], structuredClone(params), snapshot)
          started = Date.now()
          try {
            const cold = await upstreams.record(call)
            const seconds = (Date.now() - started) / 1000
            const warm = await upstreams.record(call)
            const form = await library(name, server, network, addresses, params, snapshot)
            rows.push({ strategy: name, set: label, network, voters: count, cold: cold.requests, warm: warm.requests, seconds, library: form })
            console.log(`${name} | ${label} | network ${network} | ${count} voters | cold ${cold.requests.total} (${describeRequests(cold.requests)}) | warm ${warm.requests.total} | ${seconds.toFixed(1)} s | library ${describeLibrary(form)}`)
          } catch (error) {
            const message = (error as Error).message.split('\n')[0] as string
            const form = await library(name, server, network, addresses, params, snapshot)
            rows.push({ strategy: name, set: label, network, voters: count, seconds: (Date.now() - started) / 1000, error: message, library: form })
            console.log(`${name} | ${label} | network ${network} | ${count} voters | fails: ${message} | library ${describeLibrary(form)}`)
          }
        }
      }
    }
  } finally {
    await upstreams.close()
    await server.close()
  }
}
build.remove()

console.log('\n| Strategy | Credentials / mode | Network | Voters | Cold | Warm | What (cold) | Cold call | Library cold | Library warm | Library: what (cold) |')
console.log('|---|---|---|---:|---:|---:|---|---:|---:|---:|---|')
for (const row of rows) {
  const what = row.cold ? describeRequests(row.cold) : `fails: ${row.error}`
  const form = row.library && !('error' in row.library) ? row.library : undefined
  const formWhat = row.library ? ('error' in row.library ? `fails: ${row.library.error}` : row.library.what) : '-'
  console.log(
    `| ${row.strategy} | ${row.set} | ${row.network} | ${row.voters.toLocaleString('en')} | ${row.cold?.total ?? '-'} | ${row.warm?.total ?? '-'} | ${what} | ${row.seconds.toFixed(1)} s | ${form?.cold ?? '-'} | ${form?.warm ?? '-'} | ${formWhat} |`,
  )
}
