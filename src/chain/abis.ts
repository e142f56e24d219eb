/**
 * The ABIs the verifier calls, exactly as docs/interface.md (§4) gives them.
 */

/**
 * Human ID Hub V3: `getSBT` (reverts "SBT is expired or does not exist" / "SBT has been revoked")
 * and `sbtOwners` (never reverts; `id = keccak256(abi.encodePacked(subject, circuitId))`).
 *
 * @example
 * import { hubAbi } from 'personhood'
 * import { encodeFunctionData } from 'viem'
 * encodeFunctionData({ abi: hubAbi, functionName: 'getSBT', args: [address, circuitId] })
 */
export const hubAbi = [
  {
    type: 'function',
    name: 'getSBT',
    stateMutability: 'view',
    inputs: [
      { name: 'subject', type: 'address' },
      { name: 'circuitId', type: 'bytes32' },
    ],
    outputs: [
      {
        name: '',
        type: 'tuple',
        components: [
          { name: 'expiry', type: 'uint256' },
          { name: 'publicValues', type: 'uint256[]' },
          { name: 'revoked', type: 'bool' },
        ],
      },
    ],
  },
  {
    type: 'function',
    name: 'sbtOwners',
    stateMutability: 'view',
    inputs: [{ name: 'id', type: 'bytes32' }],
    outputs: [
      { name: 'expiry', type: 'uint256' },
      { name: 'revoked', type: 'bool' },
    ],
  },
] as const

/**
 * The permanent Human ID stores on Optimism (gov-id and phone): no expiry, no revocation.
 *
 * @example
 * import { legacyStoreAbi } from 'personhood'
 * import { encodeFunctionData } from 'viem'
 * encodeFunctionData({ abi: legacyStoreAbi, functionName: 'isUniqueForAction', args: [address, 123456789n] })
 */
export const legacyStoreAbi = [
  {
    type: 'function',
    name: 'isUniqueForAction',
    stateMutability: 'view',
    inputs: [
      { name: 'user', type: 'address' },
      { name: 'actionId', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const

/**
 * Sign Protocol's registry: `getAttestation(uint64)`. `recipients[0]` is an ABI-encoded string
 * holding the recipient's address.
 *
 * @example
 * import { signProtocolAbi } from 'personhood'
 * import { encodeFunctionData } from 'viem'
 * encodeFunctionData({ abi: signProtocolAbi, functionName: 'getAttestation', args: [0x1a3n] })
 */
export const signProtocolAbi = [
  {
    type: 'function',
    name: 'getAttestation',
    stateMutability: 'view',
    inputs: [{ name: 'attestationId', type: 'uint64' }],
    outputs: [
      {
        name: '',
        type: 'tuple',
        components: [
          { name: 'schemaId', type: 'uint64' },
          { name: 'linkedAttestationId', type: 'uint64' },
          { name: 'attestTimestamp', type: 'uint64' },
          { name: 'revokeTimestamp', type: 'uint64' },
          { name: 'attester', type: 'address' },
          { name: 'validUntil', type: 'uint64' },
          { name: 'dataLocation', type: 'uint8' },
          { name: 'revoked', type: 'bool' },
          { name: 'recipients', type: 'bytes[]' },
          { name: 'data', type: 'bytes' },
        ],
      },
    ],
  },
] as const

/**
 * Multicall3's `aggregate3` (each call may be allowed to fail alone) and `getCurrentBlockTimestamp`
 * (the timestamp of the block a call executes at, read inside a multicall at no extra request).
 *
 * @example
 * import { multicall3Abi } from './abis.js'
 * import { encodeFunctionData } from 'viem'
 * encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [[{ target, allowFailure: true, callData }]] })
 */
export const multicall3Abi = [
  {
    type: 'function',
    name: 'aggregate3',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'calls',
        type: 'tuple[]',
        components: [
          { name: 'target', type: 'address' },
          { name: 'allowFailure', type: 'bool' },
          { name: 'callData', type: 'bytes' },
        ],
      },
    ],
    outputs: [
      {
        name: 'returnData',
        type: 'tuple[]',
        components: [
          { name: 'success', type: 'bool' },
          { name: 'returnData', type: 'bytes' },
        ],
      },
    ],
  },
  {
    type: 'function',
    name: 'getCurrentBlockTimestamp',
    stateMutability: 'view',
    inputs: [],
    outputs: [{ name: 'timestamp', type: 'uint256' }],
  },
] as const
