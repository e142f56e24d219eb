/**
 * Throughput and latency of the reference server, in process (`server.fetch`, no sockets): A1 score
 * reads (each rescoring and recording a history event) and an E4 batch of 500 addresses. Prints a
 * markdown table and writes it into docs/benchmarks.md under `## Reference server`.
 *
 * Run: `npx tsx bench/server.ts` (add `--no-write` to only print).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { createServer } from '../src/server/index.js'
import { generateWorld } from '../src/world/index.js'

const worldNow = '2025-06-01T00:00:00.000Z'
const nowMs = Date.parse(worldNow)
const world = generateWorld({ now: worldNow, wallets: 1000 })
// A tier-4 key with a limit that never interferes.
const apiKey = { key: 'bench.0123456789abcdef0123456789abcdef', name: 'bench', tier: 4 as const, historyAllowlisted: true }
const server = createServer({ world, now: () => nowMs, apiKeys: [apiKey], rateLimits: { stamps: { 4: 1_000_000_000 } } })
const base = 'http://personhood.local'
const headers = { 'X-API-KEY': apiKey.key }

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

type Row = { name: string; requests: number; concurrency: number; throughput: number; p50: number; p99: number }

/** Runs `total` requests, `concurrency` at a time; latency per request, throughput over the whole run. */
async function run(name: string, total: number, concurrency: number, request: (i: number) => Request, check: (response: Response) => Promise<void>): Promise<Row> {
  // Warm-up.
  for (let i = 0; i < Math.min(200, total / 10); i++) await check(await server.fetch(request(i)))
  const latencies: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++
        const t = performance.now()
        const response = await server.fetch(request(i))
        await check(response)
        latencies.push(performance.now() - t)
      }
    }),
  )
  const elapsed = performance.now() - started
  latencies.sort((a, b) => a - b)
  return { name, requests: total, concurrency, throughput: (total / elapsed) * 1000, p50: percentile(latencies, 50), p99: percentile(latencies, 99) }
}

const ok = async (response: Response) => {
  if (response.status !== 200) throw new Error(`Unexpected status ${response.status}: ${await response.text()}`)
  await response.arrayBuffer()
}

const addresses = world.wallets.map((wallet) => wallet.address)
const rows: Row[] = []
rows.push(
  await run('A1 score read (rescores, records history)', 20_000, 1, (i) => new Request(`${base}/v2/stamps/1/score/${addresses[i % addresses.length]}`, { headers }), ok),
)
rows.push(
  await run('A1 score read, 16 in flight', 20_000, 16, (i) => new Request(`${base}/v2/stamps/1/score/${addresses[i % addresses.length]}`, { headers }), ok),
)

// E4: 500 addresses at one snapshot block.
const batch = addresses.slice(0, 500).join(',')
const block = Math.floor((Math.floor(nowMs / 1000) - world.chain.genesisTime) / world.chain.blockTimeSeconds)
const e4 = new Request(`${base}/human-id/voting-strategies/sybil-resistance/gov-id?network=10&snapshot=${block}&addresses=${batch}&action-id=123456789`)
const e4Probe = await server.fetch(e4.clone())
if (e4Probe.status === 200) {
  const answered = ((await e4Probe.json()) as { score: unknown[] }).score.length
  if (answered !== 500) throw new Error(`E4 answered ${answered} addresses, expected 500`)
  rows.push(await run('E4 gov-id, 500 addresses', 2_000, 1, () => e4.clone(), ok))
} else {
  console.warn(`E4 answered ${e4Probe.status}: ${await e4Probe.text()} (row skipped)`)
}

const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU'
const fmt = (value: number, digits: number) => value.toFixed(digits)
const table = [
  '| Request | Requests | In flight | Throughput (req/s) | p50 (ms) | p99 (ms) |',
  '|---|---:|---:|---:|---:|---:|',
  ...rows.map((row) => `| ${row.name} | ${row.requests.toLocaleString('en-US')} | ${row.concurrency} | ${fmt(row.throughput, 0)} | ${fmt(row.p50, 3)} | ${fmt(row.p99, 3)} |`),
].join('\n')
const section = [
  '## Reference server',
  '',
  `In-process (\`server.fetch\`, no sockets), demo world of 1,000 wallets, Node ${process.version}, ${availableParallelism()} cores (${cpu}). Run \`npx tsx bench/server.ts\`.`,
  'Targets: A1 at least 2,000 requests/s; E4 with 500 addresses p50 under 20 ms.',
  '',
  table,
  '',
].join('\n')
console.log(section)

if (!process.argv.includes('--no-write')) {
  const file = new URL('../docs/benchmarks.md', import.meta.url)
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n'
  // Replace our section (up to the next `## ` heading), keep every other section.
  const pattern = /## Reference server\n[\s\S]*?(?=\n## |$)/
  const updated = pattern.test(current) ? current.replace(pattern, section.trimEnd() + '\n') : `${current.trimEnd()}\n\n${section}`
  writeFileSync(file, updated.endsWith('\n') ? updated : `${updated}\n`)
  console.log('Written to docs/benchmarks.md')
}
