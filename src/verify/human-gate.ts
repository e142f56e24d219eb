/**
 * The rule of `human-gated`: what a voter's inner voting power becomes once the human test has
 * judged them. Dependency-free, so the strategy, the audit and the score-api folder apply the same
 * arithmetic.
 */

/** How a human's inner power counts: as it is, its square root, or capped. */
export type HumanGateMode = 'gate' | 'quadratic' | 'cap'

/** The modes, in the order reports show them. */
export const humanGateModes: readonly HumanGateMode[] = ['gate', 'quadratic', 'cap']

/** Parameters of {@link applyHumanGate}. */
export type ApplyHumanGateParameters = {
  /** The voter's inner power: the sum of the inner strategies' scores (token units, as they report them). */
  power: number
  /**
   * What the human test gave the voter: 1 for a Human ID verified voter, `passportScore` for a voter
   * only a passing Passport vouches for, 0 for a voter judged not human.
   */
  weight: number
  mode: HumanGateMode
  /** The cap of `mode: 'cap'` (a positive number); ignored by the other modes. */
  cap?: number | undefined
}

/**
 * A voter's gated power:
 *
 * - power not above 0 (nothing held, or a negative sum): 0, whatever the human test says (it is not
 *   even asked);
 * - `gate`: `power * weight`;
 * - `quadratic`: `Math.sqrt(power) * weight`, the square root of the power as a float (IEEE 754
 *   double, correctly rounded), taken on the number the inner strategies report (token units after
 *   their decimals, not base units): a balance below 1 counts more than itself (0.01 -> 0.1,
 *   0.000001 -> 0.001), a balance above 1 less; nothing is rounded;
 * - `cap`: `Math.min(power, cap) * weight`.
 *
 * @throws {RangeError} when power or weight is not a finite number, weight is negative, or mode is
 *   `cap` without a positive finite cap.
 * @example
 * import { applyHumanGate } from 'personhood'
 * applyHumanGate({ power: 16, weight: 1, mode: 'quadratic' }) // 4
 * applyHumanGate({ power: 16, weight: 0, mode: 'gate' }) // 0
 * applyHumanGate({ power: 16, weight: 0.5, mode: 'cap', cap: 10 }) // 5
 */
export function applyHumanGate({ power, weight, mode, cap }: ApplyHumanGateParameters): number {
  if (!Number.isFinite(power)) throw new RangeError(`The inner power must be a finite number, got ${String(power)}.`)
  if (!Number.isFinite(weight) || weight < 0) throw new RangeError(`The human weight must be a finite number of at least 0, got ${String(weight)}.`)
  if (power <= 0 || weight === 0) return 0
  switch (mode) {
    case 'gate':
      return power * weight
    case 'quadratic':
      return Math.sqrt(power) * weight
    case 'cap':
      if (cap === undefined || !Number.isFinite(cap) || cap <= 0) throw new RangeError(`Mode cap needs a positive cap, got ${String(cap)}.`)
      return Math.min(power, cap) * weight
    default:
      throw new RangeError(`Unknown mode ${String(mode)}.`)
  }
}
