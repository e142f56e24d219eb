/**
 * Human ID Hub V3 reads: `getSBT` (reverts for an SBT that is missing, expired or revoked) and
 * `sbtOwners` (never reverts), as multicall calls and their decoders, plus a reader that runs them.
 */
import {
  decodeAbiParameters,
  decodeFunctionResult,
  encodeFunctionData,
  encodePacked,
  keccak256,
  type Address,
  type Client,
  type Hex,
} from 'viem'
import { hubAbi } from './abis.js'
import { decodeGetSbtResult, encodeGetSbtCalldata } from './codec.js'
import { multicallAt, type CallResult, type ContractCall, type MulticallAtErrorType } from './multicall.js'
import { chainReadError, type ChainErrorContext } from './rpc.js'

/** `getSBT` answered: the SBT, or a revert (with its reason string when there is one). */
export type GetSbtResult =
  | { status: 'success'; expiry: bigint; publicValues: readonly bigint[]; revoked: boolean }
  | { status: 'reverted'; revertReason: string | undefined; returnData: Hex }

/** `sbtOwners(id)` answered: expiry 0 and not revoked means no SBT was ever set. */
export type SbtOwnersResult = { expiry: bigint; revoked: boolean }

/**
 * The id the Hub keys SBTs by: `keccak256(abi.encodePacked(subject, circuitId))`.
 *
 * @example
 * import { sbtId, optimismNetwork } from 'personhood'
 * sbtId('0x52908400098527886e0f7030069857d2e4169ee7', optimismNetwork.circuitIds['gov-id'])
 */
export function sbtId(subject: Address, circuitId: Hex): Hex {
  return keccak256(encodePacked(['address', 'bytes32'], [subject, circuitId]))
}

/**
 * The multicall call `getSBT(subject, circuitId)` on `hub`.
 *
 * @example
 * import { getSbtCall } from './hub.js'
 * import { multicallAt } from './multicall.js'
 * const [result] = await multicallAt(client, { multicall3, blockNumber, calls: [getSbtCall(hub, address, circuitId)] })
 */
export function getSbtCall(hub: Address, subject: Address, circuitId: Hex): ContractCall {
  return {
    target: hub,
    subject,
    label: `getSBT(${subject}, ${circuitId})`,
    callData: encodeGetSbtCalldata(subject, circuitId),
  }
}

/**
 * The multicall call `sbtOwners(sbtId(subject, circuitId))` on `hub`.
 *
 * @example
 * import { sbtOwnersCall } from './hub.js'
 * const call = sbtOwnersCall(hub, address, circuitId)
 */
export function sbtOwnersCall(hub: Address, subject: Address, circuitId: Hex): ContractCall {
  return {
    target: hub,
    subject,
    label: `sbtOwners(${subject}, ${circuitId})`,
    callData: encodeFunctionData({ abi: hubAbi, functionName: 'sbtOwners', args: [sbtId(subject, circuitId)] }),
  }
}

/**
 * Decodes a `getSBT` result from `aggregate3`. A revert is an answer (the SBT is missing, expired or
 * revoked); a success without decodable data is not (no Hub at that address).
 *
 * @throws {ChainReadError} when a successful call returned data that is not an SBT.
 * @example
 * import { decodeGetSbt } from './hub.js'
 * const sbt = decodeGetSbt(result, { blockNumber, addresses: [address] })
 */
export function decodeGetSbt(result: CallResult, context: ChainErrorContext): GetSbtResult {
  if (!result.success) return { status: 'reverted', revertReason: decodeRevertReason(result.returnData), returnData: result.returnData }
  // The fast decoder takes the canonical encoding; anything else goes through viem's decoder.
  const fast = decodeGetSbtResult(result.returnData)
  if (fast) return { status: 'success', ...fast }
  try {
    const sbt = decodeFunctionResult({ abi: hubAbi, functionName: 'getSBT', data: result.returnData })
    return { status: 'success', expiry: sbt.expiry, publicValues: sbt.publicValues, revoked: sbt.revoked }
  } catch {
    throw chainReadError(context, `getSBT returned ${describeData(result.returnData)}, which is not an SBT: is the Hub deployed at this address on this chain?`)
  }
}

