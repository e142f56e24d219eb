import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { uniqueScoresByAddress } from './inner-scores.js'
import { listedRowCount } from './listed-rows.js'
import { ConflictingRowsError } from './rows-error.js'
import { rowFingerprint, uniqueRowsByAddress } from './rows.js'

type Row = { address: string; score: string }
const A = '0x8dABc053C7Fda425826d913a58C0DC4C2a0B36d7'
const B = '0x078Ea87Bd0B773DFdF674c3a31B9A785845c4503'
const byAddress = (rows: Row[]) => uniqueRowsByAddress(rows, { source: 'passport:scores', addressOf: (row) => row.address })

/** An address in a random casing. */
const casing = (address: string) => fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }).map((upper) => `0x${[...address.slice(2)].map((char, index) => (upper[index] ? char.toUpperCase() : char.toLowerCase())).join('')}`)

describe('uniqueRowsByAddress', () => {
  it('collapses rows that say the same thing, whatever the casing of their address and the order of their keys', () => {
    const rows = [{ address: A, score: '30' }, { score: '1', address: B }, { address: A.toLowerCase(), score: '30' }]
    const unique = byAddress(rows)
    expect([...unique.keys()]).toEqual([A.toLowerCase(), B.toLowerCase()])
    expect(unique.get(A.toLowerCase())?.score).toBe('30')
  })

  it('refuses two rows that disagree about one address, naming the source and the address', () => {
    expect(() => byAddress([{ address: A, score: '0' }, { address: B, score: '1' }, { address: A.toUpperCase().replace('0X', '0x'), score: '30' }])).toThrowErrorMatchingInlineSnapshot(
      `[ConflictingRowsError: passport:scores answered two different rows for 0x8dABc053C7Fda425826d913a58C0DC4C2a0B36d7: {"address":"0x8dabc053c7fda425826d913a58c0dc4c2a0b36d7","score":"0"} and {"address":"0x8dabc053c7fda425826d913a58c0dc4c2a0b36d7","score":"30"}.]`,
    )
  })

  it('a part of the row may be all that must agree', () => {
    const rows = [{ address: A, score: '30', seen: 1 }, { address: A, score: '30', seen: 2 }]
    expect(() => uniqueRowsByAddress(rows, { source: 's', addressOf: (row) => row.address })).toThrow(ConflictingRowsError)
    expect(uniqueRowsByAddress(rows, { source: 's', addressOf: (row) => row.address, fingerprint: (row) => row.score }).size).toBe(1)
  })

  it('property: duplicated, reordered and re-cased rows give the same rows, or the same error, in any order', () => {
    const score = fc.constantFrom('0', '1', '20', '30.5')
    fc.assert(
      fc.property(
        fc.tuple(score, score),
        fc.array(fc.tuple(fc.constantFrom(A, B), fc.nat(3)), { minLength: 1, maxLength: 8 }),
        fc.infiniteStream(fc.boolean()),
        (scores, picks, upper) => {
          const truth: Record<string, string> = { [A]: scores[0], [B]: scores[1] }
          const rows = picks.map(([address]) => ({ address: upper.next().value ? address.toUpperCase().replace('0X', '0x') : address.toLowerCase(), score: truth[address] as string }))
          const expected = new Map(picks.map(([address]) => [address.toLowerCase(), truth[address]]))
          const shuffled = [...rows].sort((x, y) => rowFingerprint(x).localeCompare(rowFingerprint(y)))
          for (const order of [rows, [...rows].reverse(), shuffled]) {
            const unique = byAddress(order)
            expect(new Map([...unique].map(([key, row]) => [key, row.score]))).toEqual(expected)
          }
          // One row that disagrees, anywhere, is an error in every order.
          const [address] = picks[0] as [string, number]
          const liar = { address, score: truth[address] === '0' ? '1' : '0' }
          for (const at of [0, rows.length]) {
            const withLiar = [...rows.slice(0, at), liar, ...rows.slice(at)]
            expect(() => byAddress(withLiar)).toThrow(ConflictingRowsError)
          }
        },
      ),
    )
  })

  it('property: casing never splits an address', () => {
    fc.assert(
      fc.property(casing(A), casing(A), (first, second) => {
        expect(byAddress([{ address: first, score: '1' }, { address: second, score: '1' }]).size).toBe(1)
      }),
    )
  })
})

describe('uniqueScoresByAddress', () => {
  it('keys scores by the lower-cased address; one address twice with one score is one', () => {
    expect(uniqueScoresByAddress({ [A]: 5, [A.toLowerCase()]: 5, [B]: 0 }, 'erc20-balance-of')).toEqual(new Map([[A.toLowerCase(), 5], [B.toLowerCase(), 0]]))
  })

  it('one address under two casings with two scores is an error naming the source', () => {
    expect(() => uniqueScoresByAddress({ [A]: 5, [A.toLowerCase()]: 7 }, 'erc20-balance-of')).toThrowErrorMatchingInlineSnapshot(
      `[ConflictingRowsError: erc20-balance-of answered two different rows for 0x8dABc053C7Fda425826d913a58C0DC4C2a0B36d7: 5 under 0x8dABc053C7Fda425826d913a58C0DC4C2a0B36d7 and 7 under 0x8dabc053c7fda425826d913a58c0dc4c2a0b36d7.]`,
    )
  })
})

describe('listedRowCount', () => {
  const key = (row: string) => (row === '-' ? undefined : row.toLowerCase())
  it('counts each key once, a repeat on its own page again, a repeat on another page not, and every row without a key', () => {
    expect(listedRowCount([], key)).toBe(0)
    expect(listedRowCount([['a', 'b', 'c']], key)).toBe(3)
    // a twice on page 1: the listing counted it twice
    expect(listedRowCount([['a', 'A', 'b']], key)).toBe(3)
    // a again on page 2: a shift (a row may have been dropped), counted once
    expect(listedRowCount([['a', 'b'], ['a', 'c']], key)).toBe(3)
    // both: twice on page 2 after page 1, so once for the shift and once for the repeat on its page
    expect(listedRowCount([['a', 'b'], ['c', 'a', 'a']], key)).toBe(4)
    expect(listedRowCount([['-', '-'], ['-']], key)).toBe(3)
  })
})
