// Generated from personhood src/verify/rules.ts by `npm run strategies:rules`.
// Do not edit: change the source and run the command again. The library, its
// reference server and this folder judge with this same code, and a test fails
// when this copy differs from its source.

/**
 * The rules of personhood in one dependency-free module: the Human ID constants, SBT validity, the
 * clean-hands rule, the Passport threshold and the fallback policy. It has no import statement, so
 * it is copied verbatim into each score-api folder that needs it (`npm run strategies:rules`), and
 * the library, the reference server and the folders judge with the same code. It is written in
 * score-api's prettier style and compiles under TypeScript 4.7 (CommonJS) as under the package's
 * own settings.
 */

// ---------------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------------

/** A 0x-prefixed hex string (an address, a bytes32). */
export type HexString = `0x${string}`;

/** The Human ID circuits: one per SBT kind. `zk-passport` also counts for gov-id. */
export type RuleCircuit = RuleIssuerCircuit | 'clean-hands';

/** The circuits whose SBTs carry an issuer in `publicValues[4]`. */
export type RuleIssuerCircuit = 'gov-id' | 'phone' | 'biometrics' | ZkPassport;
type ZkPassport = 'zk-passport';

/** The universal action id: uniqueness across every application. */
export const defaultActionId = 123456789n;

/** The recommended threshold of a stamp scorer: 20. */
export const defaultPassportThreshold = '20';

/** Multicall3's address, the same on every chain that matters. */
export const multicall3Address: HexString =
  '0xcA11bde05977b3631167028862bE2a173976CA11';

/** Human ID Hub V3 by chain id: Optimism (10) and the Base Sepolia sandbox (84532). */
export const hubAddresses: Readonly<Record<'10' | '84532', HexString>> = {
  '10': '0x2AA822e264F8cc31A2b9C22f39e5551241e94DfB',
  '84532': '0x98221c937C51f5bBe615CB104435395c93b1AD8D'
};

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

/**
 * The issuer `publicValues[4]` must equal, per circuit, compared as integers: the phone issuer is
 * 31 bytes long, so as a 32-byte hex string it would not compare.
 */
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

/**
 * The hub chains' clocks: OP Stack chains make one block every `seconds`
 * exactly (a protocol rule: a block's time is its parent's plus the block
 * time), so from `block` on, block n is at `timestamp + (n - block) * seconds`.
 * Optimism: Bedrock, block 105,235,063 at 1686068903 (2023-06-06T16:28:23Z).
 * Base Sepolia: block 0 at 1695768288 (2023-09-26T22:44:48Z).
 */
export type HubClock = { block: number; timestamp: number; seconds: number };
export const hubClocks: Readonly<Record<'10' | '84532', HubClock>> = {
  '10': { block: 105235063, timestamp: 1686068903, seconds: 2 },
  '84532': { block: 0, timestamp: 1695768288, seconds: 2 }
};

function hubClock(network: string): HubClock | undefined {
  return network === '10' || network === '84532'
    ? hubClocks[network]
    : undefined;
}

/**
 * The last block at or before `timestamp` (Unix seconds) on an exact clock:
 * undefined before the clock's anchor. A block read there must sit where the
 * clock says ({@link isLastOnClock}).
 */
export function clockBlockAt(
  clock: HubClock,
  timestamp: number
): number | undefined {
  if (!Number.isSafeInteger(timestamp) || timestamp < clock.timestamp) {
    return undefined;
  }
  return (
    clock.block + Math.floor((timestamp - clock.timestamp) / clock.seconds)
  );
}

/**
 * Whether a block, as read (`number`, `timestamp`), is the last one at or
 * before `at` on an exact clock: where the clock puts it, and within one block
 * time of `at`. False tells that the chain left its clock.
 */
export function isLastOnClock(
  clock: HubClock,
  block: { number: number; timestamp: number },
  at: number
): boolean {
  if (block.number < clock.block) return false;
  const expected =
    clock.timestamp + (block.number - clock.block) * clock.seconds;
  return (
    block.timestamp === expected &&
    block.timestamp <= at &&
    at < block.timestamp + clock.seconds
  );
}

/** {@link clockBlockAt} on a hub chain's clock (undefined for another network). */
export function hubBlockAt(
  network: string,
  timestamp: number
): number | undefined {
  const clock = hubClock(network);
  return clock ? clockBlockAt(clock, timestamp) : undefined;
}

