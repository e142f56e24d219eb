/**
 * What the test suite costs: peak memory per test file and the whole run's time. Runs vitest once
 * with the suite's own config (plus `bench/suite/record.ts`, which has each test file's process
 * note its resident-set high-water mark when the file starts and ends), and meanwhile samples every
 * process under vitest from /proc twice a second, so the processes a test spawns (anvil, the CLI,
 * servers) are counted too, each beside the test file whose process started it.
 *
 * Prints a markdown table, largest first: per test file its time (setup file loaded to last hook
 * done), its process's peak RSS (VmHWM: exact), the sampled peak of that process plus everything
 * it spawned, and the largest process it spawned; then the totals: wall time, the largest single
 * process of the run (vitest's main process included), the largest sum of all processes at one
 * moment, and vitest's closing line. Linux only (reads /proc).
 *
 *   nice -n 5 npx tsx bench/suite.ts                      # the whole suite (10+ minutes; see the README)
 *   nice -n 5 npx tsx bench/suite.ts test/chain/*.test.ts  # some files
 *   npx tsx bench/suite.ts --top 20 ...                   # only the 20 largest rows (default: all)
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const args = process.argv.slice(2)
const topFlag = args.indexOf('--top')
const top = topFlag === -1 ? Infinity : Number(args[topFlag + 1])
if (topFlag !== -1 && !(Number.isSafeInteger(top) && top > 0)) throw new Error(`--top needs a positive integer, got ${String(args[topFlag + 1])}`)
const files = topFlag === -1 ? args : args.filter((_, index) => index !== topFlag && index !== topFlag + 1)

const records = mkdtempSync(join(tmpdir(), 'personhood-suite-bench-'))
const started = performance.now()
const vitest = spawn(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', process.env.PERSONHOOD_SUITE_CONFIG ?? 'bench/suite/config.ts', ...files], {
  cwd: root,
  env: { ...process.env, PERSONHOOD_SUITE_BENCH: records },
  stdio: ['ignore', 'pipe', 'inherit'],
})
let output = ''
vitest.stdout.on('data', (chunk: Buffer) => {
  output += chunk.toString()
  process.stderr.write(chunk)
})

type Proc = { pid: number; ppid: number; rss: number; hwm: number; command: string }
const pageSize = 4096

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command sits in parentheses and may hold spaces; fields after it are space-separated
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 3).join(' ')
    return { pid, ppid: Number(fields[1]), rss: Number(fields[21]) * pageSize, hwm: hwm ? Number(hwm[1]) * 1024 : 0, command }
  } catch {
    return undefined // gone between listing and reading
  }
}

/** Per process: its largest sample. Per process and its descendants: the largest sum at one moment. */
const peakOf = new Map<number, Proc>()
const treePeak = new Map<number, number>()
const largestChild = new Map<number, Proc>()
let sumPeak = 0

function sample(): void {
  if (vitest.pid === undefined) return
  const all = new Map<number, Proc>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const proc = readProc(Number(name))
    if (proc) all.set(proc.pid, proc)
  }
  const children = new Map<number, Proc[]>()
  for (const proc of all.values()) children.set(proc.ppid, [...(children.get(proc.ppid) ?? []), proc])
  const subtree = (pid: number): Proc[] => (children.get(pid) ?? []).flatMap((child) => [child, ...subtree(child.pid)])
  const main = all.get(vitest.pid)
  if (!main) return
  const everyone = [main, ...subtree(main.pid)]
  let sum = 0
  for (const proc of everyone) {
    sum += proc.rss
    const seen = peakOf.get(proc.pid)
    if (!seen || Math.max(proc.rss, proc.hwm) > Math.max(seen.rss, seen.hwm)) peakOf.set(proc.pid, proc)
  }
  sumPeak = Math.max(sumPeak, sum)
  // vitest's workers are its direct children; what they spawn is theirs
  for (const worker of children.get(main.pid) ?? []) {
    const below = subtree(worker.pid)
    treePeak.set(worker.pid, Math.max(treePeak.get(worker.pid) ?? 0, worker.rss + below.reduce((total, proc) => total + proc.rss, 0)))
    for (const proc of below) if (proc.rss > (largestChild.get(worker.pid)?.rss ?? 0)) largestChild.set(worker.pid, proc)
  }
}

const sampler = setInterval(sample, 500)
const exitCode = await new Promise<number>((resolve) => vitest.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))))
clearInterval(sampler)
const wallMs = performance.now() - started

type Line = { event: 'start' | 'end'; file: string; pid: number; at: number; hwm: number; rss: number }
const lines: Line[] = readdirSync(records).flatMap((name) =>
  readFileSync(join(records, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line),
)
rmSync(records, { recursive: true, force: true })

type Row = { file: string; seconds: number; peak: number; withChildren: number; child?: Proc; shared: boolean }
const filesPerPid = new Map<number, number>()
for (const line of lines) if (line.event === 'start') filesPerPid.set(line.pid, (filesPerPid.get(line.pid) ?? 0) + 1)
const rows: Row[] = []
for (const start of lines.filter((line) => line.event === 'start')) {
  const end = lines.find((line) => line.event === 'end' && line.pid === start.pid && line.file === start.file && line.at >= start.at)
  rows.push({
    file: start.file,
    seconds: end ? (end.at - start.at) / 1000 : NaN,
    peak: end?.hwm ?? start.hwm,
    withChildren: Math.max(treePeak.get(start.pid) ?? 0, end?.hwm ?? 0),
    child: largestChild.get(start.pid),
    shared: (filesPerPid.get(start.pid) ?? 0) > 1,
  })
}
rows.sort((a, b) => b.withChildren - a.withChildren || b.peak - a.peak)

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString('en-US')} MB`
const out: string[] = []
out.push('| Test file | Time | Process peak (VmHWM) | With what it spawned (sampled) | Largest process it spawned |')
out.push('|---|---:|---:|---:|---|')
for (const row of rows.slice(0, top)) {
  const child = row.child ? `${mb(row.child.rss)} \`${row.child.command.replace(root, '')}\`` : ''
  out.push(`| ${row.file}${row.shared ? ' (shared process)' : ''} | ${Number.isNaN(row.seconds) ? 'did not end' : `${row.seconds.toFixed(1)} s`} | ${mb(row.peak)} | ${mb(row.withChildren)} | ${child} |`)
}
const largest = [...peakOf.values()].sort((a, b) => Math.max(b.rss, b.hwm) - Math.max(a.rss, a.hwm))[0]
const summary = /tests: .*/.exec(output)?.[0] ?? `no closing line (vitest exit code ${exitCode})`
out.push('')
out.push(`Test files: ${rows.length}; processes that ran them: ${filesPerPid.size}`)
out.push(`Wall time: ${(wallMs / 1000).toFixed(1)} s`)
if (largest) out.push(`Largest process: ${mb(Math.max(largest.rss, largest.hwm))} (\`${largest.command.replace(root, '')}\`)`)
out.push(`Largest sum of all processes at one moment (sampled): ${mb(sumPeak)}`)
out.push(`Vitest: ${summary}; exit code ${exitCode}`)
console.log(`\n${out.join('\n')}`)
process.exitCode = exitCode
