/**
 * The snapshot a strategy scores at: a block number (or 'latest') on the space's network, resolved to
 * that block's number and timestamp through the provider score-api hands the strategy.
 */
import type { Client } from 'viem'
import { BlockNotAvailableError, ChainReadError, type BlockNotAvailableErrorType, type ChainReadErrorType } from '../errors/chain.js'
import { InvalidParameterError, type InvalidParameterErrorType } from '../errors/input.js'
import { toPublicClient, type ChainClient } from '../chain/provider.js'
import { readBlockHeader } from '../chain/rpc.js'
import { parseBlockNumber } from '../utils/parse.js'

/**
 * What a strategy accepts as the provider of the space's network: what score-api hands it (an
 * ethers v5 provider), an ethers v6 provider, a viem client, any EIP-1193 provider (`request`), or
 * anything with an ethers-style `getBlock(blockTag)`.
 */
export type StrategyProvider = ChainClient | { getBlock(blockTag: number | string): Promise<unknown> }

/** Whether a strategy's provider can be read as a chain client (an EIP-1193 `request` or ethers' `send`), not only asked for blocks. */
export function isChainClient(provider: StrategyProvider): provider is ChainClient {
  return typeof (provider as { request?: unknown }).request === 'function' || typeof (provider as { send?: unknown }).send === 'function'
}

/** A snapshot as score-api passes it: a block number or `'latest'` (a string of digits is read too). */
export type StrategySnapshot = number | bigint | string

/** The block a strategy scores at. */
export type ResolvedSnapshot = {
  /** The space's network (a chain id string, as score-api passes it). */
  network: string
  /** What was asked: a block number, or 'latest'. */
  requested: bigint | 'latest'
  /** The block's number (for 'latest', the head's at the time of the read). */
  blockNumber: bigint
  /** The block's timestamp, Unix seconds: the moment every score is taken at. */
  timestamp: number
}

/**
 * A snapshot as asked, before its block is read: what a strategy whose own reads return the block
 * receives (see `StrategyDefinition.scoreRequested`). `resolve()` reads the block's header through
 * the space's provider when the strategy needs its time: one request, sent once however often it
 * is called.
 */
export type RequestedSnapshot = {
  /** The space's network (a chain id string, as score-api passes it). */
  network: string
  /** What was asked: a block number, or 'latest'. */
  requested: bigint | 'latest'
  resolve(): Promise<ResolvedSnapshot>
}

/**
 * Reads a snapshot: a non-negative safe integer, a bigint, a string of decimal digits, or `'latest'`.
 *
 * @throws {InvalidParameterError} for anything else.
 * @example
 * import { parseSnapshot } from './snapshot.js'
 * parseSnapshot(21_000_000) // 21000000n
 * parseSnapshot('latest') // 'latest'
 */
export function parseSnapshot(value: unknown): bigint | 'latest' {
  // score-api always passes one: a missing snapshot is a mistake, not 'latest'.
  if (value === undefined) throw new InvalidParameterError({ parameter: 'snapshot', reason: "Expected a block number or 'latest', got undefined." })
  return parseBlockNumber(value, 'snapshot')
}

/** Parameters of {@link resolveSnapshot}. */
export type ResolveSnapshotParameters = {
  snapshot: StrategySnapshot
  network: string
  /** The addresses being scored, named by an error. */
  addresses?: readonly string[] | undefined
}

/** What {@link resolveSnapshot} returns: the block and its time. */
export type ResolveSnapshotReturnType = ResolvedSnapshot

/** What {@link resolveSnapshot} throws: a bad snapshot or provider, no such block, a failed read. */
export type ResolveSnapshotErrorType = InvalidParameterErrorType | BlockNotAvailableErrorType | ChainReadErrorType

/**
 * Reads the snapshot's block header through the provider: its number and timestamp. One request.
 *
 * @throws {InvalidParameterError} on a bad snapshot or provider (before any request).
 * @throws {BlockNotAvailableError} when the node has no such block (a future block).
 * @throws {ChainReadError} when the read fails or the answer is not a block header.
 * @example
 * import { resolveSnapshot } from 'personhood'
 * // in a strategy: strategy(space, network, provider, addresses, options, snapshot)
 * const { blockNumber, timestamp } = await resolveSnapshot(provider, { snapshot, network })
 */
