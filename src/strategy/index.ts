// The public part of strategy/: run a strategy (or a validation) with an explicit context, the
// package's strategy definitions with their options, and what a DAO needs to define its own. The
// source readers, deadlines and rate budgets inside a run stay internal.
export { createStrategyCache, type CreateStrategyCacheParameters, type StrategyCache } from './cache.js'
export {
  readStrategyEnvironment,
  type HumanIdAccess,
  type InnerNetwork,
  type InnerStrategy,
  type InnerStrategyRegistry,
  type PassportAccess,
  type ScoreApiAccess,
  type StrategyContext,
  type StrategyEnvironment,
  type StrategyRuntime,
} from './context.js'
export {
  createScoreApiStrategy,
  defineStrategy,
  getStrategyJsonSchema,
  runStrategy,
  validationJsonSchema,
  type AddressScore,
  type RunStrategyCallParameters,
  type RunStrategyErrorType,
  type RunStrategyInputParameters,
  type RunStrategyParameters,
  type RunStrategyReturnType,
  type ScoreApiStrategy,
  type StrategyAuditGate,
  type StrategyAuditPlan,
  type StrategyDefinition,
  type StrategyPrepareParameters,
  type StrategyRun,
  type StrategyScoreParameters,
} from './define.js'
export {
  parseStrategyCall,
  prepareStrategyCall,
  type ParseStrategyCallErrorType,
  type ParseStrategyCallParameters,
  type StrategyCall,
  type StrategyCallInput,
} from './call.js'
export { strategyDefaults } from './defaults.js'
export { symbolOption } from './options.js'
export {
  resolveSnapshot,
  type RequestedSnapshot,
  type ResolvedSnapshot,
  type ResolveSnapshotErrorType,
  type ResolveSnapshotParameters,
  type ResolveSnapshotReturnType,
  type StrategyProvider,
  type StrategySnapshot,
} from './snapshot.js'
export { humanIdOptionsSchema, humanIdStrategy, type HumanIdDetail, type HumanIdOptions } from './human-id.js'
export { findStrategyDefinition, strategyDefinitions } from './registry.js'
export { passportV2OptionsSchema, passportV2Strategy, type PassportV2Options } from './passport-v2.js'
export { humanVerificationOptionsSchema, humanVerificationStrategy, type HumanVerificationDetail, type HumanVerificationOptions } from './human-verification.js'
export { humanGatedOptionsSchema, humanGatedStrategy, type HumanGatedDetail, type HumanGatedOptions, type InnerScore } from './human-gated.js'
export {
  validateWithStrategy,
  type ValidateWithStrategyErrorType,
  type ValidateWithStrategyParameters,
  type ValidateWithStrategyReturnType,
} from './validation.js'
