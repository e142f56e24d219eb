/**
 * The rules live once, in src/verify/rules.ts, and the deployless reader's protocol once, in
 * src/verify/human-id-reader.ts; each score-api folder whose code imports `./rules` (or `./reader`)
 * carries a verbatim copy (it cannot import this package). A copy that drifted, is missing, or is
 * left where no code imports it fails here, by name; the fix is `npm run strategies:rules`.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copiedModules, findRulesCopyProblems, readerModule, renderRulesCopy, rulesCopies, rulesFolders, rulesSource, writeRulesCopies } from '../../scripts/strategy-rules.js'

const root = new URL('../..', import.meta.url).pathname
const temporary: string[] = []
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A scratch repository root holding the sources and the folders' code and copies as committed. */
function scratchRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rules-copy-'))
  temporary.push(dir)
  for (const module of copiedModules) cpSync(join(root, module.source), join(dir, module.source))
  for (const { folder } of rulesFolders(root)) cpSync(join(root, folder), join(dir, folder), { recursive: true })
  return dir
}

describe('the copies of src/verify/rules.ts and src/verify/human-id-reader.ts', () => {
  it('every folder whose code imports ./rules holds the copy the script writes, and no other folder holds one (else: npm run strategies:rules)', () => {
    expect(findRulesCopyProblems(root)).toEqual([])
  })

  it('the folders that judge import ./rules: human-id, passport-v2 and human-verification', () => {
    expect(rulesCopies(root)).toEqual(expect.arrayContaining(['strategies/human-id/rules.ts', 'strategies/passport-v2/rules.ts', 'strategies/human-verification/rules.ts']))
  })

  it('human-id imports ./reader, and no other folder does', () => {
    expect(rulesCopies(root, readerModule)).toEqual(['strategies/human-id/reader.ts'])
  })

  it.each(copiedModules.map((module) => [module.source, module] as const))('a copy of %s is the header, then the source byte for byte', (_, module) => {
    const source = readFileSync(join(root, module.source), 'utf8')
    expect(rulesCopies(root, module).length).toBeGreaterThan(0)
    for (const path of rulesCopies(root, module)) {
      const copy = readFileSync(join(root, path), 'utf8')
      expect(copy.startsWith(module.header), path).toBe(true)
      expect(copy.slice(module.header.length), path).toBe(source)
    }
    expect(module.header).toContain(module.source)
    expect(module.header).toContain('npm run strategies:rules')
    expect(module.header.split('\n').every((line) => line.length <= 80)).toBe(true)
  })

  it('names a copy that drifted, a copy that is missing, and a copy no code imports', () => {
    const dir = scratchRoot()
    const [first, second] = rulesCopies(dir) as [string, string]
    const reader = 'strategies/human-id/reader.ts'
    writeFileSync(join(dir, reader), readFileSync(join(dir, reader), 'utf8').replace('bytes: 24576', 'bytes: 24577'))
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
        { path: reader, problem: 'differs' },
      ]),
    )
    expect(findRulesCopyProblems(dir)).toHaveLength(4)
  })

  it('sees a change of the source as drift of every copy, and the script repairs them and removes the unused one', () => {
    const dir = scratchRoot()
    mkdirSync(join(dir, 'strategies/no-rules'), { recursive: true })
    writeFileSync(join(dir, 'strategies/no-rules/index.ts'), "import { customFetch } from '../../utils';\n")
    writeFileSync(join(dir, 'strategies/no-rules/rules.ts'), 'stale\n')
    for (const module of copiedModules) writeFileSync(join(dir, module.source), `${readFileSync(join(dir, module.source), 'utf8')}\nexport const added = 1;\n`)
    const copies = copiedModules.flatMap((module) => rulesCopies(dir, module)).sort()
    expect(findRulesCopyProblems(dir)).toEqual(
      [...copies.map((path) => ({ path, problem: 'differs' })), { path: 'strategies/no-rules/rules.ts', problem: 'unused' }].sort((a, b) => a.path.localeCompare(b.path)),
    )
    expect(writeRulesCopies(dir)).toEqual(copies)
    expect(findRulesCopyProblems(dir)).toEqual([])
    expect(readFileSync(join(dir, rulesCopies(dir)[0]!), 'utf8')).toBe(renderRulesCopy(readFileSync(join(dir, rulesSource), 'utf8')))
    expect(readFileSync(join(dir, 'strategies/human-id/reader.ts'), 'utf8')).toBe(renderRulesCopy(readFileSync(join(dir, readerModule.source), 'utf8'), readerModule))
  })

  it.each(copiedModules.map((module) => module.source))('%s has no import or require at all, so its copy needs nothing score-api lacks', (path) => {
    const source = readFileSync(join(root, path), 'utf8')
    expect(source).not.toMatch(/^\s*import\b/m)
    expect(source).not.toMatch(/\brequire\s*\(|\bimport\s*\(/)
    expect(source).not.toMatch(/^\s*export\s+(\*|\{[^}]*\})\s+from\b/m)
  })
})
