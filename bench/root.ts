/**
 * What `import 'personhood'` costs a caller: the built root's import time (median of fresh Node
 * processes), its minified bundle size (esbuild, platform node, dependencies included), its export
 * count, and which heavy modules its graph loads. Run after `npm run build`:
 * `npx tsx bench/root.ts [runs]`. With hyperfine on the PATH it also prints hyperfine's figure.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { readFileSync } from 'node:fs'

const root = new URL('..', import.meta.url).pathname
const entries = process.argv.slice(3).length > 0 ? process.argv.slice(3) : ['personhood']
const runs = Number(process.argv[2] ?? 15)

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** Milliseconds from process start to the end of the import, measured inside the child. */
function importMs(entry: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(entry)}); process.stdout.write(String(performance.now() - t))`
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' })
  return Number(out)
}

function bundle(entry: string): { bytes: number; gzip: number; inputs: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'personhood-bench-'))
  try {
    const outfile = join(dir, 'out.js')
    const metafile = join(dir, 'meta.json')
    execFileSync(
      join(root, 'node_modules/.bin/esbuild'),
      [entry, '--bundle', '--minify', '--platform=node', '--format=esm', `--outfile=${outfile}`, `--metafile=${metafile}`, '--log-level=error'],
      { cwd: root },
    )
    const meta = JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, unknown> }
    return { bytes: statSync(outfile).size, gzip: gzipSync(readFileSync(outfile)).length, inputs: Object.keys(meta.inputs) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const rows = []
for (const entry of entries) {
  const resolved = entry === 'personhood' ? join(root, 'dist/index.js') : entry
  importMs(entry) // warm the file cache
  const times = Array.from({ length: runs }, () => importMs(entry))
  const exports = Object.keys((await import(resolved)) as object).length
  const { bytes, gzip, inputs } = bundle(resolved)
  const loads = (pattern: RegExp) => inputs.some((input) => pattern.test(input))
  rows.push({
    entry,
    'import (ms, median)': Number(median(times).toFixed(1)),
    'min (ms)': Number(Math.min(...times).toFixed(1)),
    exports,
    'bundle (kB, min)': Number((bytes / 1024).toFixed(1)),
    'gzip (kB)': Number((gzip / 1024).toFixed(1)),
    modules: inputs.length,
    hono: loads(/node_modules\/hono\//),
    'server/': loads(/dist\/server\//),
    'world/': loads(/dist\/world\//),
  })
}
console.log(`Node ${process.version}, ${runs} runs per entry`)
console.table(rows)

if (spawnSync('hyperfine', ['--version']).status === 0) {
  for (const entry of entries) {
    const command = `node --input-type=module -e "await import('${entry}')"`
    const result = spawnSync('hyperfine', ['--warmup', '2', '--runs', String(runs), '--style', 'basic', command], { cwd: root, encoding: 'utf8' })
    console.log(result.stdout.split('\n').filter((line) => /Time|Range/.test(line)).join('\n'))
  }
}
