/**
 * `personhood/strategies`: the strategy folders of this package, each in score-api's module shape
 * (`strategy(space, network, provider, addresses, options, snapshot)`, `author`, `version`) and with
 * its `definition` for the explicit-context form (`runStrategy(definition, { ..., context })`).
 *
 * @example
 * import { strategies } from 'personhood/strategies'
 * Object.keys(strategies) // the folder names
 */
import type { ScoreApiStrategy, StrategyDefinition } from 'personhood'
import * as humanId from './human-id/index.js'
import * as humanVerification from './human-verification/index.js'
import * as passportV2 from './passport-v2/index.js'

/** One strategy folder's module. */
export type StrategyModule = {
  strategy: ScoreApiStrategy
  author: string
  version: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each strategy has its own options
  definition: StrategyDefinition<any, unknown, any>
}

/** Every strategy of the package, by folder name. */
export const strategies: Readonly<Record<string, StrategyModule>> = {
  'human-id': humanId,
  'passport-v2': passportV2,
  'human-verification': humanVerification,
}

export { createScoreApiStrategy, readStrategyEnvironment, runStrategy, type StrategyContext, type StrategyRun } from 'personhood'
