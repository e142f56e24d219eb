/**
 * findBlockAtTime on an in-process EVM whose blocks are mined at chosen timestamps: an irregular
 * stretch, then a regular 2-second stretch (as Optimism since Bedrock). Every time around every
 * block is checked against a scan of all headers.
 */
import { hexToBigInt, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  arbitrumClock,
  baseClock,
  baseSepoliaClock,
  blockAtTimeOnClock,
  blockClocks,
  estimateBlockTime,
  ethereumClock,
  findBlockAtTime,
  clockReadStep,
  optimismClock,
  polygonClock,
  type BlockClock,
} from '../../src/chain/block-at-time.js'
import { BlockNotAvailableError, ChainReadError, InvalidParameterError } from '../../src/errors/index.js'
import { failure } from '../helpers/async.js'
import { createEdrProvider, genesisDate, type Eip1193 } from './harness.js'
import { instrument } from './helpers.js'

const genesis = BigInt(Date.parse(genesisDate) / 1000)
/** Gaps (seconds) between blocks 1-9: irregular, including 1-second blocks. */
const irregularGaps = [1n, 2n, 1n, 6n, 1n, 19n, 1n, 2n, 13n]
/** Blocks after the irregular stretch, every 2 s. */
const regularBlocks = 30

let provider: Eip1193
/** Timestamp of every block, by number. */
const times: bigint[] = []
let anchor: BlockClock['anchor']

beforeAll(async () => {
  provider = await createEdrProvider()
  const mine = async (timestamp: bigint) => {
    await provider.request({ method: 'evm_setNextBlockTimestamp', params: [`0x${timestamp.toString(16)}`] })
    await provider.request({ method: 'evm_mine', params: [] })
  }
  let time = genesis
  for (const gap of irregularGaps) await mine((time += gap))
  const anchorNumber = BigInt(irregularGaps.length)
  for (let i = 0; i < regularBlocks; i++) await mine((time += 2n))
  const head = hexToBigInt((await provider.request({ method: 'eth_blockNumber' })) as Hex)
  for (let n = 0n; n <= head; n++) {
    const block = (await provider.request({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })) as { timestamp: Hex }
    times.push(hexToBigInt(block.timestamp))
  }
  anchor = { blockNumber: anchorNumber, timestamp: times[Number(anchorNumber)] as bigint }
})

/** The last block at or before `time`, by scanning every header. */
function expected(time: bigint): bigint | undefined {
  let found: bigint | undefined
  times.forEach((timestamp, number) => {
    if (timestamp <= time) found = BigInt(number)
  })
  return found
}

const head = () => ({ number: BigInt(times.length - 1), timestamp: times[times.length - 1] as bigint })

