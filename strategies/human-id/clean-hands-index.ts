// Generated from personhood src/rules/clean-hands-index.ts
// by `npm run strategies:rules`: change the source, not this copy.

/** Clean hands through the attestation index: its rows, its listing, and a voter's reason. */
import { cleanHandsRowRank } from './clean-hands';
import { rowFingerprint, uniqueRowsByAddress } from './rows';

// The rules' reasons, named here (score-api's lint forbids type-only imports).
type CleanHandsRowReason = keyof typeof cleanHandsRowRank;
type OnchainCleanHandsReason = keyof typeof onchainCleanHandsRank;

/** A row of the index's listing by schema and attester. */
export type IndexRow = {
  attestationId?: string | undefined;
  attester: string;
  fullSchemaId: string;
  recipients: string[];
  revoked: boolean;
  validUntil: string | number;
};

const text = (value: unknown) => typeof value === 'string';
const numeric = (value: unknown) => typeof value === 'number' || text(value);

/** Whether a listed row has the fields and types the index documents; any other is `malformed`. */
export function isIndexRow(row: unknown): row is IndexRow {
  if (typeof row !== 'object' || row === null) return false;
  const r = row as Record<string, unknown>;
  return (
    text(r.fullSchemaId) &&
    text(r.attester) &&
    typeof r.revoked === 'boolean' &&
    numeric(r.validUntil) &&
    (r.attestationId === undefined || text(r.attestationId)) &&
    (r.schemaId === undefined || text(r.schemaId)) &&
    (r.attestTimestamp === undefined || numeric(r.attestTimestamp)) &&
    Array.isArray(r.recipients) &&
    r.recipients.every(text)
  );
}

/** An index row's attestation id as Sign Protocol's uint64 (hex or decimal); else undefined. */
export function parseAttestationId(value: unknown): bigint | undefined {
  const id = typeof value === 'string' ? value.trim() : '';
  const parsed = /^0x[0-9a-fA-F]{1,16}$/.test(id)
    ? BigInt(id)
    : /^[0-9]{1,20}$/.test(id)
    ? BigInt(id)
    : undefined;
  return parsed === undefined || parsed >= 2n ** 64n ? undefined : parsed;
}

/** A row that passes the row rule names the attestation to read, else it is `malformed`. */
export function indexRowCandidate(
  reason: CleanHandsRowReason,
  attestationId: unknown
): { reason: CleanHandsRowReason; attestationId: bigint | undefined } {
  if (reason !== 'valid') return { reason, attestationId: undefined };
  const id = parseAttestationId(attestationId);
  return id === undefined
    ? { reason: 'malformed', attestationId: undefined }
    : { reason, attestationId: id };
}

/**
 * The attestations worth reading on chain, before the block's time is known: those of the rows
 * that pass the row rule at time 0 (every row that passes it at the block's time does), once each.
 */
export function attestationsToConfirm<R>(
  rows: readonly R[],
  checkAtZero: (row: R) => CleanHandsRowReason
): bigint[] {
  const ids = new Set<bigint>();
  for (const row of rows) {
    const { attestationId } = indexRowCandidate(
      checkAtZero(row),
      (row as { attestationId?: unknown })?.attestationId
    );
    if (attestationId !== undefined) ids.add(attestationId);
  }
  return [...ids];
}

const idOf = (row: unknown) =>
  (row as { attestationId?: unknown } | null)?.attestationId;

/** Lower case, so that a re-cased id is the same attestation. */
const idKey = (row: unknown) => String(idOf(row)).toLowerCase();

/**
 * The rows once each by attestation id, by rows.ts's rule (two different rows under one id throw);
 * rows without an id are kept as listed (each is judged malformed).
 */
export function uniqueIndexRows<R>(rows: readonly R[], source: string): R[] {
  const named = rows.filter(row => text(idOf(row)));
  const unique = uniqueRowsByAddress(named, {
    source,
    addressOf: idKey,
    fingerprint: row =>
      rowFingerprint({
        ...(row as unknown as object),
        attestationId: idKey(row)
      })
  });
  const unnamed = rows.filter(row => !text(idOf(row)));
  return [...unique.values(), ...unnamed];
}

/** Each voter's rows (keyed by the lower-cased voter): the rows whose `recipients` name it, any case. */
export function indexRowsByVoter<R>(
  rows: readonly R[],
  voters: readonly string[]
): Record<string, R[]> {
  const byVoter: Record<string, R[]> = {};
  for (const voter of voters) byVoter[voter.toLowerCase()] = [];
  for (const row of rows) {
    const recipients = (row as { recipients?: unknown })?.recipients;
    if (!Array.isArray(recipients)) continue;
    const named = new Set(recipients.map(r => String(r).toLowerCase()));
    for (const voter of named) byVoter[voter]?.push(row);
  }
  return byVoter;
}