export async function resolveSnapshot(provider: StrategyProvider, { snapshot, network, addresses = [] }: ResolveSnapshotParameters): Promise<ResolveSnapshotReturnType> {
  return readSnapshotHeader(provider, { requested: parseSnapshot(snapshot), network, addresses })
}

/**
 * {@link resolveSnapshot} of a snapshot already parsed (a parsed strategy call's): reads the block's
 * header through the provider. One request.
 *
 * @throws {InvalidParameterError} on a bad provider (before any request).
 * @throws {BlockNotAvailableError} or {@link ChainReadError} as {@link resolveSnapshot}.
 */
export async function readSnapshotHeader(
  provider: StrategyProvider,
  { requested, network, addresses = [] }: { requested: bigint | 'latest'; network: string; addresses?: readonly string[] | undefined },
): Promise<ResolvedSnapshot> {
  const chainId = /^[1-9][0-9]{0,15}$/.test(network) ? Number(network) : undefined
  const value = provider as unknown as Record<string, unknown> | null | undefined
  const speaksRpc = typeof value === 'object' && value !== null && (typeof value.request === 'function' || typeof value.send === 'function')
  if (speaksRpc) {
    const header = await readBlockHeader(toPublicClient(provider as ChainClient) as Client, {
      blockNumber: requested === 'latest' ? undefined : requested,
      addresses,
      chainId,
    })
    return { network, requested, blockNumber: header.number, timestamp: toSeconds(header.timestamp, requested, addresses, chainId) }
  }
  if (typeof value === 'object' && value !== null && typeof value.getBlock === 'function') {
    return readWithGetBlock(provider as { getBlock(tag: number | string): Promise<unknown> }, { network, requested, addresses, chainId })
  }
  throw new InvalidParameterError({
    parameter: 'provider',
    reason: 'Expected an ethers provider (getBlock or send), a viem client or an EIP-1193 provider (request).',
  })
}

async function readWithGetBlock(
  provider: { getBlock(tag: number | string): Promise<unknown> },
  context: { network: string; requested: bigint | 'latest'; addresses: readonly string[]; chainId: number | undefined },
): Promise<ResolvedSnapshot> {
  const { requested, addresses, chainId } = context
  const tag = requested === 'latest' ? 'latest' : Number(requested)
  const errorContext = { blockNumber: requested, addresses, chainId, metaMessages: [`Call: getBlock(${tag})`] }
  let block: unknown
  try {
    block = await provider.getBlock(tag)
  } catch (error) {
    throw new ChainReadError({ ...errorContext, cause: error })
  }
  if (block === null || block === undefined) {
    throw new BlockNotAvailableError({ ...errorContext, details: 'The node does not have this block (it may be in the future).' })
  }
  const { number, timestamp } = block as { number?: unknown; timestamp?: unknown }
  const blockNumber = toBigInt(number)
  const time = toBigInt(timestamp)
  if (blockNumber === undefined || time === undefined) {
    throw new ChainReadError({ ...errorContext, details: 'getBlock answered a block without number or timestamp.' })
  }
  if (requested !== 'latest' && blockNumber !== requested) {
    throw new ChainReadError({ ...errorContext, details: `Asked for block ${requested}, the provider answered block ${blockNumber}.` })
  }
  return { network: context.network, requested, blockNumber, timestamp: toSeconds(time, requested, addresses, chainId) }
}

function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^(?:[0-9]+|0x[0-9a-fA-F]+)$/.test(value)) return BigInt(value)
  // ethers v5 BigNumber
  if (typeof value === 'object' && value !== null && typeof (value as { toHexString?: unknown }).toHexString === 'function') {
    return BigInt((value as { toHexString(): string }).toHexString())
  }
  return undefined
}

/** A block timestamp as a number of seconds; one past any Date is not a real block. */
function toSeconds(timestamp: bigint, requested: bigint | 'latest', addresses: readonly string[], chainId: number | undefined): number {
  if (timestamp > 8_640_000_000_000n) {
    throw new ChainReadError({ blockNumber: requested, addresses, chainId, details: `The block's timestamp ${timestamp} is not a time.` })
  }
  return Number(timestamp)
}
