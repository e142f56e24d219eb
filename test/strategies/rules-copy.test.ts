/**
 * The rules live once, in src/verify/rules.ts; each score-api folder that judges carries a verbatim
 * copy (it cannot import this package). A copy that drifted or is missing fails here, by name, and
 * the fix is `npm run strategies:rules`.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findRulesCopyProblems, renderRulesCopy, rulesCopies, rulesCopyHeader, rulesSource, writeRulesCopies } from '../../scripts/strategy-rules.js'

const root = new URL('../..', import.meta.url).pathname
const temporary: string[] = []
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A scratch repository root holding the source and the copies as committed. */
function scratchRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rules-copy-'))
  temporary.push(dir)
  cpSync(join(root, rulesSource), join(dir, rulesSource))
  for (const path of rulesCopies) cpSync(join(root, path), join(dir, path))
  return dir
}

describe('the copies of src/verify/rules.ts', () => {
  it('every folder that judges holds the copy the script writes (else: npm run strategies:rules)', () => {
    expect(findRulesCopyProblems(root)).toEqual([])
  })

  it('a copy is the header, then the source byte for byte', () => {
    const source = readFileSync(join(root, rulesSource), 'utf8')
    for (const path of rulesCopies) {
      const copy = readFileSync(join(root, path), 'utf8')
      expect(copy.startsWith(rulesCopyHeader), path).toBe(true)
      expect(copy.slice(rulesCopyHeader.length), path).toBe(source)
    }
    expect(rulesCopyHeader).toContain('src/verify/rules.ts')
    expect(rulesCopyHeader).toContain('npm run strategies:rules')
    expect(rulesCopyHeader.split('\n').every((line) => line.length <= 80)).toBe(true)
  })

  it('names a copy that drifted and a copy that is missing', () => {
    const dir = scratchRoot()
    const [first, second] = rulesCopies
    const drifted = readFileSync(join(dir, first), 'utf8').replace("export const defaultPassportThreshold = '20';", "export const defaultPassportThreshold = '15';")
    expect(drifted).not.toBe(readFileSync(join(dir, first), 'utf8'))
    writeFileSync(join(dir, first), drifted)
    unlinkSync(join(dir, second))
    expect(findRulesCopyProblems(dir)).toEqual([
      { path: first, problem: 'differs' },
      { path: second, problem: 'missing' },
    ])
  })

  it('sees a change of the source as drift of every copy, and the script repairs them', () => {
    const dir = scratchRoot()
    writeFileSync(join(dir, rulesSource), `${readFileSync(join(dir, rulesSource), 'utf8')}\nexport const added = 1;\n`)
    expect(findRulesCopyProblems(dir)).toEqual(rulesCopies.map((path) => ({ path, problem: 'differs' })))
    expect(writeRulesCopies(dir)).toEqual([...rulesCopies])
    expect(findRulesCopyProblems(dir)).toEqual([])
    expect(readFileSync(join(dir, rulesCopies[0]), 'utf8')).toBe(renderRulesCopy(readFileSync(join(dir, rulesSource), 'utf8')))
  })

  it('the source has no import or require at all, so its copy needs nothing score-api lacks', () => {
    const source = readFileSync(join(root, rulesSource), 'utf8')
    expect(source).not.toMatch(/^\s*import\b/m)
    expect(source).not.toMatch(/\brequire\s*\(|\bimport\s*\(/)
    expect(source).not.toMatch(/^\s*export\s+(\*|\{[^}]*\})\s+from\b/m)
  })
})
