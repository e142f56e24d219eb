/**
 * What an audit costs as the vote grows, through real sources: for each size, a demo world of that
 * many wallets is served in its own process (the reference server and the local chain, as
 * `personhood demo` builds them), its proposal's votes written as the demo writes them, and
 * `personhood audit`'s own code path (`runAuditCommand`: audit(), then the four report files) run in
 * another process against it, so the peak memory is the audit's alone. Prints a markdown table:
 * voters, requests sent (every HTTP and JSON-RPC request, counted as it leaves), time, peak resident
 * memory (the process's RSS high-water mark when the report is written) and the report's size, and the floor of the requests:
 * the same reads with the reader's calls those of one plan over every voter (what a single strategy
 * call over the whole vote would send), and the ratio of the two.
 *
 * Linked wallets are off (`--no-linked-wallets`): they add one score-history read per voter, paced
 * by the key's tier (2,000 per 15 minutes at tier 3), which would make the large sizes a matter of
 * hours. `--linked-wallets` turns them on.
 *
 *   npx tsx bench/audit.ts                       # 1,000, 10,000, 50,000 and 100,000 voters
 *   npx tsx bench/audit.ts --sizes 1000,10000    # some of them
 *   npx tsx bench/audit.ts --sizes 10000 --wallets 100000   # a world larger than the vote
 *
 * BENCH_DEBUG=1 also prints, per size, the requests by kind (JSON-RPC method, HTTP path) and the
 * heap (its sampled peak, and what stays after a full GC); BENCH_NODE_FLAGS passes flags to the
 * audit's process (for example `--max-old-space-size=1024`). The audit's process sets its heap up as
 * `personhood audit` does (src/cli/heap.ts: growth by twice at most between full collections),
 * unless those flags set the heap's growth or size (`--heap-growing-percent=0`: V8's own default).
 */
