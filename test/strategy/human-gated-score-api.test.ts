/**
 * human-gated with inner strategies from score-api (`context.scoreApi`): the gated world's token
 * vote asked of a score-api stand-in (test/score-api-host/score-api-stand-in.ts, score-api's exact
 * request, answer and error shapes, `erc20-balance-of` computed from the local chains) gives the
 * same scores as the same strategy run in process; every answer that is not score-api's shape, an
 * address twice, a failure or a 'latest' answer is an error naming the inner strategy, never a 0;
 * gates do not nest; an inner option of this package's strategies is named.
 */
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScoreApiClient } from '../../src/clients/score-api.js'
import { StrategyDeadlineError, StrategyOptionsError, StrategySourceError } from '../../src/errors/strategy.js'
import type { StrategyContext } from '../../src/strategy/context.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanGatedStrategy } from '../../src/strategy/human-gated.js'
import { startScoreApiStandIn, type ScoreApiStandIn } from '../score-api-host/score-api-stand-in.js'
import { startGatedWorld, type GatedWorld } from './gated-world.js'
import { erc20BalanceOf } from './token-chain.js'

let gated: GatedWorld
let standIn: ScoreApiStandIn
let voters: Address[]

beforeAll(async () => {
  gated = await startGatedWorld()
  voters = gated.voters
  standIn = await startScoreApiStandIn({
    strategies: { 'erc20-balance-of': erc20BalanceOf },
    networks: { '1': { provider: gated.ethereum.provider, blockAt: gated.ethereum.blockAt }, '8453': { provider: gated.base.provider, blockAt: gated.base.blockAt } },
    apiKeys: ['operator-key'],
  })
}, 180_000)
afterAll(async () => {
  await standIn?.close()
  await gated?.close()
})

/** The world's sources with score-api for every inner strategy (no registry, no other network's client). */
function throughScoreApi(overrides: Partial<StrategyContext> = {}): StrategyContext {
  return { ...gated.server.context(), scoreApi: { url: standIn.url, apiKey: 'operator-key', maxAddresses: 30 }, ...overrides }
}

function run(options: Record<string, unknown>, context: StrategyContext, addresses: readonly string[] = voters) {
  return runStrategy(humanGatedStrategy, { network: '1', provider: gated.ethereum.provider, addresses, options: { strategies: gated.inner(), ...options }, snapshot: gated.snapshot, context })
}

