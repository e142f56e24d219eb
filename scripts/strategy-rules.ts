/**
 * Copies src/verify/rules.ts, the one dependency-free module that holds the rules, verbatim into
 * each score-api folder that judges with it, under a header that says it is generated and names
 * its source, wherever a folder's code imports `./rules` (and removes a copy no code imports).
 * score-api folders cannot import this package, so they carry the copy; the library,
 * the reference server and the folders still run the same code, and
 * test/strategies/rules-copy.test.ts fails when a copy differs from what this script writes.
 *
 *   npm run strategies:rules
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The source, relative to the repository root. */
export const rulesSource = 'src/verify/rules.ts'

/** The parents of the score-api folders. */
const parents = ['strategies', 'validations']

/** Whether a folder's code (any .ts but the copy itself) imports `./rules`. */
function importsRules(folder: string): boolean {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ts') && file !== 'rules.ts')
    .some((file) => /from\s+['"]\.\/rules['"]/.test(readFileSync(join(folder, file), 'utf8')))
}

/**
 * Every folder under strategies/ and validations/, relative to the repository root, with whether
 * its code imports `./rules` (it then needs the copy) or not (it must not carry one: a PR to
 * score-api has no dead file).
 */
export function rulesFolders(root: string): Array<{ folder: string; needsCopy: boolean }> {
  return parents
    .filter((parent) => existsSync(join(root, parent)))
    .flatMap((parent) =>
      readdirSync(join(root, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => ({ folder: `${parent}/${entry.name}`, needsCopy: importsRules(join(root, parent, entry.name)) })),
    )
    .sort((a, b) => a.folder.localeCompare(b.folder))
}

/** The copies the folders need, relative to the repository root. */
export function rulesCopies(root: string): string[] {
  return rulesFolders(root)
    .filter((entry) => entry.needsCopy)
    .map((entry) => `${entry.folder}/rules.ts`)
}

/** The header each copy starts with (comment lines of at most 80 columns: prettier leaves them). */
export const rulesCopyHeader = [
  '// Generated from personhood src/verify/rules.ts by `npm run strategies:rules`.',
  '// Do not edit: change the source and run the command again. The library, its',
  '// reference server and this folder judge with this same code, and a test fails',
  '// when this copy differs from its source.',
  '',
  '',
].join('\n')

/** What a copy must hold, given the source's text. */
export function renderRulesCopy(source: string): string {
  return rulesCopyHeader + source
}

/**
 * A copy that is not what the script would write: missing where the folder imports `./rules`,
 * with other content, or left in a folder that no longer imports it.
 */
export type RulesCopyProblem = { path: string; problem: 'missing' | 'differs' | 'unused' }

/** Compares every copy under `root` with what the script would write there. */
export function findRulesCopyProblems(root: string): RulesCopyProblem[] {
  const expected = renderRulesCopy(readFileSync(join(root, rulesSource), 'utf8'))
  const problems: RulesCopyProblem[] = []
  for (const { folder, needsCopy } of rulesFolders(root)) {
    const path = `${folder}/rules.ts`
    const present = existsSync(join(root, path))
    if (!needsCopy) {
      if (present) problems.push({ path, problem: 'unused' })
    } else if (!present) problems.push({ path, problem: 'missing' })
    else if (readFileSync(join(root, path), 'utf8') !== expected) problems.push({ path, problem: 'differs' })
  }
  return problems
}

/** Writes every copy under `root` and removes the unused ones; returns the paths written. */
export function writeRulesCopies(root: string): string[] {
  const content = renderRulesCopy(readFileSync(join(root, rulesSource), 'utf8'))
  const written: string[] = []
  for (const { folder, needsCopy } of rulesFolders(root)) {
    const path = `${folder}/rules.ts`
    if (needsCopy) {
      writeFileSync(join(root, path), content)
      written.push(path)
    } else if (existsSync(join(root, path))) {
      rmSync(join(root, path))
      console.log(`${path} removed: ${folder} does not import ./rules`)
    }
  }
  return written
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const path of writeRulesCopies(join(import.meta.dirname, '..'))) console.log(`${path} written from ${rulesSource}`)
}
