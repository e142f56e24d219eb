/**
 * Benchmark: the on-chain verifier against the public service's per-address approach.
 *
 * The local node is anvil (Foundry's node, `@foundry-rs/anvil` from npm) in a process of its own on
 * 127.0.0.1 (test/chain/anvil-node.ts), or with `--node edr` (or `--node all`: both, one after the
 * other) EDR, the EVM of hardhat 2, created directly with a minimal configuration
 * (test/chain/harness.ts) and served by a Node process of its own (test/chain/node-process.ts, which
 * says how that process is tuned). The test contracts are set up on it by the chain tests' harness
 * (`TestChain.attach`). 10,000 addresses get gov-id, phone and biometrics SBTs; more blocks are mined
 * (and some SBTs revoked) after the snapshot block. Then, at the snapshot block, over HTTP, from this
 * process, against the same node, with the same viem client (declared for Optimism, as a user's
 * client is):
 *
 * - `verifyCredentials` for 10,000 addresses x 3 credentials (default options);
 * - the per-address approach of the public service: one sequential `getSBT` per address and
 *   credential (`readContract` at the block), 30,000 requests in all.
 *
 * Both are warmed up once, then measured `--runs` times (default 3) alternately; the table gives the
 * medians. Then both again with a delay added to every HTTP answer to stand in for the round trip to
 * a hosted RPC (`--latency`, default 10 ms); there the per-address approach is measured on a sample
 * of addresses (`--latency-sample`, default 300) and extrapolated linearly, and the table says so.
 * Every verifier answer is checked (all 30,000 pairs valid, the revocations after the snapshot not
 * seen).
 *
 * Requests are counted twice: by the client (a counter in viem's `fetchFn`, one per HTTP request:
 * viem's http transport does not batch) and by a server the benchmark controls, which counts every
 * JSON-RPC call by method: for EDR the node's own server, in every run; for anvil a counting proxy in
 * a Node process of its own (test/chain/proxy-process.ts) during the warm-up and the delayed runs.
 * The loopback runs on anvil go to anvil directly: a proxy's hop costs about as much as anvil's own
 * answer, and would slow the per-address approach more than the verifier. The counts must agree.
 *
 * Prints a markdown table per node and writes it to docs/benchmarks.md under "## On-chain verifier"
 * (the table of a node not run is kept, and so are the notes).
 *
 * Run: npx tsx bench/chain.ts [--node anvil|edr|all] [--addresses 10000] [--runs 3] [--sample N] [--latency 10] [--latency-sample 300] [--no-write]
 * (`--sample N`: per-address on loopback measured on N addresses and extrapolated.)
 */
import { readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPublicClient, http, keccak256, numberToHex, type Address } from 'viem'
import { optimism } from 'viem/chains'
import { hubAbi } from '../src/chain/abis.js'
import { optimismNetwork } from '../src/chain/constants.js'
import { verifyCredentials } from '../src/verify/credentials/index.js'
import { anvilVersion, startAnvil } from '../test/chain/anvil-node.js'
import { TestChain } from '../test/chain/harness.js'
import { nodeProcessEnvironment, startNodeProcess } from '../test/chain/node-process.js'
import { startProxyProcess } from '../test/chain/proxy-process.js'
import type { RpcStats } from '../test/chain/rpc-server.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function option(name: string, fallback: number | undefined): number | undefined {
  const index = process.argv.indexOf(`--${name}`)
  if (index === -1) return fallback
  const value = Number(process.argv[index + 1])
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} takes a non-negative integer`)
  return value
}

const nodeNames = ['anvil', 'edr'] as const
type NodeName = (typeof nodeNames)[number]

function nodesOption(): NodeName[] {
  const index = process.argv.indexOf('--node')
  const value = index === -1 ? 'anvil' : process.argv[index + 1]
  if (value === 'all') return [...nodeNames]
  if (value === 'anvil' || value === 'edr') return [value]
  throw new Error('--node takes anvil, edr or all')
}

const nodes = nodesOption()
const addressCount = option('addresses', 10_000) as number
const runs = Math.max(1, option('runs', 3) as number)
const localSample = option('sample', undefined)
const latencyMs = option('latency', 10) as number
const latencySample = option('latency-sample', 300) as number
const write = !process.argv.includes('--no-write')
const credentials = ['gov-id', 'phone', 'biometrics'] as const
const pairs = addressCount * credentials.length
const format = (value: number) => value.toLocaleString('en-US')
const require = createRequire(import.meta.url)

function log(message: string) {
  process.stderr.write(`${message}\n`)
}

function seconds(ms: number): string {
  return ms >= 100_000 ? `${(ms / 1000).toFixed(0)} s` : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/**
 * The client of both approaches: viem over HTTP, declared for Optimism (as a user's client is), with
 * a counter of its HTTP requests in `fetchFn` (one increment per request; nothing else added).
 */
function createClient(url: string) {
  const counter = { requests: 0 }
  const fetchFn = (input: string | URL | Request, init?: RequestInit) => {
    counter.requests++
    return fetch(input, init)
  }
  return { client: createPublicClient({ chain: optimism, transport: http(url, { fetchFn }) }), counter }
}
type BenchClient = ReturnType<typeof createClient>['client']

/** A server the benchmark controls: it counts what it serves and can delay its answers. */
type CountingServer = { stats(): Promise<RpcStats>; reset(): Promise<void>; setLatency(ms: number): Promise<void> }

/** Where a run's requests go: a client on one URL and, when that URL is a server the bench controls, its counters. */
type Endpoint = { client: BenchClient; counter: { requests: number }; server?: CountingServer }

function endpoint(url: string, server?: CountingServer): Endpoint {
  return { ...createClient(url), ...(server ? { server } : {}) }
}

/** The node under test, set up: loopback runs go to `direct`; counted and delayed runs to `counted`. */
type BenchNode = { name: NodeName; chain: TestChain; direct: Endpoint; counted: Endpoint & { server: CountingServer }; describe(): string; close(): Promise<void> }

/** One measurement: requests sent (and the server's count by method when counted there), wall time; for a sample, what was measured. */
type Measurement = { requests: number; methods: Record<string, number>; ms: number; sampled?: { addresses: number; requests: number; ms: number } }

async function beforeRun(target: Endpoint) {
  target.counter.requests = 0
  await target.server?.reset()
}

/** The client's count, checked against the server's when there is one. */
async function afterRun(target: Endpoint): Promise<{ requests: number; methods: Record<string, number> }> {
  const requests = target.counter.requests
  if (!target.server) return { requests, methods: {} }
  const stats = await target.server.stats()
  if (stats.httpRequests !== requests || stats.rpcCalls !== requests) {
    throw new Error(`the client sent ${requests} requests; the server counted ${stats.httpRequests} HTTP requests, ${stats.rpcCalls} calls`)
  }
  return { requests, methods: { ...stats.methods } }
}

/** verifyCredentials at the snapshot block; checks every answer. */
async function runVerifier(target: Endpoint, addresses: Address[], blockNumber: bigint): Promise<Measurement> {
  await beforeRun(target)
  const start = performance.now()
  const response = await verifyCredentials(target.client, { addresses, credentials, blockNumber })
  const ms = performance.now() - start
  const counted = await afterRun(target)
  const valid = Object.values(response.results).reduce((sum, entry) => sum + credentials.filter((credential) => entry[credential].valid).length, 0)
  if (valid !== pairs) throw new Error(`the verifier found ${valid} valid pairs, expected ${pairs}`)
  return { ...counted, ms }
}

/** One sequential getSBT per address and credential, as the public service reads; on a sample when asked. */
async function runPerAddress(target: Endpoint, addresses: Address[], blockNumber: bigint, sample: number | undefined): Promise<Measurement> {
  const measured = addresses.slice(0, sample ?? addresses.length)
  const { client } = target
  await beforeRun(target)
  const start = performance.now()
  let valid = 0
  for (const address of measured) {
    for (const credential of credentials) {
      try {
        const sbt = await client.readContract({
          address: optimismNetwork.contracts.hub,
          abi: hubAbi,
          functionName: 'getSBT',
          args: [address, optimismNetwork.circuitIds[credential]],
          blockNumber,
        })
        if (sbt.publicValues[2] === 123456789n && sbt.publicValues[4] === optimismNetwork.issuers[credential]) valid++
      } catch {
        // A revert: not verified.
      }
    }
  }
  const ms = performance.now() - start
  if (valid !== measured.length * credentials.length) throw new Error(`per-address found ${valid} valid pairs`)
  const { requests, methods } = await afterRun(target)
  if (measured.length === addresses.length) return { requests, methods, ms }
  const scale = addresses.length / measured.length
  return { requests: Math.round(requests * scale), methods: {}, ms: ms * scale, sampled: { addresses: measured.length, requests, ms } }
}

/** The median run by wall time (its requests are every run's: the same plan each time). */
function medianOf(measurements: readonly Measurement[]): Measurement {
  const ms = median(measurements.map((measurement) => measurement.ms))
  const first = measurements[0] as Measurement
  return { ...first, ms, ...(first.sampled ? { sampled: { ...first.sampled, ms: median(measurements.map((measurement) => measurement.sampled?.ms ?? 0)) } } : {}) }
}

/** SBTs set per seeding transaction, and the gas it may use (about 190,000 per SBT), and the block gas limit. */
const seedBatch = 10_000
const seedGas = 3_900_000_000n
const blockGasLimit = 4_000_000_000

/** anvil in a process of its own; the client reaches it directly, or through a counting proxy (another process). */
async function startAnvilNode(): Promise<BenchNode> {
  const anvil = await startAnvil({ blockGasLimit, chainId: 10 })
  try {
    const proxy = await startProxyProcess(anvil.url)
    try {
      const chain = await TestChain.attach(anvil.provider)
      const packageVersion = (require('@foundry-rs/anvil/package.json') as { version: string }).version
      const args = anvil.args.map((arg) => (arg === String(new URL(anvil.url).port) ? '<free port>' : arg))
      return {
        name: 'anvil',
        chain,
        direct: endpoint(anvil.url),
        counted: { ...endpoint(proxy.url, proxy), server: proxy },
        describe: () =>
          `a local anvil node (Foundry's node: \`@foundry-rs/anvil\` ${packageVersion} from npm, binary ${anvilVersion() ?? 'of unknown version'} from its platform package) running in a process of its own (\`startAnvil\` in test/chain/anvil-node.ts: \`anvil ${args.join(' ')}\`, automine; stopped with SIGTERM at the end). The test contracts are placed with \`hardhat_setCode\` and the SBTs set by transactions, as on EDR (\`TestChain.attach\` in test/chain/harness.ts)`,
        async close() {
          await proxy.close()
          await anvil.close()
        },
      }
    } catch (error) {
      await proxy.close()
      throw error
    }
  } catch (error) {
    await anvil.close()
    throw error
  }
}

