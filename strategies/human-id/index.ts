import { defaultAbiCoder } from '@ethersproject/abi';
import { getAddress } from '@ethersproject/address';
import {
  checkCleanHandsRow,
  checkOnchainCleanHandsAttestation,
  cleanHandsAttester,
  cleanHandsOnchainSchemaId,
  cleanHandsSchemaId,
  signProtocolAddress
} from './clean-hands';
import { matchCredentials } from './fallback';
import { hubAddresses, hubBlockAt, isOnHubClock } from './hub';
import {
  halveReaderChunk,
  joinReaderHalves,
  planReaderChunks,
  readerArgs,
  readerAttestationReads,
  readerBlock,
  ReaderChunk,
  readerCode,
  readerLimits,
  readerPassportAnswer,
  ReaderSbt,
  readerSbtReads,
  readerStore,
  readerValues,
  readerVoters,
  readerZeroAddress
} from './reader';
import {
  circuitIds,
  classifySbt,
  defaultActionId,
  issuers,
  judgeHumanIdCredential,
  permanentStores
} from './sbt';
import { customFetch, getProvider, getSnapshots } from '../../utils';

export const author = 'personhood-dao';
export const version = '1.0.0';

const CREDENTIALS = ['gov-id', 'phone', 'biometrics', 'clean-hands'];
const INDEX_URL = 'https://mainnet-rpc.sign.global';
// Clean hands for many voters reads the index's listing (or one filtered
// listing a voter, when fewer); a cold call that needs more throws.
const MAX_INDEX_READS = 50;

export type CredentialVerdict = {
  valid: boolean;
  // 'valid', 'legacy' (a permanent store) or why not: 'none', 'expired',
  // 'revoked', 'wrong-issuer', 'wrong-action', 'wrong-recipient',
  // 'wrong-schema', 'wrong-attester', 'malformed'
  reason: string;
};

export type HumanVerdict = {
  // The credentials matched ('any' or 'all') at the snapshot.
  verified: boolean;
  // One verdict per asked credential.
  credentials: Record<string, CredentialVerdict>;
  // With a Passport decoder: its getScore answer, read in the same call.
  onchainPassport?: { success: boolean; data: string };
};

export type HumanVerdicts = {
  // The hub chain's block the verdicts were judged at.
  block: { chainId: number; number: number; timestamp: number };
  // By checksummed address.
  voters: Record<string, HumanVerdict>;
};

type Row = {
  attestationId: string;
  attester: string;
  fullSchemaId: string;
  recipients: string[];
  revoked: boolean;
  validUntil: string | number;
};

function readOptions(options: any) {
  const credentials: string[] = options?.credentials ?? ['gov-id'];
  if (
    !Array.isArray(credentials) ||
    credentials.length === 0 ||
    credentials.some(credential => !CREDENTIALS.includes(credential))
  ) {
    throw new Error(`human-id: credentials must be some of ${CREDENTIALS}`);
  }
  const match = options?.match ?? 'any';
  if (match !== 'any' && match !== 'all') {
    throw new Error("human-id: match must be 'any' or 'all'");
  }
  const actionId = String(options?.actionId ?? defaultActionId);
  if (!/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(actionId)) {
    throw new Error(`human-id: actionId ${actionId} is not a number`);
  }
  const sandbox = options?.sandbox === true;
  if (sandbox && credentials.includes('clean-hands')) {
    throw new Error('human-id: clean-hands lives on Optimism, not the sandbox');
  }
  return {
    credentials: [...new Set(credentials)],
    match: match as 'any' | 'all',
    actionId: BigInt(actionId),
    sandbox
  };
}

// The attestation index, listed by schema and attester (newest first). The
// listing is kept per module, so a warm call reads only its new rows. A row
// only names a candidate: the reader confirms each one on chain at the block.
const listings: Record<string, Row[]> = {};