/** Pages at most of a listing asked for one recipient: one address holds a few attestations. */
export const recipientListingMaxPages = 2;

/**
 * Why a page asked for `recipient` shows that the index ignored `recipient=` (undefined: it did
 * not): its first row that names only others, by its place on the page. A row without a
 * `recipients` array names no one and is left to the rule.
 */
export function recipientFilterProblem(
  rows: readonly unknown[],
  recipient: string
): { index: number; problem: string } | undefined {
  const mine = recipient.toLowerCase();
  const index = rows.findIndex(row => {
    const named = (row as { recipients?: unknown } | null)?.recipients;
    if (!Array.isArray(named)) return false;
    return !named.some(n => typeof n === 'string' && n.toLowerCase() === mine);
  });
  if (index === -1) return undefined;
  const row = rows[index] as { attestationId?: unknown; recipients: unknown[] };
  const names = row.recipients.map(String).join(', ') || 'no one';
  return {
    index,
    problem: `asked for the attestations of recipient ${recipient}, got attestation ${String(
      row.attestationId
    )} of ${names}: the index ignores recipient=`
  };
}

/**
 * Why a listing asked for `recipient` (its first page) is not read on, else undefined: a row of
 * another address (the filter ignored), or more pages than one address may take.
 */
export function recipientListingProblem(
  recipient: string,
  first: { total: number; pages: number; rows: readonly unknown[] }
): string | undefined {
  const ignored = recipientFilterProblem(first.rows, recipient);
  if (ignored) return ignored.problem;
  if (first.pages <= recipientListingMaxPages) return undefined;
  return `the listing for recipient ${recipient} holds ${first.total} attestations on ${first.pages} pages, over the ${recipientListingMaxPages} pages one address may take`;
}

/**
 * The order to read a listing's pages in to find new rows (the index documents no order): from
 * both ends inwards (1, last, 2, ...), so that rows new first or last come in one read.
 */
export function listingPageOrder(pages: number): number[] {
  const order: number[] = [];
  for (let low = 1, high = pages; low <= high; low++, high--) {
    order.push(low);
    if (high !== low) order.push(high);
  }
  return order;
}

// A row without an id is known by all of it.
const listedKey = (row: unknown) =>
  text(idOf(row)) ? idKey(row) : rowFingerprint(row);

/**
 * A kept listing with the rows read since: the kept rows, then every read row with an id not kept
 * (by attestation id, whatever their place in the listing). Undefined while fewer distinct rows are
 * known than the listing's `total`: more pages must be read.
 */
export function mergeIndexListing<R>(
  kept: readonly R[],
  read: readonly R[],
  total: number
): R[] | undefined {
  const known = new Set(kept.map(listedKey));
  const merged = [...kept];
  for (const row of read) {
    if (known.has(listedKey(row))) continue;
    known.add(listedKey(row));
    merged.push(row);
  }
  return merged.length >= total ? merged : undefined;
}

/** One index row as judged: its row reason, and when it passed, the attestation's on chain. */
export type CleanHandsCheck = {
  row: CleanHandsRowReason;
  onchain?: OnchainCleanHandsReason | undefined;
  /** The attestation's `validUntil` on chain, when it is valid there. */
  validUntil?: bigint | undefined;
};

/** How far a check got: the row rule's ranks, then the on-chain reasons above them. */
export const onchainCleanHandsRank = {
  none: 7,
  'wrong-schema': 8,
  'wrong-attester': 9,
  revoked: 10,
  expired: 11,
  'wrong-recipient': 12,
  valid: 13
};

/**
 * A voter's clean hands from all of its rows: the check that got furthest gives the reason (valid
 * when one attestation is valid on chain, expiring with the latest); `none` without rows.
 */
export function judgeCleanHandsChecks(checks: readonly CleanHandsCheck[]): {
  valid: boolean;
  reason: CleanHandsRowReason | OnchainCleanHandsReason;
  expiresAt: bigint | undefined;
} {
  let best = { rank: -1, reason: 'none' as CleanHandsCheck['row'] | 'none' };
  let expiresAt: bigint | undefined;
  for (const check of checks) {
    if (check.row === 'valid' && check.onchain === undefined) {
      throw new Error('clean hands: a valid row was not read on chain');
    }
    const reason = check.onchain ?? check.row;
    const rank = check.onchain
      ? onchainCleanHandsRank[check.onchain]
      : cleanHandsRowRank[check.row];
    const until = check.validUntil;
    if (reason === 'valid' && until !== undefined) {
      if (expiresAt === undefined || until > expiresAt) expiresAt = until;
    }
    if (rank > best.rank) best = { rank, reason };
  }
  const valid = best.reason === 'valid';
  return {
    valid,
    reason: best.reason,
    expiresAt: valid ? expiresAt : undefined
  };
}
