/**
 * The strategies of this package by name, for the commands that run them by name (`score`,
 * `audit`, `verify`). The `strategies/` folders wrap the same definitions for score-api.
 */
import type { StrategyDefinition } from './define.js'
import { humanGatedStrategy } from './human-gated.js'
import { humanIdStrategy } from './human-id.js'
import { humanVerificationStrategy } from './human-verification.js'
import { passportV2Strategy } from './passport-v2.js'

/** Every strategy of the package, by its score-api name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each strategy has its own options
export const strategyDefinitions: Readonly<Record<string, StrategyDefinition<any, unknown, any>>> = Object.freeze({
  'human-id': humanIdStrategy,
  'passport-v2': passportV2Strategy,
  'human-verification': humanVerificationStrategy,
  'human-gated': humanGatedStrategy,
})

/**
 * The strategy named `name`, or undefined.
 *
 * @example
 * findStrategyDefinition('human-id')?.title // 'Human ID credentials at the snapshot'
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each strategy has its own options
export function findStrategyDefinition(name: string): StrategyDefinition<any, unknown, any> | undefined {
  return Object.hasOwn(strategyDefinitions, name) ? strategyDefinitions[name] : undefined
}
