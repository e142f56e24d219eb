import { defaultAbiCoder } from '@ethersproject/abi';
import { hubBlockAt, hubClocks, hubClockStep } from './hub';
import {
  halveReaderChunk,
  joinReaderHalves,
  readerArgs,
  readerBlock,
  ReaderChunk,
  readerCode,
  readerValues
} from './reader';
import { getSnapshots } from '../../utils';

// The snapshot's time by network and block: a past block's time does not
// change, so it is kept for the process (the last 1,000).
const snapshotTimes = new Map<string, number>();
// Hub chains this process saw off their clock: mapped by the blockfinder.
const offClock = new Set<string>();

/** The snapshot block's time on the space's network, Unix seconds. */
export async function snapshotTime(
  network: string,
  provider,
  snapshot,
  name = 'human-id'
) {
  const key = `${network}:${snapshot}`;
  let time = snapshotTimes.get(key);
  if (time !== undefined) return time;
  let block;
  try {
    const tag = snapshot === 'latest' ? 'latest' : Number(snapshot);
    block = await provider.getBlock(tag);
  } catch (err: any) {
    throw new Error(
      `${name}: the header of block ${snapshot} of network ${network}: ${
        err?.message ?? err
      }`
    );
  }
  time = Number(block?.timestamp);
  if (!Number.isSafeInteger(time) || time <= 0) {
    throw new Error(`${name}: network ${network} has no block ${snapshot}`);
  }
  if (snapshot === 'latest') return time;
  if (snapshotTimes.size >= 1000) {
    snapshotTimes.delete(snapshotTimes.keys().next().value);
  }
  snapshotTimes.set(key, time);
  return time;
}

// The hub chain's block at the snapshot's time, by score-api's blockfinder.
export async function blockfinder(
  network,
  snapshot,
  provider,
  hubNetwork: string
) {
  let blocks;
  try {
    blocks = await getSnapshots(network, snapshot, provider, [hubNetwork]);
  } catch (err: any) {
    const cause = err?.message ?? err;
    throw new Error(
      `human-id: getSnapshots (blockfinder) failed to map block ${snapshot} of network ${network} to network ${hubNetwork}: ${cause}`
    );
  }
  const blockTag = blocks?.[hubNetwork];
  if (blockTag !== 'latest' && !Number.isInteger(Number(blockTag))) {
    throw new Error(
      `human-id: getSnapshots (blockfinder) has no block of network ${hubNetwork} for block ${snapshot} of network ${network}`
    );
  }
  return blockTag;
}

const tag = (block): number | string =>
  block === 'latest' ? 'latest' : Number(block);

/**
 * The first chunk's answer, read at the snapshot, or for a space on another
 * network (`away`) at the hub's block by its clock, which src/rules/hub.ts's
 * hubClockStep judges from that read: kept, else mapped by the blockfinder and
 * read again, else (a failure not about the block) thrown.
 */
export async function readFirst(
  read: (at: number | string) => Promise<string>,
  away:
    | { network; snapshot; provider; hubNetwork: string; time: number }
    | undefined,
  snapshot
): Promise<string> {
  if (!away) return read(tag(snapshot));
  const { network, provider, hubNetwork, time } = away;
  const find = async () =>
    tag(await blockfinder(network, away.snapshot, provider, hubNetwork));
  const clockBlock = offClock.has(hubNetwork)
    ? undefined
    : hubBlockAt(hubNetwork, time);
  if (clockBlock === undefined) return read(await find());
  let first = '';
  let failure;
  try {
    first = await read(clockBlock);
  } catch (err: any) {
    failure = err;
  }
  const clock = hubClocks[hubNetwork as '10' | '84532'];
  const next = hubClockStep(
    clock,
    clockBlock,
    time,
    failure
      ? { failure: [String(failure?.message ?? failure)] }
      : { block: readerBlock(first) }
  );
  if (next.step === 'fail') throw failure;
  if (next.step === 'use') return first;
  if (next.offClock) offClock.add(hubNetwork);
  try {
    return await read(await find());
  } catch (err: any) {
    if (failure) err.message += ` (at the clock's block: ${failure})`;
    throw err;
  }
}

// The reader's view of the hub chain: its provider and network, and what to ask.
export type Hub = { provider; network: string; layout; ask };

async function read(hub: Hub, chunk: ReaderChunk, at, which: string) {
  const { voters, pairs } = chunk;
  const values = readerValues(hub.layout, hub.ask, chunk);
  const args = defaultAbiCoder.encode(readerArgs, values);
  let data: string;
  try {
    data = await hub.provider.call({ data: readerCode + args.slice(2) }, at);
  } catch (err: any) {
    // ethers names every failed eth_call "missing revert data in call
    // exception", a timeout too: what happened is in its `error`.
    const inner = err?.error;
    let cause = inner?.reason ?? inner?.message ?? err?.message ?? err;
    if (inner?.code === 'TIMEOUT') {
      cause = `no answer within the provider's ${inner.timeout} ms`;
    }
    const planned = `${voters.length} voters, ${pairs.length} attestations, planned ${chunk.gas} gas, ${chunk.input} bytes sent, ${chunk.bytes} returned`;
    const error: any = new Error(
      `human-id: the reader call ${which} (${planned}) on chain ${hub.network} at block ${at} failed: ${cause}`
    );
    error.gas = /gas/i.test(String(cause));
    throw error;
  }
  if (data.length !== 2 + chunk.bytes * 2) {
    const [got, want] = [data.length, chunk.bytes * 2];
    const error: any = new Error(
      `human-id: the reader call ${which} on chain ${hub.network} answered ${got} hex digits, not ${want}`
    );
    // A node may answer a creation that ran out of gas with nothing.
    error.gas = data === '0x';
    throw error;
  }
  return data;
}

/**
 * One chunk's reader call. A chunk whose voters cost more gas than planned
 * (most hold an SBT that fails, so every fallback runs) is read again once,
 * in two halves.
 */
export async function readChunk(
  hub: Hub,
  chunk: ReaderChunk,
  at: number | string,
  which: string
) {
  try {
    return await read(hub, chunk, at, which);
  } catch (err: any) {
    if (!err.gas || chunk.voters.length < 2) throw err;
  }
  const [a, b] = halveReaderChunk(hub.layout, chunk);
  const first = await read(hub, a, at, `${which}, first half`);
  const then = at === 'latest' ? readerBlock(first).number : at;
  const second = await read(hub, b, then, `${which}, second half`);
  return joinReaderHalves(hub.layout, [a, b], [first, second]);
}
