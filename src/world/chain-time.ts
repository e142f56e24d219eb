/**
 * The world's chain clock: block `n` is mined at `genesisTime + n * blockTimeSeconds` (Unix
 * seconds). The reference server maps a `snapshot` block to a time with it, and the local chain
 * (`personhood/devchain`) mines its blocks at exactly those times, so both judge a block at the same
 * second.
 */
import type { WorldChain } from './types.js'

/** The time base of a chain: block `n` is mined at `genesisTime + n * blockTimeSeconds` (Unix seconds). */
export type ChainTimeBase = Pick<WorldChain, 'genesisTime' | 'blockTimeSeconds'>

/**
 * The Unix time (seconds) of a block: `genesisTime + block * blockTimeSeconds`.
 *
 * @example
 * blockToTime(100n, { genesisTime: 1_600_000_000, blockTimeSeconds: 2 }) // 1_600_000_200
 */
export function blockToTime(block: bigint, base: ChainTimeBase): number {
  return base.genesisTime + Number(block) * base.blockTimeSeconds
}

/**
 * The latest block mined at or before `time` (Unix seconds); -1 before genesis.
 *
 * @example
 * timeToBlock(1_600_000_201, { genesisTime: 1_600_000_000, blockTimeSeconds: 2 }) // 100
 */
export function timeToBlock(time: number, base: ChainTimeBase): number {
  return Math.floor((time - base.genesisTime) / base.blockTimeSeconds)
}

/**
 * The first block mined at or after `time` (Unix seconds): where something that happened at `time`
 * is first visible, so that a block sees it exactly when the block's time is not before it.
 *
 * @example
 * firstBlockAtOrAfter(1_600_000_201, { genesisTime: 1_600_000_000, blockTimeSeconds: 2 }) // 101
 */
export function firstBlockAtOrAfter(time: number, base: ChainTimeBase): number {
  return Math.ceil((time - base.genesisTime) / base.blockTimeSeconds)
}
