/**
 * Throughput and latency of the reference server, in process (`server.fetch`, no sockets), on the
 * demo world of 1,000 wallets and on a large state (the same world plus `--rows` scored addresses,
 * 100,000 by default, each with a clean-hands attestation row): A1 score reads (each rescoring and
 * recording a history event), an E4 batch of 500 addresses, C4 listing pages of 100 rows (walking
 * the listing) and of 1,000 (the largest, mid-listing), C4 filtered by one address, and E8 (one
 * address's attestation page).
 *
 * Each row runs for a time budget (`--seconds`, default 1.5) in `--rounds` rounds (default 3), the
 * rows interleaved round by round so that a loaded machine slows them alike; the table gives the
 * median round's throughput and the p50/p99 latency over every round. The servers are configured
 * for the benchmark: a key whose tier limit never interferes, and the open-route limit (E4, E8)
 * lifted, so a 429 is a failure, never a skipped row.
 *
 * Prints a markdown table and writes it into docs/benchmarks.md under `## Reference server`.
 *
 * Run: `npx tsx bench/server.ts [--rows 100000] [--seconds 1.5] [--rounds 3] [--no-write]`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { createServer, type PersonhoodServer } from '../src/server/index.js'
import { generateWorld } from '../src/world/index.js'

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '1.5' },
    rounds: { type: 'string', default: '3' },
    'no-write': { type: 'boolean', default: false },
  },
})
const positiveInteger = (value: string, name: string) => {
  const parsed = Number(value)
  if (!Number.isSafeInteger(parsed) || parsed < 1) throw new Error(`--${name} must be a positive integer, got ${value}`)
  return parsed
}
const largeRows = positiveInteger(flags.rows, 'rows')
const rounds = positiveInteger(flags.rounds, 'rounds')
const budgetMs = Number(flags.seconds) * 1000
if (!(budgetMs > 0)) throw new Error(`--seconds must be a positive number, got ${flags.seconds}`)

const worldNow = '2025-06-01T00:00:00.000Z'
const nowMs = Date.parse(worldNow)
const base = 'http://personhood.local'
// A tier-4 key with a limit that never interferes.
const apiKey = { key: 'bench.0123456789abcdef0123456789abcdef', name: 'bench', tier: 4 as const, historyAllowlisted: true }
const headers = { 'X-API-KEY': apiKey.key }

/** A server on a fresh demo world, limits lifted for the benchmark. */
function benchServer(): PersonhoodServer {
  const world = generateWorld({ now: worldNow, wallets: 1000 })
  return createServer({ world, now: () => nowMs, apiKeys: [apiKey], rateLimits: { stamps: { 4: 1_000_000_000 } }, openRouteLimit: 1_000_000_000 })
}

const small = benchServer()
const large = benchServer()
const world = generateWorld({ now: worldNow, wallets: 1000 })
const addresses = world.wallets.map((wallet) => wallet.address)
const addressOf = (i: number) => `0x${(0xbe0000000 + i).toString(16).padStart(40, '0')}`

// The large state: `largeRows` more addresses scored through A1 (scorer 1) and listed in the index.
const built = performance.now()
{
  const store = large.context.store
  const template = store.state.attestations.find((row) => row.isReceiver)
  if (!template) throw new Error('The demo world has no attestation row to copy')
  const rows = [...store.state.attestations]
  for (let i = 0; i < largeRows; i++) {
    const address = addressOf(i)
    store.score(address, { scorerId: 1, at: nowMs - (largeRows - i) * 1000, recordHistory: true })
    rows.push({ ...template, attestationId: `0x${(0x900000 + i).toString(16)}`, address: address as `0x${string}`, recipients: [address], attestTimestamp: template.attestTimestamp - i })
  }
  store.mutate((state) => {
    state.attestations = rows
  })
}
const buildSeconds = (performance.now() - built) / 1000
const largeCount = Object.keys(large.context.store.state.submissions[1] ?? {}).length
const smallCount = Object.keys(small.context.store.state.submissions[1] ?? {}).length

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

type Bench = { name: string; state: 'demo' | 'large'; concurrency: number; server: PersonhoodServer; request: (i: number) => Request }
type Result = { throughputs: number[]; latencies: number[]; requests: number }

/** Runs `bench` for the time budget, `concurrency` requests at a time; every answer must be 200. */
async function runFor(bench: Bench, result: Result): Promise<void> {
  let next = 0
  const started = performance.now()
  const deadline = started + budgetMs
  await Promise.all(
    Array.from({ length: bench.concurrency }, async () => {
      while (performance.now() < deadline) {
        const i = next++
        const t = performance.now()
        const response = await bench.server.fetch(bench.request(i))
        if (response.status !== 200) throw new Error(`${bench.name}: unexpected status ${response.status}: ${await response.text()}`)
        await response.arrayBuffer()
        result.latencies.push(performance.now() - t)
      }
    }),
  )
  result.throughputs.push((next / (performance.now() - started)) * 1000)
  result.requests += next
}

