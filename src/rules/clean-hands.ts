/** Clean hands (a Sign Protocol attestation on Optimism): the rule on an index row and on chain. */

/** A 0x-prefixed hex string (an address, a bytes32). */
type HexString = `0x${string}`;

/** Sign Protocol on Optimism, where clean-hands attestations are confirmed. */
export const signProtocolAddress: HexString =
  '0x945C44803E92a3495C32be951052a62E45A5D964';

/** The one attester whose clean-hands attestations count (compared case-insensitively). */
export const cleanHandsAttester: HexString =
  '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd';

/** The attestation index's clean-hands schema id, compared exactly. */
export const cleanHandsSchemaId = 'onchain_evm_10_0x8';

/** The same schema's on-chain Sign Protocol id on Optimism. */
export const cleanHandsOnchainSchemaId = 8n;

/** The fields of an attestation-index row the clean-hands rule reads. */
export type CleanHandsRowLike = {
  fullSchemaId: string;
  attester: string;
  isReceiver: boolean;
  revoked: boolean;
  /** Unix seconds: a number or a numeric string ("0" never passes). */
  validUntil: number | string | bigint;
  attestationId?: string | undefined;
};

/** Why a row counts or not, in the order the rule checks. */
export type CleanHandsRowReason =
  | 'valid'
  | 'malformed'
  | 'wrong-schema'
  | 'wrong-attester'
  | 'wrong-recipient'
  | 'revoked'
  | 'expired';

/** What the row rule is judged with. */
export type CleanHandsRuleOptions = {
  /** Unix seconds validity is judged at. */
  now: bigint;
  /** The authorized attester; default {@link cleanHandsAttester}. Case-insensitive. */
  attester?: string | undefined;
  /** The index schema id, compared exactly; default {@link cleanHandsSchemaId}. */
  schemaId?: string | undefined;
  /** `index` (default): the row's `revoked` counts; `onchain`: judged on chain at the block. */
  revocation?: 'index' | 'onchain' | undefined;
};

/** A row's `validUntil` in Unix seconds: an integer, a bigint or decimal digits; else undefined. */
export function parseValidUntil(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  // Any integer number is exact enough: precision is lost only above 2^53.
  if (typeof value === 'number') {
    return Number.isInteger(value) ? BigInt(value) : undefined;
  }
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) {
    return BigInt(value);
  }
  return undefined;
}

function isMalformedRow(row: unknown): boolean {
  if (typeof row !== 'object' || row === null) return true;
  return (row as { malformed?: unknown }).malformed === true && 'issues' in row;
}

/**
 * The rule on one index row, naming the first check it fails: schema (exact), attester (any case),
 * `isReceiver === true`, `revoked === false`, then `validUntil > now`. A row that cannot be read
 * (not an object, or marked `malformed` with its `issues`) is `malformed`.
 */
export function checkCleanHandsRow(
  row: unknown,
  options: CleanHandsRuleOptions
): CleanHandsRowReason {
  if (isMalformedRow(row)) return 'malformed';
  const candidate = row as CleanHandsRowLike;
  const schemaId = options.schemaId ?? cleanHandsSchemaId;
  const attester = (options.attester ?? cleanHandsAttester).toLowerCase();
  if (candidate.fullSchemaId !== schemaId) return 'wrong-schema';
  if (
    typeof candidate.attester !== 'string' ||
    candidate.attester.toLowerCase() !== attester
  ) {
    return 'wrong-attester';
  }
  if (candidate.isReceiver !== true) return 'wrong-recipient';
  if (options.revocation !== 'onchain' && candidate.revoked !== false) {
    return 'revoked';
  }
  const validUntil = parseValidUntil(candidate.validUntil);
  if (validUntil === undefined || !(validUntil > options.now)) {
    return 'expired';
  }
  return 'valid';
}

/** How far a row got through the rule: a later check failed ranks higher. */
export const cleanHandsRowRank: Readonly<Record<CleanHandsRowReason, number>> =
  {
    malformed: 0,
    'wrong-schema': 1,
    'wrong-attester': 2,
    'wrong-recipient': 3,
    revoked: 4,
    expired: 5,
    valid: 6
  };

/** The fields of an on-chain Sign Protocol attestation the on-chain check reads. */
export type OnchainAttestationLike = {
  schemaId: bigint;
  attestTimestamp: bigint;
  attester: string;
  validUntil: bigint;
  revoked: boolean;
  recipients: readonly string[];
};

/** Why an on-chain attestation counts or not. `none`: no attestation with that id at the block. */
export type OnchainCleanHandsReason =
  | 'valid'
  | 'none'
  | 'wrong-schema'
  | 'wrong-attester'
  | 'revoked'
  | 'expired'
  | 'wrong-recipient';

/** What {@link checkOnchainCleanHandsAttestation} reads. */
export type CheckOnchainCleanHandsParameters = {
  attestation: OnchainAttestationLike;
  /** The address the attestation must name. */
  address: string;
  blockTimestamp: bigint;
  /** The on-chain schema id; default {@link cleanHandsOnchainSchemaId}. */
  schemaId?: bigint | undefined;
  /** The authorized attester; default {@link cleanHandsAttester}. */
  attester?: string | undefined;
  /** Decodes `recipients[0]` (an ABI string); undefined for bytes that are not one. */
  decodeRecipient(recipient: string): string | undefined;
};

/**
 * An attestation as Sign Protocol holds it at a block: it exists, schema id, attester (any case),
 * not revoked, `validUntil > blockTimestamp`, `recipients[0]` decodes to the address (any case).
 */
export function checkOnchainCleanHandsAttestation(
  parameters: CheckOnchainCleanHandsParameters
): OnchainCleanHandsReason {
  const { attestation, address, blockTimestamp } = parameters;
  const schemaId = parameters.schemaId ?? cleanHandsOnchainSchemaId;
  const attester = parameters.attester ?? cleanHandsAttester;
  if (
    attestation.attestTimestamp === 0n &&
    /^0x0{40}$/.test(attestation.attester)
  ) {
    return 'none';
  }
  if (attestation.schemaId !== schemaId) return 'wrong-schema';
  if (attestation.attester.toLowerCase() !== attester.toLowerCase()) {
    return 'wrong-attester';
  }
  if (attestation.revoked) return 'revoked';
  if (!(attestation.validUntil > blockTimestamp)) return 'expired';
  const first = attestation.recipients[0];
  const recipient =
    first === undefined ? undefined : parameters.decodeRecipient(first);
  if (
    recipient === undefined ||
    recipient.toLowerCase() !== address.toLowerCase()
  ) {
    return 'wrong-recipient';
  }
  return 'valid';
}
