/**
 * Runs every score-api folder's examples.json (strategies/<name>/, validations/<name>/) against
 * real endpoints named in the environment, and reports per example. score-api's CI runs these
 * examples on the real networks and requires a positive score; nothing in this repository's tests
 * can reach them, so this is how an example is checked before a PR.
 *
 *   RPC_URL_10=https://... RPC_URL_1=https://... BLOCKFINDER_URL=https://blockfinder.snapshot.org \
 *   npm run strategies:check-examples [-- <folder>...]
 *
 * Without the endpoints an example needs it says what it needs and runs nothing. With them the
 * folders are built as score-api builds them, by the test host (test/score-api-host: score-api's
 * layout, TypeScript 4.7 with its compiler options, CommonJS, `require`), whose `getProvider` and
 * `getSnapshots` are snapshot.js's own, pointed at the RPC URLs and the blockfinder given here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { getAddress } from 'viem'
import { buildScoreApi, withEnvironment, type ScoreApi, type ScoreApiBuild } from '../test/score-api-host/host.js'
import { passportDecoders } from '../src/rules/passport-onchain.js'

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

/** snapshot.js's blockfinder, which maps a snapshot to another chain's block by time. */
const blockfinderNeed: Need = { variable: 'BLOCKFINDER_URL', alternatives: [], purpose: "snapshot's blockfinder (https://blockfinder.snapshot.org), mapping the snapshot to Optimism's block" }

/** What an example needs from the environment, by what its strategy reads. */
export function needsOf(example: ExampleCase): Need[] {
  const needs: Need[] = [rpcNeed(example.network)]
  const humanId = example.id === 'human-id' || example.id === 'human-verification'
  const passport = example.id === 'passport-v2' || (example.id === 'human-verification' && example.params.passportScore !== 0)
  if (humanId) {
    const hub = hubNetwork(example.params)
    if (hub !== example.network) {
      needs.push(rpcNeed(hub))
      needs.push(blockfinderNeed)
    }
  }
  // Passport is read on chain: the decoder of the space's network, else Optimism's, at the block of
  // the snapshot's time (no key: the folders never read Passport's API).
  if (passport && passportDecoders[example.network] === undefined) {
    for (const need of [rpcNeed('10'), blockfinderNeed]) if (!needs.some((known) => known.variable === need.variable)) needs.push(need)
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
// Running (only when every example's needs are met)
// ---------------------------------------------------------------------------------------------

/**
 * snapshot.js's `getProvider` reaches `<broviderUrl>/<network>`. With `BROVIDER_URL` alone that is
 * the URL; with `RPC_URL_<network>` variables a gateway on 127.0.0.1 forwards `/<network>` to each
 * (and to `BROVIDER_URL/<network>` for a network without its own variable).
 */
async function startRpcGateway(env: Record<string, string | undefined>): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const network = (request.url ?? '').replace(/^\/+|\/+$/g, '')
    const target = env[`RPC_URL_${network}`] || (env.BROVIDER_URL ? `${env.BROVIDER_URL.replace(/\/+$/, '')}/${network}` : undefined)
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      if (!target || request.method !== 'POST') {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `no RPC URL for network ${network}: set RPC_URL_${network}` }))
        return
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (upstream) => {
          response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()))
        })
        .catch((error: unknown) => {
          response.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `RPC of network ${network} failed: ${error instanceof Error ? error.message : String(error)}` }))
        })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** Runs one example through the loaded score-api as its CI does, and says whether it passes. */