async function indexPage(url: string, page: number, recipient?: string) {
  const query = new URLSearchParams({
    schemaId: cleanHandsSchemaId,
    attester: cleanHandsAttester,
    page: String(page)
  });
  if (recipient) query.set('recipient', recipient);
  const where = `${url}/api/index/attestations?${query}`;
  let response;
  try {
    response = await customFetch(where, {}, 20000);
  } catch (err: any) {
    throw new Error(
      `human-id: attestation index ${url}: ${err?.message ?? err}`
    );
  }
  const body = response.ok ? await response.json().catch(() => null) : null;
  const data = body?.data;
  if (!data || !Array.isArray(data.rows) || typeof data.total !== 'number') {
    throw new Error(
      `human-id: attestation index ${url} answered ${response.status} without rows`
    );
  }
  const size = data.size > 0 ? data.size : data.rows.length || 1;
  const pages = Math.ceil(data.total / size);
  return { total: data.total as number, pages, rows: data.rows as Row[] };
}

async function pagesAfter(url: string, pages: number, recipient?: string) {
  const rest = Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
    indexPage(url, i + 2, recipient)
  );
  return (await Promise.all(rest)).flatMap(page => page.rows);
}

async function allRows(url: string, recipient?: string): Promise<Row[]> {
  const first = await indexPage(url, 1, recipient);
  return first.rows.concat(await pagesAfter(url, first.pages, recipient));
}

// The whole listing: the cache plus the pages before its newest row; null when
// reading it cold would take more requests than one per voter.
async function listing(url: string, voters: number): Promise<Row[] | null> {
  const key = `${url} ${cleanHandsSchemaId} ${cleanHandsAttester}`;
  const cached = listings[key];
  const first = await indexPage(url, 1);
  let rows = first.rows;
  if (cached) {
    const known = new Set(cached.map(row => row.attestationId));
    const newer = first.total - cached.length;
    for (let page = 2; newer >= 0 && rows.length <= newer; page++) {
      if (page > first.pages) break;
      rows = rows.concat((await indexPage(url, page)).rows);
    }
    rows =
      newer >= 0 && known.has(rows[newer]?.attestationId)
        ? rows.slice(0, newer).concat(cached)
        : first.rows.concat(await pagesAfter(url, first.pages));
  } else {
    const reads = Math.min(first.pages - 1, voters);
    if (reads > MAX_INDEX_READS) {
      const [needed, total, most] = [
        reads + 1,
        first.total,
        MAX_INDEX_READS + 1
      ];
      throw new Error(
        `human-id: clean hands for ${voters} voters needs ${needed} requests to the attestation index (its listing holds ${total} attestations); a call makes at most ${most}. Ask for fewer voters, or serve the strategy from the personhood strategy server (docs/strategy-server.md), which keeps the listing`
      );
    }
    if (first.pages - 1 > voters) return null;
    rows = rows.concat(await pagesAfter(url, first.pages));
  }
  listings[key] = rows;
  return rows;
}

// Index rows by voter (lower case): the listing filtered by recipient for one
// voter, else the whole listing (or, when longer, one filtered read a voter).
async function cleanHandsRows(voters: string[]) {
  const url = process.env.ATTESTATION_INDEX_URL || INDEX_URL;
  let rows = voters.length > 1 ? await listing(url, voters.length) : null;
  if (!rows) {
    rows = [];
    for (let i = 0; i < voters.length; i += 10) {
      const batch = voters.slice(i, i + 10);
      const read = await Promise.all(batch.map(v => allRows(url, v)));
      rows.push(...read.flat());
    }
  }
  const byVoter: Record<string, Row[]> = {};
  voters.forEach(voter => (byVoter[voter.toLowerCase()] = []));
  for (const row of rows) {
    const recipients = Array.isArray(row?.recipients) ? row.recipients : [];
    const named = new Set(recipients.map(r => String(r).toLowerCase()));
    for (const recipient of named) {
      if (byVoter[recipient] && !byVoter[recipient].includes(row)) {
        byVoter[recipient].push(row);
      }
    }
  }
  return byVoter;
}