describe('findBlockAtTime', () => {
  it('the mined chain is what the test says: irregular, then every 2 s', () => {
    expect(times[0]).toBe(genesis)
    expect(times.slice(10).every((timestamp, i) => timestamp === (times[9] as bigint) + BigInt(2 * (i + 1)))).toBe(true)
  })

  it('on an exact clock: every time from the anchor to the head, in one header read', async () => {
    const clock: BlockClock = { anchor, blockTimeSeconds: 2, exact: true }
    for (let time = anchor.timestamp; time < head().timestamp + 2n; time++) {
      const counted = instrument(provider)
      const found = await findBlockAtTime(counted, { timestamp: time, clock })
      expect(found.number, `time ${time}`).toBe(expected(time))
      expect(found.timestamp).toBe(times[Number(found.number)])
      expect(found.reads, `time ${time}`).toBe(1)
      expect(counted.methods).toEqual({ eth_getBlockByNumber: 1 })
    }
  })

  it('off-by-one at a block: its own second is that block, the second before is the previous block', async () => {
    const clock: BlockClock = { anchor, blockTimeSeconds: 2, exact: true }
    const block = anchor.blockNumber + 7n
    const at = times[Number(block)] as bigint
    expect((await findBlockAtTime(provider, { timestamp: at, clock })).number).toBe(block)
    expect((await findBlockAtTime(provider, { timestamp: at - 1n, clock })).number).toBe(block - 1n)
    expect((await findBlockAtTime(provider, { timestamp: at + 1n, clock })).number).toBe(block)
  })

  it('before the anchor the clock does not hold: the search finds the block anyway, within its read bound', async () => {
    const clock: BlockClock = { anchor, blockTimeSeconds: 2, exact: true }
    for (let time = genesis; time < anchor.timestamp; time++) {
      const found = await findBlockAtTime(provider, { timestamp: time, clock })
      expect(found.number, `time ${time}`).toBe(expected(time))
      expect(found.reads).toBeLessThanOrEqual(8)
    }
  })

  it('on a clock that is not exact, or wrongly anchored, every time still maps to the right block', async () => {
    const clocks: BlockClock[] = [
      { anchor, blockTimeSeconds: 2 },
      { anchor: { blockNumber: anchor.blockNumber, timestamp: anchor.timestamp + 7n }, blockTimeSeconds: 2, exact: true },
      { anchor: { blockNumber: 0n, timestamp: genesis }, blockTimeSeconds: 12 },
      { anchor: { blockNumber: 0n, timestamp: genesis - 1_000n }, blockTimeSeconds: 1, exact: true },
      // Averages that are not whole seconds (Ethereum's 12.078 s, Arbitrum's 0.252 s).
      { anchor: { blockNumber: 0n, timestamp: genesis }, blockTimeSeconds: 1.5, drift: 0.1 },
      { anchor, blockTimeSeconds: 0.25 },
    ]
    for (const clock of clocks) {
      for (let time = genesis; time < head().timestamp; time++) {
        const found = await findBlockAtTime(provider, { timestamp: time, clock })
        expect(found.number, `time ${time}, clock ${JSON.stringify(clock, (_, value) => (typeof value === 'bigint' ? String(value) : value))}`).toBe(
          expected(time),
        )
      }
    }
  })

  it('a time before the first block has no block: BlockNotAvailableError', async () => {
    const error = (await failure(findBlockAtTime(provider, { timestamp: genesis - 1n, clock: { anchor, blockTimeSeconds: 2, exact: true } }))) as BlockNotAvailableError
    expect(error).toBeInstanceOf(BlockNotAvailableError)
    expect(error.details).toBe(`The chain starts at ${genesis}, after time ${genesis - 1n}: no block is at or before it.`)
  })

  it('a time the head has not passed: the exact clock answers up to one block time after the head; then, or without it, not yet', async () => {
    const { number, timestamp } = head()
    const exact: BlockClock = { anchor, blockTimeSeconds: 2, exact: true }
    expect((await findBlockAtTime(provider, { timestamp: timestamp + 1n, clock: exact })).number).toBe(number)
    const later = (await failure(findBlockAtTime(provider, { timestamp: timestamp + 2n, clock: exact }))) as BlockNotAvailableError
    expect(later).toBeInstanceOf(BlockNotAvailableError)
    expect(later.details).toBe(
      `The chain's head is block ${number} at ${timestamp}, not after time ${timestamp + 2n}: the last block at or before that time may not be made yet. Try again later.`,
    )
    const loose = await failure(findBlockAtTime(provider, { timestamp: timestamp + 1n, clock: { anchor, blockTimeSeconds: 2 } }))
    expect(loose).toBeInstanceOf(BlockNotAvailableError)
  })

  it('gives up after maxReads with a ChainReadError naming the clock', async () => {
    const error = (await failure(
      findBlockAtTime(provider, { timestamp: genesis + 20n, clock: { anchor: { blockNumber: 0n, timestamp: genesis }, blockTimeSeconds: 1000 }, maxReads: 2 }),
    )) as ChainReadError
    expect(error).toBeInstanceOf(ChainReadError)
    expect(error.details).toBe(
      `No block found at or before time ${genesis + 20n} in 2 header reads: the chain's block times do not fit its clock (one block every 1000 s from block 0 at ${genesis}).`,
    )
  })

  it('a failing node is a ChainReadError, not a guess', async () => {
    const broken = instrument(provider, () => new Error('connection reset'))
    expect(await failure(findBlockAtTime(broken, { timestamp: genesis + 5n, clock: optimismClock }))).toBeInstanceOf(ChainReadError)
  })

  it('bad parameters are refused before any request', async () => {
    const counted = instrument(provider)
    for (const parameters of [
      { timestamp: -1n, clock: optimismClock },
      { timestamp: 1.5, clock: optimismClock },
      { timestamp: 1n, clock: { ...optimismClock, blockTimeSeconds: 0 } },
      { timestamp: 1n, clock: { anchor: { blockNumber: 1, timestamp: 1n }, blockTimeSeconds: 2 } as unknown as BlockClock },
      { timestamp: 1n, clock: optimismClock, maxReads: 0 },
      // An exact clock is whole seconds and has no drift; a drift is a share under 1; steps are milliseconds.
      { timestamp: 1n, clock: { ...optimismClock, blockTimeSeconds: 2.5 } },
      { timestamp: 1n, clock: { ...optimismClock, drift: 0.01 } },
      { timestamp: 1n, clock: { ...ethereumClock, drift: 1 } },
      { timestamp: 1n, clock: { ...ethereumClock, drift: -0.1 } },
      { timestamp: 1n, clock: { ...ethereumClock, blockTimeSeconds: 0.0001 } },
      { timestamp: 1n, clock: { ...ethereumClock, blockTimeSeconds: Number.NaN } },
    ]) {
      expect(await failure(findBlockAtTime(counted, { ...parameters }))).toBeInstanceOf(InvalidParameterError)
    }
    expect(counted.total()).toBe(0)
  })
})