/** {@link isLastOnClock} on a hub chain's clock (false for another network). */
export function isOnHubClock(
  network: string,
  block: { number: number; timestamp: number },
  at: number
): boolean {
  const clock = hubClock(network);
  return clock ? isLastOnClock(clock, block, at) : false;
}

/** The error a rule throws for an input it cannot judge; `parameter` names the input. */
export class RuleParameterError extends Error {
  readonly parameter: string;
  readonly reason: string;
  constructor(parameter: string, reason: string) {
    super(`Parameter "${parameter}" is invalid: ${reason}`);
    this.name = 'RuleParameterError';
    this.parameter = parameter;
    this.reason = reason;
  }
}

// ---------------------------------------------------------------------------------------------
// Exact decimals
// ---------------------------------------------------------------------------------------------

/** Decimal places of v2 Passport scores and thresholds: "20.00000". */
export const v2DecimalPlaces = 5;

/** Exponents beyond this are refused: hostile input would make bigint arithmetic explode. */
export const maxDecimalExponent = 1000;

const decimalPattern = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** A decimal read exactly: `(negative ? -1 : 1) * coefficient * 10^exponent`. */
export type DecimalParts = {
  negative: boolean;
  coefficient: bigint;
  exponent: number;
};

/**
 * Reads a decimal exactly: a string ("0.208", "-1.5", "2E-9"), a finite number (through its
 * shortest round-trip form) or an integer bigint. Throws a RangeError on anything else.
 */
export function readDecimal(value: number | string | bigint): DecimalParts {
  if (typeof value === 'bigint') {
    return {
      negative: value < 0n,
      coefficient: value < 0n ? -value : value,
      exponent: 0
    };
  }
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new RangeError(`Cannot read ${value} as a decimal.`);
    }
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    throw new TypeError(`Cannot read a ${typeof value} as a decimal.`);
  }
  const match = decimalPattern.exec(text);
  const sign = match?.[1] ?? '';
  const integer = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  const exponentText = match?.[4] ?? '0';
  if (!match || (integer === '' && fraction === '')) {
    throw new RangeError(`"${text.slice(0, 100)}" is not a decimal number.`);
  }
  const exponent = Number(exponentText) - fraction.length;
  if (
    !Number.isSafeInteger(exponent) ||
    Math.abs(exponent) > maxDecimalExponent
  ) {
    throw new RangeError(
      `"${text.slice(0, 100)}" has an exponent out of range.`
    );
  }
  return {
    negative: sign === '-',
    coefficient: BigInt(integer + fraction),
    exponent
  };
}

/** Checks a count of decimal places (0 to 1000); throws a RangeError otherwise. */
export function checkDecimalPlaces(places: number, name = 'places'): void {
  if (
    !Number.isSafeInteger(places) ||
    places < 0 ||
    places > maxDecimalExponent
  ) {
    throw new RangeError(
      `${name} must be an integer from 0 to ${maxDecimalExponent}, got ${places}.`
    );
  }
}

function divideHalfEven(n: bigint, d: bigint): bigint {
  const quotient = n / d;
  const twiceRemainder = (n % d) * 2n;
  if (twiceRemainder > d || (twiceRemainder === d && quotient % 2n === 1n)) {
    return quotient + 1n;
  }
  return quotient;
}

/** The decimal as a signed integer count of `10^-places`, rounded half to even. */
export function decimalToUnits(parts: DecimalParts, places: number): bigint {
  const shift = parts.exponent + places;
  const magnitude =
    shift >= 0
      ? parts.coefficient * 10n ** BigInt(shift)
      : divideHalfEven(parts.coefficient, 10n ** BigInt(-shift));
  return parts.negative ? -magnitude : magnitude;
}

/** Writes an integer count of `10^-places` with exactly `places` decimals ("-0" is never written). */
export function unitsToDecimal(units: bigint, places: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units)
    .toString()
    .padStart(places + 1, '0');
  const integer = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places);
  return `${negative ? '-' : ''}${integer}${places > 0 ? `.${fraction}` : ''}`;
}

/** Formats a decimal with exactly `places` decimals, rounding half to even, never in floating point. */
export function formatDecimal(
  value: number | string | bigint,
  places: number
): string {
  checkDecimalPlaces(places);
  return unitsToDecimal(decimalToUnits(readDecimal(value), places), places);
}

