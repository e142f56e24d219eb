/**
 * The built package (`dist/`), for tests that run the bin or import `personhood` as a user would:
 * built first when it is missing or older than `src/` (`npm test` builds before the suite).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url))

function newestMtime(directory: string): number {
  let newest = 0
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

/** Builds `dist/` when it is missing or older than `src/`. */
export function ensureBuilt(): void {
  const builtCli = join(root, 'dist/cli/main.js')
  if (existsSync(builtCli) && statSync(builtCli).mtimeMs >= newestMtime(join(root, 'src'))) return
  // Type errors elsewhere in the tree do not stop tsc from emitting; the CLI must exist afterwards.
  spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' })
  if (!existsSync(builtCli)) throw new Error('npm run build did not produce dist/cli/main.js')
}
