/** Human ID's hubs, their chains' exact clocks (OP Stack), and which hub block a snapshot reads. */

type HexString = `0x${string}`;

/** Human ID Hub V3 by chain id: Optimism (10) and the Base Sepolia sandbox (84532). */
export const hubAddresses: Readonly<Record<'10' | '84532', HexString>> = {
  '10': '0x2AA822e264F8cc31A2b9C22f39e5551241e94DfB',
  '84532': '0x98221c937C51f5bBe615CB104435395c93b1AD8D'
};

/**
 * The hub chains' clocks: an OP Stack block's time is its parent's plus `seconds` (a protocol
 * rule). Anchors: Optimism's Bedrock's first block; Base Sepolia's block 0.
 */
export type HubClock = { block: number; timestamp: number; seconds: number };
export const hubClocks: Readonly<Record<'10' | '84532', HubClock>> = {
  '10': { block: 105235063, timestamp: 1686068903, seconds: 2 },
  '84532': { block: 0, timestamp: 1695768288, seconds: 2 }
};

function hubClock(network: string): HubClock | undefined {
  return network === '10' || network === '84532'
    ? hubClocks[network]
    : undefined;
}

/** The last block at or before `timestamp` on an exact clock; undefined before its anchor. */
export function clockBlockAt(clock: HubClock, timestamp: number) {
  if (!Number.isSafeInteger(timestamp) || timestamp < clock.timestamp) {
    return undefined;
  }
  return (
    clock.block + Math.floor((timestamp - clock.timestamp) / clock.seconds)
  );
}

/** Whether a block as read is where the clock puts it and the last at or before `at`. */
export function isLastOnClock(
  clock: HubClock,
  block: { number: number; timestamp: number },
  at: number
): boolean {
  if (block.number < clock.block) return false;
  const expected =
    clock.timestamp + (block.number - clock.block) * clock.seconds;
  return (
    block.timestamp === expected &&
    block.timestamp <= at &&
    at < block.timestamp + clock.seconds
  );
}

/** {@link clockBlockAt} on a hub chain's clock. */
export function hubBlockAt(network: string, timestamp: number) {
  const clock = hubClock(network);
  return clock ? clockBlockAt(clock, timestamp) : undefined;
}

/** A node that cannot serve state at a block: geth, op-geth, erigon, reth, nethermind, others. */
export const blockNotServedPattern = new RegExp(
  [
    'missing trie node',
    'header not found',
    'state (?:is )?not available',
    'state unavailable',
    'historical state',
    'state histor(?:y|ies)',
    'unknown block',
    'block not found',
    'no state (?:available|found)',
    'state (?:has been |was |is )?pruned',
    'invalid block tag',
    'latest block number is',
    'beyond (?:the )?(?:current )?head',
    'block (?:number )?(?:\\S+ )?is (?:in the future|greater than|higher than|after)',
    'requested block .* (?:not|is) (?:available|found|pruned)',
    'old data not available',
    'distance to target block exceeds'
  ].join('|'),
  'i'
);

/** The first read at the block a hub clock gave: the block it ran at, or its failure's messages. */
export type HubClockRead =
  | { block: { number: number; timestamp: number } }
  | { failure: readonly string[] };

/**
 * After the first read at the clock's block for `time`: `use` it when it is where the clock says;
 * `search` the block (`offClock`: the chain left its clock) when not, or when the node has no
 * state there; `fail` on any other failure.
 */
export function hubClockStep(
  clock: HubClock,
  clockBlock: number,
  time: number,
  first: HubClockRead
): { step: 'use' } | { step: 'search'; offClock: boolean } | { step: 'fail' } {
  if ('failure' in first) {
    const missing = first.failure.some(m => blockNotServedPattern.test(m));
    return missing ? { step: 'search', offClock: false } : { step: 'fail' };
  }
  if (isLastOnClock(clock, first.block, time)) return { step: 'use' };
  return { step: 'search', offClock: first.block.number === clockBlock };
}
