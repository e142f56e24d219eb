/**
 * Copies src/verify/rules.ts, the one dependency-free module that holds the rules, verbatim into
 * each score-api folder that judges with it, under a header that says it is generated and names
 * its source. score-api folders cannot import this package, so they carry the copy; the library,
 * the reference server and the folders still run the same code, and
 * test/strategies/rules-copy.test.ts fails when a copy differs from what this script writes.
 *
 *   npm run strategies:rules
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The source, relative to the repository root. */
export const rulesSource = 'src/verify/rules.ts'

/** Every copy, relative to the repository root: the folders whose code imports `./rules`. */
export const rulesCopies = [
  'strategies/human-id/rules.ts',
  'strategies/passport-v2/rules.ts',
  'strategies/human-verification/rules.ts',
  'validations/human-verification/rules.ts',
] as const

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

/** A copy that is not what the script would write: missing, or with other content. */
export type RulesCopyProblem = { path: string; problem: 'missing' | 'differs' }

/** Compares every copy under `root` with what the script would write there. */
export function findRulesCopyProblems(root: string): RulesCopyProblem[] {
  const expected = renderRulesCopy(readFileSync(join(root, rulesSource), 'utf8'))
  const problems: RulesCopyProblem[] = []
  for (const path of rulesCopies) {
    const file = join(root, path)
    if (!existsSync(file)) problems.push({ path, problem: 'missing' })
    else if (readFileSync(file, 'utf8') !== expected) problems.push({ path, problem: 'differs' })
  }
  return problems
}

/** Writes every copy under `root`; returns the paths written. */
export function writeRulesCopies(root: string): string[] {
  const content = renderRulesCopy(readFileSync(join(root, rulesSource), 'utf8'))
  for (const path of rulesCopies) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  return [...rulesCopies]
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const path of writeRulesCopies(join(import.meta.dirname, '..'))) console.log(`${path} written from ${rulesSource}`)
}
