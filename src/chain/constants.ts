/**
 * Network constants for the on-chain verifier: contract addresses, Human ID circuit ids and issuers,
 * and the clean-hands schema and attester, from docs/interface.md (§4). Every value can be overridden
 * (see {@link getNetwork}), so a test chain or a future deployment can use its own. The values
 * themselves are declared once in src/rules/ (copied into the score-api folders).
 */
import { maxUint256, type Address, type Hex } from 'viem'
import { InvalidParameterError, UnsupportedNetworkError } from '../errors/index.js'
import { isValidAddress } from '../utils/address.js'
import { defaultActionId } from '../utils/parse.js'
import * as cleanHandsRules from '../rules/clean-hands.js'
import * as hub from '../rules/hub.js'
import { passportDecoders } from '../rules/passport-onchain.js'
import * as sbt from '../rules/sbt.js'

/**
 * The credentials `verifyCredentials` can check.
 *
 * @example
 * import { humanCredentials } from 'personhood'
 * humanCredentials.includes('phone') // true
 */
export const humanCredentials = ['gov-id', 'phone', 'biometrics', 'clean-hands'] as const

/**
 * One credential: government ID, phone, biometrics, or clean hands (sanctions/PEP screening).
 *
 * @example
 * import type { HumanCredential } from 'personhood'
 * const wanted: HumanCredential[] = ['gov-id', 'clean-hands']
 */
export type HumanCredential = (typeof humanCredentials)[number]

/** The Human ID circuits: one per SBT kind. `zk-passport` also counts for gov-id. */
export type HumanIdCircuit = 'gov-id' | 'phone' | 'biometrics' | 'clean-hands' | 'zk-passport'

/** The circuits whose SBTs carry an issuer in `publicValues[4]` that the verifier checks. */
export type HumanIdIssuerCircuit = 'gov-id' | 'phone' | 'biometrics' | 'zk-passport'

/** The built-in network names. */
export type NetworkName = 'optimism' | 'base-sepolia'

/**
 * The universal action id (123456789): uniqueness across every application. The default `actionId`
 * (another name of `defaultActionId`, declared once in `src/utils/parse.ts`).
 *
 * @example
 * import { universalActionId } from 'personhood'
 * universalActionId // 123456789n
 */
export const universalActionId: bigint = defaultActionId

/**
 * Multicall3's address, the same on every chain that matters.
 *
 * @example
 * import { multicall3Address } from './constants.js'
 * multicall3Address // '0xcA11bde05977b3631167028862bE2a173976CA11'
 */
export const multicall3Address: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** Addresses of the contracts the verifier reads on one network. */
export type NetworkContracts = {
  /** Human ID Hub V3: `getSBT`, `sbtOwners`. */
  hub: Address
  /** Multicall3 (`aggregate3`). */
  multicall3: Address
  /** Sign Protocol registry (`getAttestation`), where clean-hands attestations are confirmed. */
  signProtocol?: Address | undefined
  /** The permanent gov-id store (`isUniqueForAction`); no expiry, no revocation. */
  govIdLegacyStore?: Address | undefined
  /** The permanent phone store (`isUniqueForAction`); no expiry, no revocation. */
  phoneLegacyStore?: Address | undefined
  /** Passport's on-chain decoder (`getScore(address)`, 4 decimals), where Passport pushes scores. */
  passportDecoder?: Address | undefined
}

/**
 * Everything the verifier needs to know about one network. Build one with {@link getNetwork}.
 *
 * @example
 * import { getNetwork, type NetworkConstants } from 'personhood'
 * const network: NetworkConstants = getNetwork('optimism')
 * network.issuers.phone // 0x40b8...n (31 bytes: compared as an integer)
 */
export type NetworkConstants = {
  /** A short name (`optimism`, `base-sepolia`, or your own). */
  name: string
  chainId: number
  /** True where anyone can mint (Base Sepolia): results never count unless the caller opts in. */
  sandbox: boolean
  contracts: NetworkContracts
  /** Human ID circuit ids (`bytes32`). */
  circuitIds: Record<HumanIdCircuit, Hex>
  /** The issuer `publicValues[4]` must equal, per circuit; compared as integers. */
  issuers: Record<HumanIdIssuerCircuit, bigint>
  cleanHands: {
    /** The index's `fullSchemaId`, compared exactly (`onchain_evm_10_0x8`). */
    fullSchemaId: string
    /** The on-chain Sign Protocol schema id (8). */
    schemaId: bigint
    /** The one attester whose attestations count; compared case-insensitively. */
    attester: Address
  }
}

