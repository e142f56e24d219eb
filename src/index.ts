/**
 * personhood: one-person-one-vote for DAOs. The library: typed clients for the stamp-scoring and
 * individual-verification services, on-chain readers, the rules that judge and combine their
 * answers, and the one verdict shape they share.
 *
 * Every export is named here, grouped by topic, types beside their functions: this list is the
 * public contract (docs/api.md describes each name; test/api-surface.test.ts fails when the two
 * differ). Anything not named here is internal.
 *
 * This root loads no server, no demo world and no Node-only module (node:fs, node:crypto, hono):
 * a Snapshot strategy or a browser bundle pays only for the library. The reference server is
 * `personhood/server`, the demo world `personhood/world`, the command line `personhood/cli`.
 */

// Clients of the services and their actions: `action(client, parameters)`, or `createXClient(config).action(parameters)`.
export {
  createPassportClient,
  type CreatePassportClientParameters,
  getModelScore,
  type GetModelScoreParameters,
  type GetModelScoreReturnType,
  getScore,
  type GetScoreParameters,
  type GetScoreReturnType,
  getScoreHistory,
  type GetScoreHistoryParameters,
  type GetScoreHistoryReturnType,
  getStampMetadata,
  type GetStampMetadataParameters,
  type GetStampMetadataReturnType,
  iterateStamps,
  listStamps,
  type PassportClient,
  type PassportContext,
} from './clients/index.js'
export { type IterateStampsParameters, type IterateStampsReturnType, type ListStampsParameters, type ListStampsReturnType } from './clients/index.js'
export {
  createRegistryClient,
  type CreateRegistryClientParameters,
  getRegistryScore,
  type GetRegistryScoreParameters,
  type GetRegistryScoreReturnType,
  getRegistryStampMetadata,
  type GetRegistryStampMetadataParameters,
  type GetRegistryStampMetadataReturnType,
  getSigningMessage,
  type GetSigningMessageParameters,
  type GetSigningMessageReturnType,
  getTokenStake,
  type GetTokenStakeParameters,
  type GetTokenStakeReturnType,
  iterateRegistryStamps,
  type IterateRegistryStampsParameters,
  type IterateRegistryStampsReturnType,
  iterateScores,
  type IterateScoresPage,
  type IterateScoresParameters,
  type IterateScoresReturnType,
  listRegistryStamps,
  type ListRegistryStampsParameters,
  type ListRegistryStampsReturnType,
  listScores,
  type ListScoresParameters,
  type ListScoresReturnType,
  type RegistryClient,
  type RegistryContext,
  type ScoreFilters,
  submitPassport,
  type SubmitPassportParameters,
  type SubmitPassportReturnType,
  waitForScore,
  type WaitForScoreParameters,
  type WaitForScoreReturnType,
} from './clients/index.js'
export {
  acceptStampCacheTos,
  type AcceptStampCacheTosParameters,
  addCachedStamps,
  type AddCachedStampsParameters,
  type CacheStampInput,
  calculateStampCacheScore,
  type CalculateStampCacheScoreParameters,
  createStampCacheClient,
  type CreateStampCacheClientParameters,
  deleteCachedStamps,
  type DeleteCachedStampsParameters,
  type DeleteStampInput,
  getCachedStamps,
  type GetCachedStampsParameters,
  getStampCacheScore,
  type GetStampCacheScoreParameters,
  getStampCacheSignInNonce,
  type GetStampCacheSignInNonceReturnType,
  getStampCacheStakes,
  getStampCacheTosMessage,
  type GetStampCacheTosMessageParameters,
  type GetStampCacheTosMessageReturnType,
  getStampCacheWeights,
  isStampCacheTosAccepted,
  type IsStampCacheTosAcceptedParameters,
  type SaveStatusInput,
  signAndAcceptStampCacheTos,
  type SignAndAcceptStampCacheTosParameters,
  type SignAndAcceptStampCacheTosReturnType,
  signInToStampCache,
  type SignInToStampCacheParameters,
  type SignInToStampCacheReturnType,
  type StampCacheClient,
  type StampCacheContext,
  type StampCacheRequestOptions,
  type StampCacheSigner,
  updateCachedStamps,
  type UpdateCachedStampsParameters,
  updateCachedStampSaveStatus,
  type UpdateCachedStampSaveStatusParameters,
  type UpdateCachedStampSaveStatusReturnType,
} from './clients/index.js'
export {
  type ActionId,
  createHumanIdClient,
  type CreateHumanIdClientParameters,
  getHumanIdCleanHandsSbt,
  type GetHumanIdCleanHandsSbtParameters,
  type GetHumanIdCleanHandsSbtReturnType,
  getHumanIdVerification,
  type GetHumanIdVerificationParameters,
  type GetHumanIdVerificationReturnType,
  getHumanIdVotingStrategyScores,
  type GetHumanIdVotingStrategyScoresParameters,
  type GetHumanIdVotingStrategyScoresReturnType,
  type HumanIdClient,
  type HumanIdContext,
  type SnapshotBlock,
} from './clients/index.js'
export {
  type AttestationIndexClient,
  type AttestationIndexContext,
  type AttestationListingPageResult,
  createAttestationIndexClient,
  type CreateAttestationIndexClientParameters,
  getAttestationListingPage,
  type GetAttestationListingPageParameters,
  getIndexedAttestations,
  type GetIndexedAttestationsParameters,
  type GetIndexedAttestationsReturnType,
  type IndexedAttestationPage,
  iterateAttestationListing,
  iterateIndexedAttestationPages,
  listAttestations,
  type ListAttestationsParameters,
  type ListAttestationsReturnType,
} from './clients/index.js'