/** Compares two decimals exactly: -1 when `a < b`, 0 when equal, 1 when `a > b`. */
export function compareDecimals(
  a: number | string | bigint,
  b: number | string | bigint
): -1 | 0 | 1 {
  const left = readDecimal(a);
  const right = readDecimal(b);
  const scale = Math.max(0, -left.exponent, -right.exponent);
  const difference = decimalToUnits(left, scale) - decimalToUnits(right, scale);
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Passport
// ---------------------------------------------------------------------------------------------

/**
 * Why a Passport score passes or not: `valid`; `below-threshold`; `expired` (its expiry is at or
 * before the time judged); `error` (scored with an error); `never-scored`.
 */
export type PassportReason = 'valid' | PassportFailure | 'never-scored';
type PassportFailure = 'below-threshold' | 'expired' | 'error';

/** `score >= threshold`, compared exactly as decimals ("19.99999" < "20" <= "20.00000"). */
export function meetsPassportThreshold(
  score: number | string | bigint,
  threshold: number | string | bigint
): boolean {
  return compareDecimals(score, threshold) >= 0;
}

/** A score whose expiry (Unix seconds, null for none) is at or before `at` has expired. */
export function isPassportScoreExpired(
  expiresAt: number | null,
  at: number
): boolean {
  return expiresAt !== null && expiresAt <= at;
}

/** What {@link checkPassportScore} reads. */
export type CheckPassportScoreParameters = {
  /** The score, a decimal. */
  score: number | string | bigint;
  /** The threshold to meet. */
  threshold: number | string | bigint;
  /** Unix seconds the score expires at; null when it has no expiry. */
  expiresAt: number | null;
  /** The service's error text; null when it scored without error. */
  error?: string | null | undefined;
  /** Unix seconds the score is judged at (the snapshot's time). */
  at: number;
};

/**
 * Judges one Passport score: `error` when scored with an error, then `below-threshold` (exact
 * decimals), then `expired` (`expiresAt <= at`), else `valid`.
 */
export function checkPassportScore(
  parameters: CheckPassportScoreParameters
): Exclude<PassportReason, 'never-scored'> {
  if (parameters.error !== undefined && parameters.error !== null) {
    return 'error';
  }
  if (!meetsPassportThreshold(parameters.score, parameters.threshold)) {
    return 'below-threshold';
  }
  if (isPassportScoreExpired(parameters.expiresAt, parameters.at)) {
    return 'expired';
  }
  return 'valid';
}

/** How a Passport verdict becomes voting power. */
export type PassportWeighting =
  /** `score` for a score that passes, else 0. */
  | { mode: 'gated'; score: number }
  /**
   * The score itself, up to `cap`; 0 for a score that had expired, was scored with an error or
   * never scored. With `gate`, also 0 below the threshold.
   */
  | { mode: 'weighted'; cap?: number | undefined; gate?: boolean | undefined };

/** The parts of a Passport verdict {@link passportVerdictValue} reads. */
export type PassportVerdictLike = {
  valid: boolean;
  reason: PassportReason;
  evidence: {
    score: string | null;
    expirationTimestamp: number | null;
    at: number;
  };
};

/**
 * The voting power of a Passport verdict. A weighted score that had expired counts 0 like a gated
 * one. A weighted score is taken at the v2 precision (5 decimals, half to even), so the same score
 * weighs the same from a v1 record (9 decimals) or a v2 one.
 */
export function passportVerdictValue(
  verdict: PassportVerdictLike,
  weighting: PassportWeighting
): number {
  if (weighting.mode === 'gated') return verdict.valid ? weighting.score : 0;
  const { reason, evidence } = verdict;
  if (reason === 'error' || reason === 'never-scored') return 0;
  if (evidence.score === null) return 0;
  if (isPassportScoreExpired(evidence.expirationTimestamp, evidence.at)) {
    return 0;
  }
  if (weighting.gate && !verdict.valid) return 0;
  const value = Math.max(
    0,
    Number(formatDecimal(evidence.score, v2DecimalPlaces))
  );
  return weighting.cap === undefined ? value : Math.min(value, weighting.cap);
}

// ---------------------------------------------------------------------------------------------
// Human ID SBTs
// ---------------------------------------------------------------------------------------------

/** Why an SBT counts or not. */
export type SbtReason =
  | 'valid'
  | 'none'
  | 'expired'
  | 'revoked'
  | 'wrong-action'
  | 'wrong-issuer'
  | 'wrong-recipient';

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

/** What {@link classifySbt} reads. */
export type ClassifySbtParameters = {
  /** What `getSBT(subject, circuitId)` answered at the block. */
  getSBT: SbtCallResult;
  /** What `sbtOwners(id)` answered at the same block; needed when `getSBT` reverted. */
  sbtOwners?: SbtOwnersState | undefined;
  /**
   * The block's timestamp (Unix seconds). May be left out while only `getSBT` has been read:
   * `getSBT` itself reverts when `expiry < block.timestamp`.
   */
  blockTimestamp?: bigint | undefined;
  /** The action id `publicValues[2]` must equal. */
  actionId: bigint;
  /** The issuer `publicValues[4]` must equal (as integers). */
  issuer: bigint;
  /** The subject as an integer (`BigInt(address)`): `publicValues[1]` must equal it. */
  recipient: bigint;
};

/**
 * The verdict on one SBT: `classified` with a reason (and the expiry when valid); `needs-owners`
 * when `getSBT` reverted; `needs-timestamp` when only the block's timestamp can tell expired from
 * inconsistent; `inconsistent` when the reads contradict each other (fail loudly, never guess).
 */
export type SbtClassification =
  | { status: 'classified'; reason: 'valid'; expiresAt: bigint }
  | { status: 'classified'; reason: Exclude<SbtReason, 'valid'> }
  | { status: 'needs-owners' }
  | { status: 'needs-timestamp' }
  | { status: 'inconsistent'; details: string };

/**
 * Classifies one SBT read at a block.
 * - `getSBT` succeeded: revoked, then expired (`expiry < blockTimestamp`, when given), then
 *   `publicValues[4] == issuer`, `publicValues[2] == actionId`, `publicValues[1] == recipient`;
 *   otherwise valid until `expiry`. A missing public value never matches.
 * - `getSBT` reverted: `sbtOwners` decides: revoked; expiry 0 is none; `expiry < blockTimestamp`
 *   is expired; a live, unrevoked SBT is inconsistent.
 * - When both reads are given they must agree on expiry and revocation.
 */
export function classifySbt(
  parameters: ClassifySbtParameters
): SbtClassification {
  const { getSBT, blockTimestamp, actionId, issuer, recipient } = parameters;
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
    if (getSBT.publicValues[1] !== recipient) {
      return { status: 'classified', reason: 'wrong-recipient' };
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

/** What {@link judgeHumanIdCredential} reads. */
export type JudgeHumanIdCredentialParameters = {
  /** The credential's own SBT (gov-id, phone or biometrics circuit). */
  primary: SbtVerdict;
  /** gov-id only: the zk-passport SBT, consulted when the primary one is not valid. */
  passport?: SbtVerdict | undefined;
  /** gov-id and phone on Optimism: `isUniqueForAction` of the permanent store, when read. */
  legacy?: boolean | undefined;
};

/**
 * Judges one Human ID credential: its own SBT; else (gov-id) the zk-passport SBT; else a
 * permanent-store entry. Not valid: the primary SBT's reason, unless it has none and the
 * zk-passport SBT says more.
 */
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

// ---------------------------------------------------------------------------------------------
// Clean hands
// ---------------------------------------------------------------------------------------------

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
  /**
   * `index` (default): the row's `revoked` flag counts. `onchain`: it is not read, because a
   * verification at a past block judges revocation on chain at that block instead.
   */
  revocation?: 'index' | 'onchain' | undefined;
};

/**
 * Reads a row's `validUntil` as whole Unix seconds: an integer number, a bigint, or a string of
 * decimal digits. Anything else is undefined, and the row does not count.
 */
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
 * The clean-hands rule on one index row, naming the first check it fails: schema (exact, so
 * `onchain_evm_10_0x80` fails), attester (case-insensitive), receiver (`isReceiver === true`),
 * revocation (`revoked === false`), then `validUntil > now`. A row that cannot be read (not an
 * object, or marked `malformed` with its `issues`) is `malformed`.
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

/** What {@link judgeCleanHandsRows} answers. */
export type CleanHandsRowsJudgment = {
  /** `valid` when a row passes; else the most telling failure; `none` without rows. */
  reason: CleanHandsRowReason | 'none';
  /** The latest `validUntil` among the rows that pass; undefined when none does. */
  expiresAt: bigint | undefined;
  /** Each row's reason, in the rows' order. */
  rows: CleanHandsRowReason[];
};

/**
 * Judges all of an address's index rows: valid when one row passes (expiring with the latest of
 * them), else the most telling failure (the row that got furthest).
 */
export function judgeCleanHandsRows(
  rows: readonly unknown[],
  options: CleanHandsRuleOptions
): CleanHandsRowsJudgment {
  const reasons = rows.map(row => checkCleanHandsRow(row, options));
  let reason: CleanHandsRowReason | 'none' = 'none';
  let expiresAt: bigint | undefined;
  reasons.forEach((rowReason, index) => {
    if (
      reason === 'none' ||
      cleanHandsRowRank[rowReason] > cleanHandsRowRank[reason]
    ) {
      reason = rowReason;
    }
    if (rowReason === 'valid') {
      const row = rows[index] as CleanHandsRowLike;
      const validUntil = parseValidUntil(row.validUntil) as bigint;
      if (expiresAt === undefined || validUntil > expiresAt) {
        expiresAt = validUntil;
      }
    }
  });
  return { reason, expiresAt, rows: reasons };
}

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
 * Checks a clean-hands attestation as Sign Protocol holds it at a block: it exists, schema id,
 * authorized attester (case-insensitive), not revoked, `validUntil > blockTimestamp`, and
 * `recipients[0]` decodes to the address (case-insensitive).
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

// ---------------------------------------------------------------------------------------------
// Matching credentials and the fallback policy
// ---------------------------------------------------------------------------------------------

/** The parts of a verdict the match reads. */
export type VerdictLike = {
  address: string;
  credential: string;
  valid: boolean;
  /** Unix seconds the verdict stops holding; null when unknown or never. */
  expiresAt: number | null;
};

/** What {@link matchCredentials} answers. */
export type CredentialMatchOf<V extends VerdictLike> = {
  address: string;
  valid: boolean;
  match: 'any' | 'all';
  /**
   * `any`: the valid verdicts. `all` when valid: one valid verdict per credential; when not: the
   * verdicts of the credentials that do not hold.
   */
  verdicts: V[];
  /** `any`: the latest expiry of the valid verdicts; `all`: the earliest; null when unknown. */
  expiresAt: number | null;
};

function sameAddress(verdicts: readonly VerdictLike[]): string {
  const first = verdicts[0];
  if (!first) {
    throw new RuleParameterError(
      'verdicts',
      'Expected the verdicts of one address, got none.'
    );
  }
  for (const verdict of verdicts) {
    if (verdict.address !== first.address) {
      throw new RuleParameterError(
        'verdicts',
        `Expected the verdicts of one address, got ${first.address} and ${verdict.address}: join them with joinVerdicts first.`
      );
    }
  }
  return first.address;
}

/**
 * Matches one address's verdicts against credentials: `any` holds when at least one credential has
 * a valid verdict; `all` when every one does. A credential with verdicts from several sources
 * holds when one of them is valid. Throws a RuleParameterError when the verdicts are about several
 * addresses, `credentials` is empty, or a credential has no verdict at all (a missing answer is
 * never read as no).
 */
export function matchCredentials<V extends VerdictLike>(parameters: {
  verdicts: readonly V[];
  credentials: readonly string[];
  match: 'any' | 'all';
}): CredentialMatchOf<V> {
  const { verdicts, credentials, match } = parameters;
  if (credentials.length === 0) {
    throw new RuleParameterError(
      'credentials',
      'Expected at least one credential to match.'
    );
  }
  if (match !== 'any' && match !== 'all') {
    throw new RuleParameterError(
      'match',
      `Expected 'any' or 'all', got ${String(match)}.`
    );
  }
  const address = sameAddress(verdicts);
  const held: V[] = [];
  const failing: V[] = [];
  for (const credential of Array.from(new Set(credentials))) {
    const mine = verdicts.filter(verdict => verdict.credential === credential);
    if (mine.length === 0) {
      throw new RuleParameterError(
        'verdicts',
        `No verdict on ${credential} for ${address}: it was not checked.`
      );
    }
    const valid = mine.find(verdict => verdict.valid);
    if (valid) held.push(valid);
    else failing.push(...mine);
  }
  const valid = match === 'any' ? held.length > 0 : failing.length === 0;
  if (!valid) {
    return { address, valid, match, verdicts: failing, expiresAt: null };
  }
  const expiries = held.map(verdict => verdict.expiresAt);
  const known = expiries.filter((expiry): expiry is number => expiry !== null);
  let expiresAt: number | null;
  if (match === 'any') {
    expiresAt = known.length === expiries.length ? Math.max(...known) : null;
  } else {
    expiresAt = known.length > 0 ? Math.min(...known) : null;
  }
  return { address, valid, match, verdicts: held, expiresAt };
}

/** What {@link applyFallbackPolicy} answers for one address. */
export type FallbackDecisionOf<V extends VerdictLike> = {
  address: string;
  /** Whether the address counts as a unique human. */
  eligible: boolean;
  /** The first credential of the policy that holds, or `passport`; null when none. */
  method: string | null;
  /** The Human ID match (always computed first). */
  humanId: CredentialMatchOf<V>;
  /** The Passport verdict, when Human ID did not hold and Passport was consulted. */
  passport?: V | undefined;
};

/**
 * The fallback policy for one address: Human ID first (any or all of `credentials`); only when it
 * does not hold, a passing Passport score (the verdicts whose credential is `passport`). Throws a
 * RuleParameterError when a needed verdict is missing.
 */
export function applyFallbackPolicy<V extends VerdictLike>(parameters: {
  verdicts: readonly V[];
  credentials: readonly string[];
  match: 'any' | 'all';
  /** Fall back on Passport when Human ID does not hold. Default true. */
  passport?: boolean | undefined;
}): FallbackDecisionOf<V> {
  const { verdicts, credentials, match } = parameters;
  const human = verdicts.filter(verdict => verdict.credential !== 'passport');
  const humanId = matchCredentials({
    verdicts: human.length > 0 ? human : verdicts,
    credentials,
    match
  });
  const { address } = humanId;
  if (humanId.valid) {
    const method =
      credentials.find(credential =>
        humanId.verdicts.some(verdict => verdict.credential === credential)
      ) ?? null;
    return { address, eligible: true, method, humanId };
  }
  if (parameters.passport === false) {
    return { address, eligible: false, method: null, humanId };
  }
  const scores = verdicts.filter(verdict => verdict.credential === 'passport');
  const passport = scores.find(verdict => verdict.valid) ?? scores[0];
  if (passport === undefined) {
    throw new RuleParameterError(
      'verdicts',
      `No Passport verdict for ${address}, whose Human ID credentials do not hold: it was not checked.`
    );
  }
  return {
    address,
    eligible: passport.valid,
    method: passport.valid ? 'passport' : null,
    humanId,
    passport
  };
}

// ---------------------------------------------------------------------------------------------
// human-gated: what a human's inner power becomes
// ---------------------------------------------------------------------------------------------

/** How a human's inner power counts: as it is, its square root, or capped. */
export type HumanGateMode = 'gate' | 'quadratic' | 'cap';

/** The modes, in the order reports show them. */
export const humanGateModes: readonly HumanGateMode[] = [
  'gate',
  'quadratic',
  'cap'
];

/** Parameters of {@link applyHumanGate}. */
export type ApplyHumanGateParameters = {
  /** The sum of the inner strategies' scores (token units, as they report them). */
  power: number;
  /** 1 for Human ID, `passportScore` for a passing Passport only, 0 for a voter not judged human. */
  weight: number;
  mode: HumanGateMode;
  /** The cap of mode `cap` (a positive number); ignored by the other modes. */
  cap?: number | undefined;
};

/**
 * A voter's gated power. A power of 0 or below, or a weight of 0, gives 0 in every mode (the
 * human test is not even asked about such a power). Otherwise `gate`: `power * weight`;
 * `quadratic`: `Math.sqrt(power) * weight`, the float square root (IEEE 754 double, correctly
 * rounded) of the number the inner strategies report, so a power below 1 counts more than itself
 * (0.01 gives 0.1) and nothing is rounded; `cap`: `Math.min(power, cap) * weight`. Throws a
 * RuleParameterError for a power or weight that is not a finite number (or a negative weight),
 * and for mode `cap` without a positive cap.
 */
export function applyHumanGate(parameters: ApplyHumanGateParameters): number {
  const { power, weight, mode, cap } = parameters;
  if (typeof power !== 'number' || !Number.isFinite(power)) {
    throw new RuleParameterError(
      'power',
      `The inner power must be a finite number, got ${String(power)}.`
    );
  }
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
    throw new RuleParameterError(
      'weight',
      `The human weight must be a finite number of at least 0, got ${String(
        weight
      )}.`
    );
  }
  if (power <= 0 || weight === 0) return 0;
  if (mode === 'gate') return power * weight;
  if (mode === 'quadratic') return Math.sqrt(power) * weight;
  if (mode === 'cap') {
    if (typeof cap !== 'number' || !Number.isFinite(cap) || cap <= 0) {
      throw new RuleParameterError(
        'cap',
        `Mode cap needs a positive cap, got ${String(cap)}.`
      );
    }
    return Math.min(power, cap) * weight;
  }
  throw new RuleParameterError('mode', `Unknown mode ${String(mode)}.`);
}
