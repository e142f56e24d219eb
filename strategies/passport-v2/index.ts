import { getAddress } from '@ethersproject/address';
import {
  checkPassportScore,
  defaultPassportThreshold,
  passportVerdictValue
} from './passport';
import { customFetch } from '../../utils';
import { snapshotTime } from '../human-id';

export const author = 'personhood-dao';
export const version = '1.0.0';

// The public host of the score listing (C4) and the score history (A2, A1). The override exists
// so that tests (and a trial against a self-hosted server) can point it elsewhere.
const API_URL = 'https://api.passport.xyz';
// C4 serves at most 1,000 rows a page.
const PAGE_SIZE = 1000;
// Passport has no read of many addresses' scores: a call reads the whole listing or one listing
// row per voter. Above this many Passport requests a call does not fit score-api's deadline (and
// would spend a tier-1 key's 125 requests per 15 minutes): it throws instead of skipping anyone.
const MAX_REQUESTS = 50;
const CONCURRENCY = 10;
const TIMEOUT = 20000;
const STRATEGY_SERVER =
  'a scorer this size needs the personhood strategy server, which keeps scores across calls (docs/strategy-server.md)';

type Row = {
  address: string;
  score: string | number | null;
  status?: string;
  last_score_timestamp: string | null;
  expiration_date?: string | null;
  expiration_timestamp?: string | null;
  threshold?: string | number;
  evidence?: { rawScore: string | number; threshold: string | number } | null;
  error?: string | null;
  passing_score?: boolean;
};

const message = (error: unknown) =>
  error instanceof Error ? error.message : String(error);

export type PassportVerdict = {
  address: string;
  credential: 'passport';
  valid: boolean;
  // 'valid', 'below-threshold', 'expired', 'error' or 'never-scored'
  reason: 'valid' | 'below-threshold' | 'expired' | 'error' | 'never-scored';
  expiresAt: number | null;
  evidence: {
    // Where the score came from: the listing (C4), the history (A2) or the current score (A1).
    origin: 'listing' | 'history' | 'live' | null;
    score: string | null;
    threshold: string;
    expirationTimestamp: number | null;
    at: number;
  };
};

export type PassportOptions = {
  scorerId?: number;
  threshold?: number;
  allowLiveScore?: boolean;
};

function seconds(
  value: string | null | undefined,
  what: string
): number | null {
  if (value === null || value === undefined) return null;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new Error(`${what} is not a date: ${value}`);
  return Math.floor(ms / 1000);
}

function judge(
  address: string,
  record: Row | null,
  origin: PassportVerdict['evidence']['origin'],
  at: number,
  threshold: number | undefined,
  name: string
): PassportVerdict {
  const override = threshold === undefined ? undefined : String(threshold);
  if (record === null) {
    return {
      address,
      credential: 'passport',
      valid: false,
      reason: 'never-scored',
      expiresAt: null,
      evidence: {
        origin,
        score: null,
        threshold: override ?? defaultPassportThreshold,
        expirationTimestamp: null,
        at
      }
    };
  }
  // A v2 record (A1, A2) carries its threshold and expiry; a v1 row (C4) its expiry date, and a
  // binary scorer's row its score and threshold in `evidence`.
  const v2 = 'passing_score' in record;
  let raw = v2 ? record.score : record.evidence?.rawScore;
  if (!v2 && (raw === null || raw === undefined)) raw = record.score;
  const score = raw === null || raw === undefined ? null : String(raw);
  const recorded = v2 ? record.threshold : record.evidence?.threshold;
  const judged =
    override ??
    (recorded === undefined || recorded === null
      ? defaultPassportThreshold
      : String(recorded));
  const expiresAt = seconds(
    v2 ? record.expiration_timestamp : record.expiration_date,
    `${name}: the Passport score of ${address} has an expiry that`
  );
  const reason = checkPassportScore({
    score: score ?? '0',
    threshold: judged,
    expiresAt,
    error: record.error ?? (score === null ? 'no score' : null),
    at
  });
  return {
    address,
    credential: 'passport',
    valid: reason === 'valid',
    reason,
    expiresAt,
    evidence: {
      origin,
      score,
      threshold: judged,
      expirationTimestamp: expiresAt,
      at
    }
  };
}

async function eachLimited<T>(items: T[], fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += CONCURRENCY) {
    await Promise.all(items.slice(i, i + CONCURRENCY).map(fn));
  }
}

/**
 * The key, scorer and host a Passport read uses: PASSPORT_API_KEY, the `scorerId` option else
 * PASSPORT_SCORER_ID (as score-api's passport-gated reads them). Throws before any request when
 * one is missing.
 */
