/** Clean hands through the attestation index: its rows, a filtered page, and a voter's reason. */
import { cleanHandsRowRank } from './clean-hands.js';
import { rowFingerprint, uniqueRowsByAddress } from './rows.js';

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