// On-chain readers (`reader(client, parameters)`), the networks' constants and the ABIs.
export {
  baseSepoliaNetwork,
  builtInNetworks,
  getNetwork,
  type HumanCredential,
  humanCredentials,
  type HumanIdCircuit,
  type HumanIdIssuerCircuit,
  type NetworkConstants,
  type NetworkContracts,
  type NetworkName,
  type NetworkOverrides,
  optimismNetwork,
  universalActionId,
} from './chain/index.js'
export {
  arbitrumClock,
  baseClock,
  baseSepoliaClock,
  type BlockClock,
  blockClocks,
  type BlockTimeEstimate,
  estimateBlockTime,
  ethereumClock,
  findBlockAtTime,
  type FindBlockAtTimeErrorType,
  type FindBlockAtTimeParameters,
  type FindBlockAtTimeReturnType,
  optimismClock,
  polygonClock,
} from './chain/index.js'
export { type ChainClient, type Eip1193ProviderLike, type EthersProviderLike, toPublicClient } from './chain/index.js'
export {
  type GetSbtResult,
  readSbts,
  type ReadSbtsErrorType,
  type ReadSbtsParameters,
  type ReadSbtsReturnType,
  sbtId,
  type SbtOwnersResult,
  type SbtReading,
} from './chain/index.js'
export {
  readLegacyUniqueness,
  type ReadLegacyUniquenessErrorType,
  type ReadLegacyUniquenessParameters,
  type ReadLegacyUniquenessReturnType,
} from './chain/index.js'
export {
  type OnchainAttestation,
  readAttestations,
  type ReadAttestationsErrorType,
  type ReadAttestationsParameters,
  type ReadAttestationsReturnType,
} from './chain/index.js'
export { hubAbi, legacyStoreAbi, signProtocolAbi } from './chain/index.js'
export { type BlockHeader } from './chain/index.js'

// The rules, the on-chain verifier, and the verdict every source is turned into.
export {
  checkPassportScore,
  type CheckPassportScoreParameters,
  defaultPassportThreshold,
  isPassportScoreExpired,
  meetsPassportThreshold,
  type PassportReason,
  passportVerdictValue,
  type PassportWeighting,
} from './verify/index.js'
export {
  type AttestationEvidence,
  type AttestationIndexEvidence,
  type CredentialEvidence,
  type CredentialReason,
  type CredentialResult,
  type LegacyStoreEvidence,
  type SbtEvidence,
  verifyCredentials,
  type VerifyCredentialsErrorType,
  type VerifyCredentialsParameters,
  type VerifyCredentialsReturnType,
} from './verify/index.js'
export { type AttestationIndex, type AttestationLookup, type AttestationLookupSummary, type ListedCleanHandsRow } from './verify/index.js'
export {
  classifySbt,
  type ClassifySbtParameters,
  type HumanIdCredentialVerdict,
  judgeHumanIdCredential,
  type JudgeHumanIdCredentialParameters,
  type SbtCallResult,
  type SbtClassification,
  type SbtOwnersState,
  type SbtReason,
  type SbtVerdict,
} from './verify/index.js'
export {
  checkCleanHandsAttestation,
  checkOnchainCleanHandsAttestation,
  type CleanHandsOptions,
  type CleanHandsRow,
  type CleanHandsRowReason,
  type CleanHandsRowsJudgment,
  hasValidCleanHandsAttestation,
  isValidCleanHandsAttestation,
  judgeCleanHandsRows,
  type OnchainCleanHandsAttestation,
  type OnchainCleanHandsReason,
} from './verify/index.js'
export {
  applyFallbackPolicy,
  type AttestationIndexVerdictEvidence,
  type ChainVerdictEvidence,
  type CredentialMatch,
  type FallbackDecision,
  type HumanIdApiVerdictEvidence,
  type HumanIdVerdict,
  joinVerdicts,
  matchCredentials,
  type PassportVerdict,
  type PassportVerdictEvidence,
  type Verdict,
  type VerdictCredential,
  verdictCredentials,
  verdictFromAttestationRows,
  verdictFromScore,
  type VerdictFromScoreParameters,
  verdictFromVerification,
  verdictNeverScored,
  type VerdictReason,
  verdictsFromVerifier,
  verdictsFromVotingStrategy,
  type VerdictSource,
} from './verify/index.js'
export { applyHumanGate, type ApplyHumanGateParameters, type HumanGateMode, humanGateModes } from './verify/index.js'

