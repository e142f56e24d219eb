/**
 * What `npm install personhood` puts on a user's disk: the package is packed (`npm pack`, which
 * builds it through `prepare`), the tarball installed with `npm install` into a fresh app in a
 * temporary folder (its dependencies come from the npm registry, as a user's would), and the app's
 * node_modules measured. Prints a markdown table: the total and the largest packages, each as the
 * sum of its files' sizes (what npm calls the unpacked size) and as the disk space its files take
 * (4 KiB blocks: many small files weigh more on disk than their bytes). The target is a total under
 * 60 MB; optional peer dependencies (the local chain's EVM, `@nomicfoundation/edr`) are not installed,
 * as npm does not install them.
 *
 * Run (needs the npm registry):
 *
 *   npx tsx bench/install-size.ts              # the 12 largest packages
 *   npx tsx bench/install-size.ts --top 20
 *   npx tsx bench/install-size.ts --keep       # keep the temporary app and print its path
 */
import { spawnSync } from 'node:child_process'
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

const root = new URL('..', import.meta.url).pathname

const args = process.argv.slice(2)
const topFlag = args.indexOf('--top')
const top = topFlag === -1 ? 12 : Number(args[topFlag + 1])
if (!Number.isSafeInteger(top) || top < 1) throw new Error(`--top needs a positive integer, got ${String(args[topFlag + 1])}`)
const keep = args.includes('--keep')
const targetBytes = 60_000_000

/** Runs npm with the given arguments in a folder; throws with npm's output when it fails. */
function npm(cwd: string, npmArgs: string[]): string {
  const result = spawnSync('npm', npmArgs, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) throw new Error(`npm ${npmArgs.join(' ')} failed (exit ${String(result.status)}):\n${result.stderr}${result.stdout}`)
  return result.stdout
}

type Size = { files: number; bytes: number; diskBytes: number }
const emptySize = (): Size => ({ files: 0, bytes: 0, diskBytes: 0 })

/**
 * Sizes of every package under a node_modules folder, by the package's path inside it
 * (`viem`, `@noble/curves`, `ox/node_modules/@noble/hashes`): a nested node_modules counts for the
 * packages inside it, not for the package that holds it.
 */
function measurePackages(nodeModules: string): Map<string, Size> {
  const sizes = new Map<string, Size>()
  const addTree = (dir: string, size: Size) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name === 'node_modules') addPackages(path)
        else addTree(path, size)
      } else if (entry.isFile()) {
        const stat = lstatSync(path)
        size.files += 1
        size.bytes += stat.size
        size.diskBytes += Math.ceil(stat.size / 4096) * 4096
      }
    }
  }
  const addPackage = (dir: string) => {
    const size = emptySize()
    sizes.set(relative(nodeModules, dir), size)
    addTree(dir, size)
  }
  const addPackages = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue // .bin (links), .package-lock.json
      const path = join(dir, entry.name)
      if (entry.name.startsWith('@')) {
        for (const scoped of readdirSync(path, { withFileTypes: true })) if (scoped.isDirectory()) addPackage(join(path, scoped.name))
      } else addPackage(path)
    }
  }
  addPackages(nodeModules)
  return sizes
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
const count = (value: number) => value.toLocaleString('en-US')

const work = mkdtempSync(join(tmpdir(), 'personhood-install-size-'))
try {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  process.stderr.write(`packing personhood ${version} (npm pack builds it first)...\n`)
  const packed = JSON.parse(npm(root, ['pack', '--json', '--pack-destination', work])) as { filename: string; size: number; unpackedSize: number }[]
  const tarball = packed[0]
  if (!tarball) throw new Error('npm pack reported no tarball')
  const app = join(work, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'install-size-app', private: true, type: 'module' }, null, 2)}\n`)
  process.stderr.write(`installing ${tarball.filename} into a fresh app (from the npm registry)...\n`)
  npm(app, ['install', join(work, tarball.filename), '--no-audit', '--no-fund'])

  const sizes = measurePackages(join(app, 'node_modules'))
  const total = emptySize()
  for (const size of sizes.values()) {
    total.files += size.files
    total.bytes += size.bytes
    total.diskBytes += size.diskBytes
  }
  const ranked = [...sizes.entries()].sort((a, b) => b[1].bytes - a[1].bytes)
  const npmVersion = npm(root, ['--version']).trim()
  const lines = [
    `\`npm install\` of personhood ${version} (tarball ${mb(tarball.size)}, ${mb(tarball.unpackedSize)} unpacked) into an empty app; npm ${npmVersion}, Node ${process.version}, ${process.platform}-${process.arch}.`,
    '',
    '| package | files | size (bytes of files) | on disk (4 KiB blocks) |',
    '| --- | ---: | ---: | ---: |',
    `| **all ${count(sizes.size)} packages** | ${count(total.files)} | **${mb(total.bytes)}** | ${mb(total.diskBytes)} |`,
    ...ranked.slice(0, top).map(([name, size]) => `| ${name} | ${count(size.files)} | ${mb(size.bytes)} | ${mb(size.diskBytes)} |`),
  ]
  if (ranked.length > top) {
    const rest = ranked.slice(top).reduce((sum, [, size]) => sum + size.bytes, 0)
    lines.push(`| ${count(ranked.length - top)} others | | ${mb(rest)} | |`)
  }
  lines.push('', `Target: under ${mb(targetBytes)} (bytes of files): ${total.bytes < targetBytes ? 'met' : 'NOT met'}.`)
  process.stdout.write(`${lines.join('\n')}\n`)
  if (keep) process.stderr.write(`kept: ${app}\n`)
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true })
}
