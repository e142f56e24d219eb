/**
 * One rule for rows about addresses: the same row twice (any casing) collapses, two different rows
 * about one address are an error naming the source and the address. See docs/strategies.md.
 */
import { ConflictingRowsError } from './rows-error.js';

const addressPattern = /^0x[0-9a-fA-F]{40}$/;

/**
 * A row as text that ignores what does not matter: the order of an object's keys and the casing
 * of any address it holds. Two rows with the same text say the same thing.
 */
export function rowFingerprint(row: unknown): string {
  if (typeof row === 'string') {
    return JSON.stringify(addressPattern.test(row) ? row.toLowerCase() : row);
  }
  if (typeof row === 'bigint') return `${row}n`;
  if (Array.isArray(row)) return `[${row.map(rowFingerprint).join(',')}]`;
  if (typeof row === 'object' && row !== null) {
    const keys = Object.keys(row).sort();
    const fields = keys.map(
      key =>
        `${JSON.stringify(key)}:${rowFingerprint(
          (row as Record<string, unknown>)[key]
        )}`
    );
    return `{${fields.join(',')}}`;
  }
  return row === undefined ? 'undefined' : JSON.stringify(row);
}

/** What {@link uniqueRowsByAddress} reads. */
export type UniqueRowsParameters<R> = {
  /** The source's name, for the error. */
  source: string;
  /** The address a row is about. */
  addressOf: (row: R) => string;
  /** The part of a row that must agree; default: all of it ({@link rowFingerprint}). */
  fingerprint?: ((row: R) => string) | undefined;
};

/**
 * The rows of a source, one per address (keyed by the lower-cased address, in the order each
 * address first appears): rows that say the same thing collapse; rows that differ throw a
 * {@link ConflictingRowsError}.
 */
export function uniqueRowsByAddress<R>(
  rows: readonly R[],
  parameters: UniqueRowsParameters<R>
): Map<string, R> {
  const fingerprint = parameters.fingerprint ?? rowFingerprint;
  const unique = new Map<string, R>();
  for (const row of rows) {
    const address = parameters.addressOf(row);
    const key = address.toLowerCase();
    const seen = unique.get(key);
    if (seen === undefined) {
      unique.set(key, row);
    } else if (fingerprint(seen) !== fingerprint(row)) {
      throw new ConflictingRowsError(
        parameters.source,
        parameters.addressOf(seen),
        `${fingerprint(seen).slice(0, 200)} and ${fingerprint(row).slice(
          0,
          200
        )}.`
      );
    }
  }
  return unique;
}
