import { Interface } from '@ethersproject/abi';
import { getAddress } from '@ethersproject/address';
import {
  passportDecoderAbi,
  passportDecoderChain,
  passportDecoderVotersPerCall
} from './passport-decoder';
import {
  judgeOnchainPassport,
  OnchainPassportVerdict,
  passportApiOptionsProblem,
  passportDecoders,
  readPassportDecoderAnswer
} from './passport-onchain';
import { passportVerdictValue } from './passport-weighting';
import { getProvider } from '../../utils';
import { readFirst, snapshotTime } from '../human-id';

export const author = 'personhood-dao';
export const version = '1.0.0';

const name = 'passport-v2';
// Multicall3, where Snapshot's networks with a Passport decoder have it.
const MULTICALL3: Record<string, string> = {
  '324': '0xF9cda624FBC7e059355ce98a31693d299FACd963'
};
const MULTICALL3_DEFAULT = '0xcA11bde05977b3631167028862bE2a173976CA11';

const decoder = new Interface(passportDecoderAbi as string[]);
const multicall = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
  'function getCurrentBlockTimestamp() view returns (uint256 timestamp)',
  'function getChainId() view returns (uint256 chainid)',
  'function getBlockNumber() view returns (uint256 blockNumber)'
]);

const message = (error: any) =>
  error?.error?.message ?? error?.message ?? String(error);

function readOptions(options) {
  const mode = options?.mode ?? 'gated';
  const positive = value =>
    value === undefined || (typeof value === 'number' && value > 0);
  const api = passportApiOptionsProblem(name, options);
  if (api) throw new Error(api);
  if (mode !== 'gated' && mode !== 'weighted') {
    throw new Error(`${name}: mode must be 'gated' or 'weighted'`);
  }
  if (!positive(options?.score) || !positive(options?.cap)) {
    throw new Error(`${name}: score and cap must be positive numbers`);
  }
  const threshold = options?.threshold;
  if (
    threshold !== undefined &&
    !(typeof threshold === 'number' && threshold >= 0)
  ) {
    throw new Error(`${name}: threshold must be a number, 0 or more`);
  }
  if (mode === 'gated' && options?.cap !== undefined) {
    throw new Error(`${name}: cap applies in weighted mode only`);
  }
  if (mode === 'weighted' && options?.score !== undefined) {
    throw new Error(`${name}: score applies in gated mode only`);
  }
  const weighting =
    mode === 'gated'
      ? { mode, score: options?.score ?? 1 }
      : { mode, cap: options?.cap, gate: threshold !== undefined };
  return { weighting, threshold };
}

/**
 * Per voter (checksummed), its on-chain Passport verdict at the snapshot: one Multicall3
 * aggregate3 (allowFailure) of the decoder's getScore per 500 voters, at one block: the
 * snapshot's on the space's network when it has a decoder, else Optimism's at the snapshot's
 * time by Optimism's clock, checked by the read (human-id's readFirst). A revert
 * AttestationNotFound / AttestationExpired is the voter's answer; any other failure throws.
 */
export async function onchainPassportVerdicts(
  network: string,
  provider,
  addresses: string[],
  snapshot,
  threshold?: number
): Promise<Record<string, OnchainPassportVerdict>> {
  const voters = [...new Set(addresses.map(address => getAddress(address)))];
  if (voters.length === 0) return {};
  const chain = passportDecoderChain(network);
  const chainProvider = chain === network ? provider : getProvider(chain);
  const away = chain !== network && snapshot !== 'latest';
  const time = away ? await snapshotTime(network, provider, snapshot, name) : 0;
  const target = passportDecoders[chain];
  const multicall3 = MULTICALL3[chain] ?? MULTICALL3_DEFAULT;
  const call = async (page: string[], blockTag) => {
    const calls = [
      [multicall3, false, multicall.encodeFunctionData('getChainId')],
      [
        multicall3,
        false,
        multicall.encodeFunctionData('getCurrentBlockTimestamp')
      ],
      [multicall3, false, multicall.encodeFunctionData('getBlockNumber')],
      ...page.map(voter => [
        target,
        true,
        decoder.encodeFunctionData('getScore', [voter])
      ])
    ];
    const data = multicall.encodeFunctionData('aggregate3', [calls]);
    let answer;
    try {
      answer = await chainProvider.call({ to: multicall3, data }, blockTag);
    } catch (err) {
      throw new Error(
        `${name}: the Passport decoder read (${
          page.length
        } voters, Multicall3 aggregate3) on chain ${chain} at block ${blockTag} failed: ${message(
          err
        )}`
      );
    }
    const [results] = multicall.decodeFunctionResult('aggregate3', answer);
    if (results.length !== calls.length) {
      throw new Error(
        `${name}: Multicall3 on chain ${chain} answered ${results.length} results for ${calls.length} calls`
      );
    }
    const chainId = Number(BigInt(results[0].returnData));
    if (String(chainId) !== chain) {
      throw new Error(
        `${name}: the provider of network ${chain} is on chain ${chainId}`
      );
    }
    return {
      timestamp: Number(BigInt(results[1].returnData)),
      number: Number(BigInt(results[2].returnData)),
      results: results.slice(3)
    };
  };
  const pages: string[][] = [];
  for (let i = 0; i < voters.length; i += passportDecoderVotersPerCall) {
    pages.push(voters.slice(i, i + passportDecoderVotersPerCall));
  }
  // The first page's block (by the clock, or the blockfinder) for every page.
  const first = await readFirst(
    at => call(pages[0], at),
    answer => answer,
    away
      ? { name, network, snapshot, provider, hubNetwork: chain, time }
      : undefined,
    snapshot
  );
  const out: Record<string, OnchainPassportVerdict> = {};
  for (const [index, page] of pages.entries()) {
    const read = index === 0 ? first : await call(page, first.number);
    page.forEach((voter, position) => {
      let passport;
      try {
        passport = readPassportDecoderAnswer({
          success: read.results[position].success,
          data: read.results[position].returnData
        });
      } catch (err) {
        throw new Error(
          `${name}: ${voter} on chain ${chain} at block ${
            read.number
          }: ${message(err)}`
        );
      }
      out[voter] = judgeOnchainPassport(passport, read.timestamp, threshold);
    });
  }
  return out;
}

export async function strategy(
  space,
  network,
  provider,
  addresses,
  options,
  snapshot
): Promise<Record<string, number>> {
  const { weighting, threshold } = readOptions(options);
  if (addresses.length === 0) return {};
  const verdicts = await onchainPassportVerdicts(
    String(network),
    provider,
    addresses,
    snapshot,
    threshold
  );
  return Object.fromEntries(
    addresses.map(address => {
      const verdict = verdicts[getAddress(address)];
      return [getAddress(address), passportVerdictValue(verdict, weighting)];
    })
  );
}
