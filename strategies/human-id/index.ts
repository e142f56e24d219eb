import { getAddress } from '@ethersproject/address';
import { checkRow, cleanHandsRows } from './attestation-index';
import {
  cleanHandsAttester,
  cleanHandsOnchainSchemaId,
  signProtocolAddress
} from './clean-hands';
import { attestationsToConfirm } from './clean-hands-index';
import { credentialsMatch } from './credentials-match';
import { hubAddresses } from './hub';
import { readChunk, readFirst, snapshotTime } from './hub-read';
import {
  planReaderChunks,
  readerBlock,
  ReaderChunk,
  readerLimits,
  readerPassportAnswer,
  readerVoters,
  readerZeroAddress
} from './reader';
import { judgeReaderCleanHands } from './reader-clean-hands';
import { judgeReaderCredential } from './reader-verdicts';
import { circuitIds, defaultActionId, issuers, permanentStores } from './sbt';
import { getProvider } from '../../utils';

export { snapshotTime } from './hub-read';

export const author = 'personhood-dao';
export const version = '1.0.0';

const CREDENTIALS = ['gov-id', 'phone', 'biometrics', 'clean-hands'];

export type CredentialVerdict = {
  valid: boolean;
  // 'valid', 'legacy' (a permanent store) or why not: 'none', 'expired',
  // 'revoked', 'wrong-issuer', 'wrong-action', 'wrong-recipient',
  // 'wrong-schema', 'wrong-attester', 'malformed'
  reason: string;
};

export type HumanVerdict = {
  // The credentials matched ('any' or 'all') at the snapshot.
  verified: boolean;
  // One verdict per asked credential.
  credentials: Record<string, CredentialVerdict>;
  // With a Passport decoder: its getScore answer, read in the same call.
  onchainPassport?: { success: boolean; data: string };
};

export type HumanVerdicts = {
  // The hub chain's block the verdicts were judged at.
  block: { chainId: number; number: number; timestamp: number };
  // By checksummed address.
  voters: Record<string, HumanVerdict>;
};

function readOptions(options: any) {
  const credentials: string[] = options?.credentials ?? ['gov-id'];
  if (
    !Array.isArray(credentials) ||
    credentials.length === 0 ||
    credentials.some(credential => !CREDENTIALS.includes(credential))
  ) {
    throw new Error(`human-id: credentials must be some of ${CREDENTIALS}`);
  }
  const match = options?.match ?? 'any';
  if (match !== 'any' && match !== 'all') {
    throw new Error("human-id: match must be 'any' or 'all'");
  }
  const actionId = String(options?.actionId ?? defaultActionId);
  if (!/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(actionId)) {
    throw new Error(`human-id: actionId ${actionId} is not a number`);
  }
  const sandbox = options?.sandbox === true;
  if (sandbox && credentials.includes('clean-hands')) {
    throw new Error('human-id: clean-hands lives on Optimism, not the sandbox');
  }
  return {
    credentials: [...new Set(credentials)],
    match: match as 'any' | 'all',
    actionId: BigInt(actionId),
    sandbox
  };
}

/**
 * Per voter (checksummed), whether the asked Human ID credentials match at the
 * snapshot, and each credential's verdict: for human-id and the strategies
 * that reuse it; with `passportDecoder`, each voter's on-chain Passport read in
 * the same call. Throws an Error naming the source that failed (the hub chain,
 * the attestation index): never a silent 0.
 */
