/**
 * The strategy server driven as score-api's api-v2 drives it (test/strategy-server/api-v2.ts), on
 * the demo world's local chain and reference server: its answers equal `runStrategy` on the same
 * world for 500 voters and for single voters; failures are never a 200 and never zeros; answers
 * for a final snapshot are kept and shared across calls.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRateLimiter } from '../../src/http/rate-limit.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanIdStrategy } from '../../src/strategy/human-id.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import { passportV2Strategy } from '../../src/strategy/passport-v2.js'
import { startStrategyServer, type RunningStrategyServer, type StrategyServerConfig } from '../../src/strategy-server/start.js'
import { openAnswerStore } from '../../src/strategy-server/store.js'
import { humanVerificationServing } from '../strategies/human-id-serving.js'
import type { ExampleServer } from '../strategies/conformance.js'
import { until } from '../helpers/async.js'
import { startRpcGate } from '../helpers/rpc-gate.js'
import { apiV2, ApiV2Error } from './api-v2.js'

const salt = 'test-salt-of-this-run'
const snapshot = 136_566_811
let world: ExampleServer & { env: Record<string, string> }
let server: RunningStrategyServer
let folder: string
let voters: string[]

function configOf(store: string, overrides: Partial<StrategyServerConfig> = {}): StrategyServerConfig {
  return {
    port: 0,
    store,
    salt,
    rpc: { '10': world.env.HUMAN_ID_RPC_URL as string },
    passport: { apiKey: world.env.PASSPORT_API_KEY as string, baseUrl: world.env.PASSPORT_API_URL as string, tier: 3, scorerId: '1' },
    humanId: { hubChainRpc: world.env.HUMAN_ID_RPC_URL as string, apiUrl: world.env.HUMAN_ID_API_URL as string, attestationIndexUrl: world.env.ATTESTATION_INDEX_URL as string },
    // No answer here may turn into a 503 on a slow machine: the time limit has its own test (limits.test.ts).
    answerWithinMs: 600_000,
    ...overrides,
  }
}

const now = () => world.context().now!()

beforeAll(async () => {
  world = (await humanVerificationServing.start()) as typeof world
  folder = mkdtempSync(join(tmpdir(), 'strategy-server-'))
  server = await startStrategyServer({ config: configOf(join(folder, 'answers.log')), now })
  voters = world.voters(1000)
}, 120_000)

afterAll(async () => {
  await server?.close()
  await world?.close()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

const cases = [
  { strategy: 'human-id', definition: humanIdStrategy, options: { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'any' }, decimals: 0 },
  { strategy: 'passport-v2', definition: passportV2Strategy, options: { scorerId: 1, mode: 'weighted' }, decimals: 5 },
  { strategy: 'human-verification', definition: humanVerificationStrategy, options: { credentials: ['gov-id', 'phone'], verifiedScore: 3, passportScore: 2, scorerId: 1 }, decimals: 0 },
] as const

function direct(definition: (typeof cases)[number]['definition'], options: Record<string, unknown>, addresses: string[], block: number | bigint = snapshot) {
  return runStrategy(definition as typeof humanVerificationStrategy, { network: '10', provider: world.provider('10'), addresses, options, snapshot: block, context: world.context() })
}

function post(strategy: string, options: Record<string, unknown>, addresses: string[], call: { snapshot?: number | 'latest'; decimals?: number } = {}) {
  return apiV2(
    { url: `${server.url}/strategies/${strategy}`, type: 'api-post', ...(call.decimals === undefined ? {} : { decimals: call.decimals }), ...options },
    { network: '10', snapshot: call.snapshot ?? snapshot, addresses },
    salt,
  )
}

describe('strategy-server through api-v2 (api-post)', () => {
  for (const { strategy, definition, options, decimals } of cases) {
    it(`${strategy}: 500 voters and single voters equal runStrategy on the same world`, async () => {
      const addresses = voters.slice(0, 500)
      const [served, expected] = await Promise.all([post(strategy, options, addresses, { decimals }), direct(definition, options, addresses)])
      expect(served.scores).toEqual(expected.scores)
      expect(served.response.headers.get('X-Snapshot-Block')).toBe(String(snapshot))
      expect(served.response.headers.get('X-Personhood-Final')).toBe('true')
      expect(new Set(Object.values(expected.scores)).size).toBeGreaterThan(1)
      // Single voters, fresh ones (not yet stored) and stored ones, in lower case as a hub may send them.
      for (const address of [...voters.slice(500, 510), ...addresses.slice(0, 10)]) {
        const one = await post(strategy, options, [address.toLowerCase()], { decimals })
        const alone = await direct(definition, options, [address])
        expect(one.scores).toEqual(alone.scores)
      }
    }, 120_000)
  }

  it('answers every address it was given, in its own casing, as integer strings scaled by decimals', async () => {
    const addresses = [voters[0]!.toLowerCase(), voters[1]!.toUpperCase().replace('0X', '0x'), voters[0]!.toLowerCase()]
    const response = await fetch(`${server.url}/strategies/passport-v2`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Snapshot-API-Strategy-Secret': (await import('../../src/strategy-server/app.js')).strategySecret(`${server.url}/strategies/passport-v2`, salt) },
      body: JSON.stringify({ options: { url: `${server.url}/strategies/passport-v2`, type: 'api-post', decimals: 5, scorerId: 1, mode: 'weighted' }, network: '10', snapshot, addresses }),
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { score: { address: string; score: string }[] }
    expect(body.score.map((entry) => entry.address)).toEqual(addresses.slice(0, 2))
    for (const entry of body.score) expect(entry.score).toMatch(/^[0-9]+$/)
    const expected = await direct(passportV2Strategy, { scorerId: 1, mode: 'weighted' }, addresses.slice(0, 2))
    expect(body.score.map((entry) => Number(entry.score) / 1e5)).toEqual(Object.values(expected.scores))
  }, 60_000)

  it('api-get answers the same as api-post', async () => {
    const addresses = voters.slice(20, 40)
    const url = `${server.url}/strategies/human-id`
    const got = await apiV2({ url, type: 'api-get', additionalParameters: `options=${encodeURIComponent(JSON.stringify({ credentials: ['gov-id'] }))}` }, { network: '10', snapshot, addresses }, salt)
    const posted = await post('human-id', { credentials: ['gov-id'] }, addresses)
    expect(got.scores).toEqual(posted.scores)
  }, 60_000)

  it('resolves latest to a block and says which in X-Snapshot-Block', async () => {
    const head = await world.latestBlock('10')
    const { scores, response } = await post('human-id', { credentials: ['gov-id'] }, voters.slice(0, 5), { snapshot: 'latest' })
    const block = BigInt(response.headers.get('X-Snapshot-Block')!)
    expect(response.headers.get('X-Snapshot-Requested')).toBe('latest')
    expect(block >= head).toBe(true)
    expect(scores).toEqual((await direct(humanIdStrategy, { credentials: ['gov-id'] }, voters.slice(0, 5), block)).scores)
  }, 60_000)

  it('a burst of 1,000 single-voter calls costs at most twice the upstream requests of one 1,000-voter call', async () => {
    // What the design guarantees, whatever the machine's speed: addresses that arrive while a run is
    // in flight ride together in the next run. So the chain is gated: the burst's first run waits at
    // its first eth_call until all 1,000 voters are queued, and the rest must then share one run.
    const gate = await startRpcGate(world.env.HUMAN_ID_RPC_URL as string)
    const gated = await startStrategyServer({
      config: configOf('none', { rpc: { '10': gate.url }, humanId: { hubChainRpc: gate.url, apiUrl: world.env.HUMAN_ID_API_URL as string, attestationIndexUrl: world.env.ATTESTATION_INDEX_URL as string } }),
      now,
    })
    try {
      const options = { credentials: ['gov-id', 'phone'], verifiedScore: 3, passportScore: 2, scorerId: 1 }
      const call = (addresses: string[], block: number) =>
        apiV2({ url: `${gated.url}/strategies/human-verification`, type: 'api-post', ...options }, { network: '10', snapshot: block, addresses }, salt)
      const upstream = () => gated.metrics.total('personhood_strategy_upstream_http_requests_total')
      // Two snapshots nothing was asked about yet: one for the one call, one for the burst.
      const whole = await call(voters, snapshot - 10)
      const oneCall = upstream()
      expect(oneCall).toBeGreaterThan(0)
      gate.hold()
      const runsBefore = gated.metrics.total('personhood_strategy_runs_total')
      const burst = Promise.all(voters.map((address) => call([address], snapshot - 20)))
      await until(() => gated.app.scorer.queued === voters.length)
      gate.release()
      const singles = await burst
      const runs = gated.metrics.total('personhood_strategy_runs_total') - runsBefore
      const cost = upstream() - oneCall
      expect(runs, 'the voters queued behind the first run share the next one').toBeLessThanOrEqual(2)
      expect(cost, `the burst: ${cost} upstream requests in ${runs} runs; one call: ${oneCall}`).toBeLessThanOrEqual(2 * oneCall)
      // And the burst's answers are the voters' own.
      const expected = await direct(humanVerificationStrategy, options, voters, snapshot - 20)
      expect(Object.assign({}, ...singles.map((single) => single.scores))).toEqual(expected.scores)
      expect(Object.keys(whole.scores)).toHaveLength(voters.length)
    } finally {
      gate.release()
      await gated.close()
      await gate.stop()
    }
  }, 300_000)

  it('keeps final answers: asked again, no upstream request is sent', async () => {
    const addresses = voters.slice(0, 500)
    const options = cases[2].options
    const first = await post('human-verification', options, addresses)
    const before = server.metrics.total('personhood_strategy_upstream_http_requests_total')
    const again = await post('human-verification', options, addresses)
    expect(again.scores).toEqual(first.scores)
    expect(again.response.headers.get('X-Personhood-Cache-Hits')).toBe('500')
    expect(server.metrics.total('personhood_strategy_upstream_http_requests_total')).toBe(before)
    expect(server.metrics.total('personhood_strategy_cache_hits_total', { strategy: 'human-verification' })).toBeGreaterThanOrEqual(500)
  }, 60_000)
})

describe('strategy-server instances', () => {
  it('two instances with stores of their own give the same answers for the same key', async () => {
    const other = await startStrategyServer({ config: configOf('none'), now })
    try {
      const addresses = voters.slice(100, 400)
      const options = cases[2].options
      const mine = await post('human-verification', options, addresses)
      const theirs = await apiV2({ url: `${other.url}/strategies/human-verification`, type: 'api-post', ...options }, { network: '10', snapshot, addresses }, salt)
      expect(theirs.scores).toEqual(mine.scores)
      expect(theirs.response.headers.get('X-Personhood-Cache-Hits')).toBe('0')
    } finally {
      await other.close()
    }
  }, 60_000)
})

describe('strategy-server failures are never zeros', () => {
  async function raw(path: string, body: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
    const json = (await response.json()) as { score?: unknown; error?: { code: string; message: string; field?: string; source?: string } }
    return { status: response.status, json, headers: response.headers }
  }
  const url = () => `${server.url}/strategies/human-id`
  const secret = async (forUrl: string) => (await import('../../src/strategy-server/app.js')).strategySecret(forUrl, salt)

  it('a wrong or missing secret is 401, and api-v2 reads it as an error', async () => {
    const body = { options: { url: url(), credentials: ['gov-id'] }, network: '10', snapshot, addresses: [voters[0]] }
    const missing = await raw('/strategies/human-id', body)
    expect(missing.status).toBe(401)
    expect(missing.json.error?.field).toBe('X-Snapshot-API-Strategy-Secret')
    const wrong = await raw('/strategies/human-id', body, { 'X-Snapshot-API-Strategy-Secret': await secret(`${url()}x`) })
    expect(wrong.status).toBe(401)
    // A secret for another endpoint's URL does not open this one.
    const other = `${server.url}/strategies/passport-v2`
    const elsewhere = await raw('/strategies/human-id', { ...body, options: { ...body.options, url: other } }, { 'X-Snapshot-API-Strategy-Secret': await secret(other) })
    expect(elsewhere.status).toBe(401)
    const error = await apiV2({ url: url(), type: 'api-post', credentials: ['gov-id'] }, { network: '10', snapshot, addresses: [voters[0]!] }, 'another-salt').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiV2Error)
    expect((error as ApiV2Error).status).toBe(401)
  })

  it('bad input is a 400 naming the field, with no score in the body', async () => {
    const good = { options: { url: url(), credentials: ['gov-id'] }, network: '10', snapshot, addresses: [voters[0], voters[1]] }
    const headers = { 'X-Snapshot-API-Strategy-Secret': await secret(url()) }
    const cases: [unknown, string][] = [
      [{ ...good, addresses: [voters[0], '0x123'] }, 'addresses[1]'],
      [{ ...good, network: '137' }, 'network'],
      [{ ...good, snapshot: 'yesterday' }, 'snapshot'],
      [{ ...good, options: { ...good.options, credentials: ['passport-of-mars'] } }, 'options.credentials.0'],
      [{ ...good, options: { ...good.options, decimals: -1 } }, 'options.decimals'],
      [{ ...good, addresses: 'all' }, 'addresses'],
      ['{not json', 'body'],
    ]
    for (const [body, field] of cases) {
      const answer = await raw('/strategies/human-id', body, headers)
      expect(answer.status, field).toBe(400)
      expect(answer.json.error?.field).toBe(field)
      expect(answer.json).not.toHaveProperty('score')
    }
    const unknown = await raw('/strategies/no-such-strategy', good, headers)
    expect(unknown.status).toBe(404)
    expect(unknown.json.error?.message).toContain('human-id, passport-v2, human-verification')
  })

  it('a source that fails is a 5xx naming it, never a 200', async () => {
    const broken = await startStrategyServer({
      config: configOf('none', { passport: { apiKey: world.env.PASSPORT_API_KEY as string, baseUrl: 'http://127.0.0.1:9', tier: 3, scorerId: '1' } }),
      now,
    })
    try {
      const error = await apiV2({ url: `${broken.url}/strategies/passport-v2`, type: 'api-post', scorerId: 1 }, { network: '10', snapshot, addresses: voters.slice(0, 3) }, salt).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(ApiV2Error)
      const { status, body } = error as ApiV2Error
      expect(status).toBeGreaterThanOrEqual(500)
      const parsed = JSON.parse(body) as { error: { source: string } }
      expect(parsed.error.source).toMatch(/Passport/)
      expect(parsed).not.toHaveProperty('score')
    } finally {
      await broken.close()
    }
  }, 60_000)

  it('a spent rate budget is 503 with Retry-After naming the budget', async () => {
    // The key paced at 5 requests per 15 minutes (a limiter the operator's context gives).
    const rateLimiter = createRateLimiter({ limit: 5, windowMs: 15 * 60 * 1000, now })
    const passport = { apiKey: world.env.PASSPORT_API_KEY as string, baseUrl: world.env.PASSPORT_API_URL as string, tier: 3 as const, scorerId: '1', rateLimiter }
    const paced = await startStrategyServer({ config: configOf('none', { deadlineMs: 2_000 }), context: { passport }, now })
    try {
      const endpoint = `${paced.url}/strategies/passport-v2`
      let last: { status: number; headers: Headers; body: string } | undefined
      for (let call = 0; call < 20 && last?.status !== 503; call += 1) {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Snapshot-API-Strategy-Secret': await secret(endpoint) },
          // A new snapshot each time: nothing is stored yet, every call reads Passport.
          body: JSON.stringify({ options: { url: endpoint, scorerId: 1 }, network: '10', snapshot: snapshot - 100 - call, addresses: [voters[call]] }),
        })
        last = { status: response.status, headers: response.headers, body: await response.text() }
        if (last.status !== 503) expect(last.status).toBe(200)
      }
      expect(last?.status).toBe(503)
      expect(Number(last?.headers.get('Retry-After'))).toBeGreaterThan(0)
      const parsed = JSON.parse(last!.body) as { error: { source: string } }
      expect(parsed.error.source).toMatch(/Passport API key/)
      expect(parsed).not.toHaveProperty('score')
    } finally {
      await paced.close()
    }
  }, 120_000)
})

describe('strategy-server operations', () => {
  it('stops gracefully: a call in flight finishes and is stored, new calls get 503, the store closes cleanly', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const store = join(folder, 'graceful.log')
    const held = await startStrategyServer({ config: configOf(store), fetch: (input, init) => gate.then(() => fetch(input, init)), now })
    const addresses = voters.slice(700, 705)
    const inFlight = apiV2({ url: `${held.url}/strategies/human-id`, type: 'api-post', credentials: ['gov-id'] }, { network: '10', snapshot, addresses }, salt)
    while (held.metrics.total('personhood_strategy_upstream_http_requests_total') === 0) await new Promise((resolve) => setImmediate(resolve))
    const closing = held.close()
    const health = await held.app.fetch(new Request('http://localhost/health'))
    expect(health.status).toBe(503)
    const refused = await held.app.fetch(new Request('http://localhost/strategies/human-id', { method: 'POST', body: '{}' }))
    expect(refused.status).toBe(503)
    expect(refused.headers.get('Retry-After')).toBe('1')
    release()
    const { scores, response } = await inFlight
    expect(response.status).toBe(200)
    expect(scores).toEqual((await direct(humanIdStrategy, { credentials: ['gov-id'] }, addresses)).scores)
    await closing
    const reopened = await openAnswerStore(store)
    try {
      expect(reopened.size).toBe(addresses.length)
      expect(reopened.opened.tornBytes).toBe(0)
    } finally {
      await reopened.close()
    }
  }, 60_000)

  it('/health and /metrics say what an operator needs', async () => {
    const health = (await (await fetch(`${server.url}/health`)).json()) as { status: string; secured: boolean; networks: string[] }
    expect(health).toMatchObject({ status: 'ok', secured: true, networks: ['10'] })
    const metrics = await (await fetch(`${server.url}/metrics`)).text()
    for (const name of ['personhood_strategy_requests_total', 'personhood_strategy_upstream_requests_total{source=', 'personhood_strategy_cache_hits_total', 'personhood_strategy_request_duration_seconds_bucket']) {
      expect(metrics).toContain(name)
    }
  })

  it('logs every request on one line without the secret or the salt', async () => {
    const lines: string[] = []
    const logged = await startStrategyServer({ config: configOf('none'), now, log: (line) => lines.push(line) })
    try {
      const { response } = await apiV2({ url: `${logged.url}/strategies/human-id`, type: 'api-get' }, { network: '10', snapshot, addresses: voters.slice(0, 2) }, salt)
      expect(response.status).toBe(200)
      const sent = (await import('../../src/strategy-server/app.js')).strategySecret(`${logged.url}/strategies/human-id?network=10&snapshot=${snapshot}&addresses=${voters.slice(0, 2).join(',')}`, salt)
      expect(lines).toHaveLength(1)
      expect(lines[0]).not.toContain(sent)
      expect(lines[0]).not.toContain(salt)
      expect(JSON.parse(lines[0]!)).toMatchObject({ method: 'GET', status: 200, strategy: 'human-id', addresses: 2, secret: '[redacted]' })
      expect(logged.describe().join('\n')).toContain('Secured')
    } finally {
      await logged.close()
    }
  }, 60_000)

  it('says at start that it answers anyone when no salt is set', async () => {
    const open = await startStrategyServer({ config: configOf('none', { salt: undefined }), now })
    try {
      expect(open.describe().join('\n')).toContain('WARNING: no SNAPSHOT_API_STRATEGY_SALT is set: this server answers anyone')
      const { scores } = await apiV2({ url: `${open.url}/strategies/human-id`, type: 'api-post' }, { network: '10', snapshot, addresses: voters.slice(0, 3) }, undefined)
      expect(Object.keys(scores)).toHaveLength(3)
    } finally {
      await open.close()
    }
  }, 60_000)
})

export type { Address }
