import { getAddress } from '@ethersproject/address';
import strategies from '..';
import { getProvider, getSnapshots } from '../../utils';
import { snapshotTime } from '../human-id';
import { passportOptions, verifyHumansOrPassport } from '../human-verification';
import { applyHumanGate, humanGateModes } from './gate';
import { readInnerScores } from './inner-scores';

export const author = 'personhood-dao';
export const version = '1.0.0';

const name = 'human-gated';
// The options of the human test, passed on to human-verification as they are.
const HUMAN_TEST = [
  'credentials',
  'match',
  'actionId',
  'sandbox',
  'passportScore',
  'scorerId',
  'threshold',
  'allowLiveScore'
];

const message = (error: unknown) =>
  error instanceof Error ? error.message : String(error);

function readOptions(options: any) {
  const inner = options?.strategies;
  if (!Array.isArray(inner) || inner.length === 0 || inner.length > 8) {
    throw new Error(`${name}: strategies must list 1 to 8 strategies`);
  }
  for (const entry of inner) {
    if (typeof entry?.name !== 'string' || !strategies[entry.name]) {
      throw new Error(`${name}: no strategy named ${entry?.name}`);
    }
    if (entry.network !== undefined && !/^[1-9][0-9]*$/.test(entry.network)) {
      throw new Error(`${name}: network ${entry.network} is not a chain id`);
    }
  }
  const mode = options.mode ?? 'gate';
  if (!humanGateModes.includes(mode)) {
    throw new Error(
      `${name}: mode must be one of ${humanGateModes.join(', ')}`
    );
  }
  const cap = options.cap;
  if (mode === 'cap' && !(typeof cap === 'number' && cap > 0)) {
    throw new Error(`${name}: mode cap needs a cap above 0`);
  }
  if (mode !== 'cap' && cap !== undefined) {
    throw new Error(`${name}: a cap is read only with mode cap`);
  }
  const passportScore = options.passportScore ?? 1;
  if (!(typeof passportScore === 'number' && passportScore >= 0)) {
    throw new Error(`${name}: passportScore must be a number of at least 0`);
  }
  const humanTest = {};
  for (const key of HUMAN_TEST) {
    if (options[key] !== undefined) humanTest[key] = options[key];
  }
  passportOptions(humanTest, name);
  return { inner, mode, cap, passportScore, humanTest };
}

/**
 * The inner strategies' scores summed per voter (checksummed). An inner
 * strategy on another network is called at that network's block at the
 * snapshot's time (getSnapshots). A voter an inner strategy leaves out counts
 * 0 there; a score that is not a finite number is an error.
 */
async function innerPower(
  space,
  network,
  provider,
  addresses,
  inner,
  snapshot
) {
  const networks = inner.map(entry => entry.network ?? network);
  // getSnapshots reads the snapshot's header for its time: human-id's
  // snapshotTime reads it once and keeps it for the Human ID test too.
  let blocks = { [network]: snapshot };
  if (networks.some(other => other !== network)) {
    const known = Object.create(provider);
    if (snapshot !== 'latest') {
      const time = await snapshotTime(network, provider, snapshot, name);
      known.getBlock = tag =>
        tag === snapshot ? { timestamp: time } : provider.getBlock(tag);
    }
    blocks = await getSnapshots(network, snapshot, known, networks);
  }
  const results = await Promise.all(
    inner.map(async (entry, index) => {
      const other = networks[index];
      try {
        return await strategies[entry.name].strategy(
          space,
          other,
          other === network ? provider : getProvider(other),
          addresses,
          entry.params ?? {},
          blocks[other]
        );
      } catch (err) {
        throw new Error(
          `${name}: inner strategy ${
            entry.name
          } on network ${other} failed: ${message(err)}`
        );
      }
    })
  );
  const power: Record<string, number> = {};
  for (const address of addresses) power[getAddress(address)] = 0;
  const voters = Object.keys(power);
  results.forEach((answer, index) => {
    const source = `${name}: inner strategy ${inner[index].name}`;
    const read = readInnerScores(answer, voters, source);
    if (!read) throw new Error(`${source} answered no scores by address`);
    if (read.notNumbers.length > 0) {
      throw new Error(
        `${source} gave ${read.notNumbers[0]} a score that is not a number`
      );
    }
    for (const voter of voters) power[voter] += read.scores.get(voter) ?? 0;
  });
  return power;
}

export async function strategy(
  space,
  network,
  provider,
  addresses,
  options,
  snapshot
): Promise<Record<string, number>> {
  const { inner, mode, cap, passportScore, humanTest } = readOptions(options);
  if (addresses.length === 0) return {};
  const power = await innerPower(
    space,
    network,
    provider,
    addresses,
    inner,
    snapshot
  );
  // The human test is asked only about voters with power above 0.
  const holders = Object.keys(power).filter(voter => power[voter] > 0);
  const humans =
    holders.length > 0
      ? await verifyHumansOrPassport(
          network,
          provider,
          holders,
          humanTest,
          snapshot
        )
      : {};
  return Object.fromEntries(
    Object.keys(power).map(voter => {
      const human = humans[voter];
      if (power[voter] > 0 && human === undefined) {
        throw new Error(`${name}: the human test did not judge ${voter}`);
      }
      const weight = !human?.eligible
        ? 0
        : human.method === 'passport'
        ? passportScore
        : 1;
      const score = applyHumanGate({ power: power[voter], weight, mode, cap });
      return [voter, score];
    })
  );
}
