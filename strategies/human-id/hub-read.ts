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

// A past block's time by network and block, kept for the process (the last
// 1,000); and the hub chains this process saw off their clock.
const snapshotTimes = new Map<string, number>();
const offClock = new Set<string>();

const message = (err: any) => String(err?.message ?? err);
const tag = (block): number | string =>
  block === 'latest' ? 'latest' : Number(block);

/** The snapshot block's time on the space's network, Unix seconds. */
export async function snapshotTime(
  network: string,
  provider,
  snapshot,
  name = 'human-id'
) {
  const key = `${network}:${snapshot}`;
  if (snapshotTimes.has(key)) return snapshotTimes.get(key) as number;
  const block = await provider.getBlock(tag(snapshot)).catch(err => {
    const at = `block ${snapshot} of network ${network}`;
    throw new Error(`${name}: the header of ${at}: ${message(err)}`);
  });
  const time = Number(block?.timestamp);
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

// A space on another network: its snapshot, the snapshot's time, the hub.
type Away = {
  name: string;
  network: string;
  snapshot;
  provider;
  hubNetwork: string;
  time: number;
};

// The hub chain's block at the snapshot's time, by score-api's blockfinder.
async function blockfinder(away: Away) {
  const { name, network, snapshot, hubNetwork } = away;
  const what = `block ${snapshot} of network ${network}`;
  const finder = `${name}: getSnapshots (blockfinder)`;
  const blocks = await getSnapshots(network, snapshot, away.provider, [
    hubNetwork
  ]).catch(err => {
    const cause = message(err);
    throw new Error(
      `${finder} failed to map ${what} to network ${hubNetwork}: ${cause}`
    );
  });
  const blockTag = blocks?.[hubNetwork];
  if (blockTag !== 'latest' && !Number.isInteger(Number(blockTag))) {
    throw new Error(
      `${finder} has no block of network ${hubNetwork} for ${what}`
    );
  }
  return tag(blockTag);
}

/**
 * The first read's answer, at the snapshot, or for a space on another network
 * (`away`) at the hub's block by its clock, which src/rules/hub.ts's
 * hubClockStep judges from that read (`blockOf`: its block): kept, else mapped
 * by the blockfinder and read again, else (a failure not about the block)
 * thrown. For human-id's reader and passport-v2's decoder read.
 */
export async function readFirst<T>(
  read: (at: number | string) => Promise<T>,
  blockOf: (answer: T) => { number: number; timestamp: number },
  away: Away | undefined,
  snapshot
): Promise<T> {
  if (!away) return read(tag(snapshot));
  const { hubNetwork, time } = away;
  const find = () => blockfinder(away);
  const clockBlock = offClock.has(hubNetwork)
    ? undefined
    : hubBlockAt(hubNetwork, time);
  if (clockBlock === undefined) return read(await find());
  let first: T | undefined;
  let failure;
  try {
    first = await read(clockBlock);
  } catch (err: any) {
    failure = err;
  }
  const next = hubClockStep(
    hubClocks[hubNetwork as '10' | '84532'],
    clockBlock,
    time,
    failure ? { failure: [message(failure)] } : { block: blockOf(first as T) }
  );
  if (next.step === 'fail') throw failure;
  if (next.step === 'use') return first as T;
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
  const values = readerValues(hub.layout, hub.ask, chunk);
  const data = readerCode + defaultAbiCoder.encode(readerArgs, values).slice(2);
  const call = `human-id: the reader call ${which}`;
  const answer: string = await hub.provider.call({ data }, at).catch(err => {
    // ethers names every failed eth_call "missing revert data in call
    // exception", a timeout too: what happened is in its `error`.
    const inner = err?.error;
    const cause =
      inner?.code === 'TIMEOUT'
        ? `no answer within the provider's ${inner.timeout} ms`
        : inner?.reason ?? inner?.message ?? message(err);
    const planned = `${chunk.voters.length} voters, planned ${chunk.gas} gas, ${chunk.input} bytes sent, ${chunk.bytes} returned`;
    const error = `${call} (${planned}) on chain ${hub.network} at block ${at} failed: ${cause}`;
    throw Object.assign(new Error(error), { gas: /gas/i.test(cause) });
  });
  const [got, want] = [answer.length - 2, chunk.bytes * 2];
  if (got !== want) {
    const error = `${call} on chain ${hub.network} answered ${got} hex digits, not ${want}`;
    // A node may answer a creation that ran out of gas with nothing.
    throw Object.assign(new Error(error), { gas: answer === '0x' });
  }
  return answer;
}

/**
 * One chunk's reader call. A chunk whose voters cost more gas than planned
 * (most hold an SBT that fails, so every fallback runs) is read again once,
 * in two halves.
 */
export async function readChunk(hub: Hub, chunk: ReaderChunk, at, which) {
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
