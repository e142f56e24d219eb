import { getAddress } from '@ethersproject/address';
import { snapshotTime, verifyHumans } from '../human-id';
import { passportAccess, passportVerdicts } from '../passport-v2';
import { applyFallbackPolicy } from './fallback';

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

/**
 * Per voter (checksummed), whether it counts as a human at the snapshot: a Human ID credential
 * (any or all of `credentials`, read on chain at the block), else, when `passportScore` is not 0,
 * a passing Passport score at the block's time. Passport is asked only about the voters Human ID
 * did not verify. Throws an Error naming the source that failed: never a silent 0.
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
  const fallback = positive(options?.passportScore, 'passportScore', true) > 0;
  if (fallback) passportAccess(options ?? {}, name);
  const humans = await verifyHumans(
    network,
    provider,
    addresses,
    { ...options, credentials, match },
    snapshot
  );
  const unverified = Object.keys(humans.voters).filter(
    address => humans.voters[address].verified !== true
  );
  let passport = {};
  if (fallback && unverified.length > 0) {
    // The Passport score as it stood at the snapshot block's time: the hub
    // block's when the space is on the hub chain (the same block), else the
    // snapshot block's on the space's network (human-id has read it).
    const at =
      humans.block.chainId === Number(network)
        ? humans.block.timestamp
        : await snapshotTime(network, provider, snapshot, name);
    passport = await passportVerdicts(unverified, options ?? {}, at, name);
  }
  return Object.fromEntries(
    Object.entries(humans.voters).map(([address, voter]) => {
      const verdicts = [
        ...Object.entries(voter.credentials).map(([credential, judged]) => ({
          address,
          credential,
          valid: judged.valid,
          expiresAt: null
        })),
        ...(passport[address] ? [passport[address]] : [])
      ];
      const decision = applyFallbackPolicy({
        verdicts,
        credentials,
        match,
        passport: fallback
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
