/**
 * Constants of the public services and contracts that the demo world refers to, from docs/interface.md
 * (§4). Contract addresses, circuit ids and the clean-hands rule come from `src/chain/constants.ts`
 * (one source for the chain readers and the world); the issuers are kept here as the hex strings
 * published (the phone issuer is 31 bytes long: compare issuers as integers, never as strings), and a
 * test checks they equal the chain readers' integers.
 */
import type { Address, Hex } from 'viem'
import { baseSepoliaNetwork, optimismNetwork } from '../chain/constants.js'
import { defaultActionId } from '../utils/parse.js'

/** Chain id of Optimism, where the production Human ID hub, the legacy stores and Sign Protocol live. */
export const optimismChainId = optimismNetwork.chainId

/** Chain id of Base Sepolia, where the sandbox Human ID hub lives (anyone can mint there). */
export const baseSepoliaChainId = baseSepoliaNetwork.chainId

/**
 * The default Human ID action id (universal uniqueness) as the decimal string world records carry.
 * Custom action ids give app-specific uniqueness.
 */
export const defaultActionIdText: string = defaultActionId.toString()

/** The recommended passing threshold of a stamp scorer, as the v2 interface writes it. */
export const defaultThreshold = '20'

/** Lifetime of a Human ID verification (an SBT): one year, in seconds. */
export const verificationLifetimeSeconds = 365 * 24 * 60 * 60

/** Lifetime of a stamp credential as the public service issues them: 90 days, in seconds. */
export const stampLifetimeSeconds = 90 * 24 * 60 * 60

/** Human ID "Hub V3" on Optimism (chain 10). */
export const humanIdHubAddress: Address = optimismNetwork.contracts.hub

/** The sandbox Human ID hub on Base Sepolia (84532). Its SBTs never count for production. */
export const humanIdSandboxHubAddress: Address = baseSepoliaNetwork.contracts.hub

/** Human ID circuit ids (`bytes32`), one SBT per address and circuit. */
export const humanIdCircuitIds = optimismNetwork.circuitIds

/** Human ID issuers: `publicValues[4]` of a valid SBT for the credential. */
export const humanIdIssuers = {
  'gov-id': '0x03fae82f38bf01d9799d57fdda64fad4ac44e4c2c2f16c5bf8e1873d0a3e1993',
  /** 31 bytes long: compare as integers. */
  phone: '0x40b8810cbaed9647b54d18cc98b720e1e8876be5d8e7089d3c079fc61c30a4',
  biometrics: '0x0d4f849df782fb9e68d525fbda10b73e59180e59cb2a21ce5d70ccc45dbfd922',
  'zk-passport': '0x231c6ff490cf3282131a301f0b7dad3dcdfa769d912e01941a80c92dd750df96',
} as const satisfies Record<string, Hex>

/**
 * An issuer nobody trusts: the value the world's wrong-issuer verifications carry
 * (`keccak256("personhood:untrusted-issuer")`, fixed so that tests can name it).
 */
export const untrustedHumanIdIssuer: Hex = '0xe3e8976daf1e2e66787cfc0bc77334428b1649626b8f0858e3e5c1d31fd5f430'

/** Older permanent Human ID stores on Optimism: `isUniqueForAction(address,uint256)`, no expiry, no revocation. */
export const humanIdLegacyStores = {
  'gov-id': optimismNetwork.contracts.govIdLegacyStore as Address,
  phone: optimismNetwork.contracts.phoneLegacyStore as Address,
}

/** The one attester whose clean-hands attestations count (compare case-insensitively). */
export const cleanHandsAttester: Address = optimismNetwork.cleanHands.attester

/** The full schema id of a clean-hands attestation: on-chain, EVM, chain 10, schema 0x8. */
export const cleanHandsFullSchemaId = optimismNetwork.cleanHands.fullSchemaId

/** The schema id part of {@link cleanHandsFullSchemaId}. */
export const cleanHandsSchemaId = '0x8'

/** Sign Protocol on Optimism, where clean-hands attestations are confirmed on-chain. */
export const signProtocolAddress: Address = optimismNetwork.contracts.signProtocol as Address

/** The one terms-of-service type in use on the cache interface (D10-D12). */
export const tosType = 'IST'
