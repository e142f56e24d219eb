/**
 * Benchmark: the on-chain verifier against the public service's per-address approach.
 *
 * An in-process EDR node (hardhat 2) is served over HTTP JSON-RPC on 127.0.0.1; 10,000 addresses get
 * gov-id, phone and biometrics SBTs; more blocks are mined (and some SBTs revoked) after the
 * snapshot block. Then, at the snapshot block, over HTTP, in this process, against the same node:
 *
 * - `verifyCredentials` for 10,000 addresses x 3 credentials (default options);
 * - the per-address approach of the public service: one sequential `getSBT` per address and
 *   credential, with viem.
 *
 * Both run twice: on the bare loopback node, and with a delay added to every HTTP answer to stand in
 * for the round trip to a hosted RPC (`--latency`, default 10 ms). The per-address run with latency
 * is measured on a sample of addresses (`--latency-sample`, default 300) and extrapolated linearly;
 * the table says so. Every verifier answer is checked (all 30,000 pairs valid, the revocations after
 * the snapshot not seen).
 *
 * Prints a markdown table and writes it to docs/benchmarks.md under "## On-chain verifier".
 *
 * Run: npx tsx bench/chain.ts [--addresses 10000] [--sample N] [--latency 10] [--latency-sample 300] [--no-write]
 */
import { readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPublicClient, http, keccak256, numberToHex, type Address } from 'viem'
import { hubAbi } from '../src/chain/abis.js'
import { optimismNetwork } from '../src/chain/constants.js'
import { verifyCredentials } from '../src/verify/credentials.js'
import { TestChain } from '../test/chain/harness.js'
import { serveJsonRpc, type RpcServer } from '../test/chain/rpc-server.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