// A row as the index should send it (the library's schema); any other row is
// judged malformed.
function wellFormed(row: any): boolean {
  const text = value => typeof value === 'string';
  const numeric = value => typeof value === 'number' || text(value);
  return (
    typeof row === 'object' &&
    row !== null &&
    text(row.fullSchemaId) &&
    text(row.attester) &&
    typeof row.revoked === 'boolean' &&
    numeric(row.validUntil) &&
    (row.attestationId === undefined || text(row.attestationId)) &&
    (row.schemaId === undefined || text(row.schemaId)) &&
    (row.attestTimestamp === undefined || numeric(row.attestTimestamp)) &&
    Array.isArray(row.recipients) &&
    row.recipients.every(text)
  );
}

// The attestation id of a well-formed row, as a uint64.
function attestationId(row: Row): bigint | undefined {
  if (!wellFormed(row)) return undefined;
  const id = typeof row.attestationId === 'string' ? row.attestationId : '';
  const value = /^0x[0-9a-fA-F]{1,16}$/.test(id) ? BigInt(id) : undefined;
  return value !== undefined && value < 2n ** 64n ? value : undefined;
}

function judgeSbt(sbt: ReaderSbt, at: bigint, voter, circuit, actionId) {
  const issuer = BigInt(issuers[circuit]);
  const reads = readerSbtReads(sbt, at, voter, { actionId, issuer });
  if (!reads) {
    throw new Error(`human-id: the reader skipped ${circuit} of ${voter}`);
  }
  const verdict = classifySbt({
    ...reads,
    blockTimestamp: at,
    actionId,
    issuer,
    recipient: BigInt(voter)
  });
  if (verdict.status !== 'classified') {
    throw new Error(
      `human-id: the Human ID hub contradicts itself on ${circuit} of ${voter}`
    );
  }
  return verdict;
}

// The clean-hands verdict: the row that got furthest through the checks (the
// index rule, then the attestation on chain) gives the reason.
const RANK = [
  'malformed',
  'wrong-schema',
  'wrong-attester',
  'wrong-recipient',
  'revoked',
  'expired',
  'valid',
  'none',
  'chain:wrong-schema',
  'chain:wrong-attester',
  'chain:revoked',
  'chain:expired',
  'chain:wrong-recipient',
  'chain:valid'
];

