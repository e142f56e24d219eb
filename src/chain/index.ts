// The public part of chain/: the readers (each `reader(client, parameters)`), the networks' constants
// and the ABIs a user needs to read the contracts directly. Multicall plumbing, call builders,
// decoders and RPC helpers stay internal.
export {
  arbitrumClock,
  baseClock,
  baseSepoliaClock,
  blockClocks,
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
export { hubAbi, legacyStoreAbi, signProtocolAbi } from './abis.js'
export {
  baseSepoliaNetwork,
  builtInNetworks,
  getNetwork,
  humanCredentials,
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
  readSbts,
  sbtId,
  type GetSbtResult,
  type ReadSbtsErrorType,
  type ReadSbtsParameters,
  type ReadSbtsReturnType,
  type SbtOwnersResult,
  type SbtReading,
} from './hub.js'
export { readLegacyUniqueness, type ReadLegacyUniquenessErrorType, type ReadLegacyUniquenessParameters, type ReadLegacyUniquenessReturnType } from './legacy.js'
export { toPublicClient, type ChainClient, type Eip1193ProviderLike, type EthersProviderLike } from './provider.js'
export type { BlockHeader } from './rpc.js'
export {
  readAttestations,
  type OnchainAttestation,
  type ReadAttestationsErrorType,
  type ReadAttestationsParameters,
  type ReadAttestationsReturnType,
} from './sign-protocol.js'
