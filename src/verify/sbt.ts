/**
 * The rule for one Human ID SBT read at one block: valid, or why not. Pure: the chain reads come in,
 * a reason comes out. The rule itself is written once, in src/rules/sbt.ts (the module copied into the
 * score-api folders); these are the library's documented names for it.
 */
import * as rules from '../rules/sbt.js'

/** Why an SBT counts or not. */
export type SbtReason = rules.SbtReason

/** The parts of a `getSBT` answer the rule reads (a {@link GetSbtResult} fits). */
export type SbtCallResult = rules.SbtCallResult

/** The parts of an `sbtOwners` answer the rule reads. */
export type SbtOwnersState = rules.SbtOwnersState

/** Parameters of {@link classifySbt}. */
export type ClassifySbtParameters = rules.ClassifySbtParameters

/**
 * The verdict on one SBT: `classified` with a reason (and the expiry when valid); `needs-owners`
 * when `getSBT` reverted and `sbtOwners` must tell none, expired and revoked apart;
 * `needs-timestamp` when `sbtOwners` shows an unrevoked SBT and only the block's timestamp can tell
 * expired from inconsistent; `inconsistent` when the reads contradict each other (the caller must
 * fail loudly, not guess).
 */
export type SbtClassification = rules.SbtClassification

/**
 * Classifies one SBT read at a block.
 *
 * - `getSBT` succeeded: revoked, then expired (`expiry < blockTimestamp`, as the Hub's own check;
 *   skipped when the timestamp is not given, since the Hub's `getSBT` made that check at the block),
 *   then `publicValues[4] == issuer`, then `publicValues[2] == actionId`; otherwise valid until
 *   `expiry`. A missing public value never matches. `publicValues[1]` is no condition: Human ID's
 *   own checks never read it, and only for gov-id is it shown to hold the recipient.
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
 * }) // { status: 'classified', reason: 'valid', expiresAt: 1800000000n }
 */
export function classifySbt(parameters: ClassifySbtParameters): SbtClassification {
  return rules.classifySbt(parameters)
}

/** The verdict on one SBT once classified: valid until `expiresAt`, or why not. */
export type SbtVerdict = rules.SbtVerdict

/**
 * The verdict on one Human ID credential: valid through an SBT (until `expiresAt`, Unix seconds),
 * valid through a permanent store (`legacy`, no expiry), or the most telling reason it is not.
 */
export type HumanIdCredentialVerdict = rules.HumanIdCredentialVerdict

/** Parameters of {@link judgeHumanIdCredential}. */
export type JudgeHumanIdCredentialParameters = rules.JudgeHumanIdCredentialParameters

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
  return rules.judgeHumanIdCredential(parameters)
}