const block = Math.floor((Math.floor(nowMs / 1000) - world.chain.genesisTime) / world.chain.blockTimeSeconds)
const e4 = `${base}/human-id/voting-strategies/sybil-resistance/gov-id?network=10&snapshot=${block}&addresses=${addresses.slice(0, 500).join(',')}&action-id=123456789`
const benches: Bench[] = []
for (const [state, server, count, pick] of [
  ['demo', small, smallCount, (i: number) => addresses[i % addresses.length]!],
  ['large', large, largeCount, (i: number) => addressOf((i * 7919) % largeRows)],
] as const) {
  const middle = Math.max(0, Math.floor(count / 2 / 1000) * 1000)
  benches.push(
    { name: 'A1 score read (rescores, records history)', state, concurrency: 1, server, request: (i) => new Request(`${base}/v2/stamps/1/score/${pick(i)}`, { headers }) },
    { name: 'A1 score read, 16 in flight', state, concurrency: 16, server, request: (i) => new Request(`${base}/v2/stamps/1/score/${pick(i)}`, { headers }) },
    { name: 'E4 gov-id, 500 addresses', state, concurrency: 1, server, request: () => new Request(e4) },
    { name: 'C4 listing page (100 rows)', state, concurrency: 1, server, request: (i) => new Request(`${base}/registry/score/1?limit=100&offset=${(middle + i * 100) % Math.max(100, count - 100)}`, { headers }) },
    { name: 'C4 listing page (1,000 rows, the largest)', state, concurrency: 1, server, request: () => new Request(`${base}/registry/score/1?limit=1000&offset=${middle}`, { headers }) },
    { name: 'C4 `?address=`', state, concurrency: 1, server, request: (i) => new Request(`${base}/registry/score/1?address=${pick(i)}`, { headers }) },
    { name: 'E8 attestations of one address', state, concurrency: 1, server, request: (i) => new Request(`${base}/attestation-index/api/scan/addresses/${pick(i)}/attestations`) },
  )
}

// Checks before timing: the answers are the ones the rows claim to measure.
for (const server of [small, large]) {
  const batch = (await (await server.fetch(new Request(e4))).json()) as { score: unknown[] }
  if (batch.score.length !== 500) throw new Error(`E4 answered ${batch.score.length} addresses, expected 500`)
}
const page = (await (await large.fetch(new Request(`${base}/registry/score/1?limit=1000&offset=0`, { headers }))).json()) as { items: unknown[]; count: number }
if (page.items.length !== 1000 || page.count !== largeCount) throw new Error(`C4 answered ${page.items.length} rows of ${page.count}, expected 1,000 of ${largeCount}`)
const one = (await (await large.fetch(new Request(`${base}/registry/score/1?address=${addressOf(5)}`, { headers }))).json()) as { items: Array<{ address: string }> }
if (one.items.length !== 1 || one.items[0]!.address !== addressOf(5)) throw new Error('C4 ?address= did not answer the address asked')
const e8 = (await (await large.fetch(new Request(`${base}/attestation-index/api/scan/addresses/${addressOf(5)}/attestations`))).json()) as { data: { total: number } }
if (e8.data.total !== 1) throw new Error(`E8 answered ${e8.data.total} rows for a large-state address, expected 1`)

const results = new Map<Bench, Result>(benches.map((bench) => [bench, { throughputs: [], latencies: [], requests: 0 }]))
// Warm-up, then the rounds, every row once per round.
for (const bench of benches) for (let i = 0; i < 20; i++) await (await bench.server.fetch(bench.request(i))).arrayBuffer()
for (let round = 0; round < rounds; round++) for (const bench of benches) await runFor(bench, results.get(bench)!)

const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU'
const fmt = (value: number, digits: number) => value.toFixed(digits)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const stateName = { demo: `demo world (${smallCount.toLocaleString('en-US')} scored)`, large: `large (${largeCount.toLocaleString('en-US')} scored)` }
const table = [
  '| Request | State | In flight | Requests | Throughput (req/s, median round) | p50 (ms) | p99 (ms) |',
  '|---|---|---:|---:|---:|---:|---:|',
  ...benches.map((bench) => {
    const result = results.get(bench)!
    const sorted = [...result.latencies].sort((a, b) => a - b)
    return `| ${bench.name} | ${stateName[bench.state]} | ${bench.concurrency} | ${result.requests.toLocaleString('en-US')} | ${fmt(median(result.throughputs), 0)} | ${fmt(percentile(sorted, 50), 3)} | ${fmt(percentile(sorted, 99), 3)} |`
  }),
].join('\n')
const section = [
  '## Reference server',
  '',
  `In-process (\`server.fetch\`, no sockets), Node ${process.version}, ${availableParallelism()} cores (${cpu}), load average ${loadavg()[0]!.toFixed(1)} at the end of the run. The large state is the demo world plus ${largeRows.toLocaleString('en-US')} addresses scored through A1, each with an attestation row (built in ${buildSeconds.toFixed(1)} s). Each row ran ${rounds} rounds of ${budgetMs / 1000} s, interleaved. Run \`npx tsx bench/server.ts --rows ${largeRows}\`.`,
  'Targets: A1 at least 2,000 requests/s; E4 with 500 addresses p50 under 20 ms; at 100,000 rows a C4 page (100 rows) at least 1,000 requests/s, C4 `?address=` at least 2,000 requests/s, E8 as on the demo world.',
  '',
  table,
  '',
].join('\n')
console.log(section)

if (!flags['no-write']) {
  const file = new URL('../docs/benchmarks.md', import.meta.url)
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n'
  // Replace our section (up to the next `## ` heading), keep every other section.
  const pattern = /## Reference server\n[\s\S]*?(?=\n## |$)/
  const updated = pattern.test(current) ? current.replace(pattern, section.trimEnd() + '\n') : `${current.trimEnd()}\n\n${section}`
  writeFileSync(file, updated.endsWith('\n') ? updated : `${updated}\n`)
  console.log('Written to docs/benchmarks.md')
}