/** EDR served by a Node process of its own; its server counts every run. */
async function startEdrNode(): Promise<BenchNode> {
  const node = await startNodeProcess({ blockGasLimit })
  try {
    const chain = await TestChain.attach(node.provider)
    const served = { ...createClient(node.url), server: node as CountingServer }
    const settings = Object.entries(nodeProcessEnvironment).map(([key, value]) => `${key}=${value}`)
    const edrMain = require.resolve('@nomicfoundation/edr')
    const edrVersion = (JSON.parse(readFileSync(join(dirname(edrMain), 'package.json'), 'utf8')) as { version: string }).version
    return {
      name: 'edr',
      chain,
      direct: served,
      counted: served,
      describe: () =>
        `a local EDR node (\`@nomicfoundation/edr\` ${edrVersion}, the EVM of hardhat, created directly with a minimal configuration: \`createEdrProvider\` in src/devchain/edr.ts) running in a Node process of its own (test/chain/node-process.ts: ${settings.map((setting) => `\`${setting}\``).join(', ')})`,
      close: () => node.close(),
    }
  } catch (error) {
    await node.close()
    throw error
  }
}

/** Seeds the node, measures both approaches, and returns the markdown for it. */
async function bench(node: BenchNode): Promise<string> {
  const { chain } = node
  const addresses = Array.from({ length: addressCount }, (_, index) => keccak256(numberToHex(index)).slice(0, 42) as Address)
  const { timestamp } = await chain.latest()
  const expiry = timestamp + 365n * 86_400n
  // Up to 10,000 SBTs per transaction: EDR keeps every version of every state trie node it ever
  // wrote, and each storage read walks that store, so fewer, larger writes leave it less to walk.
  for (const credential of credentials) {
    for (let start = 0; start < addresses.length; start += seedBatch) {
      const subjects = addresses.slice(start, start + seedBatch)
      const args = [subjects, optimismNetwork.circuitIds[credential], expiry, 123456789n, optimismNetwork.issuers[credential]]
      await chain.write(chain.contracts.hub, 'LocalHub', 'setSBTs', args, undefined, seedGas)
    }
  }
  const snapshot = await chain.mine()
  // After the snapshot: revocations and more blocks, which a read at the snapshot must not see.
  for (const address of addresses.slice(0, 10)) await chain.revokeSBT(address, 'gov-id')
  for (let block = 0; block < 20; block++) await chain.mine()
  log(`[${node.name}] Snapshot block ${snapshot.blockNumber}; head ${(await chain.latest()).blockNumber}.`)

  const { direct, counted } = node
  log(`[${node.name}] Warming up (one verifier run, 300 per-address requests, counted by the server${direct === counted ? '' : '; then the same directly'})...`)
  const countedVerifier = await runVerifier(counted, addresses, snapshot.blockNumber)
  const countedPerAddress = await runPerAddress(counted, addresses, snapshot.blockNumber, 100)
  log(`[${node.name}] counted: verifier ${countedVerifier.requests} requests ${JSON.stringify(countedVerifier.methods)}; per address ${countedPerAddress.sampled?.requests ?? countedPerAddress.requests} requests for 100 addresses`)
  if (direct !== counted) {
    await runVerifier(direct, addresses, snapshot.blockNumber)
    await runPerAddress(direct, addresses, snapshot.blockNumber, 100)
  }

  const local = { verifier: [] as Measurement[], perAddress: [] as Measurement[] }
  for (let run = 1; run <= runs; run++) {
    const verifier = await runVerifier(direct, addresses, snapshot.blockNumber)
    if (verifier.requests !== countedVerifier.requests) throw new Error(`the verifier sent ${verifier.requests} requests, ${countedVerifier.requests} when counted by the server`)
    log(`[${node.name}] run ${run}, loopback, verifyCredentials: ${verifier.requests} requests, ${seconds(verifier.ms)}`)
    const perAddress = await runPerAddress(direct, addresses, snapshot.blockNumber, localSample)
    log(`[${node.name}] run ${run}, loopback, per address: ${format(perAddress.requests)} requests, ${seconds(perAddress.ms)} (${(perAddress.ms / perAddress.requests).toFixed(3)} ms per request)`)
    local.verifier.push(verifier)
    local.perAddress.push(perAddress)
  }

  await counted.server.setLatency(latencyMs)
  const remote = { verifier: [] as Measurement[], perAddress: [] as Measurement[] }
  for (let run = 1; run <= runs; run++) {
    const verifier = await runVerifier(counted, addresses, snapshot.blockNumber)
    log(`[${node.name}] run ${run}, +${latencyMs} ms, verifyCredentials: ${verifier.requests} requests, ${seconds(verifier.ms)}`)
    const perAddress = await runPerAddress(counted, addresses, snapshot.blockNumber, latencySample)
    log(`[${node.name}] run ${run}, +${latencyMs} ms, per address: ${format(perAddress.requests)} requests, ${seconds(perAddress.ms)}`)
    remote.verifier.push(verifier)
    remote.perAddress.push(perAddress)
  }
  await counted.server.setLatency(0)

  const localVerifier = medianOf(local.verifier)
  const localPerAddress = medianOf(local.perAddress)
  const remoteVerifier = medianOf(remote.verifier)
  const remotePerAddress = medianOf(remote.perAddress)
  const row = (setting: string, approach: string, measurement: Measurement, baseline: Measurement) => {
    const estimated = measurement.sampled ? ' (est.)' : ''
    const ratio = measurement === baseline ? '1x' : `${(measurement.ms / baseline.ms).toFixed(1)}x slower`
    return `| ${setting} | ${approach} | ${format(measurement.requests)}${estimated} | ${seconds(measurement.ms)}${estimated} | ${ratio} |`
  }
  const sampledNote = (measurement: Measurement, setting: string) =>
    measurement.sampled
      ? ` Per address ${setting} was measured on ${format(measurement.sampled.addresses)} addresses (${format(measurement.sampled.requests)} requests in ${seconds(measurement.sampled.ms)}, median of ${runs}) and extrapolated linearly to ${format(addressCount)}.`
      : ''
  const methods = Object.entries(countedVerifier.methods)
    .map(([method, count]) => `${count} \`${method}\``)
    .join(', ')
  const perRequest = localPerAddress.sampled ? localPerAddress.sampled.ms / localPerAddress.sampled.requests : localPerAddress.ms / localPerAddress.requests
  const counting =
    direct === counted
      ? `Requests counted by the client (viem's \`fetchFn\`) and by the node's server, which agree. "+${latencyMs} ms per request": the node's server waits ${latencyMs} ms before each answer, standing in for the round trip to a hosted RPC.`
      : `Requests counted by the client (a counter in viem's \`fetchFn\`) in every run, and by a counting proxy (test/chain/proxy-process.ts, a Node process of its own) in the warm-up and the "+${latencyMs} ms" runs, which agree; the loopback runs go to anvil directly (no proxy hop). "+${latencyMs} ms per request": through that proxy, which waits ${latencyMs} ms before each answer, standing in for the round trip to a hosted RPC.`
  const label = node.name === 'anvil' ? 'anvil' : 'EDR'
  const table = [
    `${format(addressCount)} addresses x ${credentials.length} SBT credentials (gov-id, phone, biometrics: ${format(pairs)} address-credential pairs, all valid; set in one transaction per credential and 10,000 addresses, then 10 revocations and 20 more blocks) at a past block, over HTTP JSON-RPC on 127.0.0.1 to ${node.describe()}. Both approaches use the same viem client (declared for Optimism) from the benchmark's process. Medians of ${runs} runs after a warm-up; Node ${process.version}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${cpus().length} cores), shared with other jobs. Run: \`npx tsx bench/chain.ts${node.name === 'anvil' ? '' : ' --node edr'}\`.`,
    '',
    `| Node (${label}) | Approach | RPC requests | Wall time | Ratio |`,
    '|---|---|---:|---:|---:|',
    row('loopback', '`verifyCredentials` (defaults: 500 calls per `aggregate3`, 4 in flight)', localVerifier, localVerifier),
    row('loopback', 'per address: one sequential `getSBT` per address and credential', localPerAddress, localVerifier),
    row(`+${latencyMs} ms per request`, '`verifyCredentials` (defaults)', remoteVerifier, remoteVerifier),
    row(`+${latencyMs} ms per request`, 'per address', remotePerAddress, remoteVerifier),
    '',
    `The verifier's requests: ${methods}, one per ${Math.floor(pairs / localVerifier.requests)} address-credential pairs: 500 calls per \`aggregate3\` make ${Math.ceil(pairs / 500)} the floor. No \`eth_chainId\` (the client declares its chain; one that does not costs one more request) and no block header (the block is given by number, and a successful \`getSBT\` has judged expiry at the block's timestamp inside the EVM).` +
      ` Per address on loopback: ${perRequest.toFixed(2)} ms per request. ${counting}` +
      sampledNote(localPerAddress, 'on loopback') +
      sampledNote(remotePerAddress, `at +${latencyMs} ms`),
  ].join('\n')
  return table
}

