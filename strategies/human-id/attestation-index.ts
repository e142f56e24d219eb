import {
  checkCleanHandsRow,
  cleanHandsAttester,
  cleanHandsSchemaId
} from './clean-hands';
import {
  indexRowsByVoter,
  isIndexRow,
  listingPageOrder,
  mergeIndexListing,
  recipientListingProblem,
  uniqueIndexRows
} from './clean-hands-index';
import { customFetch } from '../../utils';

const INDEX_URL = 'https://mainnet-rpc.sign.global';
// Clean hands for many voters reads the index's listing (or one filtered
// listing a voter, when fewer); a cold call that needs more throws.
const MAX_INDEX_READS = 50;

// The attestation index, listed by schema and attester, in an order it does
// not document. The listing is kept per module, so a warm call reads only the
// pages it needs to find its new rows. A row only names a candidate: the
// reader confirms each one on chain at the block.
const listings: Record<string, unknown[]> = {};
const SOURCE = 'human-id: attestation index';

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
    throw new Error(`${SOURCE} ${url}: ${err?.message ?? err}`);
  }
  const body = response.ok ? await response.json().catch(() => null) : null;
  const data = body?.data;
  if (!data || !Array.isArray(data.rows) || typeof data.total !== 'number') {
    throw new Error(
      `${SOURCE} ${url} answered ${response.status} without rows`
    );
  }
  const size = data.size > 0 ? data.size : data.rows.length || 1;
  const pages = Math.ceil(data.total / size);
  return { total: data.total as number, pages, rows: data.rows as unknown[] };
}

async function pagesAfter(url: string, pages: number, recipient?: string) {
  const rest = Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
    indexPage(url, i + 2, recipient)
  );
  return (await Promise.all(rest)).flatMap(page => page.rows);
}

// One voter's rows, by the listing filtered by recipient: within the pages one
// address may take, else an Error naming the index and the bound.
async function voterRows(url: string, recipient: string) {
  const first = await indexPage(url, 1, recipient);
  const problem = recipientListingProblem(recipient, first);
  if (problem) throw new Error(`${SOURCE} ${url}: ${problem}`);
  const rows = first.rows.concat(await pagesAfter(url, first.pages, recipient));
  const late = recipientListingProblem(recipient, { ...first, rows });
  if (late) throw new Error(`${SOURCE} ${url}: ${late}`);
  return rows;
}

// The whole listing. Warm: the kept rows and the new ones, read page by page
// from both ends in until as many rows are known as the listing holds. Cold:
// every page, or null when that takes more requests than one per voter.
async function listing(url: string, voters: number) {
  const key = `${url} ${cleanHandsSchemaId} ${cleanHandsAttester}`;
  const kept = listings[key];
  const first = await indexPage(url, 1);
  let rows: unknown[] | undefined;
  if (kept) {
    let read = first.rows;
    rows = mergeIndexListing(kept, read, first.total);
    for (const page of listingPageOrder(first.pages).slice(1)) {
      if (rows) break;
      read = read.concat((await indexPage(url, page)).rows);
      rows = mergeIndexListing(kept, read, first.total);
    }
    // Rows moved while the pages were read: take what was read.
    rows ??= mergeIndexListing(kept, read, 0) as unknown[];
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
    rows = first.rows.concat(await pagesAfter(url, first.pages));
  }
  rows = uniqueIndexRows(rows, SOURCE);
  listings[key] = rows;
  return rows;
}

// Index rows by voter (lower case): the listing filtered by recipient for one
// voter, else the whole listing (or, when longer, one filtered read a voter).
export async function cleanHandsRows(voters: string[]) {
  const url = process.env.ATTESTATION_INDEX_URL || INDEX_URL;
  let rows = voters.length > 1 ? await listing(url, voters.length) : null;
  if (!rows) {
    rows = [];
    for (let i = 0; i < voters.length; i += 10) {
      const batch = voters.slice(i, i + 10);
      const read = await Promise.all(batch.map(v => voterRows(url, v)));
      rows.push(...read.flat());
    }
    rows = uniqueIndexRows(rows, SOURCE);
  }
  return indexRowsByVoter(rows, voters);
}

// The index's rule on a row at a time, revocation aside (judged on chain).
export function checkRow(row: unknown, now: bigint) {
  if (!isIndexRow(row)) return 'malformed';
  const indexed = { ...row, isReceiver: true };
  return checkCleanHandsRow(indexed, { now, revocation: 'onchain' });
}