describe('human-gated through score-api', () => {
  it('equals the same inner strategies run in process, in every mode; one request per inner strategy and 30 voters, with the key', async () => {
    for (const options of [{ mode: 'gate' }, { mode: 'quadratic' }, { mode: 'cap', cap: 5, passportScore: 0.5 }]) {
      const before = standIn.requests.length
      const [remote, local] = await Promise.all([run(options, throughScoreApi()), run(options, gated.context())])
      expect(remote.scores).toEqual(local.scores)
      // 80 voters in chunks of 30, for each of the two inner strategies.
      const sent = standIn.requests.slice(before)
      expect(sent).toHaveLength(6)
      expect(sent.every((request) => request.apiKey === 'operator-key' && request.params.network === '1' && request.params.snapshot === Number(gated.snapshot))).toBe(true)
      expect(Math.max(...sent.map((request) => (request.params.addresses as string[]).length))).toBe(30)
      expect(remote.requests['inner strategy "erc20-balance-of" on network 8453 through score-api']).toBe(3)
    }
    const twoNetworks = voters.find((voter, index) => index % 5 === 3)!
    const { scores, results } = await run({ mode: 'gate', passportScore: 1 }, throughScoreApi(), [twoNetworks])
    expect(results.get(twoNetworks)!.detail.inner).toEqual([
      { strategy: 'erc20-balance-of', network: '1', blockNumber: gated.snapshot, score: 2.5, via: 'score-api' },
      // score-api maps the Base block by time and does not say which.
      { strategy: 'erc20-balance-of', network: '8453', blockNumber: null, score: 1.5, via: 'score-api' },
    ])
    expect([0, 4]).toContain(scores[twoNetworks])
  }, 180_000)

  const fewVoters = () => voters.slice(0, 5)
  const failing = async (...answers: { status: number; body: string }[]) => {
    standIn.answerNext(...answers)
    const error = await run({ mode: 'gate', strategies: [gated.inner()[0]] }, throughScoreApi(), fewVoters()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StrategySourceError)
    expect((error as StrategySourceError).source).toBe('inner strategy "erc20-balance-of" on network 1 through score-api')
    expect((error as StrategySourceError).addresses).toEqual(fewVoters())
    return (error as StrategySourceError).shortMessage
  }
  const answer = (result: unknown) => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', result, id: null, cache: false }) })

  it('an address with two scores in any casing, an address not asked for, or another shape is an error naming the inner strategy, never a 0', async () => {
    const [one] = fewVoters()
    expect(await failing(answer({ state: 'final', scores: [{ [one!]: 1, [one!.toLowerCase()]: 2 }] }))).toBe(
      `score-api's answer is not its documented shape: result.scores.0.${one}: score-api (strategy erc20-balance-of) answered two different rows for ${one}: 1 under ${one} and 2 under ${one!.toLowerCase()}.`,
    )
    expect(await failing(answer({ state: 'final', scores: [{ '0x000000000000000000000000000000000000dEaD': 1 }] }))).toMatchInlineSnapshot(
      `"score-api's answer is not its documented shape: result.scores.0.0x000000000000000000000000000000000000dEaD: An address that was not asked for."`,
    )
    expect(await failing(answer({ state: 'final', scores: [] }))).toMatchInlineSnapshot(`"score-api's answer is not its documented shape: result.scores: 0 score maps for 1 strategies."`)
    expect(await failing({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: { state: 'final', scores: [{ [one!]: '1' }] }, id: null }) })).toBe(
      `score-api's answer is not its documented shape: result.scores.0.${one!}: Invalid input: expected number, received string; cache: Invalid input: expected boolean, received undefined`,
    )
  }, 60_000)

  it("a failure of score-api (a strategy that threw, a 'latest' answer, a refused key) is an error naming the inner strategy", async () => {
    expect(await failing({ status: 500, body: JSON.stringify({ jsonrpc: '2.0', error: { code: 500, message: 'unauthorized', data: 'execution reverted' }, id: null }) })).toMatchInlineSnapshot(
      `"score-api answered 500: execution reverted"`,
    )
    expect(await failing(answer({ state: 'pending', scores: [{}] }))).toMatchInlineSnapshot(`"score-api scored at 'latest' (state pending): its node of network 1 has not reached block ${gated.snapshot} yet. Retry later."`)
    const refused = await run({ mode: 'gate' }, throughScoreApi({ scoreApi: { url: standIn.url, apiKey: 'stolen-key' } }), fewVoters()).catch((caught: unknown) => caught)
    expect((refused as StrategySourceError).shortMessage).toMatchInlineSnapshot(`"score-api answered 400: invalid api key"`)
    // A real failure of the strategy inside score-api: a token address with no code reverts balanceOf.
    const reverted = await run({ strategies: [{ name: 'erc20-balance-of', params: { address: '0x000000000000000000000000000000000000dEaD', decimals: 18 } }] }, throughScoreApi(), fewVoters()).catch((caught: unknown) => caught)
    expect(reverted).toBeInstanceOf(StrategySourceError)
    expect((reverted as StrategySourceError).shortMessage).toMatch(/^score-api answered 500: /)
  }, 60_000)

  it('a score-api that does not answer in time is a deadline error naming the inner strategy', async () => {
    const hanging: typeof fetch = (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))
    const client = createScoreApiClient({ url: 'http://127.0.0.1:9', fetch: hanging })
    const error = await run({ mode: 'gate' }, throughScoreApi({ scoreApi: { url: 'http://127.0.0.1:9', client }, deadlineMs: 50 }), fewVoters()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StrategyDeadlineError)
    expect((error as StrategyDeadlineError).source).toMatch(/^inner strategy "erc20-balance-of" on network (1|8453) through score-api$/)
  }, 60_000)

  it('refuses before any request: a strategy score-api does not have, a gate inside a gate, a bad inner option of this package, no score-api', async () => {
    const before = standIn.requests.length
    const issues = async (options: Record<string, unknown>, context = throughScoreApi()) => {
      const error = await run(options, context).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(StrategyOptionsError)
      return (error as StrategyOptionsError).issues
    }
    expect(await issues({ strategies: [{ name: 'human-gated', params: { strategies: gated.inner() } }] })).toMatchInlineSnapshot(`
      [
        {
          "message": ""human-gated" cannot be an inner strategy of human-gated: gates do not nest (put its inner strategies here instead).",
          "path": [
            "strategies",
            0,
            "name",
          ],
        },
      ]
    `)
    expect(await issues({ strategies: [{ name: 'human-id', params: { credentials: ['passport'] } }] })).toMatchInlineSnapshot(`
      [
        {
          "message": "Invalid option: expected one of "gov-id"|"phone"|"biometrics"|"clean-hands"",
          "path": [
            "strategies",
            0,
            "params",
            "credentials",
            0,
          ],
        },
      ]
    `)
    expect(await issues({}, gated.server.context())).toMatchInlineSnapshot(`
      [
        {
          "message": "strategies.0.name: no strategy "erc20-balance-of" among this package's (human-id, passport-v2, human-verification), and no score-api is configured to run it: set PERSONHOOD_SCORE_API_URL (context.scoreApi).",
          "path": [
            "PERSONHOOD_SCORE_API_URL",
          ],
        },
      ]
    `)
    expect(standIn.requests.length).toBe(before)
    // score-api's own refusal of a name it does not have (one request, answered 400) is an option error too.
    expect(await issues({ strategies: [{ name: 'erc20-balance-off', params: {} }] })).toMatchInlineSnapshot(`
      [
        {
          "message": "score-api has no strategy "erc20-balance-off" (it answered "invalid strategies: erc20-balance-off").",
          "path": [
            "strategies",
            0,
            "name",
          ],
        },
      ]
    `)
  }, 60_000)
})

