/**
 * A world's Human ID records as the Hub holds them: the one mapping of a verification record to an
 * SBT (its expiry, public values and revocation time) and to a permanent-store entry (its action
 * id). The reference server, which stands in for the Hub when it answers E1-E6, and the local
 * chain, which writes the records with `setSBT`, `revokeSBT` and `setIsUniqueForAction`, both read a
 * record through it, so they cannot hold two different SBTs for one record. A clean-hands SBT of
 * NEAR or Aptos (E7) is read in the same shape, so the one SBT rule judges it too.
 */
import { maxUint256 } from 'viem'
import { InvalidParameterError } from '../errors/index.js'
import { tryParseActionId } from '../utils/parse.js'
import type { CleanHandsSbt, Verification } from './types.js'

/** An SBT as the Hub holds it for a verification record. */
export type HubSbt = {
  /** `expiresAt`; 2^256-1 for a record that never expires. */
  expiry: bigint
  /**
   * `[expiry, recipient, actionId, nullifier, issuer]`, or none for an SBT minted with empty public
   * values. A record without nullifier or issuer holds 0 there.
   */
  publicValues: readonly bigint[]
  /**
   * The Unix second from which the SBT is revoked: `revokedAt`, or its issuance when the time is
   * unknown (never before its issuance); undefined for a record that is not revoked.
   */
  revokedAt: number | undefined
}

/**
 * Maps a verification record (an SBT of a hub or zk-passport source) to the SBT the Hub holds for
 * it.
 *
 * @param what How an error names the record. Default `the verification of <address>`.
 * @throws {InvalidParameterError} (parameter `world`) when its action id, nullifier or issuer is
 * not a uint256.
 * @example
 * import { hubSbtOf } from './hub-state.js'
 * const { expiry, publicValues } = hubSbtOf(world.verifications[0])
 * // publicValues: [expiry, BigInt(address), 123456789n, nullifier, issuer]
 */
export function hubSbtOf(record: Verification, what = `the verification of ${record.address}`): HubSbt {
  const expiry = record.expiresAt === null ? maxUint256 : BigInt(record.expiresAt)
  const publicValues = record.emptyPublicValues
    ? []
    : [expiry, BigInt(record.address), hubActionIdOf(record, what), decimalOf(record.nullifier, 'nullifier', what), hexOf(record.issuer, 'issuer', what)]
  return { expiry, publicValues, revokedAt: revocationOf(record) }
}

/**
 * Maps a clean-hands SBT record of NEAR or Aptos to the SBT its chain holds, in the Hub's shape:
 * expiry `expiresAt`, public values `[expiry, 0, actionId, 0, 0]` and its revocation time, as
 * {@link hubSbtOf}. The world keeps no recipient, nullifier or issuer for these SBTs (a record is
 * found by its address on its chain), so those public values are 0.
 *
 * @param what How an error names the record. Default `the clean-hands SBT of <address>`.
 * @throws {InvalidParameterError} (parameter `world`) when its action id is not a uint256 in decimal.
 * @example
 * import { cleanHandsSbtOf } from './hub-state.js'
 * const { expiry, revokedAt } = cleanHandsSbtOf(world.cleanHandsSbts[0])
 */
export function cleanHandsSbtOf(record: CleanHandsSbt, what = `the clean-hands SBT of ${record.address}`): HubSbt {
  const expiry = BigInt(record.expiresAt)
  return { expiry, publicValues: [expiry, 0n, hubActionIdOf(record, what), 0n, 0n], revokedAt: revocationOf(record) }
}

/**
 * The action id of a verification record as the Hub (or a permanent store) holds it: its decimal
 * digits read by the package's one action-id rule (`tryParseActionId`).
 *
 * @param what How an error names the record. Default `the verification of <address>`.
 * @throws {InvalidParameterError} (parameter `world`) when it is not a uint256 in decimal.
 */
export function hubActionIdOf(record: Pick<Verification | CleanHandsSbt, 'actionId' | 'address'>, what = `the verification of ${record.address}`): bigint {
  const actionId = recordActionId(record.actionId)
  if (actionId === undefined) throw invalid(what, 'action id', record.actionId, 'a uint256 in decimal')
  return actionId
}

/** A record's action id: decimal digits of a uint256, read by the package's one action-id rule; undefined otherwise. */
export function recordActionId(text: string): bigint | undefined {
  return /^\d+$/.test(text) ? tryParseActionId(text) : undefined
}

/** A record's nullifier: decimal digits of a uint256; undefined otherwise. */
export function recordDecimal(text: string): bigint | undefined {
  if (!/^\d{1,78}$/.test(text)) return undefined
  const value = BigInt(text)
  return value <= maxUint256 ? value : undefined
}

/** A record's issuer: a uint256 in 0x hex (1 to 64 digits); undefined otherwise. */
export function recordHex(text: string): bigint | undefined {
  return /^0x[0-9a-fA-F]{1,64}$/.test(text) ? BigInt(text) : undefined
}

/** From when a record is revoked: `revokedAt`, never before its issuance, which stands for an unknown time. */
function revocationOf(record: Pick<Verification | CleanHandsSbt, 'revoked' | 'revokedAt' | 'issuedAt'>): number | undefined {
  return record.revoked ? Math.max(record.revokedAt ?? record.issuedAt, record.issuedAt) : undefined
}

function decimalOf(value: string | null, field: string, what: string): bigint {
  if (value === null) return 0n
  const parsed = recordDecimal(value)
  if (parsed === undefined) throw invalid(what, field, value, 'a uint256 in decimal')
  return parsed
}

function hexOf(value: string | null, field: string, what: string): bigint {
  if (value === null) return 0n
  const parsed = recordHex(value)
  if (parsed === undefined) throw invalid(what, field, value, 'a uint256 in 0x hex')
  return parsed
}

function invalid(what: string, field: string, value: string, expected: string): InvalidParameterError {
  return new InvalidParameterError({ parameter: 'world', reason: `${what} has ${field} "${value.slice(0, 80)}": expected ${expected}.` })
}
