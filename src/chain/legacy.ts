/**
 * The permanent Human ID stores on Optimism (gov-id and phone): `isUniqueForAction(address,uint256)`,
 * no expiry and no revocation.
 */
import { decodeFunctionResult, encodeFunctionData, type Address, type Client } from 'viem'
import { legacyStoreAbi } from './abis.js'
import { describeData } from './hub.js'
import { multicallAt, type CallResult, type ContractCall, type MulticallAtErrorType } from './multicall.js'
import { chainReadError, type ChainErrorContext } from './rpc.js'

/**
 * The multicall call `isUniqueForAction(user, actionId)` on a permanent store.
 *
 * @example
 * import { optimismNetwork } from 'personhood'
 * import { isUniqueForActionCall } from './legacy.js'
 * const call = isUniqueForActionCall(optimismNetwork.contracts.govIdLegacyStore!, address, 123456789n)
 */
export function isUniqueForActionCall(store: Address, user: Address, actionId: bigint): ContractCall {
  return {
    target: store,
    subject: user,
    label: `isUniqueForAction(${user}, ${actionId}) on ${store}`,
    callData: encodeFunctionData({ abi: legacyStoreAbi, functionName: 'isUniqueForAction', args: [user, actionId] }),
  }
}

/**
 * Decodes an `isUniqueForAction` result from `aggregate3`.
 *
 * @throws {ChainReadError} when the call reverted or returned something that is not a bool (no store
 *   at that address).
 * @example
 * import { decodeIsUniqueForAction } from './legacy.js'
 * const unique = decodeIsUniqueForAction(result, { blockNumber, addresses: [address] })
 */
export function decodeIsUniqueForAction(result: CallResult, context: ChainErrorContext): boolean {
  if (result.success) {
    try {
      return decodeFunctionResult({ abi: legacyStoreAbi, functionName: 'isUniqueForAction', data: result.returnData })
    } catch {
      // Falls through to the error below.
    }
  }
  throw chainReadError(
    context,
    `isUniqueForAction ${result.success ? 'returned' : 'reverted with'} ${describeData(result.returnData)}: is the store deployed at this address on this chain?`,
  )
}

/** Parameters of {@link readLegacyUniqueness}. */
export type ReadLegacyUniquenessParameters = {
  store: Address
  multicall3: Address
  users: readonly Address[]
  actionId: bigint
  blockNumber: bigint
  batchSize?: number | undefined
  concurrency?: number | undefined
  chainId?: number | undefined
}

/** What {@link readLegacyUniqueness} returns: per user, in order, whether the store holds it unique for the action. */
export type ReadLegacyUniquenessReturnType = boolean[]

/** What {@link readLegacyUniqueness} throws. */
export type ReadLegacyUniquenessErrorType = MulticallAtErrorType

/**
 * Reads `isUniqueForAction(user, actionId)` on a permanent store for each user at one block.
 *
 * @throws {BlockNotAvailableError} when the node cannot serve state at the block.
 * @throws {ChainReadError} when a request fails or the store answers malformed data.
 * @example
 * import { readLegacyUniqueness, optimismNetwork, toPublicClient } from 'personhood'
 * const [unique] = await readLegacyUniqueness(toPublicClient(provider), {
 *   store: optimismNetwork.contracts.govIdLegacyStore!,
 *   multicall3: optimismNetwork.contracts.multicall3,
 *   users: [address],
 *   actionId: 123456789n,
 *   blockNumber: 120_000_000n,
 * })
 */
export async function readLegacyUniqueness(client: Client, parameters: ReadLegacyUniquenessParameters): Promise<ReadLegacyUniquenessReturnType> {
  const { store, users, actionId, blockNumber, chainId } = parameters
  const results = await multicallAt(client, { ...parameters, calls: users.map((user) => isUniqueForActionCall(store, user, actionId)) })
  return users.map((user, index) =>
    decodeIsUniqueForAction(results[index] as CallResult, { blockNumber, chainId, addresses: [user], call: `isUniqueForAction on ${store}` }),
  )
}
