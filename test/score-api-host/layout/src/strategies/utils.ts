// The test host's src/strategies/utils.ts: what score-api's module of the same path gives a
// strategy folder, written for this package's tests. Same exports, same behaviour, with one
// difference: the networks. score-api's getProvider reaches https://rpc.snapshot.org/<network>
// and its getSnapshots https://blockfinder.snapshot.org; here both reach the host's upstream
// gateway (SCORE_API_HOST_BROVIDER_URL, SCORE_API_HOST_BLOCKFINDER_URL), which answers from the
// local chains and counts every request. The code path is snapshot.js's own.
import { createHash } from 'crypto';
import snapshot from '@snapshot-labs/snapshot.js';
import fetch from 'cross-fetch';
import strategies from './strategies';

type Score = Record<string, number>;
type Snapshot = number | 'latest';

function gateway(name: string): string {
  const url = process.env[name];
  if (!url) throw new Error(`The score-api test host needs ${name}`);
  return url;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// Typed as snapshot.js types them, as score-api re-exports them.
export const getProvider: typeof snapshot.utils.getProvider = (
  network,
  options = {}
) =>
  snapshot.utils.getProvider(network, {
    broviderUrl: gateway('SCORE_API_HOST_BROVIDER_URL'),
    // snapshot.js gives a call 25 s: a production limit that a test on a busy machine must not
    // race (a 40M-gas call of the in-process EVM can take that long there). The gateway sets more.
    ...(process.env.SCORE_API_HOST_PROVIDER_TIMEOUT_MS
      ? { timeout: Number(process.env.SCORE_API_HOST_PROVIDER_TIMEOUT_MS) }
      : {}),
    ...options
  });

export const getSnapshots: typeof snapshot.utils.getSnapshots = (
  network,
  snapshotBlock,
  provider,
  networks,
  options = {}
) =>
  snapshot.utils.getSnapshots(network, snapshotBlock, provider, networks, {
    blockFinderUrl: gateway('SCORE_API_HOST_BLOCKFINDER_URL'),
    ...options
  });

export const {
  multicall,
  Multicaller,
  subgraphRequest,
  ipfsGet,
  call,
  getBlockNumber,
  getFormattedAddress
} = snapshot.utils;

// A fetch that gives up after `timeout` ms with "API request timeout", as score-api's does.
export function customFetch(
  url: RequestInfo | URL,
  options: RequestInit = {},
  timeout = 20000
): Promise<any> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error('API request timeout'));
    }, timeout);
  });
  const request = fetch(url as any, {
    ...(options as any),
    signal: controller.signal
  }).catch(error => {
    if (error.name === 'AbortError') throw new Error('API request timeout');
    throw error;
  });
  return Promise.race([request, expired]).finally(() => clearTimeout(timer));
}

function isExcluded(strategy: any, snapshotBlock: Snapshot): boolean {
  const start = strategy.params?.start;
  const end = strategy.params?.end;
  if (snapshotBlock !== 'latest' && start > snapshotBlock) return true;
  return !!end && (snapshotBlock === 'latest' || snapshotBlock > end);
}

// One strategy's scores as score-api keeps them: only positive scores of addresses asked for.
async function scoreOne(
  space: string,
  network: string,
  addresses: string[],
  strategy: any,
  snapshotBlock: Snapshot
): Promise<Score> {
  if (isExcluded(strategy, snapshotBlock)) return {};
  const asked = new Set(addresses.map(address => address.toLowerCase()));
  const scores: Score = await strategies[strategy.name].strategy(
    space,
    network,
    getProvider(network),
    addresses,
    strategy.params,
    snapshotBlock
  );
  const kept: Score = {};
  for (const [address, score] of Object.entries(scores)) {
    if (score > 0 && asked.has(address.toLowerCase())) kept[address] = score;
  }
  return kept;
}

// score-api's getScoresDirect for EVM addresses: each address checksummed and deduplicated, the
// strategies checked to exist, each strategy's network mapped to a block with getSnapshots.
export async function getScoresDirect(
  space: string,
  strategyList: any[],
  network: string,
  provider: any,
  addresses: string[],
  snapshotBlock: Snapshot
): Promise<Score[]> {
  if (addresses.length === 0) return strategyList.map(() => ({}));
  const formatted: string[] = [];
  for (const address of addresses) {
    if (!/^0x[a-fA-F0-9]{40}$/.test(address)) {
      throw new Error(`Invalid address format: ${address}`);
    }
    const checksummed = getFormattedAddress(address, 'evm');
    if (!formatted.includes(checksummed)) formatted.push(checksummed);
  }
  const unknown = strategyList
    .filter(strategy => !strategies[strategy.name])
    .map(strategy => strategy.name);
  if (unknown.length)
    throw new Error(`Invalid strategies: ${unknown.join(', ')}`);
  const networks = [
    ...new Set(strategyList.map(strategy => strategy.network || network))
  ];
  const snapshots = await getSnapshots(
    network,
    snapshotBlock,
    provider,
    networks
  );
  return Promise.all(
    strategyList.map(strategy =>
      scoreOne(
        space,
        strategy.network || network,
        formatted,
        strategy,
        snapshots[strategy.network || network]
      )
    )
  );
}

export default {
  sha256,
  getScoresDirect,
  customFetch,
  multicall,
  Multicaller,
  subgraphRequest,
  ipfsGet,
  call,
  getBlockNumber,
  getProvider,
  getSnapshots,
  getFormattedAddress
};
