/**
 * The clean-hands rule (interface E, rule 6): an address has a valid clean-hands attestation when at
 * least one index row has the clean-hands schema, the authorized attester, names the address as the
 * receiver, is not revoked, and is valid after `now`. Plus the same checks on the attestation as
 * Sign Protocol holds it on-chain at a block.
 */
import type { Hex } from 'viem'
import { optimismNetwork } from '../chain/constants.js'
import { InvalidParameterError } from '../errors/index.js'
import { isMalformedAttestationRow, type MalformedAttestationRow } from '../schemas/attestation.js'
import { normalizeAddress } from '../utils/address.js'
import { parseTimestamp } from '../utils/parse.js'

/**
 * The fields of an attestation-index row (E8) the rule reads. The index client's rows (and the
 * `AttestationRow` schema's) are assignable to it.
 *
 * @example
 * import type { CleanHandsRow } from 'personhood'
 * const row: CleanHandsRow = {
 *   fullSchemaId: 'onchain_evm_10_0x8',
 *   attester: '0xb1f50c6c34c72346b1229e5c80587d0d659556fd',
 *   isReceiver: true,
 *   revoked: false,
 *   validUntil: '1767225600',
 *   attestationId: '0x1a3',
 * }
 */
export type CleanHandsRow = {
  fullSchemaId: string
  attester: string
  isReceiver: boolean
  revoked: boolean
  /** Unix seconds: a number or a numeric string ("0" is 0, which never passes). */
  validUntil: number | string | bigint
  /** The attestation's id (hex), used to confirm it on-chain. */
  attestationId?: string | undefined
}

/** Why a row counts or not, in the order the rule checks. */
export type CleanHandsRowReason = 'valid' | 'malformed' | 'wrong-schema' | 'wrong-attester' | 'wrong-recipient' | 'revoked' | 'expired'

/**
 * Options of the clean-hands predicate.
 *
 * @example
 * import type { CleanHandsOptions } from 'personhood'
 * const options: CleanHandsOptions = { now: new Date('2025-06-01T00:00:00Z') }
 */
export type CleanHandsOptions = {
  /** The time validity is judged at: a Date, Unix seconds (number), or Unix seconds (bigint). */
  now: Date | number | bigint
  /** The authorized attester; default 0xB1f50c6C34C72346b1229e5C80587D0D659556Fd. Case-insensitive. */
  attester?: string | undefined
  /** The index schema id, compared exactly; default `onchain_evm_10_0x8`. */
  schemaId?: string | undefined
}

type ResolvedOptions = { now: bigint; attester: string; schemaId: string; checkRevoked: boolean }

function resolveOptions(options: CleanHandsOptions): ResolvedOptions {
  const schemaId = options.schemaId ?? optimismNetwork.cleanHands.fullSchemaId
  if (typeof schemaId !== 'string' || schemaId === '') {
    throw new InvalidParameterError({ parameter: 'schemaId', reason: 'The schema id is a non-empty string such as onchain_evm_10_0x8.' })
  }
  return {
    now: toUnixSeconds(options.now),
    attester: normalizeAddress(options.attester ?? optimismNetwork.cleanHands.attester, 'attester'),
    schemaId,
    checkRevoked: true,
  }
}

/**
 * Converts `now` to whole Unix seconds (rounded down: `validUntil` is whole seconds, so `validUntil
 * > now` is unchanged).
 *
 * @throws {InvalidParameterError} for an invalid Date or a number that is not finite.
 * @example
 * // internal to src/verify (not exported from the package)
 * toUnixSeconds(new Date('2025-01-01T00:00:00.900Z')) // 1735689600n
 */
export function toUnixSeconds(now: Date | number | bigint): bigint {
  return BigInt(parseTimestamp(now, 'now'))
}

/**
 * Reads a row's `validUntil` as whole Unix seconds: an integer number, a bigint, or a string of
 * decimal digits ("0" is 0). Anything else (a fraction, NaN, "", " 1", "1e9", "-1", "abc") is
 * undefined, and the row does not count.
 *
 * @example
 * // internal to src/verify (not exported from the package)
 * parseValidUntil('1767225600') // 1767225600n
 * parseValidUntil('soon') // undefined
 */
export function parseValidUntil(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value
  // Any integer number is exact enough: precision is lost only above 2^53, far from any `now`.
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : undefined
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) return BigInt(value)
  return undefined
}

