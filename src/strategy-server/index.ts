/**
 * The strategy server: score-api's `api-v2` protocol (`api-post`, `api-get`) over this package's
 * strategies, with a durable answer store, shared upstream work and Prometheus metrics. See
 * docs/strategy-server.md.
 *
 * @example
 * import { createStrategyServer, openAnswerStore } from 'personhood/strategy-server'
 * const app = createStrategyServer({ providers: { '10': client }, store: await openAnswerStore('answers.log') })
 */
export { createStrategyServer, secretHeader, strategySecret, type CreateStrategyServerOptions, type StrategyServer } from './app.js'
export { strategyServerDefaults } from './defaults.js'
export { createStrategyServerMetrics, type CounterName, type StrategyServerMetrics } from './metrics.js'
export {
  createStrategyScorer,
  type AnyStrategyDefinition,
  type CreateStrategyScorerParameters,
  type ScoreCall,
  type ScoreCallResult,
  type StrategyScorer,
} from './scorer.js'
export { AnswerStoreError, createMemoryAnswerStore, openAnswerStore, type AnswerStore, type AnswerStoreErrorType } from './store.js'
export { readStrategyServerConfig, startStrategyServer, type RunningStrategyServer, type StrategyServerConfig, type StartStrategyServerOptions } from './start.js'
export { checkVoter, type CheckVoterParameters, type VoterCheck, type VoterCheckInput, type VoterPageOptions, type VoterVerdictRow } from './voter-page/index.js'