/** Whether the first read at a clock's block confirms it: clockReadStep keeps it ('use'). */
const confirms = (clock: BlockClock, block: { number: bigint; timestamp: bigint }, time: bigint) => clockReadStep(clock, block.number, time, { block }).step === 'use'

describe('the block at a time by an exact clock, without a read (blockAtTimeOnClock, clockReadStep)', () => {
  it('from the anchor to past the head: the block findBlockAtTime finds, and that block, as read, confirms it', async () => {
    const clock: BlockClock = { anchor, blockTimeSeconds: 2, exact: true }
    for (let time = anchor.timestamp; time <= head().timestamp + 1n; time++) {
      const number = blockAtTimeOnClock(clock, time)
      expect(number, `time ${time}`).toBe(expected(time))
      expect(confirms(clock, { number: number!, timestamp: times[Number(number)]! }, time), `time ${time}`).toBe(true)
    }
  })

  it('not confirmed: a block at another time than the clock says, one more than a step before the time, or after it', () => {
    const clock: BlockClock = { anchor, blockTimeSeconds: 2, exact: true }
    const block = { number: anchor.blockNumber + 5n, timestamp: anchor.timestamp + 10n }
    expect(confirms(clock, block, block.timestamp + 1n)).toBe(true)
    expect(confirms(clock, { ...block, timestamp: block.timestamp + 1n }, block.timestamp + 1n)).toBe(false)
    expect(confirms(clock, block, block.timestamp + 2n)).toBe(false)
    expect(confirms(clock, block, block.timestamp - 1n)).toBe(false)
  })

  it('nothing to say before the anchor, or on a clock that is not exact; a malformed clock is refused', () => {
    const clock: BlockClock = { anchor, blockTimeSeconds: 2, exact: true }
    expect(blockAtTimeOnClock(clock, anchor.timestamp - 1n)).toBeUndefined()
    expect(blockAtTimeOnClock(ethereumClock, 1_750_000_000n)).toBeUndefined()
    expect(confirms(ethereumClock, { number: 22_700_000n, timestamp: 1_750_000_000n }, 1_750_000_000n)).toBe(false)
    expect(blockAtTimeOnClock(optimismClock, 1_686_068_903n + 7n)).toBe(105_235_066n)
    expect(() => blockAtTimeOnClock({ anchor, blockTimeSeconds: 0, exact: true }, 1n)).toThrow(InvalidParameterError)
    expect(() => blockAtTimeOnClock(clock, -1)).toThrow(InvalidParameterError)
  })
})