function option(name: string, fallback: number | undefined): number | undefined {
  const index = process.argv.indexOf(`--${name}`)
  if (index === -1) return fallback
  const value = Number(process.argv[index + 1])
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} takes a non-negative integer`)
  return value
}

const addressCount = option('addresses', 10_000) as number
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

type Measurement = { requests: number; methods: Record<string, number>; ms: number; sampled?: { addresses: number; requests: number; ms: number } }

/** verifyCredentials at the snapshot block; checks every answer. */
async function runVerifier(server: RpcServer, addresses: Address[], blockNumber: bigint): Promise<Measurement> {
  const client = createPublicClient({ transport: http(server.url) })
  server.reset()
  const start = performance.now()
  const response = await verifyCredentials({ client, addresses, credentials, blockNumber })
  const ms = performance.now() - start
  const stats = { requests: server.stats.rpcCalls, methods: { ...server.stats.methods } }
  const valid = Object.values(response.results).reduce((sum, entry) => sum + credentials.filter((credential) => entry[credential].valid).length, 0)
  if (valid !== pairs) throw new Error(`the verifier found ${valid} valid pairs, expected ${pairs}`)
  return { ...stats, ms }
}

/** One sequential getSBT per address and credential, as the public service reads; on a sample when asked. */
async function runPerAddress(server: RpcServer, addresses: Address[], blockNumber: bigint, sample: number | undefined): Promise<Measurement> {
  const client = createPublicClient({ transport: http(server.url) })
  const measured = addresses.slice(0, sample ?? addresses.length)
  server.reset()
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
  const requests = server.stats.rpcCalls
  if (measured.length === addresses.length) return { requests, methods: { ...server.stats.methods }, ms }
  const scale = addresses.length / measured.length
  return { requests: Math.round(requests * scale), methods: {}, ms: ms * scale, sampled: { addresses: measured.length, requests, ms } }
}

async function main() {
  log(`Starting the EDR node and seeding ${format(addressCount)} addresses x ${credentials.length} SBTs...`)
  const chain = await TestChain.start({ blockGasLimit: 1_000_000_000 })
  const server = await serveJsonRpc(chain.provider)
  try {
    const addresses = Array.from({ length: addressCount }, (_, index) => keccak256(numberToHex(index)).slice(0, 42) as Address)
    const { timestamp } = await chain.latest()
    const expiry = timestamp + 365n * 86_400n
    for (const credential of credentials) {
      for (let start = 0; start < addresses.length; start += 1_000) {
        const subjects = addresses.slice(start, start + 1_000)
        const args = [subjects, optimismNetwork.circuitIds[credential], expiry, 123456789n, optimismNetwork.issuers[credential]]
        await chain.write(chain.contracts.hub, 'TestHub', 'setSBTs', args, undefined, 900_000_000n)
      }
    }
    const snapshot = await chain.mine()
    // After the snapshot: revocations and more blocks, which a read at the snapshot must not see.
    for (const address of addresses.slice(0, 10)) await chain.revokeSBT(address, 'gov-id')
    for (let block = 0; block < 20; block++) await chain.mine()
    log(`Snapshot block ${snapshot.blockNumber}; head ${(await chain.latest()).blockNumber}.`)

    server.latencyMs = 0
    const localVerifier = await runVerifier(server, addresses, snapshot.blockNumber)
    log(`loopback, verifyCredentials: ${localVerifier.requests} requests ${JSON.stringify(localVerifier.methods)}, ${seconds(localVerifier.ms)}`)
    const localPerAddress = await runPerAddress(server, addresses, snapshot.blockNumber, localSample)
    log(`loopback, per address: ${format(localPerAddress.requests)} requests, ${seconds(localPerAddress.ms)}`)

    server.latencyMs = latencyMs
    const remoteVerifier = await runVerifier(server, addresses, snapshot.blockNumber)
    log(`+${latencyMs} ms, verifyCredentials: ${remoteVerifier.requests} requests, ${seconds(remoteVerifier.ms)}`)
    const remotePerAddress = await runPerAddress(server, addresses, snapshot.blockNumber, latencySample)
    log(`+${latencyMs} ms, per address: ${format(remotePerAddress.requests)} requests, ${seconds(remotePerAddress.ms)}`)

    const row = (setting: string, approach: string, measurement: Measurement, baseline: Measurement) => {
      const estimated = measurement.sampled ? ' (est.)' : ''
      const ratio = measurement === baseline ? '1x' : `${(measurement.ms / baseline.ms).toFixed(1)}x slower`
      return `| ${setting} | ${approach} | ${format(measurement.requests)}${estimated} | ${seconds(measurement.ms)}${estimated} | ${ratio} |`
    }
    const sampledNote = (measurement: Measurement, setting: string) =>
      measurement.sampled
        ? ` Per address ${setting} was measured on ${format(measurement.sampled.addresses)} addresses (${format(measurement.sampled.requests)} requests in ${seconds(measurement.sampled.ms)}) and extrapolated linearly to ${format(addressCount)}.`
        : ''
    const hardhatVersion = (createRequire(import.meta.url)('hardhat/package.json') as { version: string }).version
    const table = [
      `${format(addressCount)} addresses x ${credentials.length} SBT credentials (gov-id, phone, biometrics: ${format(pairs)} address-credential pairs, all valid) at a past block, over HTTP JSON-RPC to an in-process EDR node (hardhat ${hardhatVersion}) on 127.0.0.1, client and node in one process; Node ${process.version}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'} (${cpus().length} cores). Run: \`npx tsx bench/chain.ts\`.`,
      '',
      '| Node | Approach | RPC requests | Wall time | Ratio |',
      '|---|---|---:|---:|---:|',
      row('loopback', '`verifyCredentials` (defaults: 500 calls per `aggregate3`, 4 in flight)', localVerifier, localVerifier),
      row('loopback', 'per address: one sequential `getSBT` per address and credential', localPerAddress, localVerifier),
      row(`+${latencyMs} ms per request`, '`verifyCredentials` (defaults)', remoteVerifier, remoteVerifier),
      row(`+${latencyMs} ms per request`, 'per address', remotePerAddress, remoteVerifier),
      '',
      `The verifier's requests: ${Object.entries(localVerifier.methods)
        .map(([method, count]) => `${count} \`${method}\``)
        .join(', ')}, one per ${Math.floor(pairs / localVerifier.requests)} address-credential pairs. 500 calls per request make ${Math.ceil(pairs / 500)} \`eth_call\`s the floor; the other ${localVerifier.requests - Math.ceil(pairs / 500)} are the chain-id check and the block header (validity is judged at its timestamp).` +
        ` "+${latencyMs} ms per request": the server waits ${latencyMs} ms before each answer, standing in for the round trip to a hosted RPC.` +
        sampledNote(localPerAddress, 'on loopback') +
        sampledNote(remotePerAddress, `at +${latencyMs} ms`) +
        ` On loopback the verifier's time is mostly EDR executing the 30,000 \`getSBT\` calls inside \`aggregate3\` (EDR records a step trace of every call), so the ratio there depends on the node's EVM speed and on the machine's load; the per-address approach is bound by round trips, which is what a real RPC endpoint multiplies.`,
    ].join('\n')
    process.stdout.write(`\n${table}\n`)
    if (write) await writeSection(table)
  } finally {
    await server.close()
  }
}

/** Replaces (or adds) the "## On-chain verifier" section of docs/benchmarks.md, leaving the others. */
async function writeSection(table: string) {
  const file = join(root, 'docs/benchmarks.md')
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    text = '# Benchmarks\n'
  }
  const heading = '## On-chain verifier'
  const section = `${heading}\n\n${table}\n`
  const start = text.indexOf(heading)
  if (start === -1) {
    text = `${text.trimEnd()}\n\n${section}`
  } else {
    const next = text.indexOf('\n## ', start + heading.length)
    text = `${text.slice(0, start)}${section}${next === -1 ? '' : `\n${text.slice(next + 1)}`}`
  }
  await writeFile(file, text)
  log(`Wrote ${file}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
