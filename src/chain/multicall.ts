/**
 * Many contract reads at one block through Multicall3 `aggregate3` with `allowFailure`, so a call
 * that reverts fails alone. Calls are split into requests of at most `batchSize` calls, and at most
 * `concurrency` requests are in flight.
 */
import { decodeFunctionResult, encodeFunctionData, numberToHex, type Address, type Client, type Hex } from 'viem'
import type { BlockNotAvailableErrorType, ChainReadErrorType, InvalidParameterErrorType } from '../errors/index.js'
import { parsePositiveInteger } from '../utils/parse.js'
import { multicall3Abi } from './abis.js'
import { decodeAggregate3Result, encodeAggregate3Calldata } from './codec.js'
import { chainReadError, toChainReadError, type ChainErrorContext } from './rpc.js'

/** One contract call inside a multicall. */
export type ContractCall = {
  target: Address
  callData: Hex
  /** The address whose answer depends on this call (named by errors). */
  subject: string
  /** A readable name of the call for errors, for example `getSBT(0xabc..., gov-id)`. */
  label?: string | undefined
}

/** What `aggregate3` returned for one call: success, and the return data or the revert data. */
export type CallResult = { success: boolean; returnData: Hex }

/**
 * Default of {@link MulticallParameters.batchSize}: calls per `eth_call`.
 *
 * @example
 * import { defaultMulticallBatchSize } from './multicall.js'
 * defaultMulticallBatchSize // 500
 */
export const defaultMulticallBatchSize = 500

/**
 * Default of {@link MulticallParameters.concurrency}: `eth_call` requests in flight.
 *
 * @example
 * import { defaultMulticallConcurrency } from './multicall.js'
 * defaultMulticallConcurrency // 4
 */
export const defaultMulticallConcurrency = 4

/** Parameters of {@link multicallAt}. */
export type MulticallParameters = {
  /** Multicall3's address on this chain. */
  multicall3: Address
  calls: readonly ContractCall[]
  /** The block every call reads. */
  blockNumber: bigint
  /** Calls per request, at most; default 500. */
  batchSize?: number | undefined
  /** Requests in flight, at most; default 4. */
  concurrency?: number | undefined
  /** Named by errors. */
  chainId?: number | undefined
}

/**
 * What {@link multicallAt} throws, and so every reader built on it: a bad `batchSize` or
 * `concurrency`, a block the node cannot serve, a failed request or a malformed answer.
 */
export type MulticallAtErrorType = InvalidParameterErrorType | BlockNotAvailableErrorType | ChainReadErrorType

/**
 * Runs `calls` at `blockNumber` through Multicall3 `aggregate3` (every call with allowFailure) and
 * returns one {@link CallResult} per call, in order. Requests hold at most `batchSize` calls; at
 * most `concurrency` run at once; the first failure stops the rest.
 *
 * @throws {BlockNotAvailableError} when the node cannot serve state at the block.
 * @throws {ChainReadError} when a request fails or Multicall3 answers something malformed; it names
 *   the addresses of the calls in that request.
 * @example
 * import { hubAbi } from 'personhood'
 * import { multicallAt } from './multicall.js'
 * import { multicall3Address } from './constants.js'
 * import { encodeFunctionData } from 'viem'
 * const [result] = await multicallAt(client, {
 *   multicall3: multicall3Address,
 *   blockNumber: 120_000_000n,
 *   calls: [{ target: hub, subject: address, callData: encodeFunctionData({ abi: hubAbi, functionName: 'getSBT', args: [address, circuitId] }) }],
 * })
 */
