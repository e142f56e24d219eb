/**
 * `personhood/strategies`: this package's strategies as library definitions, for DAO tooling and
 * the audit. Each entry holds the `definition` (run it with an explicit context:
 * `runStrategy(definition, { ..., context })`) and the same rule in score-api's function shape
 * (`strategy(space, network, provider, addresses, options, snapshot)`, reading the environment).
 * The folders under `strategies/` are what a score-api PR carries; they compute the same scores
 * (test/score-api-host/parity.test.ts compares them).
 *
 * @example
 * import { strategies, runStrategy } from 'personhood/strategies'
 * Object.keys(strategies) // ['human-id', 'passport-v2', 'human-verification', 'human-gated']
 */
import type { ScoreApiStrategy, StrategyDefinition } from '../strategy/index.js'
import { createScoreApiStrategy, humanGatedStrategy, humanIdStrategy, humanVerificationStrategy, passportV2Strategy, readStrategyEnvironment } from '../strategy/index.js'
import { version } from '../version.js'

/** One strategy of the package. */
export type StrategyModule = {
  /** score-api's function shape, reading its sources from `process.env`. */
  strategy: ScoreApiStrategy
  author: string
  version: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each strategy has its own options
  definition: StrategyDefinition<any, unknown, any>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each strategy has its own options
function entry(definition: StrategyDefinition<any, unknown, any>): StrategyModule {
  return { definition, author: 'personhood-dao', version, strategy: createScoreApiStrategy(definition, () => readStrategyEnvironment(process.env)) }
}

/** Every strategy of the package, by its score-api name. */
export const strategies: Readonly<Record<string, StrategyModule>> = Object.freeze({
  'human-id': entry(humanIdStrategy),
  'passport-v2': entry(passportV2Strategy),
  'human-verification': entry(humanVerificationStrategy),
  'human-gated': entry(humanGatedStrategy),
})

export { createScoreApiStrategy, readStrategyEnvironment, runStrategy, type StrategyContext, type StrategyRun } from '../strategy/index.js'
