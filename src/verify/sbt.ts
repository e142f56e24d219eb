/**
 * The rule for one Human ID SBT read at one block: valid, or why not. Pure: the chain reads come in,
 * a reason comes out.
 */

/** Why an SBT counts or not. */
export type SbtReason = 'valid' | 'none' | 'expired' | 'revoked' | 'wrong-action' | 'wrong-issuer' | 'wrong-recipient'

/** The parts of a `getSBT` answer the rule reads (a {@link GetSbtResult} fits). */
export type SbtCallResult =
  | { status: 'success'; expiry: bigint; publicValues: readonly bigint[]; revoked: boolean }
  | { status: 'reverted' }

/** The parts of an `sbtOwners` answer the rule reads. */
export type SbtOwnersState = { expiry: bigint; revoked: boolean }

/** Parameters of {@link classifySbt}. */
export type ClassifySbtParameters = {
  /** What `getSBT(subject, circuitId)` answered at the block. */
  getSBT: SbtCallResult
  /** What `sbtOwners(id)` answered at the same block; needed when `getSBT` reverted. */
  sbtOwners?: SbtOwnersState | undefined
  /**
   * The block's timestamp (Unix seconds): validity is judged there, never at the wall clock. It may
   * be left out while only `getSBT` has been read: `getSBT` itself reverts at the block when `expiry
   * < block.timestamp`, so a successful `getSBT` is not expired there. After a revert it is needed to
   * tell an expired SBT from a Hub that contradicts itself.
   */
  blockTimestamp?: bigint | undefined
  /** The action id `publicValues[2]` must equal. */
  actionId: bigint
  /** The issuer `publicValues[4]` must equal (compared as integers: the phone issuer is 31 bytes). */
  issuer: bigint
  /**
   * The subject the SBT was read for, as an integer (`BigInt(address)`): `publicValues[1]` (the
   * recipient) must equal it, so an answer replayed from another holder's SBT never counts.
   */
  recipient: bigint
}

/**
 * The verdict on one SBT: `classified` with a reason (and the expiry when valid); `needs-owners`
 * when `getSBT` reverted and `sbtOwners` must tell none, expired and revoked apart;
 * `needs-timestamp` when `sbtOwners` shows an unrevoked SBT and only the block's timestamp can tell
 * expired from inconsistent; `inconsistent` when the reads contradict each other (the caller must
 * fail loudly, not guess).
 */
export type SbtClassification =
  | { status: 'classified'; reason: 'valid'; expiresAt: bigint }
  | { status: 'classified'; reason: Exclude<SbtReason, 'valid'> }
  | { status: 'needs-owners' }
  | { status: 'needs-timestamp' }
  | { status: 'inconsistent'; details: string }

/**
 * Classifies one SBT read at a block.
 *
 * - `getSBT` succeeded: revoked, then expired (`expiry < blockTimestamp`, as the Hub's own check;
 *   skipped when the timestamp is not given, since the Hub's `getSBT` made that check at the block),
 *   then `publicValues[4] == issuer`, then `publicValues[2] == actionId`, then
 *   `publicValues[1] == recipient` (the subject); otherwise valid until `expiry`. A missing public
 *   value never matches.
 * - `getSBT` reverted: `sbtOwners` decides: revoked; expiry 0 (never set) is none; `expiry <
 *   blockTimestamp` is expired. A live, unrevoked SBT whose `getSBT` reverted is inconsistent.
 *   Without the timestamp that last step answers `needs-timestamp`.
 * - When both reads are given they must agree on expiry and revocation.
 *
 * @example
 * import { classifySbt } from 'personhood'
 * classifySbt({
 *   getSBT: { status: 'success', expiry: 1_800_000_000n, publicValues: [1_800_000_000n, 0n, 123456789n, 0n, issuer], revoked: false },
 *   blockTimestamp: 1_700_000_000n,
 *   actionId: 123456789n,
 *   issuer,
 *   recipient: 0n,
 * }) // { status: 'classified', reason: 'valid', expiresAt: 1800000000n }
 */