// Strategies: run one (or a validation) with an explicit context, the package's definitions, and the pieces to define one.
export { findStrategyDefinition, strategyDefinitions } from './strategy/index.js'
export { type HumanIdDetail, type HumanIdOptions, humanIdOptionsSchema, humanIdStrategy } from './strategy/index.js'
export {
  type AddressScore,
  createScoreApiStrategy,
  defineStrategy,
  getStrategyJsonSchema,
  runStrategy,
  type RunStrategyErrorType,
  type RunStrategyParameters,
  type RunStrategyReturnType,
  type ScoreApiStrategy,
  type StrategyDefinition,
  type StrategyPrepareParameters,
  type StrategyRun,
  type StrategyScoreParameters,
  validationJsonSchema,
} from './strategy/index.js'
export {
  validateWithStrategy,
  type ValidateWithStrategyErrorType,
  type ValidateWithStrategyParameters,
  type ValidateWithStrategyReturnType,
} from './strategy/index.js'
export { type PassportV2Options, passportV2OptionsSchema, passportV2Strategy } from './strategy/index.js'
export { type HumanVerificationDetail, type HumanVerificationOptions, humanVerificationOptionsSchema, humanVerificationStrategy } from './strategy/index.js'
export { type HumanGatedDetail, type HumanGatedOptions, humanGatedOptionsSchema, humanGatedStrategy, type InnerScore } from './strategy/index.js'
export {
  type HumanIdAccess,
  type InnerNetwork,
  type InnerStrategy,
  type InnerStrategyRegistry,
  type PassportAccess,
  readStrategyEnvironment,
  type StrategyContext,
  type StrategyEnvironment,
  type StrategyRuntime,
} from './strategy/index.js'
export {
  type ResolvedSnapshot,
  resolveSnapshot,
  type ResolveSnapshotErrorType,
  type ResolveSnapshotParameters,
  type ResolveSnapshotReturnType,
  type StrategyProvider,
  type StrategySnapshot,
} from './strategy/index.js'
export { symbolOption } from './strategy/index.js'
export { createStrategyCache, type CreateStrategyCacheParameters, type StrategyCache } from './strategy/index.js'

// Errors: one BaseError, its typed subclasses, and each one's `XErrorType` for the actions' error unions.
export { BaseError, type BaseErrorType } from './errors/index.js'
export {
  AuthenticationError,
  type AuthenticationErrorType,
  HttpRequestError,
  type HttpRequestErrorType,
  InvalidRequestError,
  type InvalidRequestErrorType,
  NetworkError,
  type NetworkErrorType,
  NotFoundError,
  type NotFoundErrorType,
  PermissionDeniedError,
  type PermissionDeniedErrorType,
  RateLimitError,
  type RateLimitErrorType,
  RedirectRefusedError,
  type RedirectRefusedErrorType,
  ResponseParseError,
  type ResponseParseErrorType,
  ResponseTooLargeError,
  type ResponseTooLargeErrorType,
  ResponseValidationError,
  type ResponseValidationErrorType,
  TimeoutError,
  type TimeoutErrorType,
  type ValidationIssue,
} from './errors/index.js'
export {
  InvalidAddressError,
  type InvalidAddressErrorType,
  InvalidParameterError,
  type InvalidParameterErrorType,
  InvalidStateError,
  type InvalidStateErrorType,
  PaginationLimitError,
  type PaginationLimitErrorType,
  UsageError,
  type UsageErrorType,
} from './errors/index.js'
export { ScoreTimeoutError, type ScoreTimeoutErrorType, ScoringError, type ScoringErrorType } from './errors/index.js'
export {
  BlockInFutureError,
  type BlockInFutureErrorType,
  BlockNotAvailableError,
  type BlockNotAvailableErrorType,
  ChainMismatchError,
  type ChainMismatchErrorType,
  ChainReadError,
  type ChainReadErrorType,
  EvmNotInstalledError,
  type EvmNotInstalledErrorType,
  LocalChainError,
  type LocalChainErrorType,
  UnsupportedNetworkError,
  type UnsupportedNetworkErrorType,
} from './errors/index.js'
export {
  PassportHistoryDeniedError,
  type PassportHistoryDeniedErrorType,
  RateBudgetError,
  type RateBudgetErrorType,
  StrategyDeadlineError,
  type StrategyDeadlineErrorType,
  type StrategyOptionIssue,
  StrategyOptionsError,
  type StrategyOptionsErrorType,
  StrategySourceError,
  type StrategySourceErrorType,
} from './errors/index.js'
export {
  AuditIncompleteError,
  type AuditIncompleteErrorType,
  ConfigFileError,
  type ConfigFileErrorType,
  ProposalNotFoundError,
  type ProposalNotFoundErrorType,
  SnapshotHubError,
  type SnapshotHubErrorType,
  VotesFileError,
  type VotesFileErrorType,
} from './errors/index.js'