export function passportAccess(options: PassportOptions, name = 'passport-v2') {
  const apiKey = process.env.PASSPORT_API_KEY || '';
  const scorerId = String(
    options.scorerId ?? process.env.PASSPORT_SCORER_ID ?? ''
  );
  if (!/^[1-9][0-9]*$/.test(scorerId)) {
    throw new Error(
      `${name}: no Passport scorer: set scorerId in the options or PASSPORT_SCORER_ID (a positive integer)`
    );
  }
  if (!apiKey) throw new Error(`${name}: PASSPORT_API_KEY is not set`);
  const base = (process.env.PASSPORT_API_URL || API_URL).replace(/\/+$/, '');
  return { apiKey, scorerId, base };
}

/**
 * The Passport verdict of each address (checksummed keys) as its score stood at `at` (Unix
 * seconds): from the scorer's listing (C4) for a voter last scored at or before `at`, from the
 * score history (A2) for one rescored since; `never-scored` for one the scorer had not scored by
 * then. Throws an Error naming the source when one fails: never a silent 0.
 */
export async function passportVerdicts(
  addresses: string[],
  options: PassportOptions,
  at: number,
  name = 'passport-v2'
): Promise<Record<string, PassportVerdict>> {
  const { apiKey, scorerId, base } = passportAccess(options, name);
  const headers = { 'X-API-KEY': apiKey };
  const atMs = at * 1000;
  const createdAt = new Date(atMs).toISOString();
  const voters = [...new Set(addresses.map(address => getAddress(address)))];
  const found: Record<string, PassportVerdict> = {};
  const rescored: string[] = [];
  const judgeAt = (address: string, record: Row | null, origin) =>
    judge(address, record, origin, at, options.threshold, name);

  const read = async (path: string, source: string, tolerate: number[]) => {
    let response;
    try {
      response = await customFetch(`${base}${path}`, { headers }, TIMEOUT);
    } catch (err) {
      throw new Error(`${name}: ${source} failed: ${message(err)}`);
    }
    if (tolerate.includes(response.status)) return response.status;
    if (!response.ok) {
      let hint = '';
      if (response.status === 401) hint = ' (check PASSPORT_API_KEY)';
      if (response.status === 404) hint = ` (is scorer ${scorerId} yours?)`;
      throw new Error(
        `${name}: ${source} answered HTTP ${response.status}${hint}`
      );
    }
    try {
      return await response.json();
    } catch {
      throw new Error(`${name}: ${source} answered a body that is not JSON`);
    }
  };
  const tooMany = (cost: number, count: number | undefined) => {
    if (cost <= MAX_REQUESTS) return;
    const listing =
      count === undefined
        ? ''
        : ` (scorer ${scorerId} lists ${count} scores: ${Math.ceil(
            count / PAGE_SIZE
          )} pages of ${PAGE_SIZE})`;
    throw new Error(
      `${name}: reading the Passport scores of ${voters.length} voters takes ${cost} requests${listing}, over the ${MAX_REQUESTS} one call may send: ${STRATEGY_SERVER}`
    );
  };
  const classify = (address: string, row: Row | undefined) => {
    if (row === undefined) {
      found[address] = judgeAt(address, null, 'listing');
      return;
    }
    const scoredAt = row.last_score_timestamp
      ? Date.parse(row.last_score_timestamp)
      : NaN;
    const settled = row.status === 'DONE' || row.status === 'ERROR';
    if (settled && scoredAt <= atMs) {
      found[address] = judgeAt(address, row, 'listing');
    } else {
      // Rescored after the snapshot (or being scored now): the listing holds a later score.
      rescored.push(address);
    }
  };
  const readByAddress = async (list: string[]) => {
    tooMany(list.length, undefined);
    await eachLimited(list, async address => {
      const lower = address.toLowerCase();
      const page = await read(
        `/registry/score/${scorerId}?address=${lower}`,
        `the Passport score listing (C4) for ${address}`,
        []
      );
      const row: Row | undefined = page.items?.[0];
      if (
        !Array.isArray(page.items) ||
        (row && row.address.toLowerCase() !== lower)
      ) {
        throw new Error(
          `${name}: the Passport score listing (C4) did not answer for ${address}`
        );
      }
      classify(address, row);
    });
  };
  const readPage = (page: number) =>
    read(
      `/registry/score/${scorerId}?limit=${PAGE_SIZE}&offset=${
        page * PAGE_SIZE
      }`,
      `the Passport score listing (C4) page ${page + 1}`,
      []
    );

  if (voters.length === 1) {
    await readByAddress(voters);
  } else if (voters.length > 1) {
    // The first page tells the listing's size: read the rest of it, or the voters not on the
    // first page one by one, whichever takes fewer requests.
    const first = await readPage(0);
    if (!Array.isArray(first.items) || typeof first.count !== 'number') {
      throw new Error(
        `${name}: the Passport score listing (C4) has no items or count`
      );
    }
    const rows = new Map<string, Row>();
    for (const row of first.items) rows.set(row.address.toLowerCase(), row);
    const pages = Math.max(1, Math.ceil(first.count / PAGE_SIZE));
    const missing = voters.filter(a => !rows.has(a.toLowerCase()));
    if (pages - 1 <= missing.length) {
      tooMany(pages - 1, first.count);
      const rest = Array.from({ length: pages - 1 }, (_, i) => i + 1);
      await eachLimited(rest, async page => {
        const { items } = await readPage(page);
        const expected = Math.min(PAGE_SIZE, first.count - page * PAGE_SIZE);
        if (!Array.isArray(items) || items.length < expected) {
          throw new Error(
            `${name}: the Passport score listing (C4) counted ${
              first.count
            } scores but page ${
              page + 1
            } holds ${items?.length} rows instead of ${expected}: an absent voter cannot be taken as never scored`
          );
        }
        for (const row of items) rows.set(row.address.toLowerCase(), row);
      });
      for (const address of voters)
        classify(address, rows.get(address.toLowerCase()));
    } else {
      tooMany(missing.length, first.count);
      for (const address of voters) {
        if (rows.has(address.toLowerCase()))
          classify(address, rows.get(address.toLowerCase()));
      }
      await readByAddress(missing);
    }
  }

  // Voters rescored after the snapshot: their score then, from the history (A2).
  if (rescored.length > 0) {
    tooMany(rescored.length, undefined);
    const denied: string[] = [];
    const history = async (address: string) => {
      const body = await read(
        `/v2/stamps/${scorerId}/score/${address.toLowerCase()}/history?created_at=${createdAt}`,
        `the Passport score history (A2) of ${address}`,
        [403, 404]
      );
      if (body === 403) return void denied.push(address);
      // The spec answers { items: [...] }, the public service one score object; 404: no score then.
      let record: Row | null = body === 404 ? null : body;
      if (record && Array.isArray(body.items)) record = body.items[0] ?? null;
      const scoredAt = record?.last_score_timestamp
        ? Date.parse(record.last_score_timestamp)
        : NaN;
      if (scoredAt > atMs) {
        throw new Error(
          `${name}: the Passport score history (A2) of ${address} at ${createdAt} answered a score of ${record?.last_score_timestamp}`
        );
      }
      found[address] = judgeAt(address, record, 'history');
    };
    // One voter first: a key that may not read history is told so by one request.
    await history(rescored[0]);
    if (denied.length === 0) await eachLimited(rescored.slice(1), history);
    else denied.push(...rescored.slice(1));
    if (denied.length > 0 && !options.allowLiveScore) {
      throw new Error(
        `${name}: the API key may not read Passport score history (A2 answered 403; Passport allowlists keys for it), and ${denied.length} voter(s) were rescored after ${createdAt}: their score then can only be read there. Ask Passport to allowlist the key, or set allowLiveScore to count their current score`
      );
    }
    await eachLimited(denied, async address => {
      const record = await read(
        `/v2/stamps/${scorerId}/score/${address.toLowerCase()}`,
        `the Passport score (A1) of ${address}`,
        []
      );
      found[address] = judgeAt(address, record, 'live');
    });
  }
  return found;
}

