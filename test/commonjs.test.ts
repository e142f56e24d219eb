/**
 * A CommonJS caller: `require('personhood')` and `require()` of every subpath export work on the
 * Node versions `engines` names (20.19 and newer load ES modules through require() when their graph
 * has no top-level await), and give the same bindings as `import()`. Run against the built dist/,
 * in a separate Node process, the package resolved by its own name as an installed one would be.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, root } from './helpers/built.js'

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; engines: { node: string } }
const specifiers = Object.keys(manifest.exports)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => (subpath === '.' ? 'personhood' : `personhood/${subpath.slice(2)}`))

/** Requires, then imports, `specifier` in a CommonJS Node process; what each gave, or the error. */
function load(specifier: string): { status: number | null; stdout: string; stderr: string } {
  const script = `
    const required = require(${JSON.stringify(specifier)})
    import(${JSON.stringify(specifier)}).then((imported) => {
      const keys = Object.keys(imported).filter((key) => key !== 'default').sort()
      const differ = keys.filter((key) => required[key] !== imported[key])
      console.log(JSON.stringify({ keys: keys.length, required: Object.keys(required).filter((key) => key !== 'default' && key !== '__esModule').length, differ }))
    })`
  return spawnSync(process.execPath, ['--input-type=commonjs', '-e', script], { cwd: root, encoding: 'utf8' })
}

beforeAll(() => ensureBuilt(), 120_000)

describe('require() from CommonJS', () => {
  it(`the test runs on a Node that engines names (${manifest.engines.node})`, () => {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number]
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true)
  })

  it.each(specifiers)("require('%s') gives import()'s bindings", (specifier) => {
    const result = load(specifier)
    expect(result.stderr).not.toMatch(/Error/)
    expect(result.status).toBe(0)
    const loaded = JSON.parse(result.stdout) as { keys: number; required: number; differ: string[] }
    expect(loaded.keys).toBeGreaterThan(0)
    expect(loaded).toEqual({ keys: loaded.keys, required: loaded.keys, differ: [] })
  })
})
