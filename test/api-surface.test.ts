/**
 * The public surface is a list someone wrote down, not whatever happens to be exported: each entry
 * point of package.json names its exports (no `export *`), docs/api.md lists the same names, and
 * an export that appears or disappears without that list changing fails here. Types-only exports
 * count: the TypeScript compiler lists them (scripts/api-surface.ts); the values are also checked
 * at run time, by importing each entry point. Every action exports its `XParameters`, `XReturnType`
 * and `XErrorType`, and the examples of the README, docs/ and the TSDoc import only names their
 * entry point exports.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { apiDocument, parseApiDocument } from '../scripts/api-docs.js'
import { checkActions, readApiSurface, type ApiEntry } from '../scripts/api-surface.js'
import { root } from './helpers/built.js'

let entries: ApiEntry[]
let exportStars: string[]

beforeAll(() => {
  ;({ entries, exportStars } = readApiSurface(root))
}, 120_000)

const documented = () => parseApiDocument(readFileSync(join(root, apiDocument), 'utf8'))

/** What to do when the list and the exports differ. */
const howToFix = (specifier: string) =>
  `The public surface of ${specifier} changed without ${apiDocument} changing. If the change is meant, run \`npm run api:docs\` ` +
  `(or edit ${apiDocument} by hand: one line per name under "## \`${specifier}\`"), check the description of each new name and commit ` +
  `the file with the change; if it is not meant, remove the export from the entry point (internal code imports the module itself).`

describe('the public surface', () => {
  it('has the entry points of package.json, docs/api.md a section for each', () => {
    expect([...documented().keys()]).toEqual(entries.map((entry) => entry.specifier))
  })

  it('is what docs/api.md lists, name for name, for every entry point', () => {
    const listed = documented()
    const problems = entries.flatMap((entry) => {
      const exported = entry.exports.map((item) => item.name)
      const names = listed.get(entry.specifier)?.names ?? []
      const unlisted = exported.filter((name) => !names.includes(name))
      const gone = names.filter((name) => !exported.includes(name))
      const twice = names.filter((name, index) => names.indexOf(name) !== index)
      return [
        ...(unlisted.length ? [`${entry.specifier} exports what ${apiDocument} does not list: ${unlisted.join(', ')}`] : []),
        ...(gone.length ? [`${apiDocument} lists what ${entry.specifier} does not export: ${gone.join(', ')}`] : []),
        ...(twice.length ? [`${apiDocument} lists twice under ${entry.specifier}: ${twice.join(', ')}`] : []),
        ...(unlisted.length || gone.length || twice.length ? [howToFix(entry.specifier)] : []),
      ]
    })
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('has the same values at run time as the compiler lists', async () => {
    for (const entry of entries) {
      const module = (await import(join(root, entry.source))) as Record<string, unknown>
      const values = entry.exports.filter((item) => item.kind === 'value').map((item) => item.name)
      expect(Object.keys(module).sort(), `the run-time exports of ${entry.specifier} (${entry.source})`).toEqual(values.sort())
    }
  }, 120_000)

  it('names every export: no `export *` in an entry point or an index it re-exports', () => {
    expect(exportStars, `Name each export instead (a reviewer sees a new one in the diff):\n${exportStars.join('\n')}`).toEqual([])
  })

  it('gives every action its XParameters, XReturnType and XErrorType', () => {
    const missing = entries.flatMap((entry) => checkActions(entry).filter(({ missing }) => missing.length > 0).map(({ action, missing }) => `${entry.specifier}: ${action} lacks ${missing.join(', ')}`))
    expect(missing, `An action (a function taking the client first) exports its three types beside it:\n${missing.join('\n')}`).toEqual([])
  })
})

/** Every `import { ... } from 'personhood...'` in a text, with its line. */
function packageImports(text: string): { specifier: string; names: string[]; line: number }[] {
  return [...text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'(personhood(?:\/[\w-]+)?)'/g)].map((match) => ({
    specifier: match[3]!,
    names: match[2]!
      .split(',')
      .map((name) => name.replace(/^\s*(\*\s*)?type\s+/, '').replace(/\s+as\s+\w+/, '').replace(/[\s*]/g, ''))
      .filter(Boolean),
    line: text.slice(0, match.index).split('\n').length,
  }))
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? sourceFiles(join(directory, item.name)) : item.name.endsWith('.ts') && !item.name.endsWith('.test.ts') ? [join(directory, item.name)] : [],
  )
}

describe('the examples', () => {
  it('of the README, docs/ and the TSDoc import only names their entry point exports', () => {
    const exported = new Map(entries.map((entry) => [entry.specifier, new Set(entry.exports.map((item) => item.name))]))
    const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)]
    const files = [...documents.map((file) => join(root, file)), ...sourceFiles(join(root, 'src'))]
    const problems = files.flatMap((file) =>
      packageImports(readFileSync(file, 'utf8')).flatMap(({ specifier, names, line }) => {
        const known = exported.get(specifier)
        if (!known) return [`${relative(root, file)}:${line}: ${specifier} is not an entry point`]
        const unknown = names.filter((name) => !known.has(name))
        return unknown.length ? [`${relative(root, file)}:${line}: ${specifier} does not export ${unknown.join(', ')}`] : []
      }),
    )
    expect(problems, `An example imports what the package does not export; import it from where it is public, or do not show it:\n${problems.join('\n')}`).toEqual([])
  })
})
