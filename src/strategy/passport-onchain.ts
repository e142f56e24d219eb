/**
 * Passport's own scores on chain as a strategy source, beside the API: the decoder's `getScore` for
 * every voter at the snapshot's block in one `eth_call` (per 500 voters), on the space's network
 * when it has a decoder, else on Optimism at its block at the snapshot's time. Exact at any past
 * block for every voter at once; covers only voters who pushed their Passport on chain, scored by
 * Passport's own model (not a space's scorer). The decisions are the ground floor's
 * (src/rules/passport-onchain.ts), which the score-api folders copy.
 */
import type { Address } from 'viem'
import { readOnchainPassports } from '../chain/passport-onchain.js'
import { passportDecoderChain } from '../rules/passport-decoder.js'
import { judgeOnchainPassport, passportDecoders } from '../rules/passport-onchain.js'
import type { PassportVerdict } from '../verify/verdict.js'
import type { StrategyRuntime } from './context.js'
import { readSource } from './deadline.js'
import { hubChainAt } from './human-id.js'
import { isChainClient, type ResolvedSnapshot, type StrategyProvider } from './snapshot.js'

/** The source's name in errors and request counts. */
export const onchainPassportSourceName = "Passport's decoder on chain"

/** Parameters of {@link readOnchainPassportVerdictsAt}. */
export type ReadOnchainPassportVerdictsAtParameters = {
  strategy: string
  runtime: StrategyRuntime
  network: string
  provider: StrategyProvider
  snapshot: ResolvedSnapshot
  addresses: readonly Address[]
  /** Default 20. */
  threshold?: number | undefined
  /** The hub chain's block already read (human-verification): the decoder is read there. */
  hub?: { client: Parameters<typeof readOnchainPassports>[0]; block: { chainId: number; blockNumber: bigint; timestamp: number } } | undefined
}

/**
 * Each voter's Passport verdict from the decoder on chain at the snapshot: `valid` or
 * `below-threshold` for a score, `never-scored` for none (never pushed, or revoked), `expired`.
 *
 * @throws {StrategySourceError} when the read fails or the decoder answers anything else.
 */
export async function readOnchainPassportVerdictsAt(parameters: ReadOnchainPassportVerdictsAtParameters): Promise<Map<Address, PassportVerdict>> {
  const { runtime, addresses, network, snapshot } = parameters
  const own = passportDecoderChain(String(Number(network))) === String(Number(network))
  const where =
    own && isChainClient(parameters.provider)
      ? { client: parameters.provider, block: { chainId: Number(network), blockNumber: snapshot.blockNumber, timestamp: snapshot.timestamp } }
      : (parameters.hub ?? (await hubChainAt(parameters)))
  const decoder = passportDecoders[String(where.block.chainId)]
  const read = await readSource({ source: onchainPassportSourceName, addresses, deadline: runtime.deadline }, () =>
    readOnchainPassports(where.client, { addresses, blockNumber: where.block.blockNumber, decoder: decoder as Address, chainId: where.block.chainId }),
  )
  runtime.countRequest(onchainPassportSourceName, read.requests)
  const verdicts = new Map<Address, PassportVerdict>()
  for (const address of addresses) {
    const judged = judgeOnchainPassport(read.passports.get(address)!, read.timestamp, parameters.threshold)
    verdicts.set(address, {
      address,
      credential: 'passport',
      source: 'passport-onchain',
      valid: judged.valid,
      reason: judged.reason,
      expiresAt: judged.evidence.expirationTimestamp,
      evidence: {
        kind: 'passport-score',
        origin: 'onchain',
        api: 'onchain',
        score: judged.evidence.score,
        scoreValue: judged.evidence.score === null ? null : Number(judged.evidence.score),
        threshold: judged.evidence.threshold,
        servicePassing: null,
        lastScoreTimestamp: null,
        expirationTimestamp: judged.evidence.expirationTimestamp,
        error: null,
        at: read.timestamp,
      },
    })
  }
  return verdicts
}
