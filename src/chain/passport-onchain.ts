/**
 * Passport's scores on chain (the decoder's `getScore(address)`), read for many voters at one block
 * through Multicall3 `aggregate3` with allowFailure: a voter without a Passport on chain reverts
 * alone. What an answer means is the ground floor's (src/rules/passport-onchain.ts), which the
 * score-api folders copy.
 */
import { encodeFunctionData, parseAbi, type Address } from 'viem'
import { passportDecoderAbi, passportDecoderVotersPerCall } from '../rules/passport-decoder.js'
import { readPassportDecoderAnswer, type OnchainPassport } from '../rules/passport-onchain.js'
import { multicall3Address } from './constants.js'
import { blockTimestampCall, decodeBlockTimestamp, multicallAt } from './multicall.js'
import type { ChainClient } from './provider.js'
import { toPublicClient } from './provider.js'
import { chainReadError } from './rpc.js'

const decoderAbi = parseAbi(passportDecoderAbi as readonly string[])

/** Parameters of {@link readOnchainPassports}. */
export type ReadOnchainPassportsParameters = {
  addresses: readonly Address[]
  /** The block every score is read at (an archive node for old blocks). */
  blockNumber: bigint
  /** The decoder (`passportDecoders[chainId]` of the rules). */
  decoder: Address
  /** Multicall3; default `0xcA11bde05977b3631167028862bE2a173976CA11`. */
  multicall3?: Address | undefined
  /** Named by errors. */
  chainId?: number | undefined
}

/** What {@link readOnchainPassports} returns: the block's timestamp, each voter's answer, and the `eth_call`s it sent. */
export type ReadOnchainPassportsReturnType = { timestamp: number; passports: Map<Address, OnchainPassport>; requests: number }

/**
 * Each voter's on-chain Passport at `blockNumber`: `scored` (a v2 decimal), `none` (never pushed,
 * or revoked) or `expired`, and the block's timestamp, in one `eth_call` per
 * `passportDecoderVotersPerCall` (500) voters, as the folders read them.
 *
 * @throws {ChainReadError} when a request fails, or the decoder answers one voter with anything
 *   but a score, AttestationNotFound or AttestationExpired (never a silent `none`).
 * @example
 * import { readOnchainPassports } from './passport-onchain.js'
 * const { passports } = await readOnchainPassports(client, { addresses, blockNumber, decoder: '0x5558D441779Eca04A329BcD6b47830D2C6607769' })
 */
export async function readOnchainPassports(client: ChainClient, parameters: ReadOnchainPassportsParameters): Promise<ReadOnchainPassportsReturnType> {
  const { addresses, blockNumber, decoder, chainId } = parameters
  const multicall3 = parameters.multicall3 ?? multicall3Address
  const calls = [
    blockTimestampCall(multicall3, addresses[0] ?? decoder),
    ...addresses.map((address) => ({
      target: decoder,
      subject: address,
      label: `getScore(${address}) on ${decoder}`,
      callData: encodeFunctionData({ abi: decoderAbi, functionName: 'getScore', args: [address] }),
    })),
  ]
  // The block's timestamp rides in the first call beside its voters.
  const batchSize = passportDecoderVotersPerCall + 1
  const [head, ...results] = await multicallAt(toPublicClient(client), { multicall3, calls, blockNumber, chainId, batchSize })
  const timestamp = Number(decodeBlockTimestamp(head!, { blockNumber, addresses: [...addresses], chainId }))
  const passports = new Map<Address, OnchainPassport>()
  addresses.forEach((address, index) => {
    const result = results[index]!
    try {
      passports.set(address, readPassportDecoderAnswer({ success: result.success, data: result.returnData }))
    } catch (error) {
      throw chainReadError({ blockNumber, addresses: [address], chainId, call: `getScore(${address}) on ${decoder}` }, (error as Error).message)
    }
  })
  return { timestamp, passports, requests: Math.ceil(calls.length / batchSize) }
}
