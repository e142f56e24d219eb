export { createStrategyCache, defaultStrategyCacheEntries, type CreateStrategyCacheParameters, type StrategyCache } from './cache.js'
export {
  createStrategyRuntime,
  defaultPassportBaseUrl,
  defaultRegistryBaseUrl,
  getPassportSources,
  readStrategyEnvironment,
  type HumanIdAccess,
  type InnerNetwork,
  type InnerStrategy,
  type InnerStrategyRegistry,
  type PassportAccess,
  type PassportSources,
  type StrategyContext,
  type StrategyEnvironment,
  type StrategyRuntime,
} from './context.js'
export { checkRateBudget, createDeadline, defaultStrategyDeadlineMs, readSource, toStrategyError, type Deadline, type RateBudget, type SourceContext } from './deadline.js'
export {
  createScoreApiStrategy,
  defineStrategy,
  getStrategyJsonSchema,
  validationJsonSchema,
  runStrategy,
  untilAborted,
  type AddressScore,
  type RunStrategyErrorType,
  type RunStrategyParameters,
  type RunStrategyReturnType,
  type ScoreApiStrategy,
  type StrategyDefinition,
  type StrategyPrepareParameters,
  type StrategyRun,
  type StrategyScoreParameters,
} from './define.js'
export { parseStrategyOptions, reservedOptionNames, strategyJsonSchema, symbolOption, toOptionIssues } from './options.js'
export {
  parseSnapshot,
  resolveSnapshot,
  type ResolvedSnapshot,
  type ResolveSnapshotErrorType,
  type ResolveSnapshotParameters,
  type ResolveSnapshotReturnType,
  type StrategyProvider,
  type StrategySnapshot,
} from './snapshot.js'
export {
  humanIdOptionFields,
  humanIdOptionsSchema,
  humanIdSourceNames,
  humanIdStrategy,
  humanIdStrategyCredentials,
  readHumanIdVerdictsAt,
  type HumanIdDetail,
  type HumanIdOptions,
  type HumanIdSourceOptions,
  type ReadHumanIdVerdictsAtParameters,
} from './human-id.js'
export { findStrategyDefinition, strategyDefinitions } from './registry.js'
export {
  passportListingPageSize,
  passportSourceNames,
  readPassportScoresAt,
  type PassportPlan,
  type ReadPassportScoresAtParameters,
  type ReadPassportScoresAtReturnType,
} from './passport-scores.js'
export { passportV2OptionsSchema, passportV2Strategy, resolvePassportScorerId, type PassportV2Options, type PassportV2Prepared } from './passport-v2.js'
export {
  humanVerificationOptionsSchema,
  humanVerificationStrategy,
  type HumanVerificationDetail,
  type HumanVerificationOptions,
  type HumanVerificationPrepared,
} from './human-verification.js'
export {
  defaultInnerStrategies,
  humanGatedOptionsSchema,
  humanGatedStrategy,
  innerStrategyOptionsSchema,
  innerStrategySource,
  type HumanGatedDetail,
  type HumanGatedOptions,
  type HumanGatedPrepared,
  type InnerScore,
} from './human-gated.js'
export {
  validateWithStrategy,
  type ValidateWithStrategyErrorType,
  type ValidateWithStrategyParameters,
  type ValidateWithStrategyReturnType,
} from './validation.js'
