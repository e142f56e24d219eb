/**
 * Copies the ground floor's rules (src/rules/, one dependency-free module per topic) into the
 * score-api folders that use them. A folder gets `<topic>.ts` for every module its own code imports
 * (`from './<topic>'`) and every module those import in turn (a copy may import a copy beside it),
 * and nothing else: a PR to score-api carries no dead file. score-api folders cannot import this
 * package, so they carry the copies; the library, the reference server and the folders still run
 * the same code, and test/strategies/rules-copy.test.ts fails when a copy differs from what this
 * script writes, is missing, or is left where nothing imports it.
 *
 * A copy is its source byte for byte under a generated header, but for one mechanical change: a
 * rule module imports its siblings as `'./<topic>.js'` (the package is ESM, NodeNext), and the copy
 * imports them as `'./<topic>'` (score-api is CommonJS, resolved by TypeScript 4.7 and jest).
 *
 *   npm run strategies:rules
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Where the rules live, relative to the repository root. */
export const rulesFolder = 'src/rules'

/** The parents of the score-api folders. */
const parents = ['strategies']

/** A sibling import in a rule module: `import ... from './<topic>.js';` (possibly over several lines). */
const siblingImport = /(\bfrom\s+')\.\/([a-z0-9-]+)\.js(';)/g

/** The first line of every copy's header: how a generated copy is told from a folder's own file. */
const generatedMark = '// Generated from personhood src/rules/'

/** The topics of the ground floor: the names of src/rules/*.ts (tests aside). */
export function ruleTopics(root: string): string[] {
  return readdirSync(join(root, rulesFolder))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => file.slice(0, -3))
    .sort()
}

/** The source of a topic, relative to the repository root. */
export function ruleSource(topic: string): string {
  return `${rulesFolder}/${topic}.ts`
}

/** The header of a copy: two comment lines of at most 80 columns, then a blank line. The library and the folder run the same code; the copy test fails when a copy drifts. */
export function copyHeader(topic: string): string {
  const lines = [`Generated from personhood ${ruleSource(topic)}`, 'by `npm run strategies:rules`: change the source, not this copy.']
  return [...lines.map((line) => `// ${line}`), '', ''].join('\n')
}

/** The topics a text imports as `./<topic>` or `./<topic>.js`. */
function importedTopics(text: string, topics: readonly string[]): string[] {
  const found = new Set<string>()
  for (const match of text.matchAll(/\bfrom\s+['"]\.\/([a-z0-9-]+)(?:\.js)?['"]/g)) {
    if (topics.includes(match[1] as string)) found.add(match[1] as string)
  }
  return [...found]
}

/** What a copy of `topic` must hold, given its source's text. */
export function renderCopy(topic: string, source: string): string {
  return copyHeader(topic) + source.replace(siblingImport, '$1./$2$3')
}

/** Whether a file is a generated copy (its first line says so). */
function isCopy(path: string): boolean {
  return readFileSync(path, 'utf8').startsWith(generatedMark)
}

/** A score-api folder and the topics it needs: those its own code imports, and what they import. */
export type RulesFolder = { folder: string; topics: string[] }

/** Every folder under strategies/ (relative to `root`), with the topics it needs. */
export function rulesFolders(root: string): RulesFolder[] {
  const topics = ruleTopics(root)
  const sources = new Map(topics.map((topic) => [topic, readFileSync(join(root, ruleSource(topic)), 'utf8')]))
  return parents
    .filter((parent) => existsSync(join(root, parent)))
    .flatMap((parent) =>
      readdirSync(join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${parent}/${entry.name}`),
    )
    .sort()
    .map((folder) => {
      const own = readdirSync(join(root, folder))
        .filter((file) => file.endsWith('.ts') && !(topics.includes(file.slice(0, -3)) && isCopy(join(root, folder, file))))
        .map((file) => readFileSync(join(root, folder, file), 'utf8'))
      const needed = new Set<string>()
      const visit = (topic: string) => {
        if (needed.has(topic)) return
        needed.add(topic)
        for (const next of importedTopics(sources.get(topic) as string, topics)) visit(next)
      }
      for (const text of own) for (const topic of importedTopics(text, topics)) visit(topic)
      return { folder, topics: [...needed].sort() }
    })
}

/** Every copy the folders need, relative to the repository root. */
export function rulesCopies(root: string): string[] {
  return rulesFolders(root)
    .flatMap(({ folder, topics }) => topics.map((topic) => `${folder}/${topic}.ts`))
    .sort()
}

/**
 * A copy that is not what the script would write: missing where the folder needs the topic, with
 * other content, or left in a folder that no longer needs it.
 */
export type RulesCopyProblem = { path: string; problem: 'missing' | 'differs' | 'unused' }

/** The copies of every folder under `root`, what each must hold, and the stale ones. */
function plan(root: string): { expected: Map<string, string>; stale: string[] } {
  const topics = ruleTopics(root)
  const expected = new Map<string, string>()
  const stale: string[] = []
  for (const { folder, topics: needed } of rulesFolders(root)) {
    for (const topic of needed) expected.set(`${folder}/${topic}.ts`, renderCopy(topic, readFileSync(join(root, ruleSource(topic)), 'utf8')))
    for (const file of readdirSync(join(root, folder))) {
      const topic = file.slice(0, -3)
      if (file.endsWith('.ts') && topics.includes(topic) && !needed.includes(topic) && isCopy(join(root, folder, file))) stale.push(`${folder}/${file}`)
    }
  }
  return { expected, stale }
}

/** Compares every copy under `root` with what the script would write there. */
export function findRulesCopyProblems(root: string): RulesCopyProblem[] {
  const { expected, stale } = plan(root)
  const problems: RulesCopyProblem[] = stale.map((path) => ({ path, problem: 'unused' }))
  for (const [path, content] of expected) {
    if (!existsSync(join(root, path))) problems.push({ path, problem: 'missing' })
    else if (readFileSync(join(root, path), 'utf8') !== content) problems.push({ path, problem: 'differs' })
  }
  return problems.sort((a, b) => a.path.localeCompare(b.path))
}

/** Writes every copy under `root` and removes the stale ones; returns the paths written. */
export function writeRulesCopies(root: string): string[] {
  const { expected, stale } = plan(root)
  for (const path of stale) {
    rmSync(join(root, path))
    console.log(`${path} removed: its folder no longer imports it`)
  }
  for (const [path, content] of expected) writeFileSync(join(root, path), content)
  return [...expected.keys()].sort()
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const path of writeRulesCopies(join(import.meta.dirname, '..'))) console.log(`${path} written`)
}