function judgeCleanHands(voter, rows: Row[], onchain, at: bigint) {
  let best = { rank: -1, reason: 'none' };
  for (const row of rows) {
    const id = attestationId(row);
    let reason: string = wellFormed(row)
      ? checkCleanHandsRow(
          { ...row, isReceiver: true },
          { now: at, revocation: 'onchain' }
        )
      : 'malformed';
    if (reason === 'valid' && id === undefined) reason = 'malformed';
    let rank = RANK.indexOf(reason);
    if (reason === 'valid') {
      const read = onchain(id);
      if (read === undefined) {
        throw new Error(`human-id: the reader skipped ${id}`);
      }
      const reads = readerAttestationReads(read, at, voter, {
        schemaId: cleanHandsOnchainSchemaId,
        attester: cleanHandsAttester
      });
      if (!reads) {
        throw new Error(
          `human-id: attestation ${id}: recipients[0] is not an ABI string`
        );
      }
      reason = checkOnchainCleanHandsAttestation(reads);
      rank = RANK.indexOf(reason === 'none' ? 'none' : `chain:${reason}`);
    }
    if (rank > best.rank) best = { rank, reason };
  }
  return { valid: best.reason === 'valid', reason: best.reason };
}

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
async function blockfinder(network, snapshot, provider, hubNetwork: string) {
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

/**
 * Per voter (checksummed), whether the asked Human ID credentials match at the
 * snapshot, and each credential's verdict: for human-id and the strategies
 * that reuse it; with `passportDecoder`, each voter's on-chain Passport read in
 * the same call. Throws an Error naming the source that failed (the hub chain,
 * the attestation index): never a silent 0.
 */
export async function verifyHumans(
  network: string,
  provider,
  addresses: string[],
  options,
  snapshot,
  passportDecoder?: string
): Promise<HumanVerdicts> {
  const { credentials, match, actionId, sandbox } = readOptions(options);
  const hubNetwork = sandbox ? '84532' : '10';
  const voters = [...new Set(addresses.map(address => getAddress(address)))];
  // A space on another network: the hub chain's block at the snapshot's
  // time, by the hub chain's clock (checked by the first read), else by
  // score-api's blockfinder.
  const away = network !== hubNetwork && snapshot !== 'latest';
  const hubProvider =
    network === hubNetwork ? provider : getProvider(hubNetwork);
  const time = away ? await snapshotTime(network, provider, snapshot) : 0;
  let blockTag = network === hubNetwork || !away ? snapshot : undefined;
  if (away && !offClock.has(hubNetwork)) {
    blockTag = hubBlockAt(hubNetwork, time);
  }
  const byClock = away && blockTag !== undefined;
  if (away && blockTag === undefined) {
    blockTag = await blockfinder(network, snapshot, provider, hubNetwork);
  }
  const sbts = credentials.filter(c => c !== 'clean-hands');
  const ask = {
    hub: hubAddresses[hubNetwork],
    actionId,
    circuits: sbts.map(credential => ({
      credential,
      circuitId: circuitIds[credential],
      issuer: BigInt(issuers[credential]),
      store: (!sandbox && permanentStores[credential]) || readerZeroAddress
    })),
    passport: {
      circuitId: circuitIds['zk-passport'],
      issuer: issuers['zk-passport']
    },
    signProtocol: sandbox ? readerZeroAddress : signProtocolAddress,
    schemaId: cleanHandsOnchainSchemaId,
    attester: cleanHandsAttester,
    passportDecoder
  };
  const rows = credentials.includes('clean-hands')
    ? await cleanHandsRows(voters)
    : {};
  // Chunks of voters, with their attestations, within one call's limits. The
  // reader returns no expiries: a score needs none.
  const layout = { credentials, passport: passportDecoder !== undefined };
  const chunks = planReaderChunks(layout, voters, voter =>
    (rows[voter.toLowerCase()] ?? [])
      .map(attestationId)
      .filter((id): id is bigint => id !== undefined)
  );

  const read = async (
    chunk: ReaderChunk,
    at: number | string,
    which: string
  ) => {
    const { voters, pairs } = chunk;
    const args = defaultAbiCoder.encode(
      readerArgs,
      readerValues(layout, ask, chunk)
    );
    let data: string;
    try {
      data = await hubProvider.call({ data: readerCode + args.slice(2) }, at);
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
        `human-id: the reader call ${which} (${planned}) on chain ${hubNetwork} at block ${at} failed: ${cause}`
      );
      error.gas = /gas/i.test(String(cause));
      throw error;
    }
    if (data.length !== 2 + chunk.bytes * 2) {
      const [got, want] = [data.length, chunk.bytes * 2];
      const error: any = new Error(
        `human-id: the reader call ${which} on chain ${hubNetwork} answered ${got} hex digits, not ${want}`
      );
      // A node may answer a creation that ran out of gas with nothing.
      error.gas = data === '0x';
      throw error;
    }
    return data;
  };
  // A chunk whose voters cost more gas than planned (most hold an SBT that
  // fails, so every fallback runs) is read again once, in two halves.
  const call = async (chunk: ReaderChunk, at: number | string) => {
    const which = `${chunks.indexOf(chunk) + 1} of ${chunks.length}`;
    try {
      return await read(chunk, at, which);
    } catch (err: any) {
      if (!err.gas || chunk.voters.length < 2) throw err;
    }
    const [a, b] = halveReaderChunk(layout, chunk);
    const first = await read(a, at, `${which}, first half`);
    const then = at === 'latest' ? readerBlock(first).number : at;
    const second = await read(b, then, `${which}, second half`);
    return joinReaderHalves(layout, [a, b], [first, second]);
  };
  // Every chunk reads the same block: 'latest' is pinned by the first call.
  let at = blockTag === 'latest' ? 'latest' : Number(blockTag);
  let first = '';
  let failure;
  try {
    first = await call(chunks[0], at);
  } catch (err) {
    if (!byClock) throw err;
    failure = err;
  }
  if (byClock) {
    // The clock's block must be where the clock says, at most one block time
    // before the snapshot: else (the chain left its clock, or the block is
    // not there yet) the blockfinder maps the snapshot, and the read is redone.
    const read = first && readerBlock(first);
    if (!read || !isOnHubClock(hubNetwork, read, time)) {
      if (read && read.number === at) offClock.add(hubNetwork);
      blockTag = await blockfinder(network, snapshot, provider, hubNetwork);
      at = blockTag === 'latest' ? 'latest' : Number(blockTag);
      try {
        first = await call(chunks[0], at);
      } catch (err: any) {
        if (failure) err.message += ` (at the clock's block: ${failure})`;
        throw err;
      }
    }
  }
  const block = readerBlock(first);
  const { number } = block;
  // At most PARALLEL calls at once: a node runs calls of tens of millions of
  // gas one after another, and snapshot.js's provider gives each 25 s.
  const rest: string[] = [];
  for (let i = 1; i < chunks.length; i += readerLimits.parallel) {
    const group = chunks.slice(i, i + readerLimits.parallel);
    rest.push(...(await Promise.all(group.map(c => call(c, number)))));
  }
  if (String(block.chainId) !== hubNetwork) {
    throw new Error(
      `human-id: the provider of network ${hubNetwork} is on chain ${block.chainId}`
    );
  }

  const timestamp = BigInt(block.timestamp);
  const out: Record<string, HumanVerdict> = {};
  [first, ...rest].forEach((data, index) => {
    for (const read of readerVoters(layout, chunks[index], data)) {
      const { voter } = read;
      const verdicts: Record<string, CredentialVerdict> = {};
      for (const circuit of sbts) {
        const { primary: sbt, passport } = read.credentials[circuit];
        const primary = judgeSbt(sbt, timestamp, voter, circuit, actionId);
        let zk;
        if (passport && primary.reason !== 'valid') {
          zk = judgeSbt(passport, timestamp, voter, 'zk-passport', actionId);
        }
        const store =
          !sandbox &&
          permanentStores[circuit] &&
          primary.reason !== 'valid' &&
          zk?.reason !== 'valid';
        const legacy = store ? readerStore(sbt) : undefined;
        if (store && legacy === undefined) {
          throw new Error(`human-id: the reader skipped the store of ${voter}`);
        }
        const verdict = judgeHumanIdCredential({
          primary,
          passport: zk,
          legacy
        });
        verdicts[circuit] = { valid: verdict.valid, reason: verdict.reason };
      }
      if (credentials.includes('clean-hands')) {
        verdicts['clean-hands'] = judgeCleanHands(
          voter,
          rows[voter.toLowerCase()] ?? [],
          id => read.attestations.get(id),
          timestamp
        );
      }
      const ordered = credentials.map(c => [c, verdicts[c]] as const);
      out[voter] = {
        verified: matchCredentials({
          verdicts: ordered.map(([credential, { valid }]) => ({
            address: voter,
            credential,
            valid,
            expiresAt: null
          })),
          credentials,
          match
        }).valid,
        credentials: Object.fromEntries(ordered),
        onchainPassport:
          read.onchainPassport && readerPassportAnswer(read.onchainPassport)
      };
    }
  });
  return { block, voters: out };
}

export async function strategy(
  space,
  network,
  provider,
  addresses,
  options,
  snapshot
): Promise<Record<string, number>> {
  const score = options?.score ?? 1;
  if (typeof score !== 'number' || !(score > 0)) {
    throw new Error('human-id: score must be a positive number');
  }
  if (addresses.length === 0) return {};
  const { voters } = await verifyHumans(
    network,
    provider,
    addresses,
    options,
    snapshot
  );
  return Object.fromEntries(
    addresses.map(address => [
      getAddress(address),
      voters[getAddress(address)].verified ? score : 0
    ])
  );
}