const starters: Record<NodeName, () => Promise<BenchNode>> = { anvil: startAnvilNode, edr: startEdrNode }

async function main() {
  const tables: Partial<Record<NodeName, string>> = {}
  for (const name of nodes) {
    log(`Starting the ${name} node and seeding ${format(addressCount)} addresses x ${credentials.length} SBTs...`)
    const node = await starters[name]()
    // Stop the node's processes on Ctrl-C or SIGTERM too, not only on success or error.
    const onSignal = (signal: NodeJS.Signals) => {
      void node.close().finally(() => process.kill(process.pid, signal))
    }
    process.once('SIGINT', onSignal)
    process.once('SIGTERM', onSignal)
    try {
      const table = await bench(node)
      process.stdout.write(`\n${table}\n`)
      tables[name] = table
    } finally {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      await node.close()
    }
  }
  if (write) await writeSection(tables)
}

/** Markers of each node's table in the section (the lead text of the section is anvil's). */
const blockMarkers = (name: NodeName) => [`<!-- bench/chain.ts: ${name} -->`, `<!-- bench/chain.ts: end ${name} -->`] as const
const blockHeadings: Record<NodeName, string> = {
  anvil: '',
  edr: "### The same benchmark on EDR (hardhat's node)\n\nFor the node-dependence: the same requests, on a node that spends about 180 µs per `getSBT` inside `aggregate3` (anvil: about 15 µs; see the notes below), so batching gains less on loopback.\n\n",
}