import { execFileSync, spawn } from 'node:child_process'
import { appendFileSync, createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { loadavg, cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { demoChoices, demoVotes, demoVotesCsv } from '../src/cli/audit-demo.js'
import { runAuditCommand } from '../src/cli/audit.js'
import { limitAuditHeapGrowth } from '../src/cli/heap.js'
import { serveEnvironment } from '../src/cli/serve.js'
import { startServe } from '../src/server/index.js'
import { generateWorld } from '../src/world/index.js'
import { createReaderFloor } from './reader-floor.js'

const worldNow = '2025-06-01T00:00:00.000Z'
/** The clock of the world and the audit: an hour after the world's day began. */
const now = () => Date.parse(worldNow) + 3_600_000
const self = fileURLToPath(import.meta.url)

type World = { env: Record<string, string>; snapshot: string; votesFile: string; configFile: string; worldMs: number }
type Measured = { voters: number; requests: number; floor: number; seconds: number; peakRssMb: number; verified: number; reportMb: number }

const [mode, ...rest] = process.argv.slice(2)

if (mode === '--world') {
  // A world of `wallets` wallets served with its local chain; its proposal's votes and config written to `dir`.
  const [dir, wallets, voters] = [rest[0]!, Number(rest[1]), Number(rest[2])]
  const started = performance.now()
  const world = generateWorld({ now: worldNow, wallets })
  const running = await startServe({ port: 0, host: '127.0.0.1', seed: 'demo', world, now, chain: { port: 0 } })
  const chain = running.chain!
  const votesFile = join(dir, 'votes.csv')
  const configFile = join(dir, 'config.json')
  writeFileSync(votesFile, demoVotesCsv(demoVotes(world, voters)))
  writeFileSync(configFile, JSON.stringify({ strategy: 'human-verification', options: { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'any' } }))
  const env = Object.fromEntries(serveEnvironment(running).map((variable) => [variable.name, variable.value]))
  const tier = running.app.context.store.state.apiKeys.find((key) => key.key === running.apiKey)?.tier
  if (tier !== undefined) env.PASSPORT_API_TIER = String(tier)
  env.PERSONHOOD_RPC_URL = chain.rpcUrl!
  const ready: World = { env, snapshot: chain.blockAt(new Date(now()).toISOString()).toString(), votesFile, configFile, worldMs: performance.now() - started }
  process.stdout.write(`${JSON.stringify(ready)}\n`)
  // Served until the parent ends this process.
  process.on('SIGTERM', () => void running.close().then(() => process.exit(0)))
} else if (mode === '--audit') {
  // One audit, as `personhood audit` runs it, every request counted as it leaves.
  const [dir, linked] = [rest[0]!, rest[1] === 'linked']
  const world = JSON.parse(rest[2]!) as World
  let requests = 0
  const kinds = new Map<string, number>()
  // The reader's calls, read back for the floor once the audit is done: kept in a file meanwhile, not
  // in this process, where the floor's note of every voter asked (about 150 bytes a voter) would
  // count in the audit's peak.
  const readerCalls = join(dir, 'eth-calls.jsonl')
  const counting: typeof fetch = async (input, init) => {
    requests++
    if (typeof init?.body === 'string' && init.body.includes('"eth_call"')) appendFileSync(readerCalls, `${init.body}\n`)
    if (process.env.BENCH_DEBUG) {
      const request = new Request(input, init)
      const kind = request.method === 'POST' ? `rpc ${(JSON.parse(await request.clone().text()) as { method: string }).method}` : new URL(request.url).pathname.replace(/0x[0-9a-fA-F]{40}/g, '<address>').replace(/\/\d+\//g, '/<n>/')
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
      return fetch(request)
    }
    return fetch(input, init)
  }
  const out = join(dir, 'report')
  // With BENCH_DEBUG, the heap sampled as the audit runs (printed below; the table's figures are the
  // process's own peak and time, which the sampling would only add to).
  const peak = { heapUsed: 0, external: 0, arrayBuffers: 0, rss: 0 }
  const sampler = process.env.BENCH_DEBUG
    ? setInterval(() => {
        const usage = process.memoryUsage()
        for (const key of Object.keys(peak) as (keyof typeof peak)[]) peak[key] = Math.max(peak[key], usage[key])
      }, 50)
    : undefined
  // The process as `personhood audit` sets it up (its heap growth), unless BENCH_NODE_FLAGS chose.
  limitAuditHeapGrowth()
  const started = performance.now()
  const { result } = await runAuditCommand(
    { votes: world.votesFile, config: world.configFile, snapshot: world.snapshot, network: '10', out, choices: [...demoChoices], type: 'single-choice', cache: false, linkedWallets: linked },
    { env: world.env, log: () => {}, fetch: counting, now },
  )
  const seconds = (performance.now() - started) / 1000
  // The audit's peak, before the bench reads the floor back.
  const peakRssMb = process.resourceUsage().maxRSS / 1024
  clearInterval(sampler)
  if (process.env.BENCH_DEBUG) {
    globalThis.gc?.()
    console.error(JSON.stringify(Object.fromEntries(kinds)))
    const mb = (record: Record<string, number>) => Object.fromEntries(Object.entries(record).map(([key, bytes]) => [key, Math.round(bytes / 1048576)]))
    console.error(JSON.stringify({ sampledPeaksMb: mb(peak), afterFullGcMb: mb({ ...process.memoryUsage() }) }))
  }
  const reportMb = ['audit.json', 'audit.csv', 'audit.md', 'audit.html'].reduce((total, name) => total + statSync(join(out, name)).size, 0) / 1024 / 1024
  // The floor: the same reads, with the reader's calls those of one plan over every voter asked
  // (the calls a single strategy call over the whole vote would send).
  const reader = createReaderFloor()
  if (existsSync(readerCalls)) for await (const body of createInterface({ input: createReadStream(readerCalls), crlfDelay: Infinity })) reader.note(body)
  const floor = requests - reader.calls() + reader.planned(['gov-id', 'phone', 'biometrics', 'clean-hands'])
  const measured: Measured = { voters: result.voters.length, requests, floor, seconds, peakRssMb, verified: result.summary.eligibleVoters, reportMb }
  process.stdout.write(JSON.stringify(measured))
} else {
  const option = (name: string) => {
    const at = process.argv.indexOf(name)
    return at === -1 ? undefined : process.argv[at + 1]
  }
  const sizes = (option('--sizes') ?? '1000,10000,50000,100000').split(',').map(Number)
  const linked = process.argv.includes('--linked-wallets')
  // The world's size: as many wallets as voters (at least 400) unless given.
  const worldWallets = option('--wallets') === undefined ? undefined : Number(option('--wallets'))
  const rows: string[] = []
  for (const voters of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `personhood-bench-audit-${voters}-`))
    const wallets = worldWallets ?? Math.max(voters, 400)
    const server = spawn(process.execPath, ['--import', 'tsx', self, '--world', dir, String(wallets), String(voters)], { stdio: ['ignore', 'pipe', 'inherit'] })
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: server.stdout }).once('line', resolve)
        server.once('exit', (code) => reject(new Error(`the world of ${wallets} wallets exited with ${code}`)))
      })
      const world = JSON.parse(line) as World
      try {
        // The world's process once up (the reference server and the local chain, before any read).
        const status = readFileSync(`/proc/${server.pid}/status`, 'utf8')
        console.error(`world process of ${wallets} wallets: ${Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)} MB when up`)
      } catch {
        // Not Linux: no /proc.
      }
      const text = execFileSync(process.execPath, [...(process.env.BENCH_DEBUG ? ['--expose-gc'] : []), ...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', self, '--audit', dir, linked ? 'linked' : 'no', line], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
      const measured = JSON.parse(text) as Measured
      rows.push(
        `| ${measured.voters.toLocaleString('en-US')} | ${measured.verified.toLocaleString('en-US')} | ${measured.requests.toLocaleString('en-US')} | ${measured.floor.toLocaleString('en-US')} | ${(measured.requests / measured.floor).toFixed(2)} | ${measured.seconds.toFixed(1)} | ${Math.round(measured.peakRssMb).toLocaleString('en-US')} | ${measured.reportMb.toFixed(1)} | ${(world.worldMs / 1000).toFixed(1)} |`,
      )
    } catch (error) {
      rows.push(`| ${voters.toLocaleString('en-US')} | failed: ${String(error instanceof Error ? error.message : error).split('\n')[0]} | | | | | | | |`)
    } finally {
      // The world's process (the reference server and the local chain): its peak, for the chain's memory.
      try {
        const status = readFileSync(`/proc/${server.pid}/status`, 'utf8')
        console.error(`world process of ${wallets} wallets: peak RSS ${Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)} MB`)
      } catch {
        // Not Linux: no /proc.
      }
      server.kill('SIGTERM')
      rmSync(dir, { recursive: true, force: true })
    }
    console.error(rows.at(-1))
  }
  console.log(`Audit through the reference server and the local chain (human-verification, four credentials, Passport fallback, linked wallets ${linked ? 'on' : 'off'}), Node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the end.`)
  console.log('')
  console.log('| voters | verified | requests | floor | ratio | time (s) | peak RSS (MB) | report (MB) | world up (s) |')
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const row of rows) console.log(row)
}
