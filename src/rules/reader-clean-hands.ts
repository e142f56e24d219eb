/**
 * A voter's clean hands judged from the reader's answer: the index rows, and each candidate's
 * attestation as the reader read it. What the answer cannot tell comes back as a `problem` (its
 * sentence), which the caller throws in its own error type.
 */
import { checkOnchainCleanHandsAttestation } from './clean-hands.js';
import {
  indexRowCandidate,
  judgeCleanHandsChecks
} from './clean-hands-index.js';
import { readerZeroAddress } from './reader.js';

// The rules' types, named here (score-api's lint forbids type-only imports).
type RowReason = Parameters<typeof indexRowCandidate>[0];
type CleanHandsCheck = Parameters<typeof judgeCleanHandsChecks>[0][number];
type ReaderAttestation = Parameters<typeof readerAttestationReads>[0];

/** What the reader's answer cannot tell: the sentence the caller throws. */
type ReaderProblem = { problem: string };

/**
 * An attestation as checkOnchainCleanHandsAttestation (./clean-hands.ts) reads it,
 * for `voter` at `at` (the block's timestamp): the attestation (values
 * standing for the reader's comparisons) and how to decode its recipient.
 * Undefined when recipients[0] is not an ABI string at offset 32 (an ABI
 * decoder would follow the offset, the reader does not: do not guess).
 */
export function readerAttestationReads(
  attestation: { flags: number; validUntil?: bigint | undefined },
  at: bigint,
  voter: string,
  expected: { schemaId: bigint; attester: string }
) {
  const { flags } = attestation;
  // getAttestation reverted: Sign Protocol holds no such attestation at the
  // block, which the rule reads as none (the other attestations still count).
  if (flags & 128) {
    return {
      attestation: {
        schemaId: 0n,
        attestTimestamp: 0n,
        attester: readerZeroAddress,
        validUntil: 0n,
        revoked: false,
        recipients: []
      },
      address: voter,
      blockTimestamp: at,
      decodeRecipient: () => undefined
    };
  }
  if (flags & 64) return undefined;
  return {
    attestation: {
      schemaId: flags & 2 ? expected.schemaId : expected.schemaId + 1n,
      attestTimestamp: flags & 1 ? 1n : 0n,
      attester: flags & 4 ? expected.attester : readerZeroAddress,
      validUntil: attestation.validUntil ?? (flags & 16 ? at + 1n : at),
      revoked: (flags & 8) !== 0,
      recipients: ['0x']
    },
    address: voter,
    blockTimestamp: at,
    decodeRecipient: () => (flags & 32 ? voter : undefined)
  };
}

/** One index row as {@link judgeReaderCleanHands} judged it. */
export type ReaderCleanHandsCheck = CleanHandsCheck & {
  /** The row rule's own reason, before a valid row without a usable id became `malformed`. */
  checked: RowReason;
  /** The attestation read on chain, when the row passed. */
  attestationId?: bigint | undefined;
};

/**
 * Clean hands from a voter's index rows: each row by `checkRow` (the index rule at the block's
 * time, revocation aside) and indexRowCandidate; each candidate's attestation as the reader read
 * it, by checkOnchainCleanHandsAttestation; the reason by judgeCleanHandsChecks. Returns it with
 * each row's check.
 */
export function judgeReaderCleanHands<R>(parameters: {
  rows: readonly R[];
  checkRow: (row: R) => RowReason;
  attestations: ReadonlyMap<bigint, ReaderAttestation>;
  at: bigint;
  voter: string;
  expected: { schemaId: bigint; attester: string };
}):
  | (ReturnType<typeof judgeCleanHandsChecks> & {
      checks: ReaderCleanHandsCheck[];
    })
  | ReaderProblem {
  const { at, voter, expected } = parameters;
  const checks: ReaderCleanHandsCheck[] = [];
  for (const row of parameters.rows) {
    const checked = parameters.checkRow(row);
    const rawId = (row as { attestationId?: unknown } | null)?.attestationId;
    const { reason, attestationId } = indexRowCandidate(checked, rawId);
    if (attestationId === undefined) {
      checks.push({ checked, row: reason });
      continue;
    }
    const read = parameters.attestations.get(attestationId);
    if (!read) {
      return { problem: `The reader skipped attestation ${attestationId}.` };
    }
    const reads = readerAttestationReads(read, at, voter, expected);
    if (!reads) {
      const problem = `Attestation ${attestationId}: recipients[0] is not an ABI string.`;
      return { problem };
    }
    const onchain = checkOnchainCleanHandsAttestation({
      ...reads,
      ...expected
    });
    const { validUntil } = reads.attestation;
    checks.push({ checked, row: reason, attestationId, onchain, validUntil });
  }
  return { ...judgeCleanHandsChecks(checks), checks };
}
