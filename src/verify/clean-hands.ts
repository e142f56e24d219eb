/**
 * The clean-hands rule (interface E, rule 6): an address has a valid clean-hands attestation when at
 * least one index row has the clean-hands schema, the authorized attester, names the address as the
 * receiver, is not revoked, and is valid after `now`. Plus the same checks on the attestation as
 * Sign Protocol holds it on-chain at a block. The rule itself is written once in src/rules/clean-hands.ts; this
 * module checks the options and gives it the library's names. (The score-api folders do not read clean hands.)
 */
import type { Hex } from 'viem'
import { optimismNetwork } from '../chain/constants.js'
import { InvalidParameterError } from '../errors/index.js'
import type { MalformedAttestationRow } from '../schemas/attestation.js'
import { normalizeAddress } from '../utils/address.js'
import { parseTimestamp } from '../utils/parse.js'
import * as rules from '../rules/clean-hands.js'
import * as rowRules from '../rules/clean-hands-rows.js'

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
export type CleanHandsRowReason = rules.CleanHandsRowReason

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

type ResolvedOptions = rules.CleanHandsRuleOptions & { attester: string; schemaId: string }

function resolveOptions(options: CleanHandsOptions): ResolvedOptions {
  const schemaId = options.schemaId ?? optimismNetwork.cleanHands.fullSchemaId
  if (typeof schemaId !== 'string' || schemaId === '') {
    throw new InvalidParameterError({ parameter: 'schemaId', reason: 'The schema id is a non-empty string such as onchain_evm_10_0x8.' })
  }
  return {
    now: toUnixSeconds(options.now),
    attester: normalizeAddress(options.attester ?? optimismNetwork.cleanHands.attester, 'attester'),
    schemaId,
    revocation: 'index',
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
  return rules.parseValidUntil(value)
}

function checkRow(row: CleanHandsRow | MalformedAttestationRow, options: ResolvedOptions): CleanHandsRowReason {
  return rules.checkCleanHandsRow(row, options)
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
  const resolved: ResolvedOptions = { ...resolveOptions(options), revocation: options.revocation === 'onchain' ? 'onchain' : 'index' }
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
export const cleanHandsRowRank: Readonly<Record<CleanHandsRowReason, number>> = rules.cleanHandsRowRank

/** What {@link judgeCleanHandsRows} answers. */
export type CleanHandsRowsJudgment = rowRules.CleanHandsRowsJudgment

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
  return rowRules.judgeCleanHandsRows(rows, resolveOptions(options))
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
export type OnchainCleanHandsReason = rules.OnchainCleanHandsReason

/**
 * Checks a clean-hands attestation as Sign Protocol holds it at a block: it exists, schema id
 * (8 on Optimism), authorized attester (case-insensitive), not revoked, `validUntil >
 * blockTimestamp`, and `recipients[0]` decodes (ABI string) to the address (case-insensitive).
 *
 * @param decodeRecipient Decodes `recipients[0]`; returns undefined for bytes that are not a string.
 * @example
 * import { checkOnchainCleanHandsAttestation } from 'personhood'
 * import { decodeRecipient } from '../chain/sign-protocol.js'
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
  const { decodeRecipient } = parameters
  return rules.checkOnchainCleanHandsAttestation({ ...parameters, decodeRecipient: (recipient) => decodeRecipient(recipient as Hex) })
}
