/**
 * `findBlockAtTime`: the last block of a chain at or before a time. A Snapshot space's snapshot is a
 * block on its own network (often Ethereum); the Human ID Hub lives on Optimism, so the verifier
 * needs the hub chain's block that was the latest at that block's time. On a chain with a regular
 * clock (Optimism: one block every 2 s since Bedrock) that is arithmetic from an anchor, confirmed
 * by one header read; elsewhere (or when the clock is off) a bounded search of header reads.
 */
import type { Client } from 'viem'
import { BlockNotAvailableError, InvalidParameterError } from '../errors/index.js'
import { toPublicClient, type ChainClient } from './provider.js'
import { chainReadError, errorParameters, readBlockHeader, type BlockHeader, type ChainErrorContext } from './rpc.js'

/**
 * How a chain makes blocks: from `anchor` on, one block every `blockTimeSeconds`.
 *
 * @example
 * import type { BlockClock } from 'personhood'
 * // Optimism since Bedrock: block 105,235,063 at 1686068903, then one block every 2 s.
 * const clock: BlockClock = { anchor: { blockNumber: 105_235_063n, timestamp: 1_686_068_903n }, blockTimeSeconds: 2, exact: true }
 */
export type BlockClock = {
  /** A block of the chain: its number and timestamp (Unix seconds). */
  anchor: { blockNumber: bigint; timestamp: bigint }
  /** Seconds between blocks from the anchor on (a positive integer). */
  blockTimeSeconds: number
  /**
   * True when every block from the anchor on is exactly `blockTimeSeconds` after its parent (OP
   * Stack chains): a header that sits where the clock says also tells where the next block sits, so
   * one read confirms the answer. Otherwise the next block is read too. Default false.
   */
  exact?: boolean | undefined
}

/** Parameters of {@link findBlockAtTime}. */
export type FindBlockAtTimeParameters = {
  /** A client of the chain searched: a viem client, an ethers provider or an EIP-1193 provider. */
  client: ChainClient
  /** The time, Unix seconds. */
  timestamp: bigint | number
  /** The chain's clock: where to look first, and whether one read confirms. */
  clock: BlockClock
  /** Most header reads before giving up with a {@link ChainReadError}. Default 40. */
  maxReads?: number | undefined
  /** The chain's id, named by errors. */
  chainId?: number | undefined
}

/** What {@link findBlockAtTime} returns: the block, and how many header reads it took. */
export type FindBlockAtTimeReturnType = BlockHeader & { reads: number }

/** Default of {@link FindBlockAtTimeParameters.maxReads}: enough to bisect any chain after a clock miss. */
export const defaultBlockAtTimeMaxReads = 40

/**
 * Finds the last block at or before `timestamp`: the block whose timestamp is `<= timestamp` and
 * whose next block's is `> timestamp` (blocks sharing a timestamp: the last of them).
 *
 * The clock predicts the block; its header is read. On an `exact` clock, a header where the clock
 * says confirms the answer in one read (even at the chain's head: the next block is then due after
 * `timestamp`). Otherwise, or when the header is off the clock (a wrong anchor, a gap, a block
 * before the anchor), the search narrows between a block known at or before the time and one known
 * after it, stepping by the clock and then bisecting, until they are neighbours, in at most
 * `maxReads` reads.
 *
 * @throws {InvalidParameterError} for a negative or non-integer time, or a malformed clock, before any request.
 * @throws {BlockNotAvailableError} when the chain has no block at or before the time (it starts
 *   later), or has not yet made the block after it (its head is at or before the time and the
 *   clock cannot promise the next block comes later).
 * @throws {ChainReadError} when a header read fails, or the search needs more than `maxReads` reads.
 * @example
 * import { findBlockAtTime, optimismClock } from 'personhood'
 * import { createPublicClient, http } from 'viem'
 * import { optimism } from 'viem/chains'
 *
 * const client = createPublicClient({ chain: optimism, transport: http(process.env.OPTIMISM_RPC_URL) })
 * const { number, timestamp } = await findBlockAtTime({ client, timestamp: 1_735_689_600n, clock: optimismClock })
 */
