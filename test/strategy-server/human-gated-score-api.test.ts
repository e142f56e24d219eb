/**
 * score-api's api-v2 code path (test/strategy-server/api-v2.ts) against the strategy server serving
 * `human-gated` over `erc20-balance-of`, whose scores the server asks of a score-api stand-in
 * (test/score-api-host/score-api-stand-in.ts) computing them from the gated world's local chains:
 * the answers equal the library's (`runStrategy` with the same strategy in process), in every mode.
 * A restart with neither the Passport key nor score-api serves every stored answer unchanged.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runStrategy } from '../../src/strategy/define.js'
import { humanGatedStrategy } from '../../src/strategy/human-gated.js'
import { startStrategyServer, type RunningStrategyServer, type StrategyServerConfig } from '../../src/strategy-server/start.js'
import { startScoreApiStandIn, type ScoreApiStandIn } from '../score-api-host/score-api-stand-in.js'
import { startGatedWorld, type GatedWorld } from '../strategy/gated-world.js'
import { erc20BalanceOf } from '../strategy/token-chain.js'
import { apiV2 } from './api-v2.js'

const salt = 'gate-test-salt-of-this-run'
let gated: GatedWorld
let standIn: ScoreApiStandIn
let folder: string
const running: RunningStrategyServer[] = []

beforeAll(async () => {
  gated = await startGatedWorld()
  standIn = await startScoreApiStandIn({
    strategies: { 'erc20-balance-of': erc20BalanceOf },
    networks: { '1': { provider: gated.ethereum.provider, blockAt: gated.ethereum.blockAt }, '8453': { provider: gated.base.provider, blockAt: gated.base.blockAt } },
  })
  folder = mkdtempSync(join(tmpdir(), 'strategy-server-gate-'))
}, 180_000)
afterAll(async () => {
  for (const server of running) await server.close()
  await standIn?.close()
  await gated?.close()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

/** The server on the Ethereum token chain, its sources the world's; score-api and the Passport key as given. */
async function start(config: Partial<StrategyServerConfig>, withKeys: boolean): Promise<RunningStrategyServer> {
  const world = gated.server.context()
  const server = await startStrategyServer({
    config: { port: 0, salt, store: join(folder, 'answers.log'), answerWithinMs: 600_000, ...config },
    providers: { '1': gated.ethereum.provider },
    context: { humanId: world.humanId, passport: withKeys ? world.passport : { ...world.passport, apiKey: undefined }, ...(world.clients ? { clients: world.clients } : {}) },
    now: world.now,
  })
  running.push(server)
  return server
}

const modes = [{ mode: 'gate' }, { mode: 'quadratic' }, { mode: 'cap', cap: 5, passportScore: 0.5 }] as const

function ask(server: RunningStrategyServer, options: Record<string, unknown>, addresses: string[]) {
  return apiV2(
    { url: `${server.url}/strategies/human-gated`, type: 'api-post', decimals: 6, symbol: 'VOTE', strategies: gated.inner(), scorerId: 1, ...options },
    { network: '1', snapshot: Number(gated.snapshot), addresses },
    salt,
  )
}

describe('human-gated on the strategy server, inner strategies from score-api', () => {
  const answers = new Map<string, Record<string, number>>()

  it("api-v2's answer equals the library's in every mode, for 80 voters and for single voters", async () => {
    const server = await start({ scoreApi: { url: standIn.url } }, true)
    for (const options of modes) {
      const library = await runStrategy(humanGatedStrategy, {
        network: '1',
        provider: gated.ethereum.provider,
        addresses: gated.voters,
        options: { strategies: gated.inner(), scorerId: 1, ...options },
        snapshot: gated.snapshot,
        context: gated.context(),
      })
      const { scores, response } = await ask(server, options, gated.voters.map((voter) => voter.toLowerCase()))
      expect(response.status).toBe(200)
      expect(scores).toEqual(library.scores)
      expect(Object.values(scores).filter((score) => score > 0).length).toBeGreaterThan(5)
      answers.set(options.mode, scores)
      for (const voter of gated.voters.slice(0, 5)) {
        const single = await ask(server, options, [voter])
        expect(single.scores[getAddress(voter)]).toBe(library.scores[voter])
        // Stored once final: no new request to score-api.
        expect(single.response.headers.get('X-Personhood-Cache-Hits')).toBe('1')
      }
    }
    // Chunks of 500: one request per inner strategy per call of 80 voters.
    expect(standIn.requests.length).toBe(modes.length * 2)
  }, 180_000)

  it('a restart with neither the Passport key nor score-api serves every stored answer, sending nothing', async () => {
    expect(answers.size).toBe(modes.length)
    for (const server of running.splice(0)) await server.close()
    const before = standIn.requests.length
    const server = await start({}, false)
    for (const options of modes) {
      const { scores, response } = await ask(server, options, gated.voters)
      expect(response.status).toBe(200)
      expect(scores).toEqual(answers.get(options.mode))
    }
    expect(standIn.requests.length).toBe(before)
    // A voter never asked needs a run, which this server cannot make: it says so (never a 0).
    const stranger = '0x00000000000000000000000000000000000a11ce'
    const failed = (await ask(server, { mode: 'gate' }, [stranger]).catch((error: unknown) => error)) as { status: number; body: string }
    expect(failed.status).toBe(500)
    expect(JSON.parse(failed.body).error.code).toBe('SERVER_NOT_CONFIGURED')
  }, 180_000)
})
