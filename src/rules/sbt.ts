/** Human ID SBTs: circuits, issuers, stores, and the rule on an SBT and a credential. */

type HexString = `0x${string}`;

/** The Human ID circuits: one per SBT kind. `zk-passport` also counts for gov-id. */
export type RuleCircuit = RuleIssuerCircuit | 'clean-hands';

/** The circuits whose SBTs carry an issuer in `publicValues[4]`. */
export type RuleIssuerCircuit = 'gov-id' | 'phone' | 'biometrics' | ZkPassport;
type ZkPassport = 'zk-passport';

/** The universal action id: uniqueness across every application. */
export const defaultActionId = 123456789n;

/** The Human ID circuit ids (`bytes32`), the same on every network. */
export const circuitIds: Readonly<Record<RuleCircuit, HexString>> = {
  'gov-id':
    '0x729d660e1c02e4e419745e617d643f897a538673ccf1051e093bbfa58b0a120b',
  phone: '0xbce052cf723dca06a21bd3cf838bc518931730fb3db7859fc9cc86f0d5483495',
  biometrics:
    '0x0b5121226395e3b6c76eb8ddfb0bf2f2075e7f2c6956567e84b38a223c3a3d15',
  'clean-hands':
    '0x1c98fc4f7f1ad3805aefa81ad25fa466f8342292accf69566b43691d12742a19',
  'zk-passport':
    '0x14c3513390f8a03993c848621b1840d58c27fd50bbddba73265e22d17b0b747e'
};

/** The issuer `publicValues[4]` must equal, as integers (the phone issuer has 31 bytes). */
export const issuers: Readonly<Record<RuleIssuerCircuit, bigint>> = {
  'gov-id': 0x03fae82f38bf01d9799d57fdda64fad4ac44e4c2c2f16c5bf8e1873d0a3e1993n,
  phone: 0x40b8810cbaed9647b54d18cc98b720e1e8876be5d8e7089d3c079fc61c30a4n,
  biometrics:
    0x0d4f849df782fb9e68d525fbda10b73e59180e59cb2a21ce5d70ccc45dbfd922n,
  'zk-passport':
    0x231c6ff490cf3282131a301f0b7dad3dcdfa769d912e01941a80c92dd750df96n
};

/** The permanent stores on Optimism (`isUniqueForAction`): no expiry, no revocation. */
export const permanentStores: Readonly<Record<'gov-id' | 'phone', HexString>> =
  {
    'gov-id': '0xdD748977BAb5782625AF1466F4C5F02Eb92Fce31',
    phone: '0xA40C8AAF7F47B18c1eDdBe7855b580f828eD9711'
  };

/** Why an SBT counts or not. */
export type SbtReason =
  | 'valid'
  | 'none'
  | 'expired'
  | 'revoked'
  | 'wrong-action'
  | 'wrong-issuer';

/** The parts of a `getSBT` answer the rule reads. */
export type SbtCallResult =
  | {
      status: 'success';
      expiry: bigint;
      publicValues: readonly bigint[];
      revoked: boolean;
    }
  | { status: 'reverted' };

/** The parts of an `sbtOwners` answer the rule reads. */
export type SbtOwnersState = { expiry: bigint; revoked: boolean };

/** getSBT, and sbtOwners when getSBT reverted, at one block and its time; what is expected. */
export type ClassifySbtParameters = {
  getSBT: SbtCallResult;
  sbtOwners?: SbtOwnersState | undefined;
  blockTimestamp?: bigint | undefined;
  actionId: bigint;
  issuer: bigint;
};

/** A reason; else the read still needed; else `inconsistent` (fail loudly, never guess). */
export type SbtClassification =
  | { status: 'classified'; reason: 'valid'; expiresAt: bigint }
  | { status: 'classified'; reason: Exclude<SbtReason, 'valid'> }
  | { status: 'needs-owners' }
  | { status: 'needs-timestamp' }
  | { status: 'inconsistent'; details: string };

/**
 * One SBT at a block. getSBT answered: revoked, expired, then issuer `publicValues[4]`, action id
 * `[2]` (Human ID never reads `[1]`), else valid. getSBT reverted: by sbtOwners, revoked, none
 * (expiry 0), expired, else inconsistent. Both reads must agree.
 */
export function classifySbt(
  parameters: ClassifySbtParameters
): SbtClassification {
  const { getSBT, blockTimestamp, actionId, issuer } = parameters;
  const owners = parameters.sbtOwners;
  if (getSBT.status === 'success') {
    if (
      owners &&
      (owners.expiry !== getSBT.expiry || owners.revoked !== getSBT.revoked)
    ) {
      return {
        status: 'inconsistent',
        details: `getSBT returned expiry ${getSBT.expiry}, revoked ${getSBT.revoked}; sbtOwners at the same block returned expiry ${owners.expiry}, revoked ${owners.revoked}.`
      };
    }
    if (getSBT.revoked) return { status: 'classified', reason: 'revoked' };
    if (blockTimestamp !== undefined && getSBT.expiry < blockTimestamp) {
      return { status: 'classified', reason: 'expired' };
    }
    if (getSBT.publicValues[4] !== issuer) {
      return { status: 'classified', reason: 'wrong-issuer' };
    }
    if (getSBT.publicValues[2] !== actionId) {
      return { status: 'classified', reason: 'wrong-action' };
    }
    return { status: 'classified', reason: 'valid', expiresAt: getSBT.expiry };
  }
  if (!owners) return { status: 'needs-owners' };
  if (owners.revoked) return { status: 'classified', reason: 'revoked' };
  if (owners.expiry === 0n) return { status: 'classified', reason: 'none' };
  if (blockTimestamp === undefined) return { status: 'needs-timestamp' };
  if (owners.expiry < blockTimestamp) {
    return { status: 'classified', reason: 'expired' };
  }
  return {
    status: 'inconsistent',
    details: `getSBT reverted, but sbtOwners shows a live SBT (expiry ${owners.expiry}, not revoked) at block timestamp ${blockTimestamp}.`
  };
}

/** The verdict on one SBT once classified: valid until `expiresAt`, or why not. */
export type SbtVerdict =
  | { reason: 'valid'; expiresAt: bigint }
  | { reason: Exclude<SbtReason, 'valid'> };

/** The verdict on one Human ID credential: valid through an SBT, a permanent store, or why not. */
export type HumanIdCredentialVerdict =
  | { valid: true; reason: 'valid'; expiresAt: bigint }
  | { valid: true; reason: 'legacy' }
  | { valid: false; reason: SbtReason };

/** The credential's own SBT; for gov-id the zk-passport SBT; a permanent store's answer. */
export type JudgeHumanIdCredentialParameters = {
  primary: SbtVerdict;
  passport?: SbtVerdict | undefined;
  legacy?: boolean | undefined;
};

/** Valid by the first of those that is; else the primary's reason, or zk-passport's over none. */
export function judgeHumanIdCredential(
  parameters: JudgeHumanIdCredentialParameters
): HumanIdCredentialVerdict {
  const { primary, passport, legacy } = parameters;
  if (primary.reason === 'valid') {
    return { valid: true, reason: 'valid', expiresAt: primary.expiresAt };
  }
  if (passport && passport.reason === 'valid') {
    return { valid: true, reason: 'valid', expiresAt: passport.expiresAt };
  }
  if (legacy === true) return { valid: true, reason: 'legacy' };
  const reason =
    primary.reason === 'none' && passport !== undefined
      ? passport.reason
      : primary.reason;
  return { valid: false, reason };
}