export function classifySbt(parameters: ClassifySbtParameters): SbtClassification {
  const { getSBT, sbtOwners: owners, blockTimestamp, actionId, issuer, recipient } = parameters
  if (getSBT.status === 'success') {
    if (owners && (owners.expiry !== getSBT.expiry || owners.revoked !== getSBT.revoked)) {
      return {
        status: 'inconsistent',
        details: `getSBT returned expiry ${getSBT.expiry}, revoked ${getSBT.revoked}; sbtOwners at the same block returned expiry ${owners.expiry}, revoked ${owners.revoked}.`,
      }
    }
    if (getSBT.revoked) return { status: 'classified', reason: 'revoked' }
    if (blockTimestamp !== undefined && getSBT.expiry < blockTimestamp) return { status: 'classified', reason: 'expired' }
    if (getSBT.publicValues[4] !== issuer) return { status: 'classified', reason: 'wrong-issuer' }
    if (getSBT.publicValues[2] !== actionId) return { status: 'classified', reason: 'wrong-action' }
    if (getSBT.publicValues[1] !== recipient) return { status: 'classified', reason: 'wrong-recipient' }
    return { status: 'classified', reason: 'valid', expiresAt: getSBT.expiry }
  }
  if (!owners) return { status: 'needs-owners' }
  if (owners.revoked) return { status: 'classified', reason: 'revoked' }
  if (owners.expiry === 0n) return { status: 'classified', reason: 'none' }
  if (blockTimestamp === undefined) return { status: 'needs-timestamp' }
  if (owners.expiry < blockTimestamp) return { status: 'classified', reason: 'expired' }
  return {
    status: 'inconsistent',
    details: `getSBT reverted, but sbtOwners shows a live SBT (expiry ${owners.expiry}, not revoked) at block timestamp ${blockTimestamp}.`,
  }
}

/** The verdict on one SBT once classified: valid until `expiresAt`, or why not. */
export type SbtVerdict = { reason: 'valid'; expiresAt: bigint } | { reason: Exclude<SbtReason, 'valid'> }

/**
 * The verdict on one Human ID credential: valid through an SBT (until `expiresAt`, Unix seconds),
 * valid through a permanent store (`legacy`, no expiry), or the most telling reason it is not.
 */
export type HumanIdCredentialVerdict =
  | { valid: true; reason: 'valid'; expiresAt: bigint }
  | { valid: true; reason: 'legacy' }
  | { valid: false; reason: SbtReason }

/** Parameters of {@link judgeHumanIdCredential}. */
export type JudgeHumanIdCredentialParameters = {
  /** The credential's own SBT (gov-id, phone or biometrics circuit). */
  primary: SbtVerdict
  /** gov-id only: the zk-passport SBT, consulted when the primary one is not valid. */
  passport?: SbtVerdict | undefined
  /** gov-id and phone on Optimism: `isUniqueForAction` of the permanent store, when read. */
  legacy?: boolean | undefined
}

/**
 * Judges one Human ID credential from its reads, in the one order the verifier and the reference
 * server share: the credential's own SBT; else (gov-id) the zk-passport SBT; else a permanent-store
 * entry for the action. Not valid: the primary SBT's reason, unless it has none and the zk-passport
 * SBT says more.
 *
 * @example
 * import { judgeHumanIdCredential } from 'personhood'
 * judgeHumanIdCredential({ primary: { reason: 'expired' }, legacy: true }) // { valid: true, reason: 'legacy' }
 */
export function judgeHumanIdCredential(parameters: JudgeHumanIdCredentialParameters): HumanIdCredentialVerdict {
  const { primary, passport, legacy } = parameters
  if (primary.reason === 'valid') return { valid: true, reason: 'valid', expiresAt: primary.expiresAt }
  if (passport?.reason === 'valid') return { valid: true, reason: 'valid', expiresAt: passport.expiresAt }
  if (legacy === true) return { valid: true, reason: 'legacy' }
  const reason = primary.reason === 'none' && passport !== undefined ? passport.reason : primary.reason
  return { valid: false, reason }
}
