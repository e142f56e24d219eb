import { formatUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { scaleScore } from './answer.js'

describe('scaleScore', () => {
  it('reads back through formatUnits (as api-v2 reads it) to the score', () => {
    const cases: [number, number][] = [
      [0, 0],
      [1, 0],
      [3, 0],
      [23.45678, 5],
      [0.1, 1],
      [0.00001, 5],
      [1e-7, 7],
      [1.5e21, 0],
      [123456.789, 3],
      [2, 18],
    ]
    for (const [score, decimals] of cases) {
      const { text, rounded } = scaleScore(score, decimals)
      expect(text).toMatch(/^[0-9]+$/)
      expect(rounded).toBe(false)
      expect(Number.parseFloat(formatUnits(BigInt(text), decimals))).toBe(score)
    }
  })

  it('rounds half-even when the score has more digits than decimals allows, and says so', () => {
    expect(scaleScore(23.45678, 0)).toEqual({ text: '23', rounded: true })
    expect(scaleScore(2.5, 0)).toEqual({ text: '2', rounded: true })
    expect(scaleScore(3.5, 0)).toEqual({ text: '4', rounded: true })
    expect(scaleScore(2.51, 0)).toEqual({ text: '3', rounded: true })
    expect(scaleScore(0.6, 0)).toEqual({ text: '1', rounded: true })
    expect(scaleScore(0.5, 0)).toEqual({ text: '0', rounded: true })
    expect(scaleScore(1e-7, 2)).toEqual({ text: '0', rounded: true })
  })

  it('refuses what is not a number', () => {
    expect(() => scaleScore(Number.NaN, 0)).toThrow('Expected a finite number')
  })
})
