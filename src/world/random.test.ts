import { describe, expect, test } from 'vitest'
import { createRandom } from './random.js'

describe('createRandom', () => {
  test('the same seed gives the same sequence; another seed another one', () => {
    const draw = (seed: string) => {
      const r = createRandom(seed)
      return Array.from({ length: 8 }, () => r.uint32())
    }
    expect(draw('a')).toEqual(draw('a'))
    expect(draw('a')).not.toEqual(draw('b'))
  })

  test('a fork depends on the seed and its label, not on earlier draws', () => {
    const a = createRandom('seed')
    const b = createRandom('seed')
    for (let i = 0; i < 100; i++) b.next()
    expect(a.fork('wallet:7').uint32()).toBe(b.fork('wallet:7').uint32())
    expect(a.fork('wallet:7').uint32()).not.toBe(a.fork('wallet:8').uint32())
  })

  test('int stays in range and reaches both ends; next stays in [0, 1)', () => {
    const r = createRandom('range')
    const seen = new Set<number>()
    for (let i = 0; i < 2000; i++) {
      const n = r.int(-1, 3)
      expect(n).toBeGreaterThanOrEqual(-1)
      expect(n).toBeLessThanOrEqual(3)
      seen.add(n)
      const x = r.next()
      expect(x >= 0 && x < 1).toBe(true)
    }
    expect(seen).toEqual(new Set([-1, 0, 1, 2, 3]))
  })

  test('weighted follows the weights roughly; shuffle keeps the items; bytes has the length asked', () => {
    const r = createRandom('weights')
    let heavy = 0
    for (let i = 0; i < 10_000; i++) if (r.weighted({ heavy: 0.9, light: 0.1 }) === 'heavy') heavy++
    expect(heavy).toBeGreaterThan(8700)
    expect(heavy).toBeLessThan(9300)
    expect(r.shuffle([1, 2, 3, 4, 5]).sort()).toEqual([1, 2, 3, 4, 5])
    expect(r.bytes(31)).toHaveLength(31)
    expect(() => r.pick([])).toThrow(RangeError)
  })
})