/**
 * Partial overrides of {@link NetworkConstants}; each group is merged key by key.
 *
 * @example
 * import type { NetworkOverrides } from 'personhood'
 * const local: NetworkOverrides = { name: 'local', chainId: 31337, contracts: { hub: '0x5FbDB2315678afecb367f032d93F642f64180aa3' } }
 */
export type NetworkOverrides = {
  name?: string
  chainId?: number
  sandbox?: boolean
  contracts?: Partial<NetworkContracts>
  circuitIds?: Partial<Record<HumanIdCircuit, Hex>>
  issuers?: Partial<Record<HumanIdIssuerCircuit, bigint | Hex>>
  cleanHands?: Partial<NetworkConstants['cleanHands']>
}

const circuitIds: Record<HumanIdCircuit, Hex> = { ...sbt.circuitIds }

const issuers: Record<HumanIdIssuerCircuit, bigint> = { ...sbt.issuers }

const cleanHands: NetworkConstants['cleanHands'] = {
  fullSchemaId: cleanHandsRules.cleanHandsSchemaId,
  schemaId: cleanHandsRules.cleanHandsOnchainSchemaId,
  attester: cleanHandsRules.cleanHandsAttester,
}

/**
 * Optimism (chain 10): Hub V3, the permanent gov-id and phone stores, Sign Protocol and Multicall3.
 *
 * @example
 * import { optimismNetwork } from 'personhood'
 * optimismNetwork.contracts.hub // '0x2AA822e264F8cc31A2b9C22f39e5551241e94DfB'
 */
export const optimismNetwork: NetworkConstants = Object.freeze({
  name: 'optimism',
  chainId: 10,
  sandbox: false,
  contracts: Object.freeze({
    hub: hub.hubAddresses['10'],
    multicall3: multicall3Address,
    signProtocol: cleanHandsRules.signProtocolAddress,
    govIdLegacyStore: sbt.permanentStores['gov-id'],
    phoneLegacyStore: sbt.permanentStores.phone,
    passportDecoder: passportDecoders['10'] as Address,
  }),
  circuitIds: Object.freeze({ ...circuitIds }),
  issuers: Object.freeze({ ...issuers }),
  cleanHands: Object.freeze({ ...cleanHands }),
}) as NetworkConstants

/**
 * The Base Sepolia sandbox (chain 84532): anyone can mint SBTs there, with empty public values and
 * expiry 2^256-1, so its results never count unless the caller opts in (`allowSandbox`). It has no
 * permanent stores and no Sign Protocol address (clean-hands attestations live on Optimism).
 *
 * @example
 * import { baseSepoliaNetwork } from 'personhood'
 * baseSepoliaNetwork.sandbox // true
 */
export const baseSepoliaNetwork: NetworkConstants = Object.freeze({
  name: 'base-sepolia',
  chainId: 84532,
  sandbox: true,
  contracts: Object.freeze({ hub: hub.hubAddresses['84532'], multicall3: multicall3Address }),
  circuitIds: Object.freeze({ ...circuitIds }),
  issuers: Object.freeze({ ...issuers }),
  cleanHands: Object.freeze({ ...cleanHands }),
}) as NetworkConstants

/**
 * The built-in networks by name.
 *
 * @example
 * import { builtInNetworks } from 'personhood'
 * builtInNetworks['base-sepolia'].chainId // 84532
 */
export const builtInNetworks: Readonly<Record<NetworkName, NetworkConstants>> = Object.freeze({
  optimism: optimismNetwork,
  'base-sepolia': baseSepoliaNetwork,
})

/**
 * Resolves a network by name, chain id (number or decimal string) or constants object, and applies
 * overrides. Addresses in the result are checked; issuers given as hex become bigints.
 *
 * @param network `'optimism'`, `'base-sepolia'`, `10`, `'84532'`, or a full {@link NetworkConstants}.
 * @param overrides Values to replace, group by group (for a test chain: `chainId` and `contracts`).
 * @throws {UnsupportedNetworkError} for a name or chain id without built-in constants.
 * @throws {InvalidParameterError} when an override is malformed (address, circuit id, chain id).
 * @example
 * import { getNetwork } from 'personhood'
 * const local = getNetwork('optimism', { chainId: 31337, contracts: { hub: '0x5FbDB2315678afecb367f032d93F642f64180aa3' } })
 */
