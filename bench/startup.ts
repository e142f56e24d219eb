/**
 * How long `personhood serve` takes to start, as a user sees it: `node bin/personhood.js serve
 * --port 0` spawned afresh, timed from the spawn to the line that prints its URL ("listening on"),
 * then stopped with SIGTERM. Runs the demo world (the default) and `--seed empty`, interleaved so
 * load on the machine falls on both alike, plus an empty `node -e ""` as the floor under both.
 * Prints a markdown table: median, p90, min and max of the wall time, and the median of the
 * `ready in` figure `serve` prints (start-up after module loading).
 *
 * Uses the built package (`npm run build` first). Run:
 *
 *   npx tsx bench/startup.ts --runs 15
 *   npx tsx bench/startup.ts --runs 15 --hyperfine   # hyperfine times the same commands too
 *
 * With --hyperfine (hyperfine on the PATH), each case is also timed by hyperfine, through bash: the
 * server is started on a pipe, the first line read (the URL), then the server is stopped and
 * waited for; hyperfine's median includes bash and the stop, so it reads a little higher.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const bin = join(root, 'bin/personhood.js')

const args = process.argv.slice(2)
const runsFlag = args.indexOf('--runs')
const runs = runsFlag === -1 ? 11 : Number(args[runsFlag + 1])
if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`--runs needs a positive integer, got ${String(args[runsFlag + 1])}`)
const withHyperfine = args.includes('--hyperfine')

type Case = { label: string; args: string[] }
const cases: Case[] = [
  { label: '`serve --port 0` (demo world, 1,000 wallets)', args: ['serve', '--port', '0'] },
  { label: '`serve --port 0 --seed empty`', args: ['serve', '--port', '0', '--seed', 'empty'] },
]

/** One start: milliseconds from the spawn to the "listening on" line, and the `ready in` figure it prints. */
function startOnce(serveArgs: string[]): Promise<{ wallMs: number; readyMs: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(process.execPath, [bin, ...serveArgs], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    let result: { wallMs: number; readyMs: number } | undefined
    child.stdout.on('data', (chunk: Buffer) => {
      if (result) return
      output += chunk.toString()
      const line = /listening on \S+ .*ready in (\d+) ms/.exec(output)
      if (!line) return
      result = { wallMs: Number(process.hrtime.bigint() - started) / 1e6, readyMs: Number(line[1]) }
      child.kill('SIGTERM')
    })
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', reject)
    child.once('exit', (code) => (result ? resolve(result) : reject(new Error(`serve exited with ${code} before listening:\n${output}`))))
  })
}

/** A fresh Node process that does nothing: the floor under every start. */
function emptyOnce(): number {
  const started = process.hrtime.bigint()
  spawnSync(process.execPath, ['-e', ''])
  return Number(process.hrtime.bigint() - started) / 1e6
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const position = (sorted.length - 1) * q
  const low = Math.floor(position)
  const high = Math.ceil(position)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low)
}

const ms = (value: number) => `${Math.round(value)} ms`

const wall = new Map<string, number[]>(cases.map(({ label }) => [label, []]))
const ready = new Map<string, number[]>(cases.map(({ label }) => [label, []]))
const floor: number[] = []
// One warm-up start per case (disk cache), not counted.
for (const { args: serveArgs } of cases) await startOnce(serveArgs)
for (let run = 0; run < runs; run++) {
  floor.push(emptyOnce())
  for (const { label, args: serveArgs } of cases) {
    const { wallMs, readyMs } = await startOnce(serveArgs)
    wall.get(label)!.push(wallMs)
    ready.get(label)!.push(readyMs)
  }
}

const hyperfine = new Map<string, number>()
if (withHyperfine) {
  const out = mkdtempSync(join(tmpdir(), 'personhood-startup-'))
  try {
    for (const { label, args: serveArgs } of cases) {
      const command = `exec 3< <(exec node ${bin} ${serveArgs.join(' ')}); read -r line <&3; kill $!; wait $! || true`
      const file = join(out, 'result.json')
      const result = spawnSync('hyperfine', ['--warmup', '1', '--runs', String(runs), '--shell', 'bash', '--export-json', file, command], { encoding: 'utf8' })
      if (result.status !== 0) throw new Error(`hyperfine failed:\n${result.stderr || result.error?.message}`)
      const { results } = JSON.parse(readFileSync(file, 'utf8')) as { results: Array<{ median: number }> }
      hyperfine.set(label, results[0]!.median * 1000)
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

const load = (await import('node:os')).loadavg().map((value) => value.toFixed(1)).join(', ')
console.log(`personhood serve, spawn to the URL line: ${runs} runs each, Node ${process.version}, load average ${load}\n`)
console.log(`| Command | Median | p90 | Min | Max | \`ready in\` (median) |${withHyperfine ? ' hyperfine median |' : ''}`)
console.log(`|---|---:|---:|---:|---:|---:|${withHyperfine ? '---:|' : ''}`)
for (const { label } of cases) {
  const values = wall.get(label)!
  const row = [label, ms(quantile(values, 0.5)), ms(quantile(values, 0.9)), ms(Math.min(...values)), ms(Math.max(...values)), ms(quantile(ready.get(label)!, 0.5))]
  if (withHyperfine) row.push(ms(hyperfine.get(label)!))
  console.log(`| ${row.join(' | ')} |`)
}
console.log(`| \`node -e ""\` (the floor) | ${ms(quantile(floor, 0.5))} | ${ms(quantile(floor, 0.9))} | ${ms(Math.min(...floor))} | ${ms(Math.max(...floor))} | | ${withHyperfine ? ' |' : ''}`)
