/**
 * The human-id strategy on the demo world: the reference server and the local chain seeded from
 * it. Both sources agree address by address; a space on Ethereum is judged on the hub chain's
 * block at its snapshot's time; options mean what they say; a source that fails is an error that
 * names it, never a 0.
 */
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServe, type RunningServe } from '../../src/server/start.js'
import { StrategyOptionsError, StrategySourceError } from '../../src/errors/strategy.js'
import { runStrategy, type StrategyRun } from '../../src/strategy/define.js'
import { humanIdStrategy, type HumanIdDetail } from '../../src/strategy/human-id.js'
import type { StrategyContext } from '../../src/strategy/context.js'
import { createStrategyCache } from '../../src/strategy/cache.js'
import { ethereumClock } from '../strategies/human-id-serving.js'
import { chainClockProvider, conformanceWorldNow } from '../strategies/world-server.js'

const allFour = ['gov-id', 'phone', 'biometrics', 'clean-hands'] as const
let running: RunningServe
let voters: Address[]
let context: StrategyContext
const now = () => Date.parse(conformanceWorldNow)
const snapshot = 136_566_811 // an hour before the world's day, on the local chain (2 s blocks)

beforeAll(async () => {
  running = await startServe({ port: 0, seed: 'demo', worldNow: conformanceWorldNow, now, chain: { port: 0 } })
  const { state } = running.app.context.store
  voters = [...new Set([...state.demoAccounts.map((account) => account.address), ...Object.keys(state.stamps)])].slice(0, 500) as Address[]
  context = {
    humanId: {
      hubChain: running.chain!.rpcUrl!,
      hubClock: { anchor: { blockNumber: 0n, timestamp: BigInt(state.chain.genesisTime) }, blockTimeSeconds: state.chain.blockTimeSeconds, exact: true },
      baseUrl: running.urls.humanId,
      attestationIndexBaseUrl: running.urls.attestationIndex,
    },
    cache: false,
    now,
    deadlineMs: 120_000,
  }
}, 120_000)
afterAll(() => running?.close())

function run(options: Record<string, unknown>, overrides: { network?: string; addresses?: readonly string[]; snapshot?: number; context?: StrategyContext } = {}): Promise<StrategyRun<HumanIdDetail>> {
  const network = overrides.network ?? '10'
  return runStrategy(humanIdStrategy, {
    network,
    provider: network === '10' ? running.chain!.provider : chainClockProvider({ ...ethereumClock, now }),
    addresses: overrides.addresses ?? voters,
    options,
    snapshot: overrides.snapshot ?? snapshot,
    context: overrides.context ?? context,
  })
}

