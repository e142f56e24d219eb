/**
 * Lays the score-api folder `strategies/human-id` out as score-api does, in a temp folder under the
 * repository's `.tmp/` (so its imports of `@ethersproject/*` resolve): `src/strategies/utils.ts`
 * (given: what the test's score-api answers) and `src/strategies/strategies/human-id/` with
 * `index.ts` and the generated copies of the rules it imports (src/rules/). The tests import the
 * copy, a fresh module each time (a cold module cache).
 */
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { vi } from 'vitest'
import { root } from '../helpers/built.js'

/** What the folder exports. */
export type HumanIdFolder = {
  strategy: (...args: unknown[]) => Promise<Record<string, number>>
  verifyHumans: (...args: unknown[]) => Promise<{
    block: { number: number; timestamp: number; chainId: number }
    voters: Record<string, { verified: boolean; credentials: Record<string, { valid: boolean; reason: string }> }>
  }>
}

/** The layout; `utils` is the text of `src/strategies/utils.ts`. */
export async function layHumanIdFolder(name: string, utils: string) {
  const layout = join(root, '.tmp', `${name}-${process.pid}`)
  const folder = join(layout, 'src/strategies/strategies/human-id')
  await mkdir(folder, { recursive: true })
  for (const file of await readdir(join(root, 'strategies/human-id'))) if (file.endsWith('.ts')) await copyFile(join(root, 'strategies/human-id', file), join(folder, file))
  await writeFile(join(layout, 'src/strategies/utils.ts'), utils)
  return {
    /** A fresh load of the folder. */
    async load(): Promise<HumanIdFolder> {
      vi.resetModules()
      return (await import(join(folder, 'index.ts'))) as HumanIdFolder
    },
    remove: () => rm(layout, { recursive: true, force: true }),
  }
}
