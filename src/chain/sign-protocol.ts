/**
 * Sign Protocol reads: `getAttestation(uint64)`, to confirm on-chain at a block the clean-hands
 * attestations the index lists.
 */
import { decodeAbiParameters, decodeFunctionResult, encodeFunctionData, type Address, type Client, type Hex } from 'viem'
import { signProtocolAbi } from './abis.js'
import { describeData } from './hub.js'
import { multicallAt, type CallResult, type ContractCall, type MulticallAtErrorType } from './multicall.js'
import { chainReadError, type ChainErrorContext } from './rpc.js'

/** An attestation as `getAttestation` returns it. An id unknown at the block gives all zeros. */
export type OnchainAttestation = {
  schemaId: bigint
  linkedAttestationId: bigint
  attestTimestamp: bigint
  revokeTimestamp: bigint
  attester: Address
  validUntil: bigint
  dataLocation: number
  revoked: boolean
  recipients: readonly Hex[]
  data: Hex
}

/**
 * The multicall call `getAttestation(attestationId)` on Sign Protocol.
 *
 * @example
 * import { optimismNetwork } from 'personhood'
 * import { getAttestationCall } from './sign-protocol.js'
 * const call = getAttestationCall(optimismNetwork.contracts.signProtocol!, 0x1a3n, address)
 */
export function getAttestationCall(signProtocol: Address, attestationId: bigint, subject: string): ContractCall {
  return {
    target: signProtocol,
    subject,
    label: `getAttestation(${attestationId}) on ${signProtocol}`,
    callData: encodeFunctionData({ abi: signProtocolAbi, functionName: 'getAttestation', args: [attestationId] }),
  }
}

/**
 * Decodes a `getAttestation` result from `aggregate3`.
 *
 * @throws {ChainReadError} when the call reverted or returned something that is not an attestation.
 * @example
 * import { decodeGetAttestation } from './sign-protocol.js'
 * const attestation = decodeGetAttestation(result, { blockNumber, addresses: [address] })
 */
export function decodeGetAttestation(result: CallResult, context: ChainErrorContext): OnchainAttestation {
  if (result.success) {
    try {
      const attestation = decodeFunctionResult({ abi: signProtocolAbi, functionName: 'getAttestation', data: result.returnData })
      return { ...attestation, attester: attestation.attester }
    } catch {
      // Falls through to the error below.
    }
  }
  throw chainReadError(
    context,
    `getAttestation ${result.success ? 'returned' : 'reverted with'} ${describeData(result.returnData)}: is Sign Protocol deployed at this address on this chain?`,
  )
}

/**
 * Decodes one entry of an attestation's `recipients`: an ABI-encoded string (for clean hands, the
 * recipient's address). Undefined when the bytes are not an ABI string.
 *
 * @example
 * import { decodeRecipient } from './sign-protocol.js'
 * import { encodeAbiParameters } from 'viem'
 * decodeRecipient(encodeAbiParameters([{ type: 'string' }], ['0xabc...'])) // '0xabc...'
 */
export function decodeRecipient(recipient: Hex): string | undefined {
  try {
    const [value] = decodeAbiParameters([{ type: 'string' }], recipient)
    return value
  } catch {
    return undefined
  }
}

/** Parameters of {@link readAttestations}. */
export type ReadAttestationsParameters = {
  signProtocol: Address
  multicall3: Address
  /** The attestations to read, each with the address it is read for (named by errors). */
  reads: readonly { attestationId: bigint; subject: string }[]
  blockNumber: bigint
  batchSize?: number | undefined
  concurrency?: number | undefined
  chainId?: number | undefined
}

/** What {@link readAttestations} returns: one attestation per read, in order. */
export type ReadAttestationsReturnType = OnchainAttestation[]

/** What {@link readAttestations} throws. */
export type ReadAttestationsErrorType = MulticallAtErrorType

/**
 * Reads attestations at one block through Multicall3.
 *
 * @throws {BlockNotAvailableError} when the node cannot serve state at the block.
 * @throws {ChainReadError} when a request fails or the registry answers malformed data.
 * @example
 * import { readAttestations, optimismNetwork, toPublicClient } from 'personhood'
 * const [attestation] = await readAttestations(toPublicClient(provider), {
 *   signProtocol: optimismNetwork.contracts.signProtocol!,
 *   multicall3: optimismNetwork.contracts.multicall3,
 *   reads: [{ attestationId: 0x1a3n, subject: address }],
 *   blockNumber: 120_000_000n,
 * })
 */
export async function readAttestations(client: Client, parameters: ReadAttestationsParameters): Promise<ReadAttestationsReturnType> {
  const { signProtocol, reads, blockNumber, chainId } = parameters
  const results = await multicallAt(client, { ...parameters, calls: reads.map((read) => getAttestationCall(signProtocol, read.attestationId, read.subject)) })
  return reads.map((read, index) =>
    decodeGetAttestation(results[index] as CallResult, { blockNumber, chainId, addresses: [read.subject], call: `getAttestation(${read.attestationId}) on ${signProtocol}` }),
  )
}