describe('block clocks of the networks spaces use', () => {
  it('one table: Ethereum, Optimism, Polygon, Base, Arbitrum One, Base Sepolia, each named', () => {
    expect(Object.keys(blockClocks)).toEqual(['1', '10', '137', '8453', '42161', '84532'])
    expect(blockClocks).toEqual({ 1: ethereumClock, 10: optimismClock, 137: polygonClock, 8453: baseClock, 42161: arbitrumClock, 84532: baseSepoliaClock })
    for (const clock of Object.values(blockClocks)) expect(clock.name).toMatch(/^[A-Z]/)
  })

  it('exact clocks: the time of a block is the anchor plus whole steps; no drift', () => {
    expect(estimateBlockTime(baseClock, 0n)).toEqual({ timestamp: 1_686_789_347n, earliest: 1_686_789_347n, latest: 1_686_789_347n })
    expect(estimateBlockTime(baseClock, 1_000)).toEqual({ timestamp: 1_686_791_347n, earliest: 1_686_791_347n, latest: 1_686_791_347n })
    expect(estimateBlockTime(optimismClock, 105_235_063n + 30n).timestamp).toBe(1_686_068_903n + 60n)
    // Before the anchor an exact clock does not hold (Optimism before Bedrock).
    expect(() => estimateBlockTime(optimismClock, 105_235_062n)).toThrow(InvalidParameterError)
    for (const bad of [-1n, 1.5, -1] as const) expect(() => estimateBlockTime(baseClock, bad)).toThrow(InvalidParameterError)
  })

  it('approximate clocks: a fractional average rounds down to the second; the bounds grow with the distance from the anchor', () => {
    const anchor = ethereumClock.anchor
    expect(estimateBlockTime(ethereumClock, anchor.blockNumber)).toEqual({ timestamp: anchor.timestamp, earliest: anchor.timestamp, latest: anchor.timestamp })
    // 1,000 blocks of 12.078 s: 12,078 s, 1% drift: 121 s each way.
    expect(estimateBlockTime(ethereumClock, anchor.blockNumber + 1_000n)).toEqual({
      timestamp: anchor.timestamp + 12_078n,
      earliest: anchor.timestamp + 12_078n - 121n,
      latest: anchor.timestamp + 12_078n + 121n,
    })
    // 3 Arbitrum blocks: 0.756 s, the same second; 4: 1.008 s.
    expect(estimateBlockTime(arbitrumClock, arbitrumClock.anchor.blockNumber + 3n).timestamp).toBe(arbitrumClock.anchor.timestamp)
    expect(estimateBlockTime(arbitrumClock, arbitrumClock.anchor.blockNumber + 4n).timestamp).toBe(arbitrumClock.anchor.timestamp + 1n)
    // Before the anchor: floor toward minus infinity (one Arbitrum block earlier is the second before).
    expect(estimateBlockTime(arbitrumClock, arbitrumClock.anchor.blockNumber - 1n).timestamp).toBe(arbitrumClock.anchor.timestamp - 1n)
  })

  it('approximate clocks: a checkpoint is its own time; between two, their own average', () => {
    for (const clock of [ethereumClock, arbitrumClock, polygonClock]) {
      for (const point of clock.checkpoints ?? []) {
        expect(estimateBlockTime(clock, point.blockNumber)).toEqual({ timestamp: point.timestamp, earliest: point.timestamp, latest: point.timestamp })
      }
    }
    // Halfway between Cancun and Prague: halfway in time (36,274,176 s over 3,004,497 blocks).
    const [, , cancun, prague] = ethereumClock.checkpoints!
    const middle = estimateBlockTime(ethereumClock, (cancun!.blockNumber + prague!.blockNumber) / 2n)
    expect(middle.timestamp).toBe(cancun!.timestamp + 18_137_081n)
    expect(middle.latest - middle.timestamp).toBe(181_371n) // 1% of the distance to the nearer checkpoint
  })

  it('the drift holds on real data: each checkpoint left out is estimated from the others within the bounds', () => {
    for (const clock of [ethereumClock, arbitrumClock, polygonClock]) {
      for (const held of clock.checkpoints ?? []) {
        const without: BlockClock = { ...clock, checkpoints: clock.checkpoints!.filter((point) => point !== held) }
        const estimate = estimateBlockTime(without, held.blockNumber)
        expect(estimate.earliest, `${clock.name} block ${held.blockNumber}`).toBeLessThanOrEqual(held.timestamp)
        expect(estimate.latest, `${clock.name} block ${held.blockNumber}`).toBeGreaterThanOrEqual(held.timestamp)
        expect(estimate.timestamp, `${clock.name} block ${held.blockNumber}: the estimate moved`).not.toBe(held.timestamp)
      }
    }
  })

  it('malformed checkpoints are refused: out of order, after the anchor, or on an exact clock', () => {
    const [merge, shanghai] = ethereumClock.checkpoints!
    for (const checkpoints of [[shanghai!, merge!], [ethereumClock.anchor], [{ blockNumber: 1, timestamp: 1n }]]) {
      expect(() => estimateBlockTime({ ...ethereumClock, checkpoints } as BlockClock, 1n)).toThrow(InvalidParameterError)
    }
    expect(() => estimateBlockTime({ ...baseClock, checkpoints: [{ blockNumber: 0n, timestamp: 0n }] }, 1n)).toThrow(InvalidParameterError)
  })
})
