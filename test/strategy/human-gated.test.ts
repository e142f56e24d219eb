/**
 * human-gated on the demo world (the local hub chain and the reference server) with a real token
 * vote as its inner strategy: a TestToken on an Ethereum chain (the space's network, 12 s blocks)
 * and another on a Base chain (2 s blocks), balances minted by transactions before the snapshot and
 * more after it. Each mode, both networks, the snapshot honoured on each, the human test asked only
 * for holders, and every failing source an error rather than a 0.
 */
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StrategyOptionsError, StrategySourceError } from '../../src/errors/strategy.js'
import type { StrategyContext } from '../../src/strategy/context.js'
import { createStrategyCache } from '../../src/strategy/cache.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanGatedStrategy } from '../../src/strategy/human-gated.js'
import { humanIdSourceNames } from '../../src/strategy/human-id.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import { strategyDefinitions } from '../../src/strategy/registry.js'
import type { ExampleServer } from '../strategies/conformance.js'
import { startGatedWorld, type GatedWorld } from './gated-world.js'
import type { TokenChain } from './token-chain.js'

let gated: GatedWorld
let server: ExampleServer
let voters: Address[]
let ethereum: TokenChain
let snapshot: bigint

beforeAll(async () => {
  gated = await startGatedWorld()
  ;({ server, voters, ethereum, snapshot } = gated)
}, 180_000)
afterAll(() => gated?.close())

const inner = () => gated.inner()
const context = (overrides: Partial<StrategyContext> = {}) => gated.context(overrides)
const power = (voter: Address) => gated.power(voter)

/** The context with every HTTP request (hub chain JSON-RPC, Passport, attestation index) recorded. */
function recording(given: StrategyContext): { context: StrategyContext; urls: string[] } {
  const urls: string[] = []
  const fetcher = given.fetch ?? fetch
  return {
    urls,
    context: {
      ...given,
      fetch: (input, init) => {
        urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
        return fetcher(input, init)
      },
    },
  }
}

function run(options: Record<string, unknown>, given = context(), addresses: readonly string[] = voters) {
  return runStrategy(humanGatedStrategy, { network: '1', provider: ethereum.provider, addresses, options: { strategies: inner(), ...options }, snapshot, context: given })
}

/** The human test alone (human-verification with verifiedScore 1): each voter's weight. */
async function weights(passportScore = 1): Promise<Record<Address, number>> {
  const { scores } = await runStrategy(humanVerificationStrategy, {
    network: '1',
    provider: ethereum.provider,
    addresses: voters,
    options: { verifiedScore: 1, passportScore, scorerId: 1 },
    snapshot,
    context: server.context(),
  })
  return scores
}