export async function verifyHumans(
  network: string,
  provider,
  addresses: string[],
  options,
  snapshot,
  passportDecoder?: string
): Promise<HumanVerdicts> {
  const { credentials, match, actionId, sandbox } = readOptions(options);
  const hubNetwork = sandbox ? '84532' : '10';
  const voters = [...new Set(addresses.map(address => getAddress(address)))];
  const hubProvider =
    network === hubNetwork ? provider : getProvider(hubNetwork);
  const away = network !== hubNetwork && snapshot !== 'latest';
  const time = away ? await snapshotTime(network, provider, snapshot) : 0;
  const sbts = credentials.filter(c => c !== 'clean-hands');
  const ask = {
    hub: hubAddresses[hubNetwork],
    actionId,
    circuits: sbts.map(credential => ({
      credential,
      circuitId: circuitIds[credential],
      issuer: BigInt(issuers[credential]),
      store: (!sandbox && permanentStores[credential]) || readerZeroAddress
    })),
    passport: {
      circuitId: circuitIds['zk-passport'],
      issuer: issuers['zk-passport']
    },
    signProtocol: sandbox ? readerZeroAddress : signProtocolAddress,
    schemaId: cleanHandsOnchainSchemaId,
    attester: cleanHandsAttester,
    passportDecoder
  };
  const rows = credentials.includes('clean-hands')
    ? await cleanHandsRows(voters)
    : {};
  // Chunks of voters, with their attestations, within one call's limits. The
  // reader returns no expiries: a score needs none.
  const layout = { credentials, passport: passportDecoder !== undefined };
  const chunks = planReaderChunks(layout, voters, voter =>
    attestationsToConfirm(rows[voter.toLowerCase()] ?? [], row =>
      checkRow(row, 0n)
    )
  );

  const hub = { provider: hubProvider, network: hubNetwork, layout, ask };
  const call = (chunk: ReaderChunk, at: number | string) =>
    readChunk(
      hub,
      chunk,
      at,
      `${chunks.indexOf(chunk) + 1} of ${chunks.length}`
    );
  const first = await readFirst(
    at => call(chunks[0], at),
    away ? { network, snapshot, provider, hubNetwork, time } : undefined,
    snapshot
  );
  const block = readerBlock(first);
  const { number } = block;
  // At most PARALLEL calls at once: a node runs calls of tens of millions of
  // gas one after another, and snapshot.js's provider gives each 25 s.
  const rest: string[] = [];
  for (let i = 1; i < chunks.length; i += readerLimits.parallel) {
    const group = chunks.slice(i, i + readerLimits.parallel);
    rest.push(...(await Promise.all(group.map(c => call(c, number)))));
  }
  if (String(block.chainId) !== hubNetwork) {
    throw new Error(
      `human-id: the provider of network ${hubNetwork} is on chain ${block.chainId}`
    );
  }

  const timestamp = BigInt(block.timestamp);
  const out: Record<string, HumanVerdict> = {};
  [first, ...rest].forEach((data, index) => {
    for (const read of readerVoters(layout, chunks[index], data)) {
      const { voter } = read;
      const verdicts: Record<string, CredentialVerdict> = {};
      for (const credential of credentials) {
        const judged =
          credential === 'clean-hands'
            ? judgeReaderCleanHands({
                rows: rows[voter.toLowerCase()] ?? [],
                checkRow: row => checkRow(row, timestamp),
                attestations: read.attestations,
                at: timestamp,
                voter,
                expected: {
                  schemaId: cleanHandsOnchainSchemaId,
                  attester: cleanHandsAttester
                }
              })
            : judgeReaderCredential({
                records: read.credentials[credential],
                credential,
                at: timestamp,
                voter,
                actionId,
                issuers,
                store: !sandbox && permanentStores[credential]
              });
        if ('problem' in judged) {
          throw new Error(`human-id: ${voter}: ${judged.problem}`);
        }
        const { valid, reason } = 'verdict' in judged ? judged.verdict : judged;
        verdicts[credential] = { valid, reason };
      }
      out[voter] = {
        verified: credentialsMatch(
          credentials.map(c => verdicts[c].valid),
          match
        ),
        credentials: verdicts,
        onchainPassport:
          read.onchainPassport && readerPassportAnswer(read.onchainPassport)
      };
    }
  });
  return { block, voters: out };
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
