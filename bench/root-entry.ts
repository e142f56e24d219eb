/**
 * What `import 'personhood'` costs a caller, for one or more built checkouts side by side (for
 * example the main before the root became library-only, and now): the root's import time in fresh
 * Node processes (median, runs interleaved so load on the machine falls on every checkout alike),
 * its bundle size (esbuild, minified, dependencies included, for Node and for a browser; raw and
 * gzip), its export count, the modules its bundle holds, and what it drags in (hono, the server, the
 * world generator, Node built-ins).
 *
 * Each checkout is `label=directory` (a directory with a `package.json` named personhood and a built
 * `dist/`); default `now=.` (this checkout, after `npm run build`). Run:
 *
 *   npx tsx bench/root-entry.ts --runs 21 before=/tmp/before now=.
 *
 * With hyperfine on the PATH, each checkout's import is also timed by hyperfine (median of its
 * runs, `node -e "await import('personhood')"`). Prints a markdown table.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

const benchRoot = new URL('..', import.meta.url).pathname
const esbuild = join(benchRoot, 'node_modules/.bin/esbuild')

const args = process.argv.slice(2)
const runsFlag = args.indexOf('--runs')
const runs = runsFlag === -1 ? 15 : Number(args[runsFlag + 1])
if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`--runs needs a positive integer, got ${String(args[runsFlag + 1])}`)
const targetArgs = args.filter((arg, index) => arg !== '--runs' && index !== runsFlag + 1)
const targets = (targetArgs.length > 0 ? targetArgs : ['now=.']).map((arg) => {
  const [label, directory] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, arg]
  const dir = resolve(directory!)
  const name = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name
  if (name !== 'personhood') throw new Error(`${dir} is not a personhood checkout (package name ${String(name)})`)
  statSync(join(dir, 'dist/index.js')) // built?
  return { label: label!, dir, commit: gitCommit(dir) }
})

function gitCommit(dir: string): string {
  const result = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, encoding: 'utf8' })
  return result.status === 0 ? result.stdout.trim() : '?'
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const importScript = `const t = performance.now(); const m = await import('personhood'); process.stdout.write(JSON.stringify({ ms: performance.now() - t, exports: Object.keys(m).length }))`

/** One fresh Node process importing the root: the import's own time, the process's wall time, the export count. */
function importOnce(dir: string): { importMs: number; wallMs: number; exports: number } {
  const started = process.hrtime.bigint()
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', importScript], { cwd: dir, encoding: 'utf8' })
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6
  const { ms, exports } = JSON.parse(out) as { ms: number; exports: number }
  return { importMs: ms, wallMs, exports }
}

/** A fresh Node process that imports nothing: the floor under every wall time. */
function emptyOnce(): number {
  const started = process.hrtime.bigint()
  execFileSync(process.execPath, ['--input-type=module', '-e', ''], { encoding: 'utf8' })
  return Number(process.hrtime.bigint() - started) / 1e6
}

type Bundle = { bytes: number; gzip: number; modules: string[]; builtins: string[] }

/** The root bundled by esbuild, minified, dependencies included. For the browser, Node built-ins are left external (and listed). */
function bundle(dir: string, platform: 'node' | 'browser'): Bundle {
  const out = mkdtempSync(join(tmpdir(), 'personhood-root-entry-'))
  try {
    const outfile = join(out, 'out.js')
    const metafile = join(out, 'meta.json')
    execFileSync(
      esbuild,
      [
        join(dir, 'dist/index.js'),
        '--bundle',
        '--minify',
        `--platform=${platform}`,
        '--format=esm',
        ...(platform === 'browser' ? ['--external:node:*'] : []),
        `--outfile=${outfile}`,
        `--metafile=${metafile}`,
        '--log-level=error',
      ],
      { cwd: dir },
    )
    const meta = JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, { imports: { path: string; external?: boolean }[] }> }
    const builtins = new Set<string>()
    for (const input of Object.values(meta.inputs)) {
      for (const imported of input.imports) if (imported.external && imported.path.startsWith('node:')) builtins.add(imported.path)
    }
    return { bytes: statSync(outfile).size, gzip: gzipSync(readFileSync(outfile), { level: 9 }).length, modules: Object.keys(meta.inputs), builtins: [...builtins].sort() }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

/** Hyperfine's median of `node -e "await import('personhood')"` in `dir`, in ms; undefined without hyperfine. */
function hyperfineMedian(dir: string): number | undefined {
  if (spawnSync('hyperfine', ['--version']).status !== 0) return undefined
  const out = mkdtempSync(join(tmpdir(), 'personhood-root-entry-'))
  try {
    const json = join(out, 'hyperfine.json')
    const command = `${process.execPath} --input-type=module -e "await import('personhood')"`
    const result = spawnSync('hyperfine', ['--warmup', '3', '--runs', String(runs), '--style', 'none', '--export-json', json, command], { cwd: dir, encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`hyperfine failed: ${result.stderr}`)
    const { results } = JSON.parse(readFileSync(json, 'utf8')) as { results: { median: number }[] }
    return results[0]!.median * 1000
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`
const ms = (value: number): string => `${value.toFixed(0)} ms`

// Warm the file cache, then interleave: run i of every checkout before run i + 1 of any.
for (const target of targets) importOnce(target.dir)
const samples = targets.map(() => ({ importMs: [] as number[], wallMs: [] as number[], exports: 0 }))
const empty: number[] = []
for (let run = 0; run < runs; run++) {
  empty.push(emptyOnce())
  targets.forEach((target, index) => {
    const sample = importOnce(target.dir)
    samples[index]!.importMs.push(sample.importMs)
    samples[index]!.wallMs.push(sample.wallMs)
    samples[index]!.exports = sample.exports
  })
}

const rows = targets.map((target, index) => {
  const node = bundle(target.dir, 'node')
  const browser = bundle(target.dir, 'browser')
  const holds = (pattern: RegExp) => node.modules.some((input) => pattern.test(input))
  const dragged = [
    holds(/node_modules\/hono\//) && 'hono',
    holds(/dist\/server\//) && 'server/',
    holds(/dist\/world\//) && 'world/',
  ].filter(Boolean)
  const hyperfine = hyperfineMedian(target.dir)
  return [
    `${target.label} (\`${target.commit}\`)`,
    String(samples[index]!.exports),
    ms(median(samples[index]!.importMs)),
    ms(median(samples[index]!.wallMs)),
    hyperfine === undefined ? '-' : ms(hyperfine),
    `${kB(node.bytes)} / ${kB(node.gzip)}`,
    `${kB(browser.bytes)} / ${kB(browser.gzip)}`,
    String(node.modules.length),
    dragged.length ? dragged.join(', ') : 'none',
    browser.builtins.length ? browser.builtins.map((name) => `\`${name}\``).join(', ') : 'none',
  ]
})

const header = [
  'Root',
  'Exports',
  'Import (median, in process)',
  'Process wall (median)',
  'Process wall (hyperfine median)',
  'Bundle, node: min / gzip',
  'Bundle, browser: min / gzip',
  'Modules',
  'Holds',
  'Node built-ins (browser)',
]
console.log(`Node ${process.version}, ${runs} interleaved runs per root; an empty \`node -e ""\` takes ${ms(median(empty))} (median).`)
console.log()
console.log(`| ${header.join(' | ')} |`)
console.log(`|${header.map((_, index) => (index === 0 || index >= 8 ? '---' : '---:')).join('|')}|`)
for (const row of rows) console.log(`| ${row.join(' | ')} |`)
