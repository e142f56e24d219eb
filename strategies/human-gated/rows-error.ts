// Generated from personhood src/rules/rows-error.ts
// by `npm run strategies:rules`: change the source, not this copy.

/** The error of the rule on rows (./rows.ts), which a source's own row checks throw too. */

/** Two rows of one source disagree about one address: which one is true cannot be told. */
export class ConflictingRowsError extends Error {
  /** The source that answered them (for example `passport:scores`). */
  readonly source: string;
  /** The address, as the first of the two rows named it. */
  readonly address: string;
  constructor(source: string, address: string, details: string) {
    super(`${source} answered two different rows for ${address}: ${details}`);
    this.name = 'ConflictingRowsError';
    this.source = source;
    this.address = address;
  }
}