/**
 * Decodes an `sbtOwners` result from `aggregate3`.
 *
 * @throws {ChainReadError} when the call failed or returned malformed data (`sbtOwners` never reverts).
 * @example
 * import { decodeSbtOwners } from './hub.js'
 * const { expiry, revoked } = decodeSbtOwners(result, { blockNumber, addresses: [address] })
 */
export function decodeSbtOwners(result: CallResult, context: ChainErrorContext): SbtOwnersResult {
  if (result.success) {
    try {
      const [expiry, revoked] = decodeFunctionResult({ abi: hubAbi, functionName: 'sbtOwners', data: result.returnData })
      return { expiry, revoked }
    } catch {
      // Falls through to the error below.
    }
  }
  throw chainReadError(
    context,
    `sbtOwners ${result.success ? 'returned' : 'reverted with'} ${describeData(result.returnData)}; it never reverts on the Hub: is the Hub deployed at this address on this chain?`,
  )
}

/** Decodes the reason string of an `Error(string)` revert; undefined for any other revert data. */
export function decodeRevertReason(data: Hex): string | undefined {
  if (!data.toLowerCase().startsWith('0x08c379a0')) return undefined
  try {
    const [reason] = decodeAbiParameters([{ type: 'string' }], `0x${data.slice(10)}`)
    return reason
  } catch {
    return undefined
  }
}

/** Data for an error message: empty, or its size. */
export function describeData(data: Hex): string {
  return data === '0x' ? 'no data' : `${(data.length - 2) / 2} bytes (${data.slice(0, 42)}${data.length > 42 ? '...' : ''})`
}

/** Parameters of {@link readSbts}. */
export type ReadSbtsParameters = {
  hub: Address
  multicall3: Address
  /** The SBTs to read: subject (lowercase or checksummed address) and circuit id. */
  reads: readonly { subject: Address; circuitId: Hex }[]
  blockNumber: bigint
  /** Also read `sbtOwners` for each (one more call each); default true. */
  withOwners?: boolean | undefined
  batchSize?: number | undefined
  concurrency?: number | undefined
  chainId?: number | undefined
}

/** One SBT read: what `getSBT` and (when asked) `sbtOwners` answered. */
export type SbtReading = { subject: Address; circuitId: Hex; getSBT: GetSbtResult; sbtOwners: SbtOwnersResult | undefined }

/** What {@link readSbts} returns: one {@link SbtReading} per read, in order. */
export type ReadSbtsReturnType = SbtReading[]

/** What {@link readSbts} throws. */
export type ReadSbtsErrorType = MulticallAtErrorType

/**
 * Reads SBTs at one block: `getSBT` and `sbtOwners` for each subject and circuit, through Multicall3.
 *
 * @throws {BlockNotAvailableError} when the node cannot serve state at the block.
 * @throws {ChainReadError} when a request fails or the Hub answers malformed data.
 * @example
 * import { readSbts, toPublicClient, optimismNetwork } from 'personhood'
 * const [reading] = await readSbts(toPublicClient(provider), {
 *   hub: optimismNetwork.contracts.hub,
 *   multicall3: optimismNetwork.contracts.multicall3,
 *   reads: [{ subject: address, circuitId: optimismNetwork.circuitIds['gov-id'] }],
 *   blockNumber: 120_000_000n,
 * })
 */
export async function readSbts(client: Client, parameters: ReadSbtsParameters): Promise<ReadSbtsReturnType> {
  const { hub, reads, blockNumber, chainId, withOwners = true } = parameters
  const calls = reads.flatMap(({ subject, circuitId }) =>
    withOwners ? [getSbtCall(hub, subject, circuitId), sbtOwnersCall(hub, subject, circuitId)] : [getSbtCall(hub, subject, circuitId)],
  )
  const results = await multicallAt(client, { ...parameters, calls })
  const step = withOwners ? 2 : 1
  return reads.map(({ subject, circuitId }, index) => {
    const context = { blockNumber, chainId, addresses: [subject] }
    const owners = withOwners ? results[index * step + 1] : undefined
    return {
      subject,
      circuitId,
      getSBT: decodeGetSbt(results[index * step] as CallResult, { ...context, call: `getSBT on ${hub}` }),
      sbtOwners: owners ? decodeSbtOwners(owners, { ...context, call: `sbtOwners on ${hub}` }) : undefined,
    }
  })
}
