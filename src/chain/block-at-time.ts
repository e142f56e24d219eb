/**
 * `findBlockAtTime`: the last block of a chain at or before a time. A Snapshot space's snapshot is a
 * block on its own network (often Ethereum); the Human ID Hub lives on Optimism, so the verifier
 * needs the hub chain's block that was the latest at that block's time. On a chain with a regular
 * clock (Optimism: one block every 2 s since Bedrock) that is arithmetic from an anchor, confirmed
 * by one header read; elsewhere (or when the clock is off) a bounded search of header reads.
 */
import type { Client } from 'viem'
import { BlockNotAvailableError, InvalidParameterError, type BlockNotAvailableErrorType, type ChainReadErrorType, type InvalidParameterErrorType } from '../errors/index.js'
import { toPublicClient, type ChainClient } from './provider.js'
import * as rules from '../rules/hub.js'
import { chainReadError, collectErrorMessages, errorParameters, readBlockHeader, type BlockHeader, type ChainErrorContext } from './rpc.js'

/**
 * How a chain makes blocks: from `anchor` on, one block every `blockTimeSeconds` (exactly, or on
 * average).
 *
 * @example
 * import type { BlockClock } from 'personhood'
 * // Optimism since Bedrock: block 105,235,063 at 1686068903, then one block every 2 s.
 * const clock: BlockClock = { anchor: { blockNumber: 105_235_063n, timestamp: 1_686_068_903n }, blockTimeSeconds: 2, exact: true }
 */
export type BlockClock = {
  /** A block of the chain: its number and timestamp (Unix seconds). */
  anchor: { blockNumber: bigint; timestamp: bigint }
  /**
   * Seconds between blocks from the anchor on: a positive integer on an `exact` clock, else the
   * average (a fraction is allowed, to the millisecond: Arbitrum's is about 0.25).
   */
  blockTimeSeconds: number
  /**
   * True when every block from the anchor on is exactly `blockTimeSeconds` after its parent (OP
   * Stack chains): a header that sits where the clock says also tells where the next block sits, so
   * one read confirms the answer. Otherwise the next block is read too. Default false.
   */
  exact?: boolean | undefined
  /**
   * On a clock that is not exact: the most its average may be off, as a share of the time from the
   * nearest known block, the anchor or a checkpoint (0.01: a block a day from it is at most 864 s
   * from where the clock puts it).
   * {@link estimateBlockTime} gives the bounds. Default 0.
   */
  drift?: number | undefined
  /**
   * On a clock that is not exact: earlier blocks of the chain with their times, ascending, all
   * before the anchor. {@link estimateBlockTime} places a block between two of them (or the last
   * and the anchor) by their own average, and counts the drift from the nearer one; before the
   * first, by the first stretch's average. {@link findBlockAtTime} does not use them.
   */
  checkpoints?: readonly { blockNumber: bigint; timestamp: bigint }[] | undefined
  /** The chain's name, for messages (`Ethereum`, `Optimism`...). */
  name?: string | undefined
}

