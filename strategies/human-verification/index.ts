import { getAddress } from '@ethersproject/address';
import { verifyHumans } from '../human-id';
import { applyFallbackPolicy } from './fallback';
import {
  judgeOnchainPassport,
  passportApiOptionsProblem,
  passportDecoders,
  readPassportDecoderAnswer
} from './passport-onchain';

export const author = 'personhood-dao';
export const version = '1.0.0';

const name = 'human-verification';

function positive(value, option: string, zero = false) {
  if (value === undefined) return 1;
  if (typeof value !== 'number' || !(value > 0 || (zero && value === 0))) {
    throw new Error(`${name}: ${option} must be a number above 0`);
  }
  return value;
}

// Checked before any request: by this strategy and by human-gated for its human test.
export function passportOptions(options, strategy = name) {
  const api = passportApiOptionsProblem(strategy, options);
  if (api) throw new Error(api);
  const threshold = options?.threshold;
  if (
    threshold !== undefined &&
    !(typeof threshold === 'number' && threshold >= 0)
  ) {
    throw new Error(`${strategy}: threshold must be a number, 0 or more`);
  }
  const fallback = positive(options?.passportScore, 'passportScore', true) > 0;
  const hub = options?.sandbox === true ? '84532' : '10';
  const decoder = fallback ? passportDecoders[hub] : undefined;
  if (fallback && !decoder) {
    throw new Error(
      `${strategy}: the sandbox has no on-chain Passport: set passportScore to 0`
    );
  }
  return { threshold, decoder };
}

/**
 * Per voter (checksummed), whether it counts as a human at the snapshot: a Human ID credential
 * (any or all of `credentials`, read on chain at the block), else, when `passportScore` is not 0,
 * a passing on-chain Passport at the same block, read in the same call. Throws an Error naming
 * the source that failed: never a silent 0.
 */
export async function verifyHumansOrPassport(
  network: string,
  provider,
  addresses: string[],
  options,
  snapshot: number | string
): Promise<Record<string, { eligible: boolean; method: string | null }>> {
  const credentials = options?.credentials ?? ['gov-id', 'phone', 'biometrics'];
  const match = options?.match ?? 'any';
  const { threshold, decoder } = passportOptions(options);
  const humans = await verifyHumans(
    network,
    provider,
    addresses,
    { ...options, credentials, match },
    snapshot,
    decoder
  );
  const at = humans.block.timestamp;
  return Object.fromEntries(
    Object.entries(humans.voters).map(([address, voter]) => {
      const verdicts: Array<{
        address: string;
        credential: string;
        valid: boolean;
        expiresAt: null;
      }> = Object.entries(voter.credentials).map(([credential, judged]) => ({
        address,
        credential,
        valid: judged.valid,
        expiresAt: null
      }));
      if (decoder && voter.onchainPassport) {
        let passport;
        try {
          passport = readPassportDecoderAnswer(voter.onchainPassport);
        } catch (err: any) {
          throw new Error(
            `${name}: ${address} at block ${humans.block.number}: ${err.message}`
          );
        }
        const judged = judgeOnchainPassport(passport, at, threshold);
        verdicts.push({
          address,
          credential: 'passport',
          valid: judged.valid,
          expiresAt: null
        });
      }
      const decision = applyFallbackPolicy({
        verdicts,
        credentials,
        match,
        passport: decoder !== undefined
      });
      return [
        address,
        { eligible: decision.eligible, method: decision.method }
      ];
    })
  );
}

export async function strategy(
  space,
  network,
  provider,
  addresses,
  options,
  snapshot
): Promise<Record<string, number>> {
  const verifiedScore = positive(options?.verifiedScore, 'verifiedScore');
  const passportScore = positive(options?.passportScore, 'passportScore', true);
  passportOptions(options);
  if (addresses.length === 0) return {};
  const voters = await verifyHumansOrPassport(
    network,
    provider,
    addresses,
    options,
    snapshot
  );
  return Object.fromEntries(
    addresses.map(address => {
      const voter = voters[getAddress(address)];
      if (!voter.eligible) return [getAddress(address), 0];
      const passport = voter.method === 'passport';
      const score = passport ? passportScore : verifiedScore;
      return [getAddress(address), score];
    })
  );
}
