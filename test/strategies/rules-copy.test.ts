/**
 * The rules live once, in src/verify/rules.ts; each score-api folder whose code imports `./rules`
 * carries a verbatim copy (it cannot import this package). A copy that drifted, is missing, or is
 * left where no code imports it fails here, by name; the fix is `npm run strategies:rules`.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findRulesCopyProblems, renderRulesCopy, rulesCopies, rulesCopyHeader, rulesFolders, rulesSource, writeRulesCopies } from '../../scripts/strategy-rules.js'

const root = new URL('../..', import.meta.url).pathname
const temporary: string[] = []
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A scratch repository root holding the source and the folders' code and copies as committed. */
function scratchRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rules-copy-'))
  temporary.push(dir)
  cpSync(join(root, rulesSource), join(dir, rulesSource))
  for (const { folder } of rulesFolders(root)) cpSync(join(root, folder), join(dir, folder), { recursive: true })
  return dir
}

describe('the copies of src/verify/rules.ts', () => {
  it('every folder whose code imports ./rules holds the copy the script writes, and no other folder holds one (else: npm run strategies:rules)', () => {
    expect(findRulesCopyProblems(root)).toEqual([])
  })

  it('the folders that judge import ./rules: human-id, passport-v2 and human-verification', () => {
    expect(rulesCopies(root)).toEqual(expect.arrayContaining(['strategies/human-id/rules.ts', 'strategies/passport-v2/rules.ts', 'strategies/human-verification/rules.ts']))
  })

  it('a copy is the header, then the source byte for byte', () => {
    const source = readFileSync(join(root, rulesSource), 'utf8')
    for (const path of rulesCopies(root)) {
      const copy = readFileSync(join(root, path), 'utf8')
      expect(copy.startsWith(rulesCopyHeader), path).toBe(true)
      expect(copy.slice(rulesCopyHeader.length), path).toBe(source)
    }
    expect(rulesCopyHeader).toContain('src/verify/rules.ts')
    expect(rulesCopyHeader).toContain('npm run strategies:rules')
    expect(rulesCopyHeader.split('\n').every((line) => line.length <= 80)).toBe(true)
  })

  it('names a copy that drifted, a copy that is missing, and a copy no code imports', () => {
    const dir = scratchRoot()
    const [first, second] = rulesCopies(dir) as [string, string]
    const drifted = readFileSync(join(dir, first), 'utf8').replace("export const defaultPassportThreshold = '20';", "export const defaultPassportThreshold = '15';")
    expect(drifted).not.toBe(readFileSync(join(dir, first), 'utf8'))
    writeFileSync(join(dir, first), drifted)
    unlinkSync(join(dir, second))
    mkdirSync(join(dir, 'strategies/no-rules'), { recursive: true })
    writeFileSync(join(dir, 'strategies/no-rules/index.ts'), "import { customFetch } from '../../utils';\n")
    writeFileSync(join(dir, 'strategies/no-rules/rules.ts'), renderRulesCopy(readFileSync(join(dir, rulesSource), 'utf8')))
    expect(findRulesCopyProblems(dir)).toEqual(
      expect.arrayContaining([
        { path: first, problem: 'differs' },
        { path: second, problem: 'missing' },
        { path: 'strategies/no-rules/rules.ts', problem: 'unused' },
      ]),
    )
    expect(findRulesCopyProblems(dir)).toHaveLength(3)
  })

  it('sees a change of the source as drift of every copy, and the script repairs them and removes the unused one', () => {
    const dir = scratchRoot()
    mkdirSync(join(dir, 'strategies/no-rules'), { recursive: true })
    writeFileSync(join(dir, 'strategies/no-rules/index.ts'), "import { customFetch } from '../../utils';\n")
    writeFileSync(join(dir, 'strategies/no-rules/rules.ts'), 'stale\n')
    writeFileSync(join(dir, rulesSource), `${readFileSync(join(dir, rulesSource), 'utf8')}\nexport const added = 1;\n`)
    expect(findRulesCopyProblems(dir)).toEqual(
      [...rulesCopies(dir).map((path) => ({ path, problem: 'differs' })), { path: 'strategies/no-rules/rules.ts', problem: 'unused' }].sort((a, b) => a.path.localeCompare(b.path)),
    )
    expect(writeRulesCopies(dir)).toEqual(rulesCopies(dir))
    expect(findRulesCopyProblems(dir)).toEqual([])
    expect(readFileSync(join(dir, rulesCopies(dir)[0]!), 'utf8')).toBe(renderRulesCopy(readFileSync(join(dir, rulesSource), 'utf8')))
  })

  it('the source has no import or require at all, so its copy needs nothing score-api lacks', () => {
    const source = readFileSync(join(root, rulesSource), 'utf8')
    expect(source).not.toMatch(/^\s*import\b/m)
    expect(source).not.toMatch(/\brequire\s*\(|\bimport\s*\(/)
    expect(source).not.toMatch(/^\s*export\s+(\*|\{[^}]*\})\s+from\b/m)
  })
})
