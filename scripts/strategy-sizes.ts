/**
 * The size of each score-api folder under strategies/, as a score-api reviewer counts it: the
 * lines of every TypeScript file, generated copies of the rules (src/rules/) included, which copies
 * the folder holds, and per copy the exports nothing in the folder uses (imported by its own code or
 * another copy, or named by the copy's own code). Limits it checks (issue #26): no file over 525 lines, no folder over 1,100 lines of
 * TypeScript, each index.ts at most 300. docs/strategies.md holds its table; a test checks that
 * the table there is what this prints.
 *
 *   npm run strategies:sizes             (prints it)
 *   npm run strategies:sizes -- --write  (and writes it into docs/strategies.md)
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { rulesFolders } from './strategy-rules.js'

/** What score-api has merged (issue #26): the limits the table is held to. */
export const sizeLimits = { file: 525, folder: 1100, index: 300 }

/** One file of a folder. */
export type FolderFile = {
  file: string
  lines: number
  copy: boolean
  exports: string[]
  unused: string[]
}

/** One folder: its files and its total. */
export type FolderSize = { folder: string; files: FolderFile[]; lines: number }

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0)

/** The names a module exports (`export const|function|class|type|async function NAME`). */
export function exportedNames(text: string): string[] {
  return [...text.matchAll(/^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|function|class|type|interface|enum)\s+([A-Za-z_$][\w$]*)/gm)].map((match) => match[1] as string)
}

/** The names a text imports from `./<topic>` (type-only ones too). */
export function importedNames(text: string, topic: string): string[] {
  const names: string[] = []
  const pattern = new RegExp(`import\\s+(?:type\\s+)?\\{([^}]*)\\}\\s*from\\s*'\\./${topic}(?:\\.js)?'`, 'g')
  for (const match of text.matchAll(pattern)) {
    for (const part of (match[1] as string).split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
      if (name) names.push(name)
    }
  }
  return names
}

/** Every folder under strategies/ with its files' sizes and its copies' unused exports. */
export function folderSizes(root: string): FolderSize[] {
  return rulesFolders(root)
    .filter(({ folder }) => folder.startsWith('strategies/') && existsSync(join(root, folder)))
    .map(({ folder, topics }) => {
      const names = readdirSync(join(root, folder))
        .filter((file) => file.endsWith('.ts'))
        .sort()
      const texts = new Map(names.map((file) => [file, readFileSync(join(root, folder, file), 'utf8')]))
      const files = names.map((file): FolderFile => {
        const text = texts.get(file) as string
        const topic = file.slice(0, -3)
        const copy = topics.includes(topic) && text.startsWith('// Generated from personhood src/rules/')
        const exports = copy ? exportedNames(text) : []
        const used = new Set([...texts].filter(([other]) => other !== file).flatMap(([, other]) => importedNames(other, topic)))
        // Used: imported by another file, or named by the module's own code (a type of a parameter).
        const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
        const named = (name: string) => (code.match(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g')) ?? []).length > 1
        return {
          file,
          lines: lineCount(text),
          copy,
          exports,
          unused: exports.filter((name) => !used.has(name) && !named(name)),
        }
      })
      return {
        folder,
        files,
        lines: files.reduce((sum, file) => sum + file.lines, 0),
      }
    })
}

/** The table docs/strategies.md holds: one row per file, then the folder's total. */
export function sizeTable(sizes: readonly FolderSize[]): string {
  const rows = ['| folder | file | lines | copy of src/rules/ | exports the folder never uses |', '| --- | --- | ---: | --- | --- |']
  for (const { folder, files, lines } of sizes) {
    for (const file of files) {
      const unused = file.copy ? (file.unused.length === 0 ? 'none' : `${file.unused.length} of ${file.exports.length}: ${file.unused.join(', ')}`) : ''
      rows.push(`| ${folder} | ${file.file} | ${file.lines} | ${file.copy ? 'yes' : ''} | ${unused} |`)
    }
    const copies = files.filter((file) => file.copy)
    rows.push(`| **${folder}** | **total** | **${lines}** | ${copies.length} copies, ${copies.reduce((sum, file) => sum + file.lines, 0)} lines | |`)
  }
  return rows.join('\n')
}

/** What breaks score-api's sizes: files over 525 lines, folders over 1,100, an index.ts over 300. */
export function sizeProblems(sizes: readonly FolderSize[]): string[] {
  const problems: string[] = []
  for (const { folder, files, lines } of sizes) {
    if (lines > sizeLimits.folder) problems.push(`${folder}: ${lines} lines of TypeScript (at most ${sizeLimits.folder})`)
    for (const file of files) {
      if (file.lines > sizeLimits.file) problems.push(`${folder}/${file.file}: ${file.lines} lines (at most ${sizeLimits.file})`)
      if (file.file === 'index.ts' && file.lines > sizeLimits.index) problems.push(`${folder}/index.ts: ${file.lines} lines (aim: at most ${sizeLimits.index})`)
    }
  }
  return problems
}

/** Where docs/strategies.md holds the table. */
export const docMarkers = { start: '<!-- strategies:sizes start -->', end: '<!-- strategies:sizes end -->' }

/** The table as docs/strategies.md holds it (between its markers); undefined without them. */
export function documentedTable(doc: string): string | undefined {
  const start = doc.indexOf(docMarkers.start)
  const end = doc.indexOf(docMarkers.end)
  return start < 0 || end < start ? undefined : doc.slice(start + docMarkers.start.length, end).trim()
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(import.meta.dirname, '..')
  const sizes = folderSizes(root)
  const table = sizeTable(sizes)
  console.log(table)
  const problems = sizeProblems(sizes)
  if (problems.length > 0) console.log(`\nOver score-api's sizes:\n${problems.map((problem) => `- ${problem}`).join('\n')}`)
  if (process.argv.includes('--write')) {
    const path = join(root, 'docs', 'strategies.md')
    const doc = readFileSync(path, 'utf8')
    if (documentedTable(doc) === undefined) throw new Error(`docs/strategies.md has no ${docMarkers.start} ... ${docMarkers.end}`)
    const start = doc.indexOf(docMarkers.start) + docMarkers.start.length
    writeFileSync(path, `${doc.slice(0, start)}\n\n${table}\n\n${doc.slice(doc.indexOf(docMarkers.end))}`)
    console.log('docs/strategies.md written')
  }
}