function checkRow(row: CleanHandsRow | MalformedAttestationRow, options: ResolvedOptions): CleanHandsRowReason {
  // A row that cannot be read cannot satisfy the rule, and must not stop the others from being judged.
  if (isMalformedAttestationRow(row) || typeof row !== 'object' || row === null) return 'malformed'
  if (row.fullSchemaId !== options.schemaId) return 'wrong-schema'
  if (typeof row.attester !== 'string' || row.attester.toLowerCase() !== options.attester) return 'wrong-attester'
  if (row.isReceiver !== true) return 'wrong-recipient'
  if (options.checkRevoked && row.revoked !== false) return 'revoked'
  const validUntil = parseValidUntil(row.validUntil)
  if (validUntil === undefined || !(validUntil > options.now)) return 'expired'
  return 'valid'
}

/**
 * Checks one index row against rule 6 and says which check it fails first: schema (exact:
 * `onchain_evm_10_0x8`, so `onchain_evm_10_0x80` fails), attester (case-insensitive), receiver
 * (`isReceiver === true`), revocation (`revoked === false`), then `validUntil > now` (a
 * non-numeric `validUntil` counts as expired).
 *
 * @throws {InvalidParameterError} when `now` or `schemaId` is invalid.
 * @throws {InvalidAddressError} when `attester` is not an address.
 * @example
 * import { checkCleanHandsAttestation } from 'personhood'
 * checkCleanHandsAttestation(row, { now: 1_700_000_000 }) // 'valid' | 'wrong-schema' | 'expired' | ...
 */
export function checkCleanHandsAttestation(row: CleanHandsRow | MalformedAttestationRow, options: CleanHandsOptions): CleanHandsRowReason {
  return checkRow(row, resolveOptions(options))
}

/**
 * Resolves the options once and returns the row check (for many rows; internal).
 *
 * With `revocation: 'onchain'` the row's `revoked` flag is not read: it is the index's flag as of
 * now, while a verification at a past block must judge revocation as of that block, which
 * `getAttestation` at the block does. Every other check of rule 6 applies unchanged. The default,
 * `'index'`, is rule 6 exactly (what {@link isValidCleanHandsAttestation} applies).
 */
export function createCleanHandsRowCheck(
  options: CleanHandsOptions & { revocation?: 'index' | 'onchain' | undefined },
): (row: CleanHandsRow | MalformedAttestationRow) => CleanHandsRowReason {
  const resolved = { ...resolveOptions(options), checkRevoked: options.revocation !== 'onchain' }
  return (row) => checkRow(row, resolved)
}

/**
 * Tells whether one index row is a valid clean-hands attestation at `now` (rule 6 of interface E).
 *
 * @throws {InvalidParameterError} when `now` or `schemaId` is invalid.
 * @throws {InvalidAddressError} when `attester` is not an address.
 * @example
 * import { isValidCleanHandsAttestation } from 'personhood'
 * isValidCleanHandsAttestation(
 *   { fullSchemaId: 'onchain_evm_10_0x8', attester: '0xb1f50c6c34c72346b1229e5c80587d0d659556fd', isReceiver: true, revoked: false, validUntil: '1767225600' },
 *   { now: new Date('2025-06-01T00:00:00Z') },
 * ) // true
 */
export function isValidCleanHandsAttestation(row: CleanHandsRow | MalformedAttestationRow, options: CleanHandsOptions): boolean {
  return checkRow(row, resolveOptions(options)) === 'valid'
}

/**
 * Tells whether at least one of an address's index rows is a valid clean-hands attestation at `now`.
 *
 * @throws {InvalidParameterError} when `now` or `schemaId` is invalid.
 * @throws {InvalidAddressError} when `attester` is not an address.
 * @example
 * import { hasValidCleanHandsAttestation } from 'personhood'
 * const rows = await attestationIndex.getAttestations({ address })
 * hasValidCleanHandsAttestation(rows, { now: new Date() })
 */
export function hasValidCleanHandsAttestation(rows: readonly (CleanHandsRow | MalformedAttestationRow)[], options: CleanHandsOptions): boolean {
  const resolved = resolveOptions(options)
  return rows.some((row) => checkRow(row, resolved) === 'valid')
}