describe('human-id', () => {
  it('on chain and through the API, 500 voters get the same verdict per credential at the same block', async () => {
    const [chain, api] = await Promise.all([run({ credentials: allFour, source: 'chain' }), run({ credentials: allFour, source: 'api' })])
    const verdicts = (result: StrategyRun<HumanIdDetail>) =>
      Object.fromEntries([...result.results].map(([address, { detail }]) => [address, Object.fromEntries(detail.verdicts.map((verdict) => [verdict.credential, verdict.valid]))]))
    expect(verdicts(api)).toEqual(verdicts(chain))
    expect(api.scores).toEqual(chain.scores)
    const positive = Object.values(chain.scores).filter((score) => score > 0).length
    expect(positive).toBeGreaterThan(20)
    expect(positive).toBeLessThan(voters.length)
    // Every credential held by someone, and refused to someone else for a reason.
    for (const credential of allFour) {
      const reasons = new Set([...chain.results.values()].flatMap(({ detail }) => detail.verdicts.filter((verdict) => verdict.credential === credential).map((verdict) => verdict.reason)))
      expect(reasons.has('valid'), credential).toBe(true)
      expect(reasons.size, credential).toBeGreaterThan(1)
    }
  }, 120_000)

  it('a space on Ethereum is judged on the hub chain block at its snapshot block\'s time', async () => {
    const ethereumBlock = 22_663_079
    const time = ethereumClock.genesisTime + ethereumBlock * ethereumClock.blockTimeSeconds
    const hubBlock = running.chain!.blockAt(new Date(time * 1000).toISOString())
    const [onEthereum, onHub] = await Promise.all([
      run({ credentials: ['gov-id', 'clean-hands'] }, { network: '1', snapshot: ethereumBlock }),
      run({ credentials: ['gov-id', 'clean-hands'] }, { snapshot: Number(hubBlock) }),
    ])
    expect(onEthereum.scores).toEqual(onHub.scores)
    const detail = [...onEthereum.results.values()][0]!.detail
    expect(detail.hubBlock).toEqual({ chainId: 10, blockNumber: hubBlock, timestamp: running.chain!.timeOf(hubBlock).getTime() / 1000 })
    expect(detail.hubBlock.timestamp).toBeLessThanOrEqual(time)
    expect(detail.hubBlock.timestamp + 2).toBeGreaterThan(time)
    // The hub chain's clock finds it, and the reader's own answer (its block's number and time)
    // confirms it: no header of the hub chain is read, one reader call is made.
    expect(onEthereum.requests['hub chain block at the snapshot time']).toBeUndefined()
    expect(onEthereum.requests['Human ID contracts on chain (the deployless reader)']).toBe(1)
  }, 120_000)

  it("a hub clock the chain is not on: the reader's block is off it, so the block is searched and the first call redone; a later call for that snapshot reuses the block", async () => {
    const ethereumBlock = 22_663_079
    const { state } = running.app.context.store
    // One second off the world's chain: every block sits a second before where this clock puts it.
    const hubClock = { anchor: { blockNumber: 0n, timestamp: BigInt(state.chain.genesisTime) + 1n }, blockTimeSeconds: state.chain.blockTimeSeconds, exact: true }
    const offClock: StrategyContext = { ...context, cache: createStrategyCache(), humanId: { ...context.humanId, hubClock } }
    const reader = 'Human ID contracts on chain (the deployless reader)'
    const options = { credentials: ['gov-id', 'phone'] }
    const [right, off] = await Promise.all([run(options, { network: '1', snapshot: ethereumBlock }), run(options, { network: '1', snapshot: ethereumBlock, context: offClock })])
    expect(off.scores).toEqual(right.scores)
    expect([...off.results.values()][0]!.detail.hubBlock).toEqual([...right.results.values()][0]!.detail.hubBlock)
    expect(right.requests).toEqual({ provider: 1, [reader]: 1 })
    expect(off.requests[reader]).toBe(2)
    expect(off.requests['hub chain block at the snapshot time']).toBeGreaterThan(0)
    const again = await run(options, { network: '1', snapshot: ethereumBlock, context: offClock })
    expect(again.requests).toEqual({ provider: 1, [reader]: 1 })
    expect(again.scores).toEqual(right.scores)
  }, 120_000)

  it("the first read at the clock's block fails: searched and redone when the node has no state there, thrown as it is otherwise (src/rules/hub.ts's hubClockStep, as in the folder)", async () => {
    const ethereumBlock = 22_663_079
    const reader = 'Human ID contracts on chain (the deployless reader)'
    const options = { credentials: ['gov-id', 'phone'] }
    /** The hub chain, whose next eth_call fails once with `message`. */
    const failingOnce = (message: string): StrategyContext => {
      let fail = true
      const hubChain = {
        request: async (args: { method: string; params?: unknown }) => {
          if (fail && args.method === 'eth_call') {
            fail = false
            throw new Error(message)
          }
          return running.chain!.provider.request(args as never)
        },
      }
      return { ...context, cache: createStrategyCache(), humanId: { ...context.humanId, hubChain } }
    }
    const right = await run(options, { network: '1', snapshot: ethereumBlock })
    const missing = await run(options, { network: '1', snapshot: ethereumBlock, context: failingOnce('header not found') })
    expect(missing.scores).toEqual(right.scores)
    expect(missing.requests[reader]).toBe(2)
    expect(missing.requests['hub chain block at the snapshot time']).toBeGreaterThan(0)
    await expect(run(options, { network: '1', snapshot: ethereumBlock, context: failingOnce('connection reset') })).rejects.toThrow(/connection reset/)
  }, 120_000)

  it('without a hub-chain RPC, a space on another network is an options error', async () => {
    const { hubChain: _omitted, ...humanId } = context.humanId!
    await expect(run({ credentials: ['gov-id'] }, { network: '1', snapshot: 22_663_079, context: { ...context, humanId } })).rejects.toThrow(StrategyOptionsError)
    await expect(run({ credentials: ['gov-id'] }, { network: '1', snapshot: 22_663_079, context: { ...context, humanId } })).rejects.toThrow(/HUMAN_ID_RPC_URL/)
    // A CLI user is told the flag too.
    await expect(run({ credentials: ['gov-id'] }, { network: '1', snapshot: 22_663_079, context: { ...context, humanId } })).rejects.toThrow(/the CLI's --hub-chain-rpc, HUMAN_ID_RPC_URL/)
  })

  it('match all needs every credential, any one of them; score sets the value', async () => {
    const [any, all] = await Promise.all([run({ credentials: ['gov-id', 'phone'], match: 'any', score: 3 }), run({ credentials: ['gov-id', 'phone'], match: 'all' })])
    const anyCount = Object.values(any.scores).filter((score) => score === 3).length
    const allCount = Object.values(all.scores).filter((score) => score === 1).length
    expect(new Set(Object.values(any.scores))).toEqual(new Set([0, 3]))
    expect(allCount).toBeLessThan(anyCount)
    for (const [address, score] of Object.entries(all.scores)) if (score > 0) expect(any.scores[address as Address]).toBe(3)
    for (const { detail } of all.results.values()) {
      if (detail.eligible) expect(detail.verdicts.filter((verdict) => verdict.valid).map((verdict) => verdict.credential).sort()).toEqual(['gov-id', 'phone'])
    }
  }, 120_000)

  it('an action id is read in decimal or hex, and another action id finds none of the world\'s credentials', async () => {
    const [decimal, hex, other] = await Promise.all([
      run({ credentials: ['gov-id'] }),
      run({ credentials: ['gov-id'], actionId: '0x75bcd15' }),
      run({ credentials: ['gov-id'], actionId: 42 }),
    ])
    expect(hex.scores).toEqual(decimal.scores)
    expect(Object.values(decimal.scores).some((score) => score > 0)).toBe(true)
    expect(Object.values(other.scores).every((score) => score === 0)).toBe(true)
  }, 120_000)

  it('invalid options are refused before any request', async () => {
    let requests = 0
    const counting: StrategyContext = { ...context, fetch: (input, init) => (requests++, fetch(input, init)) }
    for (const options of [{ credentials: [] }, { credentials: ['passport'] }, { match: 'most' }, { actionId: 'abc' }, { source: 'rumour' }, { score: 0 }, { extra: true }]) {
      await expect(run(options, { context: counting })).rejects.toThrow(StrategyOptionsError)
    }
    expect(requests).toBe(0)
  })

  it('a hub chain that fails, or an index that fails, is an error naming the source and the voters', async () => {
    const few = voters.slice(0, 3)
    const broken = { humanId: { ...context.humanId, hubChain: 'http://127.0.0.1:9/' }, cache: false as const, now }
    const onChain = run({ credentials: ['gov-id'] }, { network: '1', snapshot: 22_663_079, addresses: few, context: broken })
    await expect(onChain).rejects.toThrow(StrategySourceError)
    await expect(onChain).rejects.toThrow(/Human ID contracts on chain \(the deployless reader\)/)
    const noIndex = { ...context, humanId: { ...context.humanId, attestationIndexBaseUrl: 'http://127.0.0.1:9' } }
    const error = await run({ credentials: ['clean-hands'], source: 'api' }, { addresses: few, context: noIndex }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StrategySourceError)
    expect((error as StrategySourceError).message).toMatch(/attestation index/)
    expect((error as StrategySourceError).addresses).toEqual(few.map((address) => expect.stringMatching(new RegExp(address, 'i'))))
  }, 120_000)
})
