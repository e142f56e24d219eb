/**
 * Benchmark: the on-chain verifier against the public service's per-address approach.
 *
 * The local node is EDR (the EVM of hardhat 2) created directly with a minimal configuration
 * (test/chain/harness.ts) and served over HTTP JSON-RPC on 127.0.0.1 by a Node process of its own
 * (test/chain/node-process.ts, which says how that process is tuned). 10,000 addresses get gov-id,
 * phone and biometrics SBTs; more blocks are mined (and some SBTs revoked) after the snapshot block.
 * Then, at the snapshot block, over HTTP, from this process, against the same node, with the same
 * viem client (declared for Optimism, as a user's client is):
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
 * Prints a markdown table and writes it to docs/benchmarks.md under "## On-chain verifier".
 *
 * Run: npx tsx bench/chain.ts [--addresses 10000] [--runs 3] [--sample N] [--latency 10] [--latency-sample 300] [--no-write]
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
import { verifyCredentials } from '../src/verify/credentials.js'
import { TestChain } from '../test/chain/harness.js'
import { nodeProcessEnvironment, nodeProcessFlags, startNodeProcess, type NodeProcess } from '../test/chain/node-process.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function option(name: string, fallback: number | undefined): number | undefined {
  const index = process.argv.indexOf(`--${name}`)
  if (index === -1) return fallback
  const value = Number(process.argv[index + 1])
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} takes a non-negative integer`)
  return value
}

const addressCount = option('addresses', 10_000) as number
const runs = Math.max(1, option('runs', 3) as number)
const localSample = option('sample', undefined)
const latencyMs = option('latency', 10) as number
const latencySample = option('latency-sample', 300) as number
const write = !process.argv.includes('--no-write')
const credentials = ['gov-id', 'phone', 'biometrics'] as const
const pairs = addressCount * credentials.length
const format = (value: number) => value.toLocaleString('en-US')

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

/** The client of both approaches: viem over HTTP, declared for Optimism (as a user's client is). */
const createClient = (url: string) => createPublicClient({ chain: optimism, transport: http(url) })
type BenchClient = ReturnType<typeof createClient>

/** The node under test: its URL, its counters and its added delay. */
type Node = Pick<NodeProcess, 'url' | 'stats' | 'reset' | 'setLatency' | 'close'>

/** One measurement: requests the node served, their methods, wall time; for a sample, what was measured. */
type Measurement = { requests: number; methods: Record<string, number>; ms: number; sampled?: { addresses: number; requests: number; ms: number } }

/** verifyCredentials at the snapshot block; checks every answer. */
async function runVerifier(node: Node, client: BenchClient, addresses: Address[], blockNumber: bigint): Promise<Measurement> {
  await node.reset()
  const start = performance.now()
  const response = await verifyCredentials({ client, addresses, credentials, blockNumber })
  const ms = performance.now() - start
  const stats = await node.stats()
  const valid = Object.values(response.results).reduce((sum, entry) => sum + credentials.filter((credential) => entry[credential].valid).length, 0)
  if (valid !== pairs) throw new Error(`the verifier found ${valid} valid pairs, expected ${pairs}`)
  return { requests: stats.rpcCalls, methods: { ...stats.methods }, ms }
}

/** One sequential getSBT per address and credential, as the public service reads; on a sample when asked. */
async function runPerAddress(node: Node, client: BenchClient, addresses: Address[], blockNumber: bigint, sample: number | undefined): Promise<Measurement> {
  const measured = addresses.slice(0, sample ?? addresses.length)
  await node.reset()
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
  const { rpcCalls: requests, methods } = await node.stats()
  if (measured.length === addresses.length) return { requests, methods: { ...methods }, ms }
  const scale = addresses.length / measured.length
  return { requests: Math.round(requests * scale), methods: {}, ms: ms * scale, sampled: { addresses: measured.length, requests, ms } }
}

/** The median run by wall time (its requests are every run's: the same plan each time). */
function medianOf(measurements: readonly Measurement[]): Measurement {
  const ms = median(measurements.map((measurement) => measurement.ms))
  const first = measurements[0] as Measurement
  return { ...first, ms, ...(first.sampled ? { sampled: { ...first.sampled, ms: median(measurements.map((measurement) => measurement.sampled?.ms ?? 0)) } } : {}) }
}

/** SBTs set per seeding transaction, and the gas it may use (about 190,000 per SBT). */
const seedBatch = 10_000
const seedGas = 3_900_000_000n

