/**
 * `source: 'api'` reads the Human ID voting-strategy endpoints. The public service serves them at
 * `/snapshot-strategies/sybil-resistance/...`, not at the spec's `/voting-strategies/...` (which our
 * reference server follows): the strategy calls the public path whenever it calls the public host,
 * and the spec's path on any other host. nock stands in for the hosts; the snapshot is on Optimism,
 * so the only chain read is the snapshot block's header, from a clock provider.
 */
import nock from 'nock'
import { getAddress, type Address } from 'viem'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runStrategy } from '../../src/strategy/define.js'
import { humanIdStrategy } from '../../src/strategy/human-id.js'
import type { StrategyContext } from '../../src/strategy/context.js'
import { chainClockProvider } from '../strategies/world-server.js'

const now = () => Date.parse('2025-06-01T00:00:00Z')
const optimismClock = { genesisTime: 1_636_665_399, blockTimeSeconds: 2, chainId: 10, now }
const snapshot = 56_000_000 // before the clock's head at `now`
const verified: Address = '0x52908400098527886E0F7030069857D2E4169EE7'
const unverified: Address = getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8')
const query = { network: '10', snapshot: String(snapshot), addresses: `${verified},${unverified}`.toLowerCase(), 'action-id': '123456789' }
const reply = { score: [{ address: verified.toLowerCase(), score: 1 }, { address: unverified.toLowerCase(), score: 0 }] }

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())

function run(context: StrategyContext) {
  return runStrategy(humanIdStrategy, {
    network: '10',
    provider: chainClockProvider(optimismClock),
    addresses: [verified, unverified],
    options: { credentials: ['gov-id'], source: 'api' },
    snapshot,
    context: { cache: false, now, ...context },
  })
}

describe("human-id with source: 'api'", () => {
  it('calls the public host at /snapshot-strategies/sybil-resistance when no URL is set', async () => {
    const scope = nock('https://api.holonym.io').get('/snapshot-strategies/sybil-resistance/gov-id').query(query).reply(200, reply)
    const result = await run({})
    expect(scope.isDone()).toBe(true)
    expect(result.scores).toEqual({ [verified]: 1, [unverified]: 0 })
  })

  it('calls the public path when the public host is set explicitly', async () => {
    const scope = nock('https://api.holonym.io').get('/snapshot-strategies/sybil-resistance/gov-id').query(query).reply(200, reply)
    const result = await run({ humanId: { baseUrl: 'https://api.holonym.io/' } })
    expect(scope.isDone()).toBe(true)
    expect(result.scores).toEqual({ [verified]: 1, [unverified]: 0 })
  })

  it("calls the spec's path on another host (the reference server)", async () => {
    const scope = nock('http://127.0.0.1:8787').get('/human-id/voting-strategies/sybil-resistance/gov-id').query(query).reply(200, reply)
    const result = await run({ humanId: { baseUrl: 'http://127.0.0.1:8787/human-id' } })
    expect(scope.isDone()).toBe(true)
    expect(result.scores).toEqual({ [verified]: 1, [unverified]: 0 })
  })
})
