/**
 * The root `personhood` is the library only: its module graph holds no server, no demo world, no
 * CLI or audit code, and no hono or Node built-in (node:fs, node:crypto...), so a Snapshot strategy
 * or a browser bundle pays only for the library. The server, the world and the CLI are subpath
 * exports. The graph is the one esbuild follows from the source (type-only imports erased, as in
 * the build).
 */
import { readFileSync } from 'node:fs'
import { build, type Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'

const root = new URL('..', import.meta.url).pathname

async function graph(entry: string): Promise<{ files: string[]; external: string[] }> {
  const result = await build({
    entryPoints: [`${root}${entry}`],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    absWorkingDir: root,
  })
  const metafile = result.metafile as Metafile
  const files = Object.keys(metafile.inputs)
  const external = new Set<string>()
  for (const input of Object.values(metafile.inputs)) {
    for (const imported of input.imports) if (imported.external) external.add(imported.path)
  }
  return { files, external: [...external].sort() }
}

describe('the root entry point', () => {
  it('loads only the library: no server, world, CLI, audit or local-chain module', async () => {
    const { files } = await graph('src/index.ts')
    expect(files.filter((file) => /^src\/(server|world|cli|audit|devchain)\//.test(file))).toEqual([])
    // The library's folders are all there (a graph that lost them would pass the check above).
    const folders = new Set(files.map((file) => file.split('/')[1]))
    expect([...folders].sort()).toEqual(['chain', 'clients', 'errors', 'http', 'index.ts', 'rules', 'schemas', 'strategy', 'utils', 'verify', 'version.ts'])
  })

  it('imports no Node built-in and no server package, only the library dependencies', async () => {
    const { external } = await graph('src/index.ts')
    expect(external.filter((path) => path.startsWith('node:') || /^(fs|crypto|path|os|http|child_process)$/.test(path))).toEqual([])
    const packages = new Set(external.map((path) => (path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0])))
    expect([...packages].sort()).toEqual(['viem', 'zod'])
  })

  it('leaves the server, the world and the CLI to their subpaths, which do load them', async () => {
    const server = await graph('src/server/index.ts')
    expect(server.external).toContain('hono')
    const world = await graph('src/world/index.ts')
    expect(world.files).toContain('src/world/generate/index.ts')
    const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { exports: Record<string, { import?: string }> }
    expect(Object.fromEntries(Object.entries(manifest.exports).map(([key, value]) => [key, value.import ?? value]))).toMatchObject({
      '.': './dist/index.js',
      './audit': './dist/audit/index.js',
      './server': './dist/server/index.js',
      './world': './dist/world/index.js',
      './cli': './dist/cli/index.js',
    })
  })
})

describe('personhood/audit', () => {
  it('loads the audit and the library under it: no CLI, server, demo world or local chain', async () => {
    const { files } = await graph('src/audit/index.ts')
    expect(files.filter((file) => /^src\/(cli|server|world|devchain|strategy-server)\//.test(file))).toEqual([])
    expect(files).toContain('src/audit/audit.ts')
    expect(files).toContain('src/clients/snapshot-hub.ts')
    expect(files).toContain('src/audit/report/write.ts')
  })

  it('names its exports one by one (no export *), and they are what a DAO tool needs', async () => {
    const source = readFileSync(`${root}src/audit/index.ts`, 'utf8')
    expect(source).not.toMatch(/export \*/)
    const entry = await import('../src/audit/index.js')
    expect(Object.keys(entry).sort()).toEqual([
      'audit',
      'auditCsvChunks',
      'auditCsvColumns',
      'auditFiles',
      'auditHtmlChunks',
      'auditJsonChunks',
      'auditTitle',
      'auditVoterLine',
      'createSnapshotHubClient',
      'defaultAuditStrategy',
      'defaultNetwork',
      'defaultSnapshotHubUrl',
      'latestVotePerVoter',
      'parseVotes',
      'renderAuditHtml',
      'renderAuditMarkdown',
      'renderAuditSummaryTable',
      'summarizeAudit',
      'verificationMethods',
      'writeAuditOutputs',
    ])
  })
})