// The services' answers: the schema the clients validate each with, and its type.
export {
  type PassportProfile,
  type Stamp,
  type StampCredential,
  type StampCredentialMetadata,
  type StampListItem,
  type StampListPage,
  stampListPageResponseSchema,
  type StampMetadata,
  type StampMetadataList,
  stampMetadataListResponseSchema,
  type V2Score,
  type V2ScoreHistory,
  v2ScoreHistoryResponseSchema,
  v2ScoreResponseSchema,
  type V2StampScore,
} from './schemas/index.js'
export {
  isKnownRegistryScoreStatus,
  type KnownRegistryScoreStatus,
  type RegistryScore,
  type RegistryScoreItems,
  registryScoreItemsResponseSchema,
  type RegistryScorePage,
  registryScorePageResponseSchema,
  registryScoreResponseSchema,
  type RegistryScoreStatus,
  registryScoreStatuses,
  type RegistryStakeRecord,
  registryStakeRecordSchema,
  type SigningMessage,
  signingMessageSchema,
  type ThresholdScoreEvidence,
} from './schemas/index.js'
export {
  type AccessToken,
  accessTokenSchema,
  type CachedStamp,
  type InternalScore,
  internalScoreSchema,
  type LinkedScore,
  maxBulkStamps,
  type PointsData,
  type SaveStatus,
  saveStatuses,
  type SaveStatusResponse,
  saveStatusResponseSchema,
  type ScorerWeights,
  scorerWeightsSchema,
  type Stake,
  type StakeResponse,
  stakeResponseSchema,
  type StampsResponse,
  stampsResponseSchema,
  type StampsWithScoreResponse,
  stampsWithScoreResponseSchema,
  type TosAccepted,
  tosAcceptedSchema,
  type TosToSign,
  tosToSignSchema,
} from './schemas/index.js'
export {
  type CleanHandsResult,
  cleanHandsResultResponseSchema,
  type HumanIdCredential,
  humanIdCredentials,
  type HumanIdNetwork,
  humanIdNetworks,
  type VerificationResult,
  verificationResultResponseSchema,
  type VotingStrategyResponse,
  votingStrategyResponseSchema,
} from './schemas/index.js'
export { defaultModelName, type ModelName, modelNames, type ModelScore, modelScoreResponseSchema } from './schemas/index.js'
export {
  type AttestationListingPage,
  attestationListingResponseSchema,
  type AttestationListingRow,
  type AttestationPage,
  attestationPageResponseSchema,
  type AttestationRow,
  isMalformedAttestationRow,
  type MalformedAttestationRow,
} from './schemas/index.js'

// What every client's transport takes, a rate limiter to share between clients, and what a request may throw.
export { type RequestErrorType, type RetryOptions, type Transport, type TransportOptions } from './http/index.js'
export {
  type AcquireOptions,
  createRateLimiter,
  type CreateRateLimiterParameters,
  type RateLimiter,
  type RateLimitTier,
  type RateLimitWait,
} from './http/index.js'
export { type Sleep } from './http/index.js'

// JSON for answers that carry bigints.
export { stringifyJson, type StringifyJsonOptions, toJson } from './utils/index.js'

/** This package's version. */
export { version } from './version.js'