export async function findBlockAtTime(parameters: FindBlockAtTimeParameters): Promise<FindBlockAtTimeReturnType> {
  const time = parseTime(parameters.timestamp)
  const { anchor, step, exact } = parseClock(parameters.clock)
  const maxReads = parameters.maxReads ?? defaultBlockAtTimeMaxReads
  if (!Number.isSafeInteger(maxReads) || maxReads < 1) {
    throw new InvalidParameterError({ parameter: 'maxReads', reason: `Expected a positive integer, got ${String(maxReads)}.` })
  }
  const client = toPublicClient(parameters.client)
  const { chainId } = parameters
  const context = (blockNumber: bigint | 'latest', call: string): ChainErrorContext => ({ blockNumber, addresses: [], chainId, call })
  let reads = 0
  const read = async (blockNumber: bigint | undefined): Promise<BlockHeader | undefined> => {
    if (reads >= maxReads) {
      throw chainReadError(
        context(blockNumber ?? 'latest', `findBlockAtTime(${time})`),
        `No block found at or before time ${time} in ${maxReads} header reads: the chain's block times do not fit its clock (one block every ${step} s from block ${anchor.blockNumber} at ${anchor.timestamp}).`,
      )
    }
    reads++
    try {
      return await readBlockHeader(client as Client, { blockNumber, addresses: [], chainId })
    } catch (error) {
      // A block past the head: some nodes answer null, others an error.
      if (blockNumber !== undefined && error instanceof BlockNotAvailableError) return undefined
      throw error
    }
  }
  // On the clock: where an exact clock puts the block's time.
  const onClock = (header: BlockHeader) => exact && header.number >= anchor.blockNumber && header.timestamp === anchor.timestamp + (header.number - anchor.blockNumber) * step
  const notYet = (head: BlockHeader) =>
    new BlockNotAvailableError({
      ...errorParameters(context(head.number, `findBlockAtTime(${time})`)),
      details: `The chain's head is block ${head.number} at ${head.timestamp}, not after time ${time}: the last block at or before that time may not be made yet. Try again later.`,
    })

  // Known bounds: `low` at or before the time, `high` after it (or past the head).
  let low: BlockHeader | undefined
  let high: bigint | undefined
  let guess = predict(anchor, step, time)
  for (let round = 0; ; round++) {
    let header = await read(guess)
    if (header === undefined) {
      // Past the head: the head is the highest block there is.
      high = guess
      header = (await read(undefined)) as BlockHeader
      if (header.timestamp <= time) {
        if (onClock(header) && time - header.timestamp < step) return { ...header, reads }
        throw notYet(header)
      }
    }
    if (header.timestamp <= time) {
      if (low === undefined || header.number > low.number) low = header
      if (high !== undefined && high === low.number + 1n) return { ...low, reads }
      if (onClock(header) && time - header.timestamp < step) return { ...header, reads }
      guess = header.number + max(1n, (time - header.timestamp) / step) * gallop(round, high)
    } else {
      if (header.number === 0n) {
        throw new BlockNotAvailableError({
          ...errorParameters(context(0n, `findBlockAtTime(${time})`)),
          details: `The chain starts at ${header.timestamp}, after time ${time}: no block is at or before it.`,
        })
      }
      if (high === undefined || header.number < high) high = header.number
      if (low !== undefined && high === low.number + 1n) return { ...low, reads }
      guess = header.number - max(1n, ceilDiv(header.timestamp - time, step)) * gallop(round, low)
      if (guess < 0n) guess = 0n
    }
    // Keep the guess strictly between the bounds; once both are known and two clock steps missed, bisect.
    const lowest = low === undefined ? 0n : low.number + 1n
    const highest = high === undefined ? undefined : high - 1n
    if (low !== undefined && high !== undefined && round >= 2) guess = (low.number + high) / 2n
    if (guess < lowest) guess = lowest
    if (highest !== undefined && guess > highest) guess = highest
  }
}

/**
 * Optimism's clock since Bedrock (the rollup's L2 genesis): block 105,235,063 at 1686068903
 * (2023-06-06T16:28:23Z), then one block every 2 s exactly.
 *
 * @example
 * import { findBlockAtTime, optimismClock } from 'personhood'
 * await findBlockAtTime({ client, timestamp, clock: optimismClock })
 */
export const optimismClock: BlockClock = Object.freeze({
  anchor: Object.freeze({ blockNumber: 105_235_063n, timestamp: 1_686_068_903n }),
  blockTimeSeconds: 2,
  exact: true,
}) as BlockClock

/**
 * Base Sepolia's clock: block 0 at 1695768288 (2023-09-26T22:44:48Z), then one block every 2 s
 * exactly (an OP Stack chain).
 *
 * @example
 * import { baseSepoliaClock, findBlockAtTime } from 'personhood'
 * await findBlockAtTime({ client, timestamp, clock: baseSepoliaClock })
 */
export const baseSepoliaClock: BlockClock = Object.freeze({
  anchor: Object.freeze({ blockNumber: 0n, timestamp: 1_695_768_288n }),
  blockTimeSeconds: 2,
  exact: true,
}) as BlockClock

/**
 * While only one bound is known, the steps double after two rounds, so a chain much faster than its
 * clock still meets the other bound in a few reads (then the search bisects).
 */
function gallop(round: number, otherBound: unknown): bigint {
  return otherBound === undefined && round >= 2 ? 2n ** BigInt(Math.min(round - 1, 64)) : 1n
}

function predict(anchor: BlockClock['anchor'], step: bigint, time: bigint): bigint {
  const offset = time - anchor.timestamp
  // Floor division toward minus infinity, so a time before the anchor predicts an earlier block.
  const blocks = offset >= 0n ? offset / step : -ceilDiv(-offset, step)
  const guess = anchor.blockNumber + blocks
  return guess < 0n ? 0n : guess
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}

function parseTime(value: bigint | number): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  throw new InvalidParameterError({ parameter: 'timestamp', reason: `Expected Unix seconds as a non-negative integer, got ${String(value)}.` })
}

function parseClock(clock: BlockClock): { anchor: BlockClock['anchor']; step: bigint; exact: boolean } {
  const anchor = clock?.anchor
  const ok =
    typeof anchor === 'object' &&
    anchor !== null &&
    typeof anchor.blockNumber === 'bigint' &&
    anchor.blockNumber >= 0n &&
    typeof anchor.timestamp === 'bigint' &&
    anchor.timestamp >= 0n &&
    Number.isSafeInteger(clock.blockTimeSeconds) &&
    clock.blockTimeSeconds > 0
  if (!ok) {
    throw new InvalidParameterError({
      parameter: 'clock',
      reason: 'Expected { anchor: { blockNumber: bigint, timestamp: bigint }, blockTimeSeconds: positive integer, exact?: boolean }.',
    })
  }
  return { anchor, step: BigInt(clock.blockTimeSeconds), exact: clock.exact === true }
}