export async function runExample(example: ExampleCase, api: ScoreApi, timeLimitMs = 10_000): Promise<ExampleReport> {
  const started = Date.now()
  const report = (status: ExampleReport['status'], details: string): ExampleReport => ({ example, status, details, ms: Date.now() - started })
  try {
    if (example.kind === 'validation') {
      const entry = api.validations[example.id]
      if (!entry) return report('failed', `score-api has no validation ${example.id}`)
      const expected = example.valid ?? true
      const actual = await new entry.validation(example.author ?? '', example.space ?? '', example.network, example.snapshot, example.params).validate()
      return actual === expected ? report('passed', `${example.author}: ${actual}, as expected`) : report('failed', `${example.author}: ${actual}, expected ${expected}`)
    }
    if (!api.strategies[example.id]) return report('failed', `score-api has no strategy ${example.id}`)
    // score-api's example checks, before any request.
    if (example.addresses.length < 3 || example.addresses.length > 20) {
      return report('failed', `${example.addresses.length} addresses: score-api wants 3 to 20 per example`)
    }
    if (typeof example.snapshot !== 'number' || !Number.isSafeInteger(example.snapshot)) {
      return report('failed', `snapshot ${String(example.snapshot)}: score-api wants a past block number`)
    }
    const provider = api.utils.getProvider(example.network)
    const [scores = {}] = await api.utils.getScoresDirect('personhood.eth', [{ name: example.id, network: example.network, params: example.params }], example.network, provider, example.addresses, example.snapshot)
    const ms = Date.now() - started
    const positive = Object.values(scores).filter((score) => score > 0).length
    const summary = `${positive} of ${example.addresses.length} addresses with a positive score`
    const notChecksummed = Object.keys(scores).filter((address) => address !== getAddress(address))
    // score-api's strategy test: a positive score, checksummed addresses, within 10 seconds.
    if (positive === 0) return report('failed', `${summary}: score-api requires at least one`)
    if (notChecksummed.length > 0) return report('failed', `${summary}, but not checksummed: ${notChecksummed.join(', ')}`)
    if (ms > timeLimitMs) return report('failed', `${summary}, in ${(ms / 1000).toFixed(1)} s: score-api allows ${timeLimitMs / 1000} s`)
    return report('passed', summary)
  } catch (error) {
    return report('failed', `threw: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The command: plan, say what is missing or run, report. Returns the exit code. */
export async function checkExamples(parameters: {
  root: string
  env: Record<string, string | undefined>
  only?: readonly string[]
  log?: (line: string) => void
  /** score-api's limit per strategy example: 10 s. */
  timeLimitMs?: number
}): Promise<number> {
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
  // The folders as score-api builds them: the test host's layout, TypeScript 4.7, CommonJS, require.
  const folders = (parent: string) => Object.fromEntries(
    [...new Set(cases.map((example) => example.folder))].filter((folder) => folder.startsWith(`${parent}/`)).map((folder) => [folder.slice(parent.length + 1), join(root, folder)]),
  )
  // A strategy calling a sibling folder (human-verification calls human-id) needs it laid out too.
  const strategies = Object.fromEntries(
    (existsSync(join(root, 'strategies')) ? readdirSync(join(root, 'strategies'), { withFileTypes: true }) : []).filter((entry) => entry.isDirectory() && existsSync(join(root, 'strategies', entry.name, 'index.ts'))).map((entry) => [entry.name, join(root, 'strategies', entry.name)]),
  )
  let build: ScoreApiBuild
  try {
    build = buildScoreApi({ strategies, validations: folders('validations') })
  } catch (error) {
    log(`FAIL the folders do not build as score-api builds them: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
  const gateway = await startRpcGateway(env)
  const variables: Record<string, string> = { SCORE_API_HOST_BROVIDER_URL: gateway.url }
  if (env.BLOCKFINDER_URL) variables.SCORE_API_HOST_BLOCKFINDER_URL = env.BLOCKFINDER_URL
  try {
    return await withEnvironment(variables, async () => {
      let api: ScoreApi
      try {
        api = build.load()
      } catch (error) {
        log(`FAIL the folders do not load as score-api loads them: ${error instanceof Error ? error.message : String(error)}`)
        return 1
      }
      const reports: ExampleReport[] = []
      for (const example of cases) {
        const result = await runExample(example, api, parameters.timeLimitMs)
        reports.push(result)
        log(`${result.status === 'passed' ? 'PASS' : 'FAIL'} ${example.folder} #${example.index} "${example.name}" (network ${example.network}, snapshot ${example.snapshot}, ${(result.ms / 1000).toFixed(1)} s): ${result.details}`)
      }
      const failed = reports.filter((result) => result.status === 'failed').length
      log(`${reports.length - failed} of ${reports.length} examples passed.`)
      return failed === 0 ? 0 : 1
    })
  } finally {
    await gateway.close()
    build.remove()
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await checkExamples({ root: join(import.meta.dirname, '..'), env: process.env, only: process.argv.slice(2) })
}
