/**
 * What the library's `human-id` (source `chain`) costs per call, in requests, on the demo world (the
 * reference server and the local chain seeded from it), from a cold start: score-api's budget is at
 * most 5 requests a call at 500 voters with all four credentials, on a space on Optimism and on one
 * on Ethereum, and at most 2 for a single voter; the score-api folder `strategies/human-id` costs
 * 1 (SBTs) or 2 (with clean hands) a voter on Optimism, and one more (the snapshot's header) on
 * Ethereum, and the library costs the same: it sends the folder's reader (src/rules/reader.ts).
 * The verdicts stay those of `verifyCredentials` at the same block, voter by voter: valid and reason,
 * and with `humanId.expiries` (the audit's and `personhood verify`'s) the expiry too, for at most one
 * more call.
 */
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type RunningServe } from '../../src/server/start.js'
import { optimismNetwork } from '../../src/chain/constants.js'
import { createAttestationIndexClient } from '../../src/clients/attestation-index/index.js'
import { runStrategy, type StrategyRun } from '../../src/strategy/define.js'
import { humanIdStrategy, type HumanIdDetail } from '../../src/strategy/human-id.js'
import type { StrategyContext } from '../../src/strategy/context.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { ethereumClock } from '../strategies/human-id-serving.js'
import { chainClockProvider, conformanceWorldNow } from '../strategies/world-server.js'

const allFour = ['gov-id', 'phone', 'biometrics', 'clean-hands'] as const
const sbts = ['gov-id', 'phone', 'biometrics'] as const
let running: RunningServe
let voters: Address[]
let context: StrategyContext
const now = () => Date.parse(conformanceWorldNow)
const snapshot = 136_566_811 // an hour before the world's day, on the local chain (2 s blocks)
const ethereumBlock = 22_663_079

beforeAll(async () => {
  running = await startServe({ port: 0, seed: 'demo', worldNow: conformanceWorldNow, now, chain: { port: 0 } })
  const { state } = running.app.context.store
  voters = [...new Set([...state.demoAccounts.map((account) => account.address), ...Object.keys(state.stamps)])].slice(0, 500) as Address[]
  context = {
    humanId: { hubChain: running.chain!.rpcUrl!, baseUrl: running.urls.humanId, attestationIndexBaseUrl: running.urls.attestationIndex },
    // Cold: nothing kept from an earlier call.
    cache: false,
    now,
    deadlineMs: 120_000,
  }
}, 120_000)
afterAll(() => running?.close())

function run(network: '10' | '1', addresses: readonly string[], credentials: readonly string[], expiries = false): Promise<StrategyRun<HumanIdDetail>> {
  return runStrategy(humanIdStrategy, {
    network,
    provider: network === '10' ? running.chain!.provider : chainClockProvider({ ...ethereumClock, now }),
    addresses,
    options: { credentials, source: 'chain' },
    snapshot: network === '10' ? snapshot : ethereumBlock,
    context: { ...context, humanId: { ...context.humanId, expiries } },
  })
}

const reader = 'Human ID contracts on chain (the deployless reader)'
const index = 'attestation index (clean hands)'

const total = (requests: Record<string, number>) => Object.values(requests).reduce((sum, count) => sum + count, 0)

describe('human-id (library, source chain): requests per call, cold', () => {
  it("500 voters, all four credentials: the folder's 2 on Optimism (the index listing, one reader call) and 3 on Ethereum (the snapshot's header too)", async () => {
    const onOptimism = await run('10', voters, allFour)
    const onEthereum = await run('1', voters, allFour)
    console.log('500 voters, all four, Optimism:', total(onOptimism.requests), onOptimism.requests)
    console.log('500 voters, all four, Ethereum:', total(onEthereum.requests), onEthereum.requests)
    expect(onOptimism.requests).toEqual({ [index]: 1, [reader]: 1 })
    // Optimism's block by its clock, confirmed by the reader's answer: no header of Optimism, no search.
    expect(onEthereum.requests).toEqual({ provider: 1, [index]: 1, [reader]: 1 })
    // The same voters, the same verdicts: the Ethereum snapshot's time falls in the same hub block.
    expect(onEthereum.scores).toEqual(onOptimism.scores)
    expect(onOptimism.snapshot).toEqual({ network: '10', requested: BigInt(snapshot), blockNumber: BigInt(snapshot), timestamp: running.chain!.timeOf(BigInt(snapshot)).getTime() / 1000 })
  }, 120_000)

  it('with expiries (the audit, personhood verify): at most 5, on Optimism and on Ethereum', async () => {
    const onOptimism = await run('10', voters, allFour, true)
    const onEthereum = await run('1', voters, allFour, true)
    console.log('500 voters, all four, expiries, Optimism:', total(onOptimism.requests), onOptimism.requests)
    console.log('500 voters, all four, expiries, Ethereum:', total(onEthereum.requests), onEthereum.requests)
    expect(total(onOptimism.requests)).toBeLessThanOrEqual(5)
    expect(total(onEthereum.requests)).toBeLessThanOrEqual(5)
    expect(onEthereum.scores).toEqual(onOptimism.scores)
  }, 120_000)

  it("a single voter: 1 request for the SBTs, 2 with clean hands on Optimism; one more (the snapshot's header) on Ethereum", async () => {
    const { state } = running.app.context.store
    const holder = getAddressOf(state.attestations.find((row) => row.kind === 'valid')!.address)
    const counts: Record<string, number> = {}
    for (const network of ['10', '1'] as const) {
      for (const [label, credentials] of [['SBTs', sbts], ['all four', allFour]] as const) {
        const result = await run(network, [holder], credentials)
        counts[`${network} ${label}`] = total(result.requests)
      }
    }
    console.log('one voter:', counts)
    expect(counts).toEqual({ '10 SBTs': 1, '10 all four': 2, '1 SBTs': 2, '1 all four': 3 })
  }, 120_000)

  it.each([false, true])('the verdicts are those of verifyCredentials at the same block, voter by voter: valid, reason and (expiries: %s) the expiry', async (expiries) => {
    const result = await run('10', voters, allFour, expiries)
    const index = createAttestationIndexClient({ baseUrl: running.urls.attestationIndex })
    const reference = await verifyCredentials(running.chain!.provider, {
      network: optimismNetwork,
      addresses: voters,
      credentials: [...allFour],
      blockNumber: BigInt(snapshot),
      attestationIndex: index,
    })
    let valid = 0
    for (const [address, { detail }] of result.results) {
      const expected = reference.results[address.toLowerCase() as Address]!
      for (const verdict of detail.verdicts) {
        const entry = expected[verdict.credential]
        expect({ address, credential: verdict.credential, valid: verdict.valid, reason: verdict.reason, expiresAt: verdict.expiresAt }).toEqual({
          address,
          credential: verdict.credential,
          valid: entry.valid,
          reason: entry.reason,
          expiresAt: !expiries || entry.expiresAt === undefined || entry.expiresAt >= 8_640_000_000_000n ? null : Number(entry.expiresAt),
        })
        if (verdict.valid) valid++
      }
    }
    expect(valid).toBeGreaterThan(50)
  }, 120_000)
})

function getAddressOf(address: string): Address {
  return voters.find((voter) => voter.toLowerCase() === address.toLowerCase()) ?? (address as Address)
}
