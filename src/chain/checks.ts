/**
 * What a command or an audit checks before it trusts a chain: that an endpoint serves the chain it
 * stands for (`eth_chainId`), and that a snapshot block is not dated ahead of the clock.
 */
import { BlockInFutureError, ChainMismatchError, ChainReadError } from '../errors/chain.js'
import { toPublicClient, type ChainClient } from './provider.js'

/** How far ahead of the local clock a block's time may be (clock drift and block-time rounding). */
export const blockTimeMarginSeconds = 300

/** Parameters of {@link checkChainId}. */
export type CheckChainIdParameters = {
  /** The chain id it must serve, as a string ("10"). */
  network: string
  /** The endpoint in words, for messages: `--rpc (https://…)`. Never a URL with its secrets. */
  endpoint: string
}

/**
 * Checks that a client serves the chain it stands for (one `eth_chainId`), so no verdict is judged
 * on another chain's state or at another chain's block time.
 *
 * @throws {ChainMismatchError} when it serves another chain.
 * @throws {ChainReadError} when it cannot say.
 * @example
 * await checkChainId(client, { network: '10', endpoint: 'the Optimism RPC' })
 */
export async function checkChainId(client: ChainClient, parameters: CheckChainIdParameters): Promise<void> {
  let chainId: number
  try {
    chainId = await toPublicClient(client).getChainId()
  } catch (error) {
    throw new ChainReadError({ blockNumber: 'latest', addresses: [], chainId: Number(parameters.network), cause: error, details: `${parameters.endpoint} did not answer eth_chainId.` })
  }
  if (String(chainId) !== parameters.network) {
    throw new ChainMismatchError({ expected: parameters.network, actual: String(chainId), endpoint: parameters.endpoint })
  }
}

/** Parameters of {@link checkBlockTime}. */
export type CheckBlockTimeParameters = { blockNumber: bigint; timestamp: number; network: string; now: number }

/**
 * Refuses a block dated ahead of the local clock by more than {@link blockTimeMarginSeconds}.
 *
 * @throws {BlockInFutureError}
 */
export function checkBlockTime(parameters: CheckBlockTimeParameters): void {
  if (parameters.timestamp * 1000 > parameters.now + blockTimeMarginSeconds * 1000) {
    throw new BlockInFutureError({ blockNumber: parameters.blockNumber, addresses: [], chainId: Number(parameters.network), blockTimestamp: parameters.timestamp, now: parameters.now, marginSeconds: blockTimeMarginSeconds })
  }
}
