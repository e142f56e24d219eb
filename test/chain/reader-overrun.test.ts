/**
 * A reader chunk planned within the gas cap from typical cost that runs over it on chain: on a chain
 * whose eth_call cap is geth's 50M (the block gas limit of this local chain), a chunk of voters who
 * all hold an expired phone SBT (each runs every fallback: `getSBT` fails, `sbtOwners`, the permanent
 * store) costs about 1.4 times its plan. The node answers out of gas, the chunk is read again once
 * in two halves, and every verdict is the one each voter gets read alone.
 */
import type { Address } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { optimismNetwork } from '../../src/chain/constants.js'
import { planReaderChunks, readerGas, readerLimits } from '../../src/rules/reader.js'
import { readReaderVerdicts } from '../../src/verify/reader-verdicts.js'
import { TestChain, type Eip1193 } from './harness.js'
import { freshAddress } from './helpers.js'

const credentials = ['phone'] as const
const layout = { credentials, expiries: false }
let chain: TestChain
let snapshot: bigint
let voters: Address[]

beforeAll(async () => {
  chain = await TestChain.start({ blockGasLimit: readerLimits.gas })
  const { timestamp } = await chain.latest()
  // As many voters as one chunk holds (the call data bounds it before the gas does).
  const probe = Array.from({ length: 3000 }, () => freshAddress())
  voters = planReaderChunks(layout, probe, () => [])[0]!.voters as Address[]
  for (let start = 0; start < voters.length; start += 250) {
    const args = [voters.slice(start, start + 250), optimismNetwork.circuitIds.phone, timestamp + 10n, 123456789n, optimismNetwork.issuers.phone]
    await chain.write(chain.contracts.hub, 'LocalHub', 'setSBTs', args, undefined, 45_000_000n)
  }
  snapshot = (await chain.mine(timestamp + 1000n)).blockNumber
}, 120_000)

function counting(provider: Eip1193) {
  const calls: number[] = []
  const client = {
    request: async (args: { method: string; params?: unknown }) => {
      if (args.method === 'eth_call') calls.push(((args.params as [{ data: string }])[0].data.length - 2) / 2)
      return provider.request(args as never)
    },
  }
  return { calls, client }
}

describe('chunks planned near the cap', () => {
  it('10,000 voters with every credential (an attestation for one in 25) take at most 15 calls, each within the limits', () => {
    const many = Array.from({ length: 10_000 }, (_, index) => `0x${(index + 1).toString(16).padStart(40, '0')}`)
    const chunks = planReaderChunks({ credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'] }, many, (voter) => (Number(BigInt(voter)) % 25 === 0 ? [BigInt(voter)] : []))
    expect(chunks.length).toBeLessThanOrEqual(15)
    expect(chunks.flatMap((chunk) => chunk.voters)).toEqual(many)
    for (const chunk of chunks) {
      expect(chunk.gas).toBeLessThanOrEqual(readerLimits.gas)
      expect(chunk.input).toBeLessThanOrEqual(readerLimits.input)
      expect(chunk.bytes).toBeLessThanOrEqual(readerLimits.bytes)
    }
  })
})

describe('a chunk that overruns the gas cap', () => {
  it('is planned within the cap as one call, runs over it, and is read again in two halves with the verdicts of each voter alone', async () => {
    const [chunk, ...rest] = planReaderChunks(layout, voters, () => [])
    expect(rest).toEqual([])
    expect(chunk!.voters.length).toBeGreaterThan(2000)
    expect(chunk!.gas).toBeLessThanOrEqual(readerLimits.gas)
    expect(chunk!.gas).toBe(readerLimits.call + voters.length * readerGas.phone)

    const { calls, client } = counting(chain.provider)
    const read = await readReaderVerdicts({ client, network: optimismNetwork, addresses: voters, credentials, actionId: 123456789n, blockNumber: snapshot })
    // The whole chunk, then its two halves (each sends the reader's code and half the voters).
    expect(calls).toHaveLength(3)
    expect(calls[1]!).toBeLessThan(calls[0]!)
    expect(calls[2]!).toBeLessThan(calls[0]!)
    expect(read.verdicts.size).toBe(voters.length)
    const reasons = new Set([...read.verdicts.values()].map(([verdict]) => `${verdict!.valid} ${verdict!.reason}`))
    expect([...reasons]).toEqual(['false expired'])
    // Read alone, a voter gets the same verdict.
    for (const voter of [voters[0]!, voters[voters.length - 1]!]) {
      const alone = await readReaderVerdicts({ client: chain.provider, network: optimismNetwork, addresses: [voter], credentials, actionId: 123456789n, blockNumber: snapshot })
      expect(alone.verdicts.get(voter)).toEqual(read.verdicts.get(voter))
    }
  }, 120_000)
})