/** How far a row got through rule 6: a later check failed ranks higher (the most telling reason). */
export const cleanHandsRowRank: Readonly<Record<CleanHandsRowReason, number>> = {
  malformed: 0,
  'wrong-schema': 1,
  'wrong-attester': 2,
  'wrong-recipient': 3,
  revoked: 4,
  expired: 5,
  valid: 6,
}

/** What {@link judgeCleanHandsRows} answers. */
export type CleanHandsRowsJudgment = {
  /** `valid` when a row passes; else the most telling failure; `none` without rows. */
  reason: CleanHandsRowReason | 'none'
  /** The latest `validUntil` (Unix seconds) among the rows that pass; undefined when none does. */
  expiresAt: bigint | undefined
  /** Each row's reason, in the rows' order. */
  rows: CleanHandsRowReason[]
}

/**
 * Judges all of an address's index rows by rule 6 at `now`: valid when one row passes (expiring
 * with the latest of them), else the most telling failure (the row that got furthest).
 *
 * @throws {InvalidParameterError} when `now` or `schemaId` is invalid.
 * @throws {InvalidAddressError} when `attester` is not an address.
 * @example
 * import { judgeCleanHandsRows } from 'personhood'
 * judgeCleanHandsRows(rows, { now: 1_750_000_000 }) // { reason: 'valid', expiresAt: 1767225600n, rows: ['valid'] }
 */
export function judgeCleanHandsRows(rows: readonly (CleanHandsRow | MalformedAttestationRow)[], options: CleanHandsOptions): CleanHandsRowsJudgment {
  const resolved = resolveOptions(options)
  const reasons = rows.map((row) => checkRow(row, resolved))
  let reason: CleanHandsRowReason | 'none' = 'none'
  let expiresAt: bigint | undefined
  reasons.forEach((rowReason, index) => {
    if (reason === 'none' || cleanHandsRowRank[rowReason] > cleanHandsRowRank[reason]) reason = rowReason
    if (rowReason === 'valid') {
      const validUntil = parseValidUntil((rows[index] as CleanHandsRow).validUntil) as bigint
      if (expiresAt === undefined || validUntil > expiresAt) expiresAt = validUntil
    }
  })
  return { reason, expiresAt, rows: reasons }
}

/** The fields of an on-chain Sign Protocol attestation the on-chain check reads. */
export type OnchainCleanHandsAttestation = {
  schemaId: bigint
  attestTimestamp: bigint
  attester: string
  validUntil: bigint
  revoked: boolean
  recipients: readonly Hex[]
}

/** Why an on-chain attestation counts or not. `none`: no attestation with that id at the block. */
export type OnchainCleanHandsReason = 'valid' | 'none' | 'wrong-schema' | 'wrong-attester' | 'revoked' | 'expired' | 'wrong-recipient'

/**
 * Checks a clean-hands attestation as Sign Protocol holds it at a block: it exists, schema id
 * (8 on Optimism), authorized attester (case-insensitive), not revoked, `validUntil >
 * blockTimestamp`, and `recipients[0]` decodes (ABI string) to the address (case-insensitive).
 *
 * @param decodeRecipient Decodes `recipients[0]`; returns undefined for bytes that are not a string.
 * @example
 * import { checkOnchainCleanHandsAttestation, decodeRecipient } from 'personhood'
 * checkOnchainCleanHandsAttestation({ attestation, address, blockTimestamp, schemaId: 8n, attester, decodeRecipient })
 */
export function checkOnchainCleanHandsAttestation(parameters: {
  attestation: OnchainCleanHandsAttestation
  address: string
  blockTimestamp: bigint
  schemaId: bigint
  attester: string
  decodeRecipient: (recipient: Hex) => string | undefined
}): OnchainCleanHandsReason {
  const { attestation, address, blockTimestamp, schemaId, attester, decodeRecipient } = parameters
  if (attestation.attestTimestamp === 0n && /^0x0{40}$/.test(attestation.attester)) return 'none'
  if (attestation.schemaId !== schemaId) return 'wrong-schema'
  if (attestation.attester.toLowerCase() !== attester.toLowerCase()) return 'wrong-attester'
  if (attestation.revoked) return 'revoked'
  if (!(attestation.validUntil > blockTimestamp)) return 'expired'
  const first = attestation.recipients[0]
  const recipient = first === undefined ? undefined : decodeRecipient(first)
  if (recipient === undefined || recipient.toLowerCase() !== address.toLowerCase()) return 'wrong-recipient'
  return 'valid'
}