async function startNode(): Promise<{ node: Node; chain: TestChain; how: string }> {
  const node = await startNodeProcess({ blockGasLimit: 4_000_000_000 })
  const chain = await TestChain.attach(node.provider)
  const settings = [...nodeProcessFlags, ...Object.entries(nodeProcessEnvironment).map(([key, value]) => `${key}=${value}`)]
  return { node, chain, how: `in a Node process of its own (test/chain/node-process.ts: ${settings.map((setting) => `\`${setting}\``).join(', ')})` }
}

async function main() {
  log(`Starting the EDR node and seeding ${format(addressCount)} addresses x ${credentials.length} SBTs...`)
  const { node, chain, how } = await startNode()
  try {
    const addresses = Array.from({ length: addressCount }, (_, index) => keccak256(numberToHex(index)).slice(0, 42) as Address)
    const { timestamp } = await chain.latest()
    const expiry = timestamp + 365n * 86_400n
    // Up to 10,000 SBTs per transaction: EDR keeps every version of every state trie node it ever
    // wrote, and each storage read walks that store, so fewer, larger writes leave it less to walk.
    for (const credential of credentials) {
      for (let start = 0; start < addresses.length; start += seedBatch) {
        const subjects = addresses.slice(start, start + seedBatch)
        const args = [subjects, optimismNetwork.circuitIds[credential], expiry, 123456789n, optimismNetwork.issuers[credential]]
        await chain.write(chain.contracts.hub, 'TestHub', 'setSBTs', args, undefined, seedGas)
      }
    }
    const snapshot = await chain.mine()
    // After the snapshot: revocations and more blocks, which a read at the snapshot must not see.
    for (const address of addresses.slice(0, 10)) await chain.revokeSBT(address, 'gov-id')
    for (let block = 0; block < 20; block++) await chain.mine()
    log(`Snapshot block ${snapshot.blockNumber}; head ${(await chain.latest()).blockNumber}.`)

    const client = createClient(node.url)
    log('Warming up (one verifier run, 300 per-address requests)...')
    await runVerifier(node, client, addresses, snapshot.blockNumber)
    await runPerAddress(node, client, addresses, snapshot.blockNumber, 100)

    const local = { verifier: [] as Measurement[], perAddress: [] as Measurement[] }
    for (let run = 1; run <= runs; run++) {
      const verifier = await runVerifier(node, client, addresses, snapshot.blockNumber)
      log(`run ${run}, loopback, verifyCredentials: ${verifier.requests} requests ${JSON.stringify(verifier.methods)}, ${seconds(verifier.ms)}`)
      const perAddress = await runPerAddress(node, client, addresses, snapshot.blockNumber, localSample)
      log(`run ${run}, loopback, per address: ${format(perAddress.requests)} requests, ${seconds(perAddress.ms)} (${(perAddress.ms / perAddress.requests).toFixed(3)} ms per request)`)
      local.verifier.push(verifier)
      local.perAddress.push(perAddress)
    }

    await node.setLatency(latencyMs)
    const remote = { verifier: [] as Measurement[], perAddress: [] as Measurement[] }
    for (let run = 1; run <= runs; run++) {
      const verifier = await runVerifier(node, client, addresses, snapshot.blockNumber)
      log(`run ${run}, +${latencyMs} ms, verifyCredentials: ${verifier.requests} requests, ${seconds(verifier.ms)}`)
      const perAddress = await runPerAddress(node, client, addresses, snapshot.blockNumber, latencySample)
      log(`run ${run}, +${latencyMs} ms, per address: ${format(perAddress.requests)} requests, ${seconds(perAddress.ms)}`)
      remote.verifier.push(verifier)
      remote.perAddress.push(perAddress)
    }
    await node.setLatency(0)

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
    const require = createRequire(import.meta.url)
    const hardhatVersion = (require('hardhat/package.json') as { version: string }).version
    const edrMain = createRequire(require.resolve('hardhat/package.json')).resolve('@nomicfoundation/edr')
    const edrVersion = (JSON.parse(readFileSync(join(dirname(edrMain), 'package.json'), 'utf8')) as { version: string }).version
    const methods = Object.entries(localVerifier.methods)
      .map(([method, count]) => `${count} \`${method}\``)
      .join(', ')
    const perRequest = localPerAddress.sampled ? localPerAddress.sampled.ms / localPerAddress.sampled.requests : localPerAddress.ms / localPerAddress.requests
    const table = [
      `${format(addressCount)} addresses x ${credentials.length} SBT credentials (gov-id, phone, biometrics: ${format(pairs)} address-credential pairs, all valid; set in one transaction per credential and 10,000 addresses, then 10 revocations and 20 more blocks) at a past block, over HTTP JSON-RPC on 127.0.0.1 to a local EDR node (\`@nomicfoundation/edr\` ${edrVersion}, the EVM of hardhat ${hardhatVersion}, created directly with a minimal configuration: \`createEdrProvider\` in test/chain/harness.ts) running ${how}. Both approaches use the same viem client (declared for Optimism) from the benchmark's process. Medians of ${runs} runs after a warm-up; Node ${process.version}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${cpus().length} cores), shared with other jobs. Run: \`npx tsx bench/chain.ts\`.`,
      '',
      '| Node | Approach | RPC requests | Wall time | Ratio |',
      '|---|---|---:|---:|---:|',
      row('loopback', '`verifyCredentials` (defaults: 500 calls per `aggregate3`, 4 in flight)', localVerifier, localVerifier),
      row('loopback', 'per address: one sequential `getSBT` per address and credential', localPerAddress, localVerifier),
      row(`+${latencyMs} ms per request`, '`verifyCredentials` (defaults)', remoteVerifier, remoteVerifier),
      row(`+${latencyMs} ms per request`, 'per address', remotePerAddress, remoteVerifier),
      '',
      `The verifier's requests: ${methods}, one per ${Math.floor(pairs / localVerifier.requests)} address-credential pairs: 500 calls per \`aggregate3\` make ${Math.ceil(pairs / 500)} the floor. No \`eth_chainId\` (the client declares its chain; one that does not costs one more request) and no block header (the block is given by number, and a successful \`getSBT\` has judged expiry at the block's timestamp inside the EVM).` +
        ` Per address on loopback: ${perRequest.toFixed(2)} ms per request.` +
        ` "+${latencyMs} ms per request": the node's server waits ${latencyMs} ms before each answer, standing in for the round trip to a hosted RPC.` +
        sampledNote(localPerAddress, 'on loopback') +
        sampledNote(remotePerAddress, `at +${latencyMs} ms`),
    ].join('\n')
    process.stdout.write(`\n${table}\n`)
    if (write) await writeSection(table)
  } finally {
    await node.close()
  }
}

/** Replaces (or adds) the table of the "## On-chain verifier" section of docs/benchmarks.md, keeping the notes after it. */
async function writeSection(table: string) {
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
  const section = `${heading}\n\n${table}\n${notes}`
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
