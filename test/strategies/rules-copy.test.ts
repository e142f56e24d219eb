/**
 * The rules live once, on the ground floor (src/rules/, one dependency-free module per topic); each
 * score-api folder carries a copy of every topic its code imports, and of what those import, and of
 * nothing else (it cannot import this package). A copy that drifted, is missing, or is left where
 * nothing imports it fails here, by name; the fix is `npm run strategies:rules`.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyHeader, findRulesCopyProblems, renderCopy, rulesCopies, rulesFolder, rulesFolders, ruleSource, ruleTopics, writeRulesCopies } from '../../scripts/strategy-rules.js'

const root = new URL('../..', import.meta.url).pathname
const temporary: string[] = []
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A scratch repository root holding the rules and the folders as committed. */
function scratchRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rules-copy-'))
  temporary.push(dir)
  cpSync(join(root, rulesFolder), join(dir, rulesFolder), { recursive: true })
  for (const { folder } of rulesFolders(root)) cpSync(join(root, folder), join(dir, folder), { recursive: true })
  return dir
}

const topicsOf = (folder: string) => rulesFolders(root).find((entry) => entry.folder === folder)?.topics

describe('the copies of the ground floor (src/rules/)', () => {
  it('every folder holds exactly the copies the script writes (else: npm run strategies:rules)', () => {
    expect(findRulesCopyProblems(root)).toEqual([])
  })

  it('each folder carries only the topics its code imports, and what those import', () => {
    expect(topicsOf('strategies/human-id')).toEqual(['credentials-match', 'hub', 'reader', 'reader-verdicts', 'sbt'])
    expect(topicsOf('strategies/passport-v2')).toEqual(['decimals', 'passport', 'passport-decoder', 'passport-onchain', 'passport-weighting'])
    expect(topicsOf('strategies/human-verification')).toEqual(['credentials-match', 'decimals', 'errors', 'fallback', 'match', 'passport', 'passport-onchain'])
    expect(topicsOf('strategies/human-gated')).toEqual(['errors', 'gate', 'inner-scores', 'rows-error'])
  })

  it('a copy is the header, then the source byte for byte, but for the .js of its sibling imports', () => {
    expect(rulesCopies(root).length).toBeGreaterThan(0)
    for (const path of rulesCopies(root)) {
      const topic = path.split('/').pop()!.slice(0, -3)
      const source = readFileSync(join(root, ruleSource(topic)), 'utf8')
      const copy = readFileSync(join(root, path), 'utf8')
      expect(copy.startsWith(copyHeader(topic)), path).toBe(true)
      expect(copy.slice(copyHeader(topic).length).replace(/(from ')\.\/([a-z0-9-]+)(';)/g, '$1./$2.js$3'), path).toBe(source)
    }
    expect(readFileSync(join(root, 'strategies/passport-v2/passport.ts'), 'utf8')).toContain("from './decimals';")
    expect(copyHeader('sbt')).toContain('src/rules/sbt.ts')
    expect(copyHeader('sbt')).toContain('npm run strategies:rules')
    for (const topic of ruleTopics(root)) expect(copyHeader(topic).split('\n').every((line) => line.length <= 80)).toBe(true)
  })

  it('names a copy that drifted, a copy that is missing, and a copy no code imports', () => {
    const dir = scratchRoot()
    const drifted = 'strategies/passport-v2/passport.ts'
    const text = readFileSync(join(dir, drifted), 'utf8')
    writeFileSync(join(dir, drifted), text.replace("export const defaultPassportThreshold = '20';", "export const defaultPassportThreshold = '15';"))
    expect(readFileSync(join(dir, drifted), 'utf8')).not.toBe(text)
    // Taken out of a folder, a copy that only another copy imports is missed too.
    unlinkSync(join(dir, 'strategies/passport-v2/decimals.ts'))
    mkdirSync(join(dir, 'strategies/no-rules'), { recursive: true })
    writeFileSync(join(dir, 'strategies/no-rules/index.ts'), "import { customFetch } from '../../utils';\n")
    writeFileSync(join(dir, 'strategies/no-rules/gate.ts'), renderCopy('gate', readFileSync(join(dir, ruleSource('gate')), 'utf8')))
    expect(findRulesCopyProblems(dir)).toEqual([
      { path: 'strategies/no-rules/gate.ts', problem: 'unused' },
      { path: 'strategies/passport-v2/decimals.ts', problem: 'missing' },
      { path: drifted, problem: 'differs' },
    ])
  })

  it('sees a change of a source as drift of each of its copies, and the script repairs them and removes the unused one', () => {
    const dir = scratchRoot()
    mkdirSync(join(dir, 'strategies/no-rules'), { recursive: true })
    writeFileSync(join(dir, 'strategies/no-rules/index.ts'), "import { customFetch } from '../../utils';\n")
    writeFileSync(join(dir, 'strategies/no-rules/errors.ts'), `${copyHeader('errors')}stale\n`)
    writeFileSync(join(dir, ruleSource('errors')), `${readFileSync(join(dir, ruleSource('errors')), 'utf8')}\nexport const added = 1;\n`)
    const copies = rulesCopies(dir).filter((path) => path.endsWith('/errors.ts'))
    expect(copies).toEqual(['strategies/human-gated/errors.ts', 'strategies/human-verification/errors.ts'])
    expect(findRulesCopyProblems(dir)).toEqual([...copies.map((path) => ({ path, problem: 'differs' })), { path: 'strategies/no-rules/errors.ts', problem: 'unused' }])
    expect(writeRulesCopies(dir)).toEqual(rulesCopies(dir))
    expect(findRulesCopyProblems(dir)).toEqual([])
    expect(readdirSync(join(dir, 'strategies/no-rules'))).toEqual(['index.ts'])
  })

  it.each(ruleTopics(root).map((topic) => ruleSource(topic)))('%s imports only its siblings, so its copies need nothing score-api lacks', (path) => {
    const source = readFileSync(join(root, path), 'utf8')
    for (const match of source.matchAll(/^\s*import\b[^;]*?from\s+'([^']+)'/gms)) expect(match[1], path).toMatch(/^\.\/[a-z0-9-]+\.js$/)
    expect(source).not.toMatch(/\brequire\s*\(|\bimport\s*\(/)
    expect(source).not.toMatch(/^\s*export\s+(\*|\{[^}]*\})\s+from\b/m)
  })
})