describe('human-gated', () => {
  it('gate: a human keeps the summed power of both networks at the snapshot, anyone else 0', async () => {
    const [result, weight] = await Promise.all([run({ mode: 'gate' }), weights()])
    for (const voter of voters) {
      expect(result.results.get(voter)!.detail.power).toBe(power(voter))
      expect(result.scores[voter]).toBe(weight[voter]! > 0 ? power(voter) : 0)
    }
    const humans = voters.filter((voter) => weight[voter]! > 0 && power(voter) > 0)
    const sybils = voters.filter((voter) => weight[voter] === 0 && power(voter) > 0)
    expect(humans.length).toBeGreaterThan(3)
    expect(sybils.length).toBeGreaterThan(3)
    // Both networks count: a human with 2.5 on Ethereum and 1.5 on Base votes with 4.
    const twoNetworks = humans.find((voter) => voters.indexOf(voter) % 5 === 3)!
    expect(result.scores[twoNetworks]).toBe(4)
    expect(result.results.get(twoNetworks)!.detail.inner.map(({ network, score }) => [network, score])).toEqual([
      ['1', 2.5],
      ['8453', 1.5],
    ])
    // The Base block is the last one at or before the snapshot's time.
    expect(result.results.get(twoNetworks)!.detail.inner[1]!.blockNumber).toBe(5_000n)
  }, 180_000)

  it('quadratic: the square root of the power for a human; dust of 0.01 counts 0.1', async () => {
    const [result, weight] = await Promise.all([run({ mode: 'quadratic' }), weights()])
    for (const voter of voters) expect(result.scores[voter]).toBe(weight[voter]! > 0 ? Math.sqrt(power(voter)) : 0)
    const humanAt = (row: number) => voters.find((voter, index) => index % 5 === row && weight[voter]! > 0)!
    expect(result.scores[humanAt(1)]).toBe(2.5)
    expect(result.scores[humanAt(2)]).toBe(0.1)
    expect(result.scores[humanAt(3)]).toBe(2)
    expect(result.scores[humanAt(4)]).toBe(10)
  }, 180_000)

  it('cap: a human counts at most the cap; a Passport-only human counts passportScore of it', async () => {
    const [result, weight] = await Promise.all([run({ mode: 'cap', cap: 5, passportScore: 0.5 }), weights(0.5)])
    for (const voter of voters) expect(result.scores[voter]).toBe(weight[voter]! > 0 ? Math.min(power(voter), 5) * weight[voter]! : 0)
    expect(Object.values(weight)).toContain(0.5)
    const capped = voters.find((voter, index) => index % 5 === 4 && weight[voter] === 1)!
    expect(result.scores[capped]).toBe(5)
    const passportOnly = voters.find((voter, index) => index % 5 === 1 && weight[voter] === 0.5)!
    expect(result.scores[passportOnly]).toBe(2.5)
  }, 180_000)

  it('asks the human test nothing about a voter whose power is 0', async () => {
    const empty = voters.filter((_, index) => index % 5 === 0)
    const { context: counted, urls } = recording(context())
    const result = await run({ mode: 'gate' }, counted, empty)
    expect(Object.values(result.scores).every((score) => score === 0)).toBe(true)
    expect(urls).toEqual([])
    expect(Object.keys(result.requests).every((source) => source.startsWith('inner strategy') || source.startsWith('block of network') || source === 'provider')).toBe(true)
    for (const { detail } of result.results.values()) expect(detail.human).toBeNull()
    // One holder among them: the human test is asked, and only about that holder.
    const holder = voters[1]!
    const mixed = await run({ mode: 'gate' }, counted, [...empty, holder])
    expect(urls.length).toBeGreaterThan(0)
    expect(mixed.results.get(holder)!.detail.human).not.toBeNull()
    for (const voter of empty) expect(mixed.results.get(voter)!.detail.human).toBeNull()
    expect(urls.every((url) => !empty.some((voter) => url.toLowerCase().includes(voter.toLowerCase().slice(2))))).toBe(true)
  }, 180_000)

  it('a Human ID source that fails is an error naming it, never 0', async () => {
    const given = context()
    const error = await run({ mode: 'gate' }, { ...given, humanId: { ...given.humanId, hubChain: 'http://127.0.0.1:9' } }, voters.slice(0, 10)).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StrategySourceError)
    expect(Object.values(humanIdSourceNames)).toContain((error as StrategySourceError).source)
    // Only holders were to be judged.
    expect([...(error as StrategySourceError).addresses].sort()).toEqual(voters.slice(0, 10).filter((voter) => power(voter) > 0).sort())
  }, 180_000)

  it('a Passport host that fails is an error naming the holders Human ID did not verify', async () => {
    const given = context()
    const broken = { ...given, passport: { ...given.passport, baseUrl: 'http://127.0.0.1:9', registryBaseUrl: 'http://127.0.0.1:9' } }
    const judged = await run({ mode: 'gate', passportScore: 0 }, context(), voters.slice(0, 30))
    const notByHumanId = voters.slice(0, 30).filter((voter) => power(voter) > 0 && judged.results.get(voter)!.detail.weight === 0)
    expect(notByHumanId.length).toBeGreaterThan(0)
    const error = await run({ mode: 'gate' }, broken, voters.slice(0, 30)).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StrategySourceError)
    expect([...(error as StrategySourceError).addresses].sort()).toEqual(notByHumanId.sort())
  }, 180_000)

  it('an inner strategy that fails is an error naming it and its network', async () => {
    const options = { strategies: [inner()[0]!, { name: 'erc20-balance-of', network: '8453', params: { address: '0x000000000000000000000000000000000000dEaD', decimals: 6 } }] }
    const error = await runStrategy(humanGatedStrategy, { network: '1', provider: ethereum.provider, addresses: voters.slice(0, 5), options, snapshot, context: context() }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StrategySourceError)
    expect((error as StrategySourceError).source).toBe('inner strategy "erc20-balance-of" on network 8453')
  }, 180_000)

  it('refuses, before any request, an unknown inner strategy, a network without a client, and a cap without mode cap', async () => {
    const { context: counted, urls } = recording(context({ networks: {} }))
    const calls = [
      run({ strategies: [{ name: 'no-such-strategy', params: {} }] }, counted),
      run({ mode: 'gate', cap: 3 }, counted),
      run({ mode: 'cap' }, counted),
    ]
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(StrategyOptionsError)
    await expect(run({}, counted)).rejects.toThrow(/No client of network 8453/)
    expect(urls).toEqual([])
  }, 60_000)

  it("reads the snapshot's header once, for itself and an inner strategy of this package on the space's network", async () => {
    // A provider of its own, so that no earlier call has kept this block's header; a cache (the
    // server's context has none, and `cache: false` reads every header).
    const provider = { request: (args: { method: string; params?: unknown }) => ethereum.provider.request(args as never) }
    const headers: unknown[] = []
    const counted = { request: (args: { method: string; params?: unknown }) => (args.method === 'eth_getBlockByNumber' && headers.push(args.params), provider.request(args)) }
    const options = { strategies: [{ name: 'passport-v2', params: { mode: 'weighted', scorerId: 1 } }], mode: 'gate', passportScore: 0 }
    const result = await runStrategy(humanGatedStrategy, { network: '1', provider: counted, addresses: voters.slice(0, 20), options, snapshot, context: context({ strategies: strategyDefinitions, cache: createStrategyCache() }) })
    expect(headers).toHaveLength(1)
    expect(Object.entries(result.requests).filter(([source]) => source === 'provider' || source.endsWith(': provider'))).toEqual([['provider', 1]])
  }, 180_000)

  it("runs a definition of this package as an inner strategy (the registry's other form)", async () => {
    const result = await run(
      { strategies: [{ name: 'human-id', network: '10', params: { credentials: ['gov-id'], score: 7 } }], mode: 'gate', passportScore: 0 },
      context({ strategies: strategyDefinitions, networks: { '10': { provider: server.provider('10') as never, clock: server.context().humanId!.hubClock } } }),
      voters.slice(0, 20),
    )
    for (const voter of voters.slice(0, 20)) {
      const { power: innerPower, weight } = result.results.get(voter)!.detail
      // Whoever human-id scores 7 is verified by gov-id, so the human test (gov-id among its credentials) agrees.
      expect(innerPower === 0 || innerPower === 7).toBe(true)
      if (innerPower === 7) expect(weight).toBe(1)
      expect(result.scores[voter]).toBe(innerPower)
    }
    expect(Object.values(result.scores).filter((score) => score === 7).length).toBeGreaterThan(0)
  }, 180_000)
})
