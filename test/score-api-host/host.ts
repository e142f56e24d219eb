/**
 * The faithful score-api host: lays a temporary folder out as snapshot-labs/score-api is laid out
 * (`src/strategies/utils.ts`, the registries `strategies/index.ts` and `validations/index.ts`,
 * `validations/validation.ts`, from `layout/`), copies strategy and validation folders in, compiles
 * the whole with TypeScript 4.7 and score-api's compiler options (CommonJS), and `require`s the
 * compiled output as score-api's loader does. A folder that does not compile is a
 * {@link ScoreApiCompileError} with TypeScript's messages; one that does not load is a
 * {@link ScoreApiLoadError} naming the folder and the error (score-api itself would only log it).
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, sep } from 'node:path'

const repositoryRoot = join(import.meta.dirname, '..', '..')
const layoutDir = join(import.meta.dirname, 'layout')
const tsc = join(repositoryRoot, 'node_modules', 'typescript47', 'bin', 'tsc')

/** TypeScript 4.7 refused the laid-out tree; the message holds its diagnostics. */
export class ScoreApiCompileError extends Error {
  override name = 'ScoreApiCompileError'
}

/** A folder compiled but its module threw when required. */
export class ScoreApiLoadError extends Error {
  override name = 'ScoreApiLoadError'
}

/** score-api's strategy function. */
export type ScoreApiStrategyFunction = (
  space: string,
  network: string,
  provider: unknown,
  addresses: string[],
  options: Record<string, unknown>,
  snapshot: number | 'latest',
) => Promise<Record<string, number>>

/** A registry entry, as score-api's `strategies/index.ts` builds it. */
export type LoadedStrategy = {
  strategy: ScoreApiStrategyFunction
  author?: string
  version?: string
  examples: unknown
  schema: Record<string, unknown> | null
  about: string
  supportedProtocols: string[]
  dependOnOtherAddress?: boolean
} & Record<string, unknown>

/** A validation class, as score-api's `validations/validation.ts` subclasses are. */
export type LoadedValidationClass = new (
  author: string,
  space: string,
  network: string,
  snapshot: number | 'latest',
  params: unknown,
) => { id: string; github: string; version: string; title: string; description: string; validate(author?: string): Promise<boolean> }

/** What `require('src/strategies')` gives score-api's tests. */
export type ScoreApi = {
  strategies: Record<string, LoadedStrategy>
  validations: Record<string, { validation: LoadedValidationClass; examples: unknown; schema: Record<string, unknown> | null; about: string }>
  utils: {
    getScoresDirect(space: string, strategies: { name: string; network?: string; params: Record<string, unknown> }[], network: string, provider: unknown, addresses: string[], snapshot: number | 'latest'): Promise<Record<string, number>[]>
    getProvider(network: string): unknown
    getSnapshots(network: string, snapshot: number | 'latest', provider: unknown, networks: string[]): Promise<Record<string, number | 'latest'>>
    getBlockNumber(provider: unknown): Promise<number>
    sha256(text: string): string
  }
}

/** A laid-out, compiled score-api tree. */
export type ScoreApiBuild = {
  /** The temporary score-api root. */
  dir: string
  /**
   * Requires the compiled tree as score-api starts: a fresh copy of the registries, the folders
   * and snapshot.js (no module-level cache kept from an earlier load: a cold start). Set the
   * environment first: a folder may read it when loaded, as score-api's process has it from start.
   * @throws {ScoreApiLoadError} when a folder failed to load.
   */
  load(): ScoreApi
  remove(): void
}

/** Folders to lay out: name to the folder's directory. */
export type ScoreApiFolders = { strategies?: Record<string, string>; validations?: Record<string, string> }

/** Lays out and compiles; throws {@link ScoreApiCompileError} with TypeScript 4.7's diagnostics. */
export function buildScoreApi(folders: ScoreApiFolders): ScoreApiBuild {
  mkdirSync(join(repositoryRoot, '.tmp'), { recursive: true })
  // Under the repository, so `@snapshot-labs/snapshot.js` and `@ethersproject/*` resolve from its node_modules.
  const dir = mkdtempSync(join(repositoryRoot, '.tmp', 'score-api-'))
  cpSync(layoutDir, dir, { recursive: true })
  for (const [kind, entries] of Object.entries(folders) as [keyof ScoreApiFolders, Record<string, string>][]) {
    for (const [name, source] of Object.entries(entries)) {
      cpSync(source, join(dir, 'src', 'strategies', kind, name), { recursive: true, filter: (path) => !path.endsWith('.test.ts') })
    }
  }
  const compiled = spawnSync(process.execPath, [tsc, '-p', '.'], { cwd: dir, encoding: 'utf8' })
  if (compiled.status !== 0) {
    const lines = `${compiled.stdout}${compiled.stderr}`.replaceAll(`${dir}${sep}`, '').trim().split('\n')
    const errors = lines.filter((line) => /error TS\d+/.test(line)).length
    const shown = lines.length > 40 ? [...lines.slice(0, 40), `... ${lines.length - 40} more lines`] : lines
    rmSync(dir, { recursive: true, force: true })
    throw new ScoreApiCompileError(`TypeScript 4.7 (score-api's compiler options) does not compile the folders (${errors} errors):\n${shown.join('\n')}`)
  }
  const build = join(dir, 'build')
  // score-api's postbuild: the folders' README.md and JSON files beside the compiled code.
  cpSync(join(dir, 'src'), join(build, 'src'), { recursive: true, filter: (path) => !/\.ts$/.test(path) })
  return {
    dir,
    load() {
      const require = createRequire(join(dir, 'package.json'))
      for (const key of Object.keys(require.cache)) {
        if (key.startsWith(build) || key.includes(`${sep}@snapshot-labs${sep}snapshot.js${sep}`)) delete require.cache[key]
      }
      const api = (require(join(build, 'src', 'strategies', 'index.js')) as { default: ScoreApi }).default
      const failures = [
        ...Object.entries((require(join(build, 'src', 'strategies', 'strategies', 'index.js')) as { loadErrors: Record<string, unknown> }).loadErrors).map(([name, error]) => ['strategies', name, error] as const),
        ...Object.entries((require(join(build, 'src', 'strategies', 'validations', 'index.js')) as { loadErrors: Record<string, unknown> }).loadErrors).map(([name, error]) => ['validations', name, error] as const),
      ]
      if (failures.length) {
        throw new ScoreApiLoadError(failures.map(([kind, name, error]) => `${kind}/${name} does not load: ${error instanceof Error ? error.message : String(error)}`).join('\n'), { cause: failures[0]?.[2] })
      }
      return api
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** Runs `run` with `env` set in `process.env`, restoring the earlier values afterwards. */
export async function withEnvironment<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
  Object.assign(process.env, env)
  try {
    return await run()
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
}