function readOptions(options) {
  const mode = options?.mode ?? 'gated';
  const positive = value =>
    value === undefined || (typeof value === 'number' && value > 0);
  if (mode !== 'gated' && mode !== 'weighted') {
    throw new Error("passport-v2: mode must be 'gated' or 'weighted'");
  }
  if (!positive(options?.score) || !positive(options?.cap)) {
    throw new Error('passport-v2: score and cap must be positive numbers');
  }
  if (
    options?.threshold !== undefined &&
    !(typeof options.threshold === 'number' && options.threshold >= 0)
  ) {
    throw new Error('passport-v2: threshold must be a number, 0 or more');
  }
  if (mode === 'gated' && options?.cap !== undefined) {
    throw new Error('passport-v2: cap applies in weighted mode only');
  }
  if (mode === 'weighted' && options?.score !== undefined) {
    throw new Error('passport-v2: score applies in gated mode only');
  }
  return mode === 'gated'
    ? { mode, score: options?.score ?? 1 }
    : { mode, cap: options?.cap, gate: options?.threshold !== undefined };
}

export async function strategy(
  space,
  network,
  provider,
  addresses,
  options,
  snapshot
): Promise<Record<string, number>> {
  const weighting = readOptions(options);
  passportAccess(options ?? {});
  if (addresses.length === 0) return {};
  const at = await snapshotTime(network, provider, snapshot, 'passport-v2');
  const verdicts = await passportVerdicts(addresses, options ?? {}, at);
  return Object.fromEntries(
    addresses.map(address => {
      const verdict = verdicts[getAddress(address)];
      return [getAddress(address), passportVerdictValue(verdict, weighting)];
    })
  );
}
