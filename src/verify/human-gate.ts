/**
 * The rule of `human-gated`: what a voter's inner voting power becomes once the human test has
 * judged them. It lives in the dependency-free `src/rules/gate.ts` (copied verbatim into the score-api
 * folder), so the strategy, the audit and the folder apply the same arithmetic.
 *
 * `applyHumanGate({ power, weight, mode, cap })`:
 *
 * - power not above 0 (nothing held, or a negative sum), or weight 0: 0 in every mode;
 * - `gate`: `power * weight`;
 * - `quadratic`: `Math.sqrt(power) * weight`, the square root of the power as a float (IEEE 754
 *   double, correctly rounded), taken on the number the inner strategies report (token units after
 *   their decimals, not base units): a balance below 1 counts more than itself (0.01 -> 0.1,
 *   0.000001 -> 0.001), a balance above 1 less; nothing is rounded;
 * - `cap`: `Math.min(power, cap) * weight`.
 *
 * It throws a `RuleParameterError` when power or weight is not a finite number, weight is
 * negative, or mode is `cap` without a positive cap.
 *
 * @example
 * import { applyHumanGate } from 'personhood'
 * applyHumanGate({ power: 16, weight: 1, mode: 'quadratic' }) // 4
 * applyHumanGate({ power: 16, weight: 0, mode: 'gate' }) // 0
 * applyHumanGate({ power: 16, weight: 0.5, mode: 'cap', cap: 10 }) // 5
 */
export { applyHumanGate, humanGateModes, type ApplyHumanGateParameters, type HumanGateMode } from '../rules/gate.js'
