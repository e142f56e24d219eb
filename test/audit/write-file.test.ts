/**
 * `writeFileAtomic` writes a file's chunks through one buffer: the file holds exactly the chunks
 * joined, as UTF-8, whatever their sizes and characters (a character never cut at the buffer's
 * edge, a chunk larger than the buffer written whole), and nothing is left beside it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, test } from 'vitest'
import { writeFileAtomic } from '../../src/audit/report/write.js'

const dir = mkdtempSync(join(tmpdir(), 'personhood-write-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const MB = 1 << 20
/** Text of `length` UTF-16 units made of `unit` repeated (`unit` may be two units long). */
const text = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length - (length % unit.length))

function written(chunks: string[]): string {
  const path = join(dir, 'out.txt')
  writeFileAtomic(path, chunks)
  return readFileSync(path, 'utf8')
}

describe('writeFileAtomic', () => {
  test('chunks around the buffer: what fits, what just does not, and one larger than it, in 1-, 2-, 3- and 4-byte characters', () => {
    for (const unit of ['a', 'é', '€', '😀']) {
      const chunks = [text(unit, 100), text(unit, MB / 3 - 40), text(unit, MB / 3), text(unit, 7), text(unit, MB), '', text(unit, 3)]
      expect(written(chunks)).toBe(chunks.join(''))
    }
  })

  test('any chunks of any characters: the file is the chunks joined', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.tuple(fc.constantFrom('a', 'ß', '€', '😀'), fc.integer({ min: 0, max: 400_000 })).map(([unit, length]) => text(unit, length)),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (chunks) => {
        expect(written(chunks)).toBe(chunks.join(''))
      }),
      { numRuns: 40 },
    )
  })

  test('one string, and no temporary file left beside the result', () => {
    expect(written(['x'])).toBe('x')
    const path = join(dir, 'one.txt')
    writeFileAtomic(path, 'één')
    expect(readFileSync(path, 'utf8')).toBe('één')
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })
})
