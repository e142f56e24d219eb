/**
 * docs/strategies.md shows each score-api folder's size as `npm run strategies:sizes` prints it
 * (lines per file, the copies of src/rules/ it holds, the exports of each copy it never uses). A
 * folder or a copy that changes changes the table: `npm run strategies:sizes -- --write`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { documentedTable, exportedNames, folderSizes, importedNames, sizeProblems, sizeTable } from '../../scripts/strategy-sizes.js'

const root = join(import.meta.dirname, '..', '..')

describe('the folders’ sizes', () => {
  it('docs/strategies.md holds the table the script prints', () => {
    expect(documentedTable(readFileSync(join(root, 'docs', 'strategies.md'), 'utf8'))).toBe(sizeTable(folderSizes(root)))
  })

  it('reads exports and imports as a reviewer does', () => {
    expect(exportedNames('export const a = 1;\nexport type B = 2;\nexport async function c() {}\nconst d = 1;')).toEqual(['a', 'B', 'c'])
    expect(importedNames("import {\n  a,\n  type B,\n  c as e\n} from './topic';\nimport { f } from './other';", 'topic')).toEqual(['a', 'B', 'c'])
  })

  it("every folder within score-api's sizes: no file over 525 lines, no folder over 1,100, each index.ts within 300", () => {
    expect(sizeProblems(folderSizes(root))).toEqual([])
  })

  it('names a folder, a file or an index.ts over its limit', () => {
    const file = (name: string, lines: number) => ({ file: name, lines, copy: false, exports: [], unused: [] })
    expect(sizeProblems([{ folder: 'strategies/big', lines: 1_101, files: [file('index.ts', 301), file('rules.ts', 526), file('a.ts', 274)] }])).toEqual([
      'strategies/big: 1101 lines of TypeScript (at most 1100)',
      'strategies/big/index.ts: 301 lines (aim: at most 300)',
      'strategies/big/rules.ts: 526 lines (at most 525)',
    ])
  })
})
