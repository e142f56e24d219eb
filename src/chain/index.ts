export {
  arbitrumClock,
  baseClock,
  baseSepoliaClock,
  blockClocks,
  defaultBlockAtTimeMaxReads,
  estimateBlockTime,
  ethereumClock,
  findBlockAtTime,
  optimismClock,
  polygonClock,
  type BlockClock,
  type BlockTimeEstimate,
  type FindBlockAtTimeErrorType,
  type FindBlockAtTimeParameters,
  type FindBlockAtTimeReturnType,
} from './block-at-time.js'
export { hubAbi, legacyStoreAbi, multicall3Abi, signProtocolAbi } from './abis.js'
export {
  baseSepoliaNetwork,
  getNetwork,
  humanCredentials,
  builtInNetworks,
  multicall3Address,
  optimismNetwork,
  universalActionId,
  type HumanCredential,
  type HumanIdCircuit,
  type HumanIdIssuerCircuit,
  type NetworkConstants,
  type NetworkContracts,
  type NetworkName,
  type NetworkOverrides,
} from './constants.js'
export {
  decodeGetSbt,
  decodeSbtOwners,
  getSbtCall,
  readSbts,
  sbtId,
  sbtOwnersCall,
  type GetSbtResult,
  type ReadSbtsErrorType,
  type ReadSbtsParameters,
  type ReadSbtsReturnType,
  type SbtOwnersResult,
  type SbtReading,
} from './hub.js'
export {
  decodeIsUniqueForAction,
  isUniqueForActionCall,
  readLegacyUniqueness,
  type ReadLegacyUniquenessErrorType,
  type ReadLegacyUniquenessParameters,
  type ReadLegacyUniquenessReturnType,
} from './legacy.js'
export {
  blockTimestampCall,
  decodeBlockTimestamp,
  defaultMulticallBatchSize,
  defaultMulticallConcurrency,
  multicallAt,
  type CallResult,
  type ContractCall,
  type MulticallAtErrorType,
  type MulticallParameters,
} from './multicall.js'
export { declaredChainId, toPublicClient, type ChainClient, type Eip1193ProviderLike, type EthersProviderLike } from './provider.js'
export { isBlockNotAvailable, readBlockHeader, readChainId, type BlockHeader, type ChainErrorContext } from './rpc.js'
export {
  decodeGetAttestation,
  decodeRecipient,
  getAttestationCall,
  readAttestations,
  type OnchainAttestation,
  type ReadAttestationsErrorType,
  type ReadAttestationsParameters,
  type ReadAttestationsReturnType,
} from './sign-protocol.js'
