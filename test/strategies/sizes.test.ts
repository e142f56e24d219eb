/**
 * docs/strategies.md shows each score-api folder's size as `npm run strategies:sizes` prints it
 * (lines per file, the copies of src/rules/ it holds, the exports of each copy it never uses). A
 * folder or a copy that changes changes the table: `npm run strategies:sizes -- --write`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { documentedTable, exportedNames, folderSizes, importedNames, sizeTable } from '../../scripts/strategy-sizes.js'

const root = join(import.meta.dirname, '..', '..')

describe('the folders’ sizes', () => {
  it('docs/strategies.md holds the table the script prints', () => {
    expect(documentedTable(readFileSync(join(root, 'docs', 'strategies.md'), 'utf8'))).toBe(sizeTable(folderSizes(root)))
  })

  it('reads exports and imports as a reviewer does', () => {
    expect(exportedNames('export const a = 1;\nexport type B = 2;\nexport async function c() {}\nconst d = 1;')).toEqual(['a', 'B', 'c'])
    expect(importedNames("import {\n  a,\n  type B,\n  c as e\n} from './topic';\nimport { f } from './other';", 'topic')).toEqual(['a', 'B', 'c'])
  })

  it('human-id and human-gated: every file within 525 lines, each index.ts within 300', () => {
    for (const { folder, files } of folderSizes(root).filter(({ folder }) => /human-(id|gated)$/.test(folder))) {
      for (const file of files) expect(file.lines, `${folder}/${file.file}`).toBeLessThanOrEqual(file.file === 'index.ts' ? 300 : 525)
    }
  })
})