describe('personhood score previews human-gated over score-api', () => {
  it('PERSONHOOD_SCORE_API_URL (or --score-api) gives the command the same scores as the library', async () => {
    const { startUpstreams } = await import('../score-api-host/upstreams.js')
    const { runScoreCommand } = await import('../../src/cli/score.js')
    const context = gated.server.context()
    // The Ethereum token chain over HTTP, as the command takes a network (--rpc).
    const upstreams = await startUpstreams({ '1': gated.ethereum.provider })
    try {
      const addresses = voters.slice(0, 20)
      const before = standIn.requests.length
      const options = { strategies: gated.inner(), mode: 'quadratic', scorerId: 1 }
      const env = {
        PASSPORT_API_KEY: context.passport!.apiKey!,
        PASSPORT_API_URL: context.passport!.baseUrl!,
        PASSPORT_API_TIER: '3',
        HUMAN_ID_RPC_URL: context.humanId!.hubChain as string,
        HUMAN_ID_API_URL: context.humanId!.baseUrl!,
        ATTESTATION_INDEX_URL: context.humanId!.attestationIndexBaseUrl!,
        PERSONHOOD_SCORE_API_KEY: 'operator-key',
      }
      const command = await runScoreCommand(
        { strategy: 'human-gated', network: '1', snapshot: String(gated.snapshot), addresses: addresses.join(','), options: JSON.stringify(options), rpc: `${upstreams.broviderUrl}/1`, scoreApi: standIn.url, format: 'json' },
        { env, log: () => {} },
      )
      const library = await run({ mode: 'quadratic', scorerId: 1 }, gated.context(), addresses)
      expect(command.scores).toEqual(library.scores)
      expect(standIn.requests.slice(before).map((request) => request.apiKey)).toEqual(['operator-key', 'operator-key'])
    } finally {
      await upstreams.close()
    }
  }, 180_000)
})
