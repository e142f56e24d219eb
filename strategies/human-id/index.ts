import { getAddress } from '@ethersproject/address';
import { credentialsMatch } from './credentials-match';
import { hubAddresses } from './hub';
import { readChunk, readFirst, snapshotTime } from './hub-read';
import {
  planReaderChunks,
  readerBlock,
  readerLimits,
  readerPassportAnswer,
  readerVoters,
  readerZeroAddress
} from './reader';
import { judgeReaderCredential } from './reader-verdicts';
import { circuitIds, defaultActionId, issuers, permanentStores } from './sbt';
import { getProvider } from '../../utils';

export { readFirst, snapshotTime } from './hub-read';

export const author = 'personhood-dao';
export const version = '1.0.0';

const CREDENTIALS = ['gov-id', 'phone', 'biometrics'];

function readOptions(options: any) {
  const credentials: string[] = options?.credentials ?? ['gov-id'];
  if (
    !Array.isArray(credentials) ||
    credentials.length === 0 ||
    credentials.some(credential => !CREDENTIALS.includes(credential))
  ) {
    // clean-hands is found through Sign Protocol's index, off chain.
    throw new Error(
      `human-id: credentials must be some of ${CREDENTIALS} (clean-hands: through api-v2 and the personhood strategy server)`
    );
  }
  const match = options?.match ?? 'any';
  if (match !== 'any' && match !== 'all') {
    throw new Error("human-id: match must be 'any' or 'all'");
  }
  const actionId = String(options?.actionId ?? defaultActionId);
  if (!/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(actionId)) {
    throw new Error(`human-id: actionId ${actionId} is not a number`);
  }
  return {
    credentials: [...new Set(credentials)],
    match: match as 'any' | 'all',
    actionId: BigInt(actionId),
    sandbox: options?.sandbox === true
  };
}

/**
 * The hub block judged at, and per voter (checksummed) whether the asked Human
 * ID credentials match (`verified`), each credential's `{ valid, reason }`
 * ('valid', 'legacy': a permanent store, or why not) and with `passportDecoder`
 * the decoder's answer (`onchainPassport`), read in the same call. Throws an
 * Error naming the source that failed: never a silent 0.
 */
export async function verifyHumans(
  network: string,
  provider,
  addresses: string[],
  options,
  snapshot,
  passportDecoder?: string
) {
  const { credentials, match, actionId, sandbox } = readOptions(options);
  const hubNetwork = sandbox ? '84532' : '10';
  const voters = [...new Set(addresses.map(address => getAddress(address)))];
  const away = network !== hubNetwork && snapshot !== 'latest';
  const time = away ? await snapshotTime(network, provider, snapshot) : 0;
  const ask = {
    hub: hubAddresses[hubNetwork],
    actionId,
    circuits: credentials.map(credential => ({
      credential,
      circuitId: circuitIds[credential],
      issuer: BigInt(issuers[credential]),
      store: (!sandbox && permanentStores[credential]) || readerZeroAddress
    })),
    passport: {
      circuitId: circuitIds['zk-passport'],
      issuer: issuers['zk-passport']
    },
    passportDecoder
  };
  // Chunks within one call's limits; no expiries: a score needs none.
  const layout = { credentials, passport: passportDecoder !== undefined };
  const chunks = planReaderChunks(layout, voters, () => []);

  const hubProvider =
    network === hubNetwork ? provider : getProvider(hubNetwork);
  const hub = { provider: hubProvider, network: hubNetwork, layout, ask };
  const call = (chunk, at: number | string) => {
    const which = `${chunks.indexOf(chunk) + 1} of ${chunks.length}`;
    return readChunk(hub, chunk, at, which);
  };
  const first = await readFirst(
    at => call(chunks[0], at),
    readerBlock,
    away
      ? { name: 'human-id', network, snapshot, provider, hubNetwork, time }
      : undefined,
    snapshot
  );
  const block = readerBlock(first);
  // At most PARALLEL calls at once: a node runs calls of tens of millions of
  // gas one after another, and snapshot.js's provider gives each 25 s.
  const rest: string[] = [];
  for (let i = 1; i < chunks.length; i += readerLimits.parallel) {
    const group = chunks.slice(i, i + readerLimits.parallel);
    rest.push(...(await Promise.all(group.map(c => call(c, block.number)))));
  }
  if (String(block.chainId) !== hubNetwork) {
    throw new Error(
      `human-id: the provider of network ${hubNetwork} is on chain ${block.chainId}`
    );
  }

  const timestamp = BigInt(block.timestamp);
  const verdicts = [first, ...rest].flatMap((data, index) =>
    readerVoters(layout, chunks[index], data).map(read => {
      const { voter } = read;
      const judged = credentials.map(credential => {
        const credentialJudged = judgeReaderCredential({
          records: read.credentials[credential],
          credential,
          at: timestamp,
          voter,
          actionId,
          issuers,
          store: !sandbox && permanentStores[credential]
        });
        if ('problem' in credentialJudged) {
          throw new Error(`human-id: ${voter}: ${credentialJudged.problem}`);
        }
        const { valid, reason } = credentialJudged.verdict;
        return [credential, { valid, reason }] as const;
      });
      const verdict = {
        verified: credentialsMatch(
          judged.map(([, { valid }]) => valid),
          match
        ),
        credentials: Object.fromEntries(judged),
        onchainPassport:
          read.onchainPassport && readerPassportAnswer(read.onchainPassport)
      };
      return [voter, verdict] as const;
    })
  );
  return { block, voters: Object.fromEntries(verdicts) };
}

export async function strategy(
  space,
  network,
  provider,
  addresses,
  options,
  snapshot
): Promise<Record<string, number>> {
  const score = options?.score ?? 1;
  if (typeof score !== 'number' || !(score > 0)) {
    throw new Error('human-id: score must be a positive number');
  }
  if (addresses.length === 0) return {};
  const { voters } = await verifyHumans(
    network,
    provider,
    addresses,
    options,
    snapshot
  );
  return Object.fromEntries(
    addresses.map(address => [
      getAddress(address),
      voters[getAddress(address)].verified ? score : 0
    ])
  );
}