export async function multicallAt(
  client: Client,
  { multicall3, calls, blockNumber, batchSize = defaultMulticallBatchSize, concurrency = defaultMulticallConcurrency, chainId }: MulticallParameters,
): Promise<CallResult[]> {
  const perRequest = parsePositiveInteger(batchSize, 'batchSize')
  const inFlight = parsePositiveInteger(concurrency, 'concurrency')
  const chunks: (readonly ContractCall[])[] = []
  for (let start = 0; start < calls.length; start += perRequest) chunks.push(calls.slice(start, start + perRequest))
  const blockTag = numberToHex(blockNumber)

  const results = await runBounded(chunks, inFlight, async (chunk) => {
    const addresses = [...new Set(chunk.map((call) => call.subject))]
    const context = {
      blockNumber,
      addresses,
      chainId,
      call: `Multicall3(${multicall3}).aggregate3 with ${chunk.length} call(s)${chunk[0]?.label ? `, first ${chunk[0].label}` : ''}`,
    }
    const data = encodeAggregate3Calldata(chunk)
    let raw: unknown
    try {
      raw = await client.request({ method: 'eth_call', params: [{ to: multicall3, data }, blockTag] })
    } catch (error) {
      throw toChainReadError(error, context)
    }
    if (typeof raw !== 'string' || !raw.startsWith('0x')) throw chainReadError(context, `eth_call answered ${JSON.stringify(raw)?.slice(0, 100)}`)
    if (raw === '0x') throw chainReadError(context, `Multicall3 has no code at ${multicall3} on this chain at this block.`)
    // The fast decoder takes the canonical encoding; anything else goes through viem's decoder.
    let decoded: readonly { success: boolean; returnData: Hex }[] | undefined = decodeAggregate3Result(raw as Hex)
    if (!decoded) {
      try {
        decoded = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data: raw as Hex })
      } catch {
        throw chainReadError(context, `Multicall3 answered ${(raw.length - 2) / 2} bytes that are not an aggregate3 result.`)
      }
    }
    if (decoded.length !== chunk.length) throw chainReadError(context, `aggregate3 returned ${decoded.length} results for ${chunk.length} calls.`)
    return decoded.map((result) => ({ success: result.success, returnData: result.returnData }))
  })
  return results.flat()
}

/**
 * The multicall call `getCurrentBlockTimestamp()` on Multicall3 itself: inside an `eth_call` at a
 * block it answers that block's timestamp (what `block.timestamp` is for every other call in the
 * same request), so the timestamp costs a call, not a request.
 *
 * @param subject The address whose answer needs the timestamp (named by errors).
 * @example
 * import { blockTimestampCall, multicallAt } from './multicall.js'
 * import { multicall3Address } from './constants.js'
 * const [result] = await multicallAt(client, { multicall3: multicall3Address, blockNumber, calls: [blockTimestampCall(multicall3Address, address)] })
 */
export function blockTimestampCall(multicall3: Address, subject: string): ContractCall {
  return {
    target: multicall3,
    subject,
    label: `getCurrentBlockTimestamp() on ${multicall3}`,
    callData: encodeFunctionData({ abi: multicall3Abi, functionName: 'getCurrentBlockTimestamp' }),
  }
}

/**
 * Decodes a `getCurrentBlockTimestamp` result from `aggregate3`.
 *
 * @throws {ChainReadError} when the call failed or returned something that is not a uint256 (no
 *   Multicall3 at that address).
 * @example
 * import { decodeBlockTimestamp } from './multicall.js'
 * const timestamp = decodeBlockTimestamp(result, { blockNumber, addresses: [address] })
 */
export function decodeBlockTimestamp(result: CallResult, context: ChainErrorContext): bigint {
  if (result.success && result.returnData.length === 66) {
    return decodeFunctionResult({ abi: multicall3Abi, functionName: 'getCurrentBlockTimestamp', data: result.returnData })
  }
  throw chainReadError(
    context,
    `getCurrentBlockTimestamp ${result.success ? 'returned' : 'reverted with'} ${result.returnData === '0x' ? 'no data' : `${(result.returnData.length - 2) / 2} bytes`}: is Multicall3 deployed at this address on this chain?`,
  )
}

/**
 * Maps `items` through `fn` with at most `concurrency` calls in flight, keeping the order. After the
 * first failure no new call starts; the calls in flight finish, then the first error is thrown.
 */
export async function runBounded<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async () => {
    while (failure === undefined && next < items.length) {
      const index = next++
      try {
        results[index] = await fn(items[index] as T, index)
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker))
  if (failure) throw failure.error
  return results
}
