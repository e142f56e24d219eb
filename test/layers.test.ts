/**
 * The layering of src/ (.dependency-cruiser.cjs, run by `npm run lint:layers` in `npm test`): this
 * repository's src/ passes, and the same rules fail on a tree that imports up a layer, from one
 * folder of a layer to its neighbour, into the library's entry point from the server, or in a cycle.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = new URL('..', import.meta.url).pathname
const config = join(root, '.dependency-cruiser.cjs')
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')

/** Runs the layer check on `src` in `cwd`; its exit status and output. */
function check(cwd: string) {
  const result = spawnSync(process.execPath, [depcruise, 'src', '--config', config, '--output-type', 'err'], { cwd, encoding: 'utf8' })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

const scratch = mkdtempSync(join(tmpdir(), 'personhood-layers-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A tree of TypeScript files (path -> source) with a tsconfig, in a fresh folder. */
function tree(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name)
  const all = { 'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }), ...files }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  return dir
}

describe('the layering of src/', () => {
  it("passes on this repository's src/", () => {
    const { status, output } = check(root)
    expect(output).toContain('no dependency violations found')
    expect(status).toBe(0)
  }, 60_000)

  it('fails on an import up a layer, between neighbours, from the root entry to the server, and on a cycle', () => {
    const dir = tree('bad', {
      'src/index.ts': "export { app } from './server/app.js'\n",
      'src/errors/base.ts': 'export class BaseError extends Error {}\n',
      'src/http/paging.ts': "export { page } from '../clients/list.js'\n",
      'src/clients/list.ts': "import { BaseError } from '../errors/base.js'\nexport const page = () => new BaseError()\n",
      'src/chain/read.ts': "import { page } from '../clients/list.js'\nexport const read = page\n",
      'src/server/app.ts': "import { b } from './b.js'\nexport const app = b\n",
      'src/server/b.ts': "import { app } from './app.js'\nexport const b = () => app\n",
      'src/rules/sbt.ts': "import { BaseError } from '../errors/base.js'\nexport const rule = BaseError\n",
      'src/rules/reader.ts': "import { rule } from './sbt.js'\nimport { version } from '../version.js'\nexport const reader = [rule, version]\n",
      'src/version.ts': "export const version = '0'\n",
      'src/errors/coded.ts': "import { rule } from '../rules/sbt.js'\nexport const coded = rule\n",
      'src/gadgets/thing.ts': "import { rule } from '../rules/sbt.js'\nexport const thing = rule\n",
    })
    const { status, output } = check(dir)
    expect(status).not.toBe(0)
    expect(output).toContain('layer-http: src/http/paging.ts → src/clients/list.ts')
    expect(output).toContain('layer-chain: src/chain/read.ts → src/clients/list.ts')
    expect(output).toContain('layer-root-entry: src/index.ts → src/server/app.ts')
    expect(output).toContain('no-circular: src/server/app.ts')
    // The ground floor imports only itself; every layer may stand on it.
    expect(output).toContain('rules-import-only-rules: src/rules/sbt.ts → src/errors/base.ts')
    expect(output).toContain('rules-import-only-rules: src/rules/reader.ts → src/version.ts')
    expect(output).not.toContain('src/rules/reader.ts → src/rules/sbt.ts')
    expect(output).not.toContain('src/errors/coded.ts → src/rules/sbt.ts')
    expect(output).toContain('not-in-a-layer: src/gadgets/thing.ts → src/rules/sbt.ts')
    // Downward imports are not reported.
    expect(output).not.toContain('src/clients/list.ts → src/errors/base.ts')
  }, 60_000)

  it("fails when the audit's data walks back: a piece importing the pipeline, the pipeline importing the report, the report importing a source", () => {
    const dir = tree('audit', {
      'src/errors/base.ts': 'export class BaseError extends Error {}\n',
      'src/clients/hub.ts': "export const hub = () => 'votes'\n",
      'src/audit/types.ts': 'export type Result = { voters: number }\n',
      'src/audit/audit.ts': "import { judge } from './judge.js'\nexport const audit = () => judge()\n",
      'src/audit/judge.ts': "import type { Result } from './types.js'\nimport { render } from './report/html.js'\nexport const judge = (): Result => ({ voters: render().length })\n",
      'src/audit/sources.ts': "import { audit } from './audit.js'\nexport const sources = audit\n",
      'src/audit/report/html.ts': "import { hub } from '../../clients/hub.js'\nimport type { Result } from '../types.js'\nexport const render = (result?: Result) => hub() + String(result)\n",
      'src/audit/index.ts': "export { audit } from './audit.js'\nexport { render } from './report/html.js'\n",
    })
    const { status, output } = check(dir)
    expect(status).not.toBe(0)
    expect(output).toContain('audit-pipeline-on-top: src/audit/sources.ts → src/audit/audit.ts')
    expect(output).toContain('audit-report-last: src/audit/judge.ts → src/audit/report/html.ts')
    expect(output).toContain('audit-report-takes-data: src/audit/report/html.ts → src/clients/hub.ts')
    // The entry point, the pipeline calling its pieces, and the report reading the data shapes are fine.
    expect(output).not.toContain('src/audit/index.ts →')
    expect(output).not.toContain('src/audit/audit.ts → src/audit/judge.ts')
    expect(output).not.toContain('src/audit/report/html.ts → src/audit/types.ts')
  }, 60_000)
})
