/**
 * Raw JSON-RPC reads (chain id, block header) and the mapping of node failures to typed errors that
 * name the block and the addresses affected.
 */
import { hexToBigInt, hexToNumber, isHex, numberToHex, type Client, type Hex } from 'viem'
import { BlockNotAvailableError, ChainReadError } from '../errors/index.js'
import { blockNotServedPattern } from '../rules/hub.js'

/** What a chain error names: the block, the addresses whose answers it affects, the chain. */
export type ChainErrorContext = {
  blockNumber: bigint | 'latest'
  addresses: readonly string[]
  chainId?: number | undefined
  /** A line of context shown under the message (for example the contract and call). */
  call?: string | undefined
}

/** Collects the message-like strings of an error and everything it wraps (viem, ethers v5/v6, raw). */
export function collectErrorMessages(error: unknown): string[] {
  const messages: string[] = []
  const seen = new Set<unknown>()
  const visit = (value: unknown, depth: number) => {
    if (depth > 8 || value === null || value === undefined || seen.has(value)) return
    if (typeof value === 'string') {
      messages.push(value)
      return
    }
    if (typeof value !== 'object') return
    seen.add(value)
    const record = value as Record<string, unknown>
    for (const key of ['message', 'shortMessage', 'details', 'reason', 'body', 'responseText']) {
      if (typeof record[key] === 'string') messages.push(record[key])
    }
    for (const key of ['cause', 'error', 'info', 'data', 'serverError']) {
      if (key in record) visit(record[key], depth + 1)
    }
  }
  visit(error, 0)
  return messages
}

/**
 * Tells whether an RPC failure means "the node cannot serve state at this block" (pruned state,
 * unknown or future block), looking through the wrapped causes of viem and ethers errors.
 *
 * @example
 * import { isBlockNotAvailable } from './rpc.js'
 * isBlockNotAvailable(new Error('missing trie node 9a3f... (path )')) // true
 */
export function isBlockNotAvailable(error: unknown): boolean {
  return collectErrorMessages(error).some((message) => blockNotServedPattern.test(message))
}

/**
 * Wraps an RPC failure in a {@link BlockNotAvailableError} (pruned state, unknown or future block) or
 * a {@link ChainReadError}, naming the block and the addresses affected. A typed error of this
 * package passes through unchanged.
 */
export function toChainReadError(error: unknown, context: ChainErrorContext): ChainReadError {
  if (error instanceof ChainReadError) return error
  const parameters = { ...errorParameters(context), cause: error }
  return isBlockNotAvailable(error) ? new BlockNotAvailableError(parameters) : new ChainReadError(parameters)
}

/** A {@link ChainReadError} for an answer that cannot be right (`details` says why). */
export function chainReadError(context: ChainErrorContext, details: string): ChainReadError {
  return new ChainReadError({ ...errorParameters(context), details })
}

/** The parameters of a chain error for `context` (internal). */
export function errorParameters(context: ChainErrorContext) {
  return {
    blockNumber: context.blockNumber,
    addresses: context.addresses,
    chainId: context.chainId,
    metaMessages: context.call ? [`Call: ${context.call}`] : [],
  }
}

/** A block header: the pieces the verifier pins its reads to. */
export type BlockHeader = { number: bigint; hash: Hex; timestamp: bigint }

/**
 * Reads the chain id the client is connected to (`eth_chainId`).
 *
 * @throws {ChainReadError} when the node fails or answers with something that is not a chain id.
 * @example
 * import { toPublicClient } from 'personhood'
 * import { readChainId } from './rpc.js'
 * const chainId = await readChainId(toPublicClient(provider), { addresses: [] })
 */
export async function readChainId(client: Client, context: Omit<ChainErrorContext, 'blockNumber'> & { blockNumber?: bigint | 'latest' }): Promise<number> {
  const errorContext = { blockNumber: context.blockNumber ?? 'latest', addresses: context.addresses, call: 'eth_chainId' } as const
  let value: unknown
  try {
    value = await client.request({ method: 'eth_chainId' })
  } catch (error) {
    throw toChainReadError(error, errorContext)
  }
  if (typeof value === 'string' && isHex(value) && value.length > 2) return hexToNumber(value)
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value // some providers answer a number
  throw chainReadError(errorContext, `eth_chainId answered ${JSON.stringify(value)}`)
}

/**
 * Reads a block header (number, hash, timestamp): the block given, or the latest one.
 *
 * @throws {BlockNotAvailableError} when the node does not have the block (a future block).
 * @throws {ChainReadError} when the node fails or answers a malformed header.
 * @example
 * import { toPublicClient } from 'personhood'
 * import { readBlockHeader } from './rpc.js'
 * const { number, timestamp } = await readBlockHeader(toPublicClient(provider), { blockNumber: 120_000_000n, addresses: [] })
 */
export async function readBlockHeader(
  client: Client,
  context: { blockNumber?: bigint | undefined; addresses: readonly string[]; chainId?: number | undefined },
): Promise<BlockHeader> {
  const tag = context.blockNumber === undefined ? 'latest' : numberToHex(context.blockNumber)
  const errorContext: ChainErrorContext = {
    blockNumber: context.blockNumber ?? 'latest',
    addresses: context.addresses,
    chainId: context.chainId,
    call: `eth_getBlockByNumber(${tag})`,
  }
  let block: unknown
  try {
    block = await client.request({ method: 'eth_getBlockByNumber', params: [tag, false] })
  } catch (error) {
    throw toChainReadError(error, errorContext)
  }
  if (block === null || block === undefined) {
    throw new BlockNotAvailableError({ ...errorParameters(errorContext), details: 'The node does not have this block (it may be in the future).' })
  }
  const { number, hash, timestamp } = block as Record<string, unknown>
  if (!isQuantity(number) || !isHex(hash) || !isQuantity(timestamp)) {
    throw chainReadError(errorContext, 'eth_getBlockByNumber answered a header without number, hash or timestamp.')
  }
  const header = { number: hexToBigInt(number), hash, timestamp: hexToBigInt(timestamp) }
  if (context.blockNumber !== undefined && header.number !== context.blockNumber) {
    throw chainReadError(errorContext, `Asked for block ${context.blockNumber}, the node answered block ${header.number}.`)
  }
  return header
}

function isQuantity(value: unknown): value is Hex {
  return typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)
}