export function getNetwork(network: NetworkName | number | string | NetworkConstants, overrides: NetworkOverrides = {}): NetworkConstants {
  const base = resolveBase(network)
  const merged: NetworkConstants = {
    name: overrides.name ?? base.name,
    chainId: overrides.chainId ?? base.chainId,
    sandbox: overrides.sandbox ?? base.sandbox,
    contracts: { ...base.contracts, ...definedOnly(overrides.contracts) },
    circuitIds: { ...base.circuitIds, ...definedOnly(overrides.circuitIds) },
    issuers: { ...base.issuers },
    cleanHands: { ...base.cleanHands, ...definedOnly(overrides.cleanHands) },
  }
  for (const [circuit, issuer] of Object.entries(definedOnly(overrides.issuers))) {
    merged.issuers[circuit as HumanIdIssuerCircuit] = toIssuer(issuer, `issuers.${circuit}`)
  }
  return validateNetwork(merged)
}

function resolveBase(network: NetworkName | number | string | NetworkConstants): NetworkConstants {
  if (typeof network === 'object' && network !== null) return network
  const supported = Object.values(builtInNetworks).map((entry) => `${entry.name} (${entry.chainId})`)
  if (typeof network === 'string' && network in builtInNetworks) return builtInNetworks[network as NetworkName]
  const chainId = typeof network === 'number' ? network : /^\d+$/.test(network) ? Number(network) : Number.NaN
  const found = Object.values(builtInNetworks).find((entry) => entry.chainId === chainId)
  if (!found) {
    throw new UnsupportedNetworkError({
      network,
      supported,
      details: `Supported: ${supported.join(', ')}. For another chain, pass network: 'optimism' (or a full NetworkConstants) with constants: { chainId, contracts }.`,
    })
  }
  return found
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {}
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>
}

function toIssuer(value: unknown, parameter: string): bigint {
  if (typeof value === 'bigint' && value >= 0n && value <= maxUint256) return value
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(value)) return BigInt(value)
  throw new InvalidParameterError({ parameter, reason: 'An issuer is a uint256: a bigint or 0x followed by 1 to 64 hex characters.' })
}

function validateNetwork(network: NetworkConstants): NetworkConstants {
  if (!Number.isSafeInteger(network.chainId) || network.chainId <= 0) {
    throw new InvalidParameterError({ parameter: 'chainId', reason: `A chain id is a positive integer, got ${String(network.chainId)}.` })
  }
  for (const [name, address] of Object.entries(network.contracts)) {
    if (address === undefined) continue
    if (!isValidAddress(address)) {
      throw new InvalidParameterError({ parameter: `contracts.${name}`, reason: `"${String(address)}" is not a valid address.` })
    }
  }
  for (const [name, id] of Object.entries(network.circuitIds)) {
    if (typeof id !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(id)) {
      throw new InvalidParameterError({ parameter: `circuitIds.${name}`, reason: 'A circuit id is a bytes32: 0x followed by 64 hex characters.' })
    }
  }
  for (const [name, issuer] of Object.entries(network.issuers)) toIssuer(issuer, `issuers.${name}`)
  if (!isValidAddress(network.cleanHands.attester)) {
    throw new InvalidParameterError({ parameter: 'cleanHands.attester', reason: `"${String(network.cleanHands.attester)}" is not a valid address.` })
  }
  if (typeof network.cleanHands.schemaId !== 'bigint' || network.cleanHands.schemaId < 0n || network.cleanHands.schemaId >= 2n ** 64n) {
    throw new InvalidParameterError({ parameter: 'cleanHands.schemaId', reason: 'The on-chain schema id is a uint64 bigint.' })
  }
  if (typeof network.cleanHands.fullSchemaId !== 'string' || network.cleanHands.fullSchemaId === '') {
    throw new InvalidParameterError({ parameter: 'cleanHands.fullSchemaId', reason: 'The full schema id is a non-empty string.' })
  }
  return network
}
