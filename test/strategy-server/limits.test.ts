/**
 * The strategy server's limits, as an operator and api-v2 meet them: too many addresses is a 413;
 * a 413 for a body over the limit closes its connection and says so, so a pooled client's next call
 * goes through; a call whose answer takes longer than `answerWithinMs` gets a 503 with Retry-After
 * (inside api-v2's 20 s) while its run goes on and keeps its answers; after SIGTERM (close) new
 * connections are refused; docs/strategy-server.md lists every endpoint served.
 */
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { strategyDefinitions } from '../../src/strategy/registry.js'
import { strategySecret } from '../../src/strategy-server/app.js'
import { startStrategyServer, type RunningStrategyServer, type StrategyServerConfig } from '../../src/strategy-server/start.js'
import type { ExampleServer } from '../strategies/conformance.js'
import { humanVerificationServing } from '../strategies/human-id-serving.js'

const salt = 'limits-test-salt'
const snapshot = 136_566_811
let world: ExampleServer & { env: Record<string, string> }
const servers: RunningStrategyServer[] = []

function configOf(overrides: Partial<StrategyServerConfig> = {}): StrategyServerConfig {
  return {
    port: 0,
    store: 'none',
    salt,
    rpc: { '10': world.env.HUMAN_ID_RPC_URL as string },
    passport: { apiKey: world.env.PASSPORT_API_KEY as string, baseUrl: world.env.PASSPORT_API_URL as string, tier: 3, scorerId: '1' },
    humanId: { hubChainRpc: world.env.HUMAN_ID_RPC_URL as string, apiUrl: world.env.HUMAN_ID_API_URL as string, attestationIndexUrl: world.env.ATTESTATION_INDEX_URL as string },
    answerWithinMs: 600_000,
    ...overrides,
  }
}

async function start(config: Partial<StrategyServerConfig>, fetcher?: typeof fetch): Promise<RunningStrategyServer> {
  const server = await startStrategyServer({ config: configOf(config), now: () => world.context().now!(), ...(fetcher ? { fetch: fetcher } : {}) })
  servers.push(server)
  return server
}

beforeAll(async () => {
  world = (await humanVerificationServing.start()) as typeof world
}, 120_000)
afterAll(async () => {
  for (const server of servers) await server.close()
  await world?.close()
})

/** One HTTP exchange on `agent` (a pooled connection, as score-api's fetch keeps them). */
function exchange(agent: Agent, url: string, method: string, body?: string): Promise<{ status: number; connection: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { method, agent, headers: body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, text }))
    })
    call.on('error', reject)
    call.end(body)
  })
}

function body(url: string, addresses: string[], options: Record<string, unknown> = {}): string {
  return JSON.stringify({ options: { url, type: 'api-post', ...options }, network: '10', snapshot, addresses })
}

describe('strategy server limits', () => {
  it('more addresses than maxAddresses is a 413 naming the field, as documented', async () => {
    const server = await start({ maxAddresses: 3 })
    const url = `${server.url}/strategies/human-id`
    const response = await fetch(url, { method: 'POST', headers: { 'X-Snapshot-API-Strategy-Secret': strategySecret(url, salt) }, body: body(url, world.voters(4)) })
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchInlineSnapshot(`
      {
        "error": {
          "code": "TOO_MANY_ADDRESSES",
          "field": "addresses",
          "message": "At most 3 addresses a call; got 4.",
        },
      }
    `)
  }, 60_000)

  it('a 413 for a body over the limit closes its connection and says so: the pooled connection’s next call goes through', async () => {
    const server = await start({ maxAddresses: 3 })
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      for (let round = 0; round < 3; round += 1) {
        const tooLarge = await exchange(agent, `${server.url}/strategies/human-id`, 'POST', body(`${server.url}/strategies/human-id`, [], { padding: 'x'.repeat(200_000) }))
        expect(tooLarge.status).toBe(413)
        expect(tooLarge.connection).toBe('close')
        const next = await exchange(agent, `${server.url}/health`, 'GET')
        expect(next.status).toBe(200)
      }
    } finally {
      agent.destroy()
    }
  }, 60_000)

  it('a call not answered within answerWithinMs gets 503 with Retry-After; its run goes on and the retry is answered from the store', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    // Every upstream request waits for the gate: the run cannot finish before the 503 is sent.
    const server = await start({ answerWithinMs: 1 }, (input, init) => gate.then(() => fetch(input, init)))
    const url = `${server.url}/strategies/human-id`
    const call = () => fetch(url, { method: 'POST', headers: { 'X-Snapshot-API-Strategy-Secret': strategySecret(url, salt) }, body: body(url, world.voters(3), { credentials: ['gov-id'] }) })
    const late = await call()
    expect(late.status).toBe(503)
    expect(late.headers.get('Retry-After')).toBe('5')
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe('STILL_SCORING')
    expect(server.metrics.total('personhood_strategy_late_answers_total')).toBe(1)
    release()
    // The run (header, then scores) finishes on its own; the retry then needs nothing upstream.
    while (server.metrics.total('personhood_strategy_runs_total') === 0) await new Promise((resolve) => setImmediate(resolve))
    await server.app.scorer.idle()
    const retried = await call()
    expect(retried.status).toBe(200)
    expect(retried.headers.get('X-Personhood-Cache-Hits')).toBe('3')
  }, 60_000)

  it('after SIGTERM (close) new connections are refused while the call in flight finishes', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const server = await start({}, (input, init) => gate.then(() => fetch(input, init)))
    const url = `${server.url}/strategies/human-id`
    const inFlight = fetch(url, { method: 'POST', headers: { 'X-Snapshot-API-Strategy-Secret': strategySecret(url, salt) }, body: body(url, world.voters(2), { credentials: ['gov-id'] }) })
    while (server.metrics.total('personhood_strategy_upstream_http_requests_total') === 0) await new Promise((resolve) => setImmediate(resolve))
    const closing = server.close()
    const refused = await exchange(new Agent({ keepAlive: false }), `${server.url}/health`, 'GET').catch((error: NodeJS.ErrnoException) => error.code)
    expect(refused).toBe('ECONNREFUSED')
    release()
    expect((await inFlight).status).toBe(200)
    await closing
  }, 60_000)

  it('docs/strategy-server.md lists every endpoint served and says what SIGTERM does', () => {
    const docs = readFileSync(new URL('../../docs/strategy-server.md', import.meta.url), 'utf8').replace(/\s+/g, ' ')
    for (const name of Object.keys(strategyDefinitions)) expect(docs, name).toContain(`\`/strategies/${name}\``)
    expect(docs).toContain('new connections are refused')
    expect(docs).not.toContain('new calls get 503 so a load balancer')
  })
})