/**
 * Replaces the tables of the nodes just run in the "## On-chain verifier" section of docs/benchmarks.md,
 * keeping the other node's table (between its markers) and the notes after the notes marker.
 */
async function writeSection(tables: Partial<Record<NodeName, string>>) {
  const file = join(root, 'docs/benchmarks.md')
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    text = '# Benchmarks\n'
  }
  const heading = '## On-chain verifier'
  const notesMarker = '<!-- notes: kept by bench/chain.ts -->'
  const start = text.indexOf(heading)
  const end = start === -1 ? -1 : text.indexOf('\n## ', start + heading.length)
  const current = start === -1 ? '' : text.slice(start, end === -1 ? undefined : end + 1)
  const notesAt = current.indexOf(notesMarker)
  const notes = notesAt === -1 ? '' : `\n${current.slice(notesAt).trimEnd()}\n`
  const blocks: string[] = []
  for (const name of nodeNames) {
    const [open, close] = blockMarkers(name)
    const table = tables[name]
    if (table !== undefined) {
      blocks.push(`${open}\n${blockHeadings[name]}${table}\n${close}\n`)
      continue
    }
    const from = current.indexOf(open)
    const to = from === -1 ? -1 : current.indexOf(close, from)
    if (to !== -1) blocks.push(`${current.slice(from, to + close.length)}\n`)
  }
  const section = `${heading}\n\n${blocks.join('\n')}${notes}`
  if (start === -1) {
    text = `${text.trimEnd()}\n\n${section}`
  } else {
    text = `${text.slice(0, start)}${section}${end === -1 ? '' : `\n${text.slice(end + 1)}`}`
  }
  await writeFile(file, text)
  log(`Wrote ${file}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
