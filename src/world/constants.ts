/**
 * Constants of the public services and contracts that the demo world refers to, from the field notes
 * (§4). `src/chain/constants.ts` holds the same values for the chain readers; the two may be unified
 * later. Hex values are kept exactly as published (the phone issuer is 31 bytes long: compare issuers
 * as integers, never as strings).
 */
import type { Address, Hex } from 'viem'

/** Chain id of Optimism, where the production Human ID hub, the legacy stores and Sign Protocol live. */
export const optimismChainId = 10

/** Chain id of Base Sepolia, where the sandbox Human ID hub lives (anyone can mint there). */
export const baseSepoliaChainId = 84532

/** The default Human ID action id: universal uniqueness. Custom action ids give app-specific uniqueness. */
export const defaultActionId = '123456789'

/** The recommended passing threshold of a stamp scorer, as the v2 interface writes it. */
export const defaultThreshold = '20'

/** Lifetime of a Human ID verification (an SBT): one year, in seconds. */
export const verificationLifetimeSeconds = 365 * 24 * 60 * 60

/** Lifetime of a stamp credential as the public service issues them: 90 days, in seconds. */
export const stampLifetimeSeconds = 90 * 24 * 60 * 60

/** Human ID "Hub V3" on Optimism (chain 10). */
export const humanIdHubAddress: Address = '0x2AA822e264F8cc31A2b9C22f39e5551241e94DfB'

/** The sandbox Human ID hub on Base Sepolia (84532). Its SBTs never count for production. */
export const humanIdSandboxHubAddress: Address = '0x98221c937C51f5bBe615CB104435395c93b1AD8D'

/** Human ID circuit ids (`bytes32`), one SBT per address and circuit. */
export const humanIdCircuitIds = {
  /** Government ID (KYC). */
  'gov-id': '0x729d660e1c02e4e419745e617d643f897a538673ccf1051e093bbfa58b0a120b',
  phone: '0xbce052cf723dca06a21bd3cf838bc518931730fb3db7859fc9cc86f0d5483495',
  biometrics: '0x0b5121226395e3b6c76eb8ddfb0bf2f2075e7f2c6956567e84b38a223c3a3d15',
  /** Sanctions / PEP screening. */
  'clean-hands': '0x1c98fc4f7f1ad3805aefa81ad25fa466f8342292accf69566b43691d12742a19',
  /** zk passport; the public service accepts it for gov-id, with its own issuer. */
  'zk-passport': '0x14c3513390f8a03993c848621b1840d58c27fd50bbddba73265e22d17b0b747e',
} as const satisfies Record<string, Hex>

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
  'gov-id': '0xdD748977BAb5782625AF1466F4C5F02Eb92Fce31',
  phone: '0xA40C8AAF7F47B18c1eDdBe7855b580f828eD9711',
} as const satisfies Record<string, Address>

/** The one attester whose clean-hands attestations count (compare case-insensitively). */
export const cleanHandsAttester: Address = '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd'

/** The full schema id of a clean-hands attestation: on-chain, EVM, chain 10, schema 0x8. */
export const cleanHandsFullSchemaId = 'onchain_evm_10_0x8'

/** The schema id part of {@link cleanHandsFullSchemaId}. */
export const cleanHandsSchemaId = '0x8'

/** Sign Protocol on Optimism, where clean-hands attestations are confirmed on-chain. */
export const signProtocolAddress: Address = '0x945C44803E92a3495C32be951052a62E45A5D964'

/** The one terms-of-service type in use on the cache interface (D10-D12). */
export const tosType = 'IST'
