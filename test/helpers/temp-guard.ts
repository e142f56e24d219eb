/**
 * Vitest global setup: the suite must not leave files behind. Every run gets a temp folder of its
 * own (TMPDIR, so `os.tmpdir()` in the test workers and in every process they spawn points into
 * it); at teardown whatever is left there, or new in the repository's `.tmp/` besides the solc
 * cache, is listed and the run fails (exit code 1), and the folder is removed.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { root } from './built.js'

/** Entries of the repository's `.tmp/` that are caches on purpose (compiled contracts, keyed by a hash of the sources). */
const repoCaches = new Set(['solc'])

/** How many leftovers are listed at most. */
const leftoverLimit = 50

/** Paths under `directory` (files and empty folders), relative to it, at most `limit` of them. */
export function leftovers(directory: string, limit = leftoverLimit): string[] {
  const found: string[] = []
  const walk = (folder: string) => {
    const entries = readdirSync(folder, { withFileTypes: true })
    if (entries.length === 0 && folder !== directory) found.push(`${relative(directory, folder)}/`)
    for (const entry of entries) {
      if (found.length >= limit) return
      const path = join(folder, entry.name)
      if (entry.isDirectory()) walk(path)
      else found.push(relative(directory, path))
    }
  }
  if (existsSync(directory)) walk(directory)
  return found
}

function repoTmpEntries(): Set<string> {
  const folder = join(root, '.tmp')
  return new Set(existsSync(folder) && statSync(folder).isDirectory() ? readdirSync(folder) : [])
}

export default function setup(): () => void {
  const outer = tmpdir()
  const runFolder = mkdtempSync(join(outer, 'personhood-test-run-'))
  const previous = { TMPDIR: process.env.TMPDIR, TSX_DISABLE_CACHE: process.env.TSX_DISABLE_CACHE }
  process.env.TMPDIR = runFolder
  // tsx keeps a compile cache in the temp folder; a fresh folder per run could never reuse it.
  process.env.TSX_DISABLE_CACHE = '1'
  const repoBefore = repoTmpEntries()

  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
    const left = leftovers(runFolder)
    rmSync(runFolder, { recursive: true, force: true })
    const repoLeft = [...repoTmpEntries()].filter((name) => !repoBefore.has(name) && !repoCaches.has(name)).map((name) => `.tmp/${name}`)
    if (left.length === 0 && repoLeft.length === 0) return
    // A teardown error only gets logged by vitest; the exit code is set here, after the closing line.
    process.exitCode = 1
    console.error(
      [
        '',
        `tests: FAILED: the suite left ${left.length + repoLeft.length}${left.length >= leftoverLimit ? '+' : ''} file(s) behind; clean them up in afterEach/afterAll of the test that made them.`,
        ...(left.length ? [`In the temp folder (${runFolder}, now removed):`, ...left.map((path) => `  ${path}`)] : []),
        ...(repoLeft.length ? ["In the repository's .tmp/ (left in place):", ...repoLeft.map((path) => `  ${path}`)] : []),
      ].join('\n'),
    )
  }
}
