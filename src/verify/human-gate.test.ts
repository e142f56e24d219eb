import { describe, expect, it } from 'vitest'
import { applyHumanGate } from './human-gate.js'

describe('applyHumanGate', () => {
  it('gives a human their power, its square root, or at most the cap, times the weight', () => {
    expect(applyHumanGate({ power: 16, weight: 1, mode: 'gate' })).toBe(16)
    expect(applyHumanGate({ power: 16, weight: 1, mode: 'quadratic' })).toBe(4)
    expect(applyHumanGate({ power: 16, weight: 1, mode: 'cap', cap: 10 })).toBe(10)
    expect(applyHumanGate({ power: 6, weight: 1, mode: 'cap', cap: 10 })).toBe(6)
    expect(applyHumanGate({ power: 16, weight: 0.5, mode: 'quadratic' })).toBe(2)
  })

  it('quadratic takes the float square root: a balance below 1 counts more than itself, nothing is rounded', () => {
    expect(applyHumanGate({ power: 0.25, weight: 1, mode: 'quadratic' })).toBe(0.5)
    expect(applyHumanGate({ power: 0.01, weight: 1, mode: 'quadratic' })).toBe(0.1)
    expect(applyHumanGate({ power: 1e-6, weight: 1, mode: 'quadratic' })).toBe(0.001)
    expect(applyHumanGate({ power: 2, weight: 1, mode: 'quadratic' })).toBe(Math.SQRT2)
  })

  it('gives 0 to a voter judged not human, and to a power of 0 or below in every mode', () => {
    for (const mode of ['gate', 'quadratic', 'cap'] as const) {
      expect(applyHumanGate({ power: 100, weight: 0, mode, cap: 5 })).toBe(0)
      expect(applyHumanGate({ power: 0, weight: 1, mode, cap: 5 })).toBe(0)
      expect(applyHumanGate({ power: -3, weight: 1, mode, cap: 5 })).toBe(0)
    }
  })

  it('refuses what is not a power, a weight or a cap', () => {
    expect(() => applyHumanGate({ power: Number.NaN, weight: 1, mode: 'gate' })).toThrowErrorMatchingInlineSnapshot(`[RuleParameterError: Parameter "power" is invalid: The inner power must be a finite number, got NaN.]`)
    expect(() => applyHumanGate({ power: 1, weight: -1, mode: 'gate' })).toThrowErrorMatchingInlineSnapshot(`[RuleParameterError: Parameter "weight" is invalid: The human weight must be a finite number of at least 0, got -1.]`)
    expect(() => applyHumanGate({ power: 1, weight: 1, mode: 'cap' })).toThrowErrorMatchingInlineSnapshot(`[RuleParameterError: Parameter "cap" is invalid: Mode cap needs a positive cap, got undefined.]`)
  })
})
