/**
 * The shapes of `verifyCredentials`: its parameters, its answer, the evidence of each verdict, and
 * the per-address state its plan fills in (internal to src/verify/credentials).
 */
import type { Address, Hex } from 'viem'
import type { HumanCredential, HumanIdCircuit, NetworkConstants, NetworkName, NetworkOverrides } from '../../chain/constants.js'
import type { GetSbtResult, SbtOwnersResult } from '../../chain/hub.js'
import type { MulticallAtErrorType } from '../../chain/multicall.js'
import type { InvalidAddressErrorType, PaginationLimitErrorType, UnsupportedNetworkErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'
import type { OnchainAttestation } from '../../chain/sign-protocol.js'
import type { AttestationIndex, AttestationLookup, AttestationLookupSummary } from '../attestation-lookup.js'
import type { CleanHandsRow, CleanHandsRowReason, OnchainCleanHandsReason } from '../clean-hands.js'
import type { MalformedAttestationRow } from '../../schemas/attestation.js'
import type { SbtReason } from '../sbt.js'

/**
 * Why a credential counts or not: an SBT's reason (the rule's own list, `none` when nothing was
 * found), `legacy` (valid through a permanent store: no expiry, no revocation), or the clean-hands
 * checks that failed.
 */
export type CredentialReason = SbtReason | 'legacy' | 'wrong-attester' | 'wrong-schema' | 'wrong-recipient' | 'malformed'

/** A Hub SBT read: the contract, the call, and what it answered. */
export type SbtEvidence = {
  kind: 'sbt'
  circuit: HumanIdCircuit
  /** The Hub. */
  contract: Address
  subject: Address
  circuitId: Hex
  getSBT: GetSbtResult
  /** `keccak256(abi.encodePacked(subject, circuitId))`, the key `sbtOwners` was read with. */
  sbtId?: Hex | undefined
  /** Read when `getSBT` reverted: it tells none, expired and revoked apart. */
  sbtOwners?: SbtOwnersResult | undefined
  expected: { actionId: bigint; issuer: bigint }
  reason: SbtReason
}

/** A permanent-store read: `isUniqueForAction(user, actionId)`. */
export type LegacyStoreEvidence = {
  kind: 'legacy-store'
  contract: Address
  call: 'isUniqueForAction'
  user: Address
  actionId: bigint
  isUnique: boolean
}

/**
 * The attestation index's answer for an address (its rows follow as `attestation` evidence), and
 * how it was read: `address` (its own E8 pages) or `listing` (the rows of the listing by schema and
 * attester that name it).
 */
export type AttestationIndexEvidence = { kind: 'attestation-index'; address: Address; rowCount: number; lookup: 'address' | 'listing' }

/** One index row, the rule's verdict on it and, when it passed, the on-chain attestation at the block. */
export type AttestationEvidence = {
  kind: 'attestation'
  /** The id as the index gave it. */
  attestationId: string | undefined
  /** The row as the index sent it (a malformed one is kept, judged `malformed`). */
  row: CleanHandsRow | MalformedAttestationRow
  rowReason: CleanHandsRowReason
  onchain?:
    | {
        contract: Address
        call: 'getAttestation'
        attestationId: bigint
        attestation: OnchainAttestation
        /** `recipients[0]` decoded as an ABI string. */
        recipient: string | undefined
        reason: OnchainCleanHandsReason
      }
    | undefined
}

/** Everything a result rests on, for an auditor to re-check. */
export type CredentialEvidence = SbtEvidence | LegacyStoreEvidence | AttestationIndexEvidence | AttestationEvidence

/**
 * The answer for one address and credential. `expiresAt` (Unix seconds) is set when valid and
 * expiring (not for `legacy`).
 *
 * @example
 * import type { CredentialResult } from 'personhood'
 * const result: CredentialResult = { valid: false, reason: 'revoked', evidence: [] }
 */
export type CredentialResult = {
  valid: boolean
  reason: CredentialReason
  expiresAt?: bigint | undefined
  evidence: CredentialEvidence[]
}


/**
 * Parameters of {@link verifyCredentials}.
 *
 * @example
 * import type { VerifyCredentialsParameters } from 'personhood'
 * const parameters: VerifyCredentialsParameters<'phone'> = { addresses, credentials: ['phone'], blockNumber: 130_000_000n }
 */
export type VerifyCredentialsParameters<credential extends HumanCredential = HumanCredential> = {
  /** Addresses: lower case or EIP-55 checksummed. Duplicates (in any case) are read once. */
  addresses: readonly string[]
  /** The credentials to check. */
  credentials: readonly credential[]
  /** The action id SBTs must carry; default 123456789 (universal uniqueness). */
  actionId?: bigint | number | string | undefined
  /** The block to judge at; default the latest (pinned once, so every read uses the same block). */
  blockNumber?: bigint | number | 'latest' | undefined
  /** The network's constants: a name, a chain id or a full object; default the client's chain id. */
  network?: NetworkName | number | NetworkConstants | undefined
  /** Overrides of the network's constants (a test chain's chain id and contract addresses). */
  constants?: NetworkOverrides | undefined
  /** Read a sandbox network (Base Sepolia) anyway; results are marked `sandbox: true`. Default false. */
  allowSandbox?: boolean | undefined
  /** Required for `clean-hands`: the source of attestation rows. */
  attestationIndex?: AttestationIndex | undefined
  /**
   * How to read the index for clean hands: `auto` (default: the listing by schema and attester when
   * its pages are no more than the addresses and the index can list, else one read per address),
   * `listing` or `address`. Every candidate is confirmed on-chain at the block either way.
   */
  attestationLookup?: AttestationLookup | undefined
  /** Calls per multicall request, at most; default 500. */
  batchSize?: number | undefined
  /** Requests (multicall and index) in flight, at most; default 4. */
  concurrency?: number | undefined
}

/**
 * What {@link verifyCredentials} throws: a malformed address or parameter, a network without
 * constants, a block the node cannot serve, a failed or inconsistent read; and, for clean hands,
 * what the attestation index throws (the attestation-index client's HTTP errors and its paging
 * guard). Never a silent "not verified".
 */
export type VerifyCredentialsErrorType = InvalidAddressErrorType | UnsupportedNetworkErrorType | MulticallAtErrorType | RequestErrorType | PaginationLimitErrorType

/**
 * What {@link verifyCredentials} returns: the block it judged at, and per address and credential a
 * {@link CredentialResult}.
 *
 * @example
 * import type { VerifyCredentialsReturnType } from 'personhood'
 * const valid = (response: VerifyCredentialsReturnType<'gov-id'>) =>
 *   Object.entries(response.results).filter(([, entry]) => entry['gov-id'].valid).map(([address]) => address)
 */
export type VerifyCredentialsReturnType<credential extends HumanCredential = HumanCredential> = {
  /** The block every read was made at. */
  blockNumber: bigint
  /**
   * The block's hash, when its header was read: for `'latest'` (pinned to a number first) and for
   * `clean-hands`. Undefined when the block was given by number and no check needed its header.
   */
  blockHash?: Hex | undefined
  /**
   * The block's timestamp (Unix seconds), when a check needed it: always with `clean-hands` or
   * `'latest'` (from the header), and whenever a `getSBT` reverted (read inside a multicall with
   * Multicall3 `getCurrentBlockTimestamp`). Undefined when every SBT was read with a successful
   * `getSBT`: the Hub itself reverts `getSBT` when `expiry < block.timestamp`, so those were judged
   * at the block's timestamp without reading it. Never the wall clock.
   */
  blockTimestamp?: bigint | undefined
  /** The chain read: as the client declares it (viem `chain`, an ethers provider's network), else `eth_chainId`. */
  chainId: number
  network: string
  /** True when read on a sandbox network (with `allowSandbox`): not for production. */
  sandbox: boolean
  actionId: bigint
  /** Per lower-case address, per credential. */
  results: Record<Address, Record<credential, CredentialResult>>
  /** With `clean-hands`: how the attestation index was read (per address or the listing) and what it cost. */
  attestationLookup?: AttestationLookupSummary | undefined
}

export type SbtCredential = Exclude<HumanCredential, 'clean-hands'>

/** One SBT being judged: the reads so far, and the verdict. */
export type SbtSlot = {
  circuit: HumanIdCircuit
  circuitId: Hex
  issuer: bigint
  getSBT?: GetSbtResult
  sbtOwners?: SbtOwnersResult
}

export type PairState = {
  address: Address
  credential: SbtCredential
  primary: SbtSlot
  passport?: SbtSlot
  legacy?: { contract: Address; isUnique?: boolean }
}
