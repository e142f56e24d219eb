/**
 * Copies the dependency-free modules of src/verify/ verbatim into each score-api folder that uses
 * them, under a header that says the file is generated and names its source: src/verify/rules.ts
 * (the rules) as `rules.ts` wherever a folder's code imports `./rules`, and
 * src/verify/human-id-reader.ts (the deployless reader's protocol) as `reader.ts` wherever it
 * imports `./reader`; a copy no code imports is removed. score-api folders cannot import this
 * package, so they carry the copies; the library, the reference server and the folders still run
 * the same code, and test/strategies/rules-copy.test.ts fails when a copy differs from what this
 * script writes.
 *
 *   npm run strategies:rules
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** A module copied into the folders: its source (relative to the repository root), the copy's name, and the copy's header. */
export type CopiedModule = { source: string; name: string; header: string }

/** The header of a copy: comment lines of at most 80 columns (prettier leaves them), then a blank line. */
function header(lines: string[]): string {
  return [...lines.map((line) => `// ${line}`), '', ''].join('\n')
}

/** The rules. */
export const rulesModule: CopiedModule = {
  source: 'src/verify/rules.ts',
  name: 'rules',
  header: header([
    'Generated from personhood src/verify/rules.ts by `npm run strategies:rules`.',
    'Do not edit: change the source and run the command again. The library, its',
    'reference server and this folder judge with this same code, and a test fails',
    'when this copy differs from its source.',
  ]),
}

/** The deployless reader's protocol (strategies/human-id/reader.sol). */
export const readerModule: CopiedModule = {
  source: 'src/verify/human-id-reader.ts',
  name: 'reader',
  header: header([
    'Generated from personhood src/verify/human-id-reader.ts by',
    '`npm run strategies:rules`. Do not edit: change the source and run the',
    'command again. The library and this folder call the reader (./reader.sol)',
    'with this same code, and a test fails when this copy differs from its source.',
  ]),
}

/** Every module copied, in the order they are written. */
export const copiedModules: readonly CopiedModule[] = [rulesModule, readerModule]

/** The source of the rules, relative to the repository root. */
export const rulesSource = rulesModule.source

/** The parents of the score-api folders. */
const parents = ['strategies', 'validations']

/** Whether a folder's code (any .ts but the copies) imports `./<name>`. */
function importsModule(folder: string, name: string): boolean {
  const copies = new Set(copiedModules.map((module) => `${module.name}.ts`))
  const pattern = new RegExp(`from\\s+['"]\\./${name}['"]`)
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ts') && !copies.has(file))
    .some((file) => pattern.test(readFileSync(join(folder, file), 'utf8')))
}

/**
 * Every folder under strategies/ and validations/, relative to the repository root, with whether
 * its code imports `./<name>` of the module (it then needs the copy) or not (it must not carry one:
 * a PR to score-api has no dead file). Default: the rules.
 */
export function rulesFolders(root: string, module: CopiedModule = rulesModule): Array<{ folder: string; needsCopy: boolean }> {
  return parents
    .filter((parent) => existsSync(join(root, parent)))
    .flatMap((parent) =>
      readdirSync(join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => ({ folder: `${parent}/${entry.name}`, needsCopy: importsModule(join(root, parent, entry.name), module.name) })),
    )
    .sort((a, b) => a.folder.localeCompare(b.folder))
}

/** The copies of a module (default: the rules) the folders need, relative to the repository root. */
export function rulesCopies(root: string, module: CopiedModule = rulesModule): string[] {
  return rulesFolders(root, module)
    .filter((entry) => entry.needsCopy)
    .map((entry) => `${entry.folder}/${module.name}.ts`)
}

/** What a copy must hold, given the source's text (default: a copy of the rules). */
export function renderRulesCopy(source: string, module: CopiedModule = rulesModule): string {
  return module.header + source
}

/**
 * A copy that is not what the script would write: missing where the folder imports the module,
 * with other content, or left in a folder that no longer imports it.
 */
export type RulesCopyProblem = { path: string; problem: 'missing' | 'differs' | 'unused' }

/** Compares every copy of every module under `root` with what the script would write there. */
export function findRulesCopyProblems(root: string): RulesCopyProblem[] {
  const problems: RulesCopyProblem[] = []
  for (const module of copiedModules) {
    const expected = renderRulesCopy(readFileSync(join(root, module.source), 'utf8'), module)
    for (const { folder, needsCopy } of rulesFolders(root, module)) {
      const path = `${folder}/${module.name}.ts`
      const present = existsSync(join(root, path))
      if (!needsCopy) {
        if (present) problems.push({ path, problem: 'unused' })
      } else if (!present) problems.push({ path, problem: 'missing' })
      else if (readFileSync(join(root, path), 'utf8') !== expected) problems.push({ path, problem: 'differs' })
    }
  }
  return problems.sort((a, b) => a.path.localeCompare(b.path))
}

/** Writes every copy of every module under `root` and removes the unused ones; returns the paths written. */
export function writeRulesCopies(root: string): string[] {
  const written: string[] = []
  for (const module of copiedModules) {
    const content = renderRulesCopy(readFileSync(join(root, module.source), 'utf8'), module)
    for (const { folder, needsCopy } of rulesFolders(root, module)) {
      const path = `${folder}/${module.name}.ts`
      if (needsCopy) {
        writeFileSync(join(root, path), content)
        written.push(path)
      } else if (existsSync(join(root, path))) {
        rmSync(join(root, path))
        console.log(`${path} removed: ${folder} does not import ./${module.name}`)
      }
    }
  }
  return written.sort()
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const path of writeRulesCopies(join(import.meta.dirname, '..'))) console.log(`${path} written`)
}
