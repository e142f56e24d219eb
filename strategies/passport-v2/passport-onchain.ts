// Generated from personhood src/rules/passport-onchain.ts
// by `npm run strategies:rules`: change the source, not this copy.

/**
 * Passport's scores on chain (shared/spec/field-notes.md §7.1): where the decoder sits per chain,
 * what its `getScore(address)` answers (a uint256 with 4 decimals, or a revert), and how an answer
 * becomes a Passport verdict. A revert with `AttestationNotFound()` is "no on-chain Passport" (never
 * pushed, or revoked); with `AttestationExpired(uint64)` an expired one: both are answers, never an
 * error of the call. The score is Passport's own model (not a space's scorer id), judged against a
 * threshold (20 unless a space sets another).
 *
 * It imports only the Passport rule and decimals beside it: `npm run strategies:rules` copies it
 * into each score-api folder that uses it. How the decoder is read: ./passport-decoder.ts. Written in score-api's prettier style; compiles under
 * TypeScript 4.7 (CommonJS) as under the package's own settings.
 */

import { formatDecimal, unitsToDecimal, v2DecimalPlaces } from './decimals';
import { checkPassportScore, defaultPassportThreshold } from './passport';

/**
 * The GitcoinPassportDecoder proxy per chain id (passportxyz/eas-proxy deployments/onchainInfo.json).
 * A chain not listed has no on-chain Passport.
 */
export const passportDecoders: Readonly<Record<string, string>> = {
  '10': '0x5558D441779Eca04A329BcD6b47830D2C6607769',
  '324': '0x1166FCDCA3B04311Ba9E2eD5ad2c660E730e1386',
  '360': '0x2443D22Db6d25D141A1138D80724e3Eee54FD4C2',
  '8453': '0xaa24a127d10C68C8F9Ac06199AA606953cD82eE7',
  '42161': '0x2050256A91cbABD7C42465aA0d5325115C1dEB43',
  '59144': '0x423cd60ab053F1b63D6F78c8c0c63e20F009d669',
  '534352': '0x8A5820030188346cC9532a1dD9FD2EF8d8F464de'
};

/** Options of Passport's API (a space's scorer), which have no meaning for the on-chain source. */
export const passportApiOptions: readonly string[] = [
  'scorerId',
  'allowLiveScore'
];

/**
 * Why `options` cannot be read with the on-chain source: the API's options it sets, named, or
 * undefined. The folders refuse them before any request; the library's on-chain option too.
 */
export function passportApiOptionsProblem(
  strategy: string,
  options: Record<string, unknown> | undefined
): string | undefined {
  const set = passportApiOptions.filter(
    option => options?.[option] !== undefined && options?.[option] !== false
  );
  if (set.length === 0) return undefined;
  return `${strategy}: ${set.join(
    ', '
  )} belongs to the Passport API, which this strategy does not read: it reads Passport's own on-chain scores. A space's scorer is served by the personhood strategy server through api-v2 (see the README)`;
}

/** Decimal places of the decoder's scores: 4 (the resolver rescales every push to them). */
export const passportDecoderDecimals = 4;

/** Selectors of the decoder's ABI (./passport-decoder.ts). */
export const passportDecoderSelectors = {
  getScore: '0xd47875d0',
  attestationNotFound: '0x120a2e77',
  attestationExpired: '0x06c09405'
};

/** What one `getScore(address)` call gave: its return data, or its revert data. */
export type PassportDecoderAnswer = {
  success: boolean;
  /** Hex return data (success) or revert data. */
  data: string;
};

/**
 * A voter's on-chain Passport at a block: `scored` (the score, a v2 decimal "23.45670"),
 * `none` (no attestation, or a revoked one), `expired` (its expiry, Unix seconds).
 */
export type OnchainPassport =
  | { kind: 'scored'; score: string }
  | { kind: 'none' }
  | { kind: 'expired'; expiredAt: number };

/** The decoder's score (an integer with 4 decimals) as a v2 decimal: 234567n -> "23.45670". */
export function passportDecoderScore(raw: bigint): string {
  return formatDecimal(
    unitsToDecimal(raw, passportDecoderDecimals),
    v2DecimalPlaces
  );
}

/**
 * Reads one `getScore(address)` answer. Throws an Error for anything the decoder does not answer:
 * a revert with another reason (or none: a call out of gas, a decoder not deployed) or a return
 * that is not one uint256.
 */
export function readPassportDecoderAnswer(
  answer: PassportDecoderAnswer
): OnchainPassport {
  const data = answer.data.toLowerCase();
  if (!/^0x([0-9a-f]{2})*$/.test(data)) {
    throw new Error(
      `the Passport decoder answered "${data.slice(0, 80)}", not hex`
    );
  }
  if (answer.success) {
    if (data.length !== 66) {
      throw new Error(
        `the Passport decoder's getScore returned ${
          (data.length - 2) / 2
        } bytes, not one uint256`
      );
    }
    return { kind: 'scored', score: passportDecoderScore(BigInt(data)) };
  }
  const selector = data.slice(0, 10);
  if (
    selector === passportDecoderSelectors.attestationNotFound &&
    data.length === 10
  ) {
    return { kind: 'none' };
  }
  if (
    selector === passportDecoderSelectors.attestationExpired &&
    data.length === 74
  ) {
    const expiredAt = BigInt(`0x${data.slice(10)}`);
    if (expiredAt < 2n ** 64n) {
      return { kind: 'expired', expiredAt: Number(expiredAt) };
    }
  }
  throw new Error(
    `the Passport decoder's getScore reverted with ${
      data === '0x'
        ? 'no reason (out of gas, or no decoder at that block)'
        : data.slice(0, 138)
    }`
  );
}

/** A Passport verdict from the chain, shaped as the Passport rule's verdicts. */
export type OnchainPassportVerdict = {
  valid: boolean;
  reason: 'valid' | 'below-threshold' | 'expired' | 'never-scored';
  evidence: {
    origin: 'onchain';
    score: string | null;
    threshold: string;
    expirationTimestamp: number | null;
    at: number;
  };
};

/**
 * Judges an on-chain Passport at `at` (the block's timestamp): a score meets `threshold` (default
 * 20) or not; `none` is `never-scored` (no Passport on chain then); `expired` is `expired`.
 */
export function judgeOnchainPassport(
  passport: OnchainPassport,
  at: number,
  threshold: number | string = defaultPassportThreshold
): OnchainPassportVerdict {
  const judged = String(threshold);
  const evidence = {
    origin: 'onchain' as const,
    score: passport.kind === 'scored' ? passport.score : null,
    threshold: judged,
    expirationTimestamp:
      passport.kind === 'expired' ? passport.expiredAt : null,
    at
  };
  if (passport.kind !== 'scored') {
    const reason = passport.kind === 'none' ? 'never-scored' : 'expired';
    return { valid: false, reason, evidence };
  }
  const reason = checkPassportScore({
    score: passport.score,
    threshold: judged,
    expiresAt: null,
    at
  }) as 'valid' | 'below-threshold';
  return { valid: reason === 'valid', reason, evidence };
}
