// Generated from personhood src/rules/gate.ts
// by `npm run strategies:rules`: change the source, not this copy.

/**
 * human-gated: what a human's inner power (the inner strategies' score) becomes.
 *
 * It imports only the rules' error beside it: `npm run strategies:rules` copies it into each score-api folder
 * that uses it, with the copies it imports. Written in score-api's prettier style; compiles under
 * TypeScript 4.7 (CommonJS) as under the package's own settings.
 */

import { RuleParameterError } from './errors';

/** How a human's inner power counts: as it is, its square root, or capped. */
export type HumanGateMode = 'gate' | 'quadratic' | 'cap';

/** The modes, in the order reports show them. */
export const humanGateModes: readonly HumanGateMode[] = [
  'gate',
  'quadratic',
  'cap'
];

/** Parameters of {@link applyHumanGate}. */
export type ApplyHumanGateParameters = {
  /** The sum of the inner strategies' scores (token units, as they report them). */
  power: number;
  /** 1 for Human ID, `passportScore` for a passing Passport only, 0 for a voter not judged human. */
  weight: number;
  mode: HumanGateMode;
  /** The cap of mode `cap` (a positive number); ignored by the other modes. */
  cap?: number | undefined;
};

/**
 * A voter's gated power. A power of 0 or below, or a weight of 0, gives 0 in every mode (the
 * human test is not even asked about such a power). Otherwise `gate`: `power * weight`;
 * `quadratic`: `Math.sqrt(power) * weight`, the float square root (IEEE 754 double, correctly
 * rounded) of the number the inner strategies report, so a power below 1 counts more than itself
 * (0.01 gives 0.1) and nothing is rounded; `cap`: `Math.min(power, cap) * weight`. Throws a
 * RuleParameterError for a power or weight that is not a finite number (or a negative weight),
 * and for mode `cap` without a positive cap.
 */
export function applyHumanGate(parameters: ApplyHumanGateParameters): number {
  const { power, weight, mode, cap } = parameters;
  if (typeof power !== 'number' || !Number.isFinite(power)) {
    throw new RuleParameterError(
      'power',
      `The inner power must be a finite number, got ${String(power)}.`
    );
  }
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
    throw new RuleParameterError(
      'weight',
      `The human weight must be a finite number of at least 0, got ${String(
        weight
      )}.`
    );
  }
  if (power <= 0 || weight === 0) return 0;
  if (mode === 'gate') return power * weight;
  if (mode === 'quadratic') return Math.sqrt(power) * weight;
  if (mode === 'cap') {
    if (typeof cap !== 'number' || !Number.isFinite(cap) || cap <= 0) {
      throw new RuleParameterError(
        'cap',
        `Mode cap needs a positive cap, got ${String(cap)}.`
      );
    }
    return Math.min(power, cap) * weight;
  }
  throw new RuleParameterError('mode', `Unknown mode ${String(mode)}.`);
}