/** Parameters of {@link findBlockAtTime}. */
export type FindBlockAtTimeParameters = {
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

/** What {@link findBlockAtTime} throws: a bad time or clock, no such block (yet), a failed read or too many. */
export type FindBlockAtTimeErrorType = InvalidParameterErrorType | BlockNotAvailableErrorType | ChainReadErrorType

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
 * const { number, timestamp } = await findBlockAtTime(client, { timestamp: 1_735_689_600n, clock: optimismClock })
 */
export async function findBlockAtTime(
  chainClient: ChainClient,
  { timestamp, clock, maxReads = defaultBlockAtTimeMaxReads, chainId }: FindBlockAtTimeParameters,
): Promise<FindBlockAtTimeReturnType> {
  const time = parseTime(timestamp)
  const { anchor, stepMs, exact } = parseClock(clock)
  // An exact clock's step is whole seconds (checked); it is only compared on exact clocks.
  const step = stepMs / 1000n
  if (!Number.isSafeInteger(maxReads) || maxReads < 1) {
    throw new InvalidParameterError({ parameter: 'maxReads', reason: `Expected a positive integer, got ${String(maxReads)}.` })
  }
  const client = toPublicClient(chainClient)
  const context = (blockNumber: bigint | 'latest', call: string): ChainErrorContext => ({ blockNumber, addresses: [], chainId, call })
  let reads = 0
  const read = async (blockNumber: bigint | undefined): Promise<BlockHeader | undefined> => {
    if (reads >= maxReads) {
      throw chainReadError(
        context(blockNumber ?? 'latest', `findBlockAtTime(${time})`),
        `No block found at or before time ${time} in ${maxReads} header reads: the chain's block times do not fit its clock (one block every ${clock.blockTimeSeconds} s from block ${anchor.blockNumber} at ${anchor.timestamp}).`,
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
  let guess = predict(anchor, stepMs, time)
  for (let round = 0; ; round++) {
    let header = await read(guess)
    if (header === undefined) {
      // Past the head: the head is the highest block there is.
      high = guess
      header = (await read(undefined)) as BlockHeader
      if (header.timestamp <= time) {
        if (onClock(header) && (time - header.timestamp) * 1000n < stepMs) return { ...header, reads }
        throw notYet(header)
      }
    }
    if (header.timestamp <= time) {
      if (low === undefined || header.number > low.number) low = header
      if (high !== undefined && high === low.number + 1n) return { ...low, reads }
      if (onClock(header) && (time - header.timestamp) * 1000n < stepMs) return { ...header, reads }
      guess = header.number + max(1n, ((time - header.timestamp) * 1000n) / stepMs) * gallop(round, high)
    } else {
      if (header.number === 0n) {
        throw new BlockNotAvailableError({
          ...errorParameters(context(0n, `findBlockAtTime(${time})`)),
          details: `The chain starts at ${header.timestamp}, after time ${time}: no block is at or before it.`,
        })
      }
      if (high === undefined || header.number < high) high = header.number
      if (low !== undefined && high === low.number + 1n) return { ...low, reads }
      guess = header.number - max(1n, ceilDiv((header.timestamp - time) * 1000n, stepMs)) * gallop(round, low)
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
 * The last block at or before `timestamp` by an exact clock, without reading the chain: what
 * {@link findBlockAtTime} reads first. Undefined on a clock that is not exact, or before its anchor
 * (the clock does not hold there). A block read at that number confirms it when
 * {@link clockReadStep} keeps it.
 *
 * @throws {InvalidParameterError} for a negative or non-integer time, or a malformed clock.
 */
export function blockAtTimeOnClock(clock: BlockClock, timestamp: bigint | number): bigint | undefined {
  const time = parseTime(timestamp)
  const exact = exactClock(clock)
  if (!exact) return undefined
  const block = rules.clockBlockAt(exact, Number(time))
  return block === undefined ? undefined : BigInt(block)
}

/**
 * After the first read at `byClock` (the block an exact clock gave for `timestamp`): use that block,
 * search it (the chain left its clock when `offClock`; the node has no state there) and read
 * again, or fail with the read's own error. The score-api folder decides with the same rule,
 * src/rules/hub.ts's `hubClockStep`.
 *
 * @throws {InvalidParameterError} for a negative or non-integer time, or a malformed clock.
 */
export function clockReadStep(
  clock: BlockClock,
  byClock: bigint,
  timestamp: bigint | number,
  first: { block: { number: bigint; timestamp: bigint } } | { error: unknown },
): ReturnType<typeof rules.hubClockStep> {
  const time = Number(parseTime(timestamp))
  const exact = exactClock(clock)
  if (exact === undefined) return { step: 'search', offClock: false }
  const read = 'block' in first ? { block: { number: Number(first.block.number), timestamp: Number(first.block.timestamp) } } : { failure: collectErrorMessages(first.error) }
  return rules.hubClockStep(exact, Number(byClock), time, read)
}

/** An exact clock in the rules' terms (src/rules/hub.ts judges with it, as the score-api folders do); undefined when not exact. */
function exactClock(clock: BlockClock): rules.HubClock | undefined {
  const { anchor, stepMs, exact } = parseClock(clock)
  return exact ? { block: Number(anchor.blockNumber), timestamp: Number(anchor.timestamp), seconds: Number(stepMs) / 1000 } : undefined
}

/**
 * Optimism's clock since Bedrock (the rollup's L2 genesis): block 105,235,063 at 1686068903
 * (2023-06-06T16:28:23Z), then one block every 2 s exactly.
 *
 * @example
 * import { findBlockAtTime, optimismClock } from 'personhood'
 * await findBlockAtTime(client, { timestamp, clock: optimismClock })
 */
export const optimismClock: BlockClock = Object.freeze({
  name: 'Optimism',
  anchor: Object.freeze({ blockNumber: BigInt(rules.hubClocks['10'].block), timestamp: BigInt(rules.hubClocks['10'].timestamp) }),
  blockTimeSeconds: rules.hubClocks['10'].seconds,
  exact: true,
}) as BlockClock

/**
 * Base Sepolia's clock: block 0 at 1695768288 (2023-09-26T22:44:48Z), then one block every 2 s
 * exactly (an OP Stack chain).
 *
 * @example
 * import { baseSepoliaClock, findBlockAtTime } from 'personhood'
 * await findBlockAtTime(client, { timestamp, clock: baseSepoliaClock })
 */
export const baseSepoliaClock: BlockClock = Object.freeze({
  name: 'Base Sepolia',
  anchor: Object.freeze({ blockNumber: BigInt(rules.hubClocks['84532'].block), timestamp: BigInt(rules.hubClocks['84532'].timestamp) }),
  blockTimeSeconds: rules.hubClocks['84532'].seconds,
  exact: true,
}) as BlockClock

/**
 * Base's clock: block 0 at 1686789347 (2023-06-15T00:35:47Z), then one block every 2 s exactly (an
 * OP Stack chain).
 */
export const baseClock: BlockClock = Object.freeze({
  name: 'Base',
  anchor: Object.freeze({ blockNumber: 0n, timestamp: 1_686_789_347n }),
  blockTimeSeconds: 2,
  exact: true,
}) as BlockClock

const checkpoint = (blockNumber: bigint, timestamp: bigint) => Object.freeze({ blockNumber, timestamp })

/**
 * Ethereum's clock, an approximation: one block per 12-second slot, less the slots no block was
 * proposed in. Anchored at the Fusaka (Osaka) fork's first block, 23,935,694 at 1764798551
 * (2025-12-03T21:49:11Z, slot 13,164,544), with the first blocks of the Merge (15,537,394 at
 * 1663224179), Shanghai (17,034,870 at 1681338455), Cancun (19,426,587 at 1710338135) and Prague
 * (22,431,084 at 1746612311) as checkpoints. After the anchor, 12.078 s a block: the average from
 * Cancun to Fusaka. Averages between forks ranged from 12.073 to 12.125 s and can never be under
 * 12 s, so `drift` is 1%: a block a year from the nearest checkpoint is at most about 3.7 days from
 * where the clock puts it (each checkpoint left out comes out 4 to 19 hours off). Blocks before the Merge (proof of work, about 13 s)
 * come out too late.
 */
export const ethereumClock: BlockClock = Object.freeze({
  name: 'Ethereum',
  anchor: checkpoint(23_935_694n, 1_764_798_551n),
  blockTimeSeconds: 12.078,
  drift: 0.01,
  checkpoints: Object.freeze([
    checkpoint(15_537_394n, 1_663_224_179n),
    checkpoint(17_034_870n, 1_681_338_455n),
    checkpoint(19_426_587n, 1_710_338_135n),
    checkpoint(22_431_084n, 1_746_612_311n),
  ]),
}) as BlockClock

/**
 * Arbitrum One's clock, an approximation: blocks come at most every 0.25 s, as transactions arrive.
 * Anchored at the ArbOS 40 (Prague) activation block, 348,346,856 at 1750176000
 * (2025-06-17T16:00:00Z), with the ArbOS 11 (Shanghai, 184,097,479 at 1708804873) and ArbOS 20
 * (Cancun, 190,301,729 at 1710424089) blocks as checkpoints. After the anchor, 0.252 s a block: the
 * average from ArbOS 20 to ArbOS 40 (0.261 s from ArbOS 11 to 20). `drift` is 5%: a block a day
 * from the nearest checkpoint is at most 72 minutes from where the clock puts it, a year about 18
 * days.
 */
export const arbitrumClock: BlockClock = Object.freeze({
  name: 'Arbitrum One',
  anchor: checkpoint(348_346_856n, 1_750_176_000n),
  blockTimeSeconds: 0.252,
  drift: 0.05,
  checkpoints: Object.freeze([checkpoint(184_097_479n, 1_708_804_873n), checkpoint(190_301_729n, 1_710_424_089n)]),
}) as BlockClock

/**
 * Polygon PoS's clock, an approximation: a 2 s target, slower on average with delays. Anchored at
 * the Ahmedabad fork's block, 62,278,656, at its announced time 1727344800 (2024-09-26T09:00:00Z),
 * with the Delhi fork's block (38,189,056 at its announced time 1673974800, 2023-01-17T18:00:00Z) as
 * a checkpoint; a fork block's own timestamp may differ from the announced time by up to an hour.
 * Between them 2.216 s a block; after the anchor 2.1 s (later forks aimed at a steady 2 s). `drift`
 * is 10%: a block a day from the nearest checkpoint is at most 2.4 hours from where the clock puts
 * it, a year about 37 days (plus the hour).
 */
export const polygonClock: BlockClock = Object.freeze({
  name: 'Polygon',
  anchor: checkpoint(62_278_656n, 1_727_344_800n),
  blockTimeSeconds: 2.1,
  drift: 0.1,
  checkpoints: Object.freeze([checkpoint(38_189_056n, 1_673_974_800n)]),
}) as BlockClock

/**
 * The block clocks of the networks Snapshot spaces use, by chain id: Ethereum (1), Optimism (10),
 * Polygon (137), Base (8453), Arbitrum One (42161) and Base Sepolia (84532). Optimism's and Base's
 * are exact; Ethereum's, Arbitrum's and Polygon's are approximations within their `drift`.
 *
 * @example
 * import { blockClocks, estimateBlockTime } from 'personhood'
 * estimateBlockTime(blockClocks[1]!, 24_000_000n) // { timestamp, earliest, latest }
 */
export const blockClocks: Readonly<Record<number, BlockClock>> = Object.freeze({
  1: ethereumClock,
  10: optimismClock,
  137: polygonClock,
  8453: baseClock,
  42161: arbitrumClock,
  84532: baseSepoliaClock,
})

/** What {@link estimateBlockTime} returns, Unix seconds: the clock's time of the block, and the bounds its drift allows. */
export type BlockTimeEstimate = { timestamp: bigint; earliest: bigint; latest: bigint }

/**
 * The time of a block by a chain's clock, without reading the chain, and the bounds the clock's
 * `drift` allows. From the anchor on: `anchor.timestamp` plus the blocks since times
 * `blockTimeSeconds`. Before it, on a clock with `checkpoints`: between the two known blocks around
 * it, at their own average. The time is rounded down to the second; the bounds are `drift` times
 * the distance from the nearer known block, each way. On an exact clock the three agree.
 *
 * @throws {InvalidParameterError} for a negative or non-integer block number or a malformed clock;
 *   on an exact clock, for a block before its anchor (the clock does not hold there).
 * @example
 * import { estimateBlockTime, ethereumClock } from 'personhood'
 * const { timestamp, earliest, latest } = estimateBlockTime(ethereumClock, 24_000_000n)
 */
export function estimateBlockTime(clock: BlockClock, blockNumber: bigint | number): BlockTimeEstimate {
  const { anchor, stepMs, exact, drift, checkpoints } = parseClock(clock)
  const block = typeof blockNumber === 'number' && Number.isSafeInteger(blockNumber) ? BigInt(blockNumber) : blockNumber
  if (typeof block !== 'bigint' || block < 0n) {
    throw new InvalidParameterError({ parameter: 'blockNumber', reason: `Expected a non-negative integer, got ${String(blockNumber)}.` })
  }
  if (exact && block < anchor.blockNumber) {
    throw new InvalidParameterError({
      parameter: 'blockNumber',
      reason: `Block ${block} is before the clock's anchor (block ${anchor.blockNumber}): the clock does not hold there.`,
    })
  }
  // The known blocks around `block`: `from` at or before it (or the first, for a block before every
  // one), `to` after it (none past the anchor).
  const known = [...checkpoints, anchor]
  const next = known.findIndex((point) => point.blockNumber > block)
  const from = next <= 0 ? known[next === 0 ? 0 : known.length - 1]! : known[next - 1]!
  const to = next <= 0 ? (next === 0 && known.length > 1 ? known[1] : undefined) : known[next]
  // Milliseconds per block times blocks, over 1000 (the average between two known blocks is their ratio).
  const offset = to
    ? ((block - from.blockNumber) * (to.timestamp - from.timestamp) * 1000n) / (to.blockNumber - from.blockNumber)
    : (block - from.blockNumber) * stepMs
  const floorSeconds = offset >= 0n ? offset / 1000n : -ceilDiv(-offset, 1000n)
  const timestamp = from.timestamp + floorSeconds
  const distance = min(...known.map((point) => abs(timestamp - point.timestamp)))
  const margin = BigInt(Math.ceil(Number(distance) * drift))
  const earliest = timestamp - margin
  return { timestamp, earliest: earliest < 0n ? 0n : earliest, latest: timestamp + margin }
}

/**
 * While only one bound is known, the steps double after two rounds, so a chain much faster than its
 * clock still meets the other bound in a few reads (then the search bisects).
 */
function gallop(round: number, otherBound: unknown): bigint {
  return otherBound === undefined && round >= 2 ? 2n ** BigInt(Math.min(round - 1, 64)) : 1n
}

function predict(anchor: BlockClock['anchor'], stepMs: bigint, time: bigint): bigint {
  const offset = (time - anchor.timestamp) * 1000n
  // Floor division toward minus infinity, so a time before the anchor predicts an earlier block.
  const blocks = offset >= 0n ? offset / stepMs : -ceilDiv(-offset, stepMs)
  const guess = anchor.blockNumber + blocks
  return guess < 0n ? 0n : guess
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}

function min(...values: bigint[]): bigint {
  return values.reduce((a, b) => (a < b ? a : b))
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value
}

function parseTime(value: bigint | number): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  throw new InvalidParameterError({ parameter: 'timestamp', reason: `Expected Unix seconds as a non-negative integer, got ${String(value)}.` })
}

function parseClock(clock: BlockClock): { anchor: BlockClock['anchor']; stepMs: bigint; exact: boolean; drift: number; checkpoints: readonly BlockClock['anchor'][] } {
  const anchor = clock?.anchor
  const exact = clock?.exact === true
  const drift = clock?.drift ?? 0
  const checkpoints = clock?.checkpoints ?? []
  const points = Array.isArray(checkpoints) ? [...checkpoints, anchor] : []
  const stepMs = Math.round((clock?.blockTimeSeconds ?? 0) * 1000)
  const ok =
    typeof anchor === 'object' &&
    anchor !== null &&
    typeof anchor.blockNumber === 'bigint' &&
    anchor.blockNumber >= 0n &&
    typeof anchor.timestamp === 'bigint' &&
    anchor.timestamp >= 0n &&
    typeof clock.blockTimeSeconds === 'number' &&
    Number.isFinite(clock.blockTimeSeconds) &&
    stepMs > 0 &&
    Math.abs(stepMs - clock.blockTimeSeconds * 1000) < 1e-6 &&
    (!exact || Number.isSafeInteger(clock.blockTimeSeconds)) &&
    typeof drift === 'number' &&
    drift >= 0 &&
    drift < 1 &&
    (!exact || drift === 0) &&
    Array.isArray(checkpoints) &&
    (!exact || checkpoints.length === 0) &&
    points.every(
      (point, index) =>
        typeof point?.blockNumber === 'bigint' &&
        typeof point.timestamp === 'bigint' &&
        point.blockNumber >= 0n &&
        point.timestamp >= 0n &&
        (index === 0 || (point.blockNumber > points[index - 1]!.blockNumber && point.timestamp >= points[index - 1]!.timestamp)),
    )
  if (!ok) {
    throw new InvalidParameterError({
      parameter: 'clock',
      reason:
        'Expected { anchor: { blockNumber: bigint, timestamp: bigint }, blockTimeSeconds: positive number (whole seconds when exact, else to the millisecond), exact?: boolean, drift?: share from 0 to 1 (0 when exact), checkpoints?: ascending blocks before the anchor (none when exact) }.',
    })
  }
  return { anchor, stepMs: BigInt(stepMs), exact, drift, checkpoints }
}
