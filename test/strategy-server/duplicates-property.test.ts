/**
 * The one rule for duplicated rows through the strategy server's HTTP app (issue #27): passport-v2
 * answered by the server (as score-api's api-v2 calls it) over a stand-in Passport API fed clean
 * rows, then the same rows listed again (another casing, keys reversed), reordered and sometimes
 * with a conflicting copy. The body holds the clean scores, or the answer is a 502 naming the
 * source and a conflicting voter; never other scores. A server per run (its caches start empty);
 * runs are few and seeded, the upstreams in memory: nothing depends on timing.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { startStrategyServer } from '../../src/strategy-server/start.js'
import { passportSourceNames } from '../../src/strategy/passport-scores.js'
import { at, copying, historyRecord, listingRow, otherSide, passportStandIn, perturb, runs, voters, type PassportRecord, type PassportRow } from '../helpers/duplicates.js'

const rpcUrl = 'https://rpc.test/'
const api = 'https://passport.test'

/** The Passport stand-in, and a JSON-RPC endpoint of chain 10 whose block n is at 1,700,000,000 + 2n. */
function upstream(rows: readonly PassportRow[], records: readonly PassportRecord[]): typeof fetch {
  const passport = passportStandIn(rows, records)
  return async (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (!href.startsWith(rpcUrl)) return passport(input, init)
    const body = JSON.parse(String(init?.body)) as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[]
    const one = (call: { id: number; method: string; params: unknown[] }) => {
      if (call.method === 'eth_chainId') return { jsonrpc: '2.0', id: call.id, result: '0xa' }
      if (call.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: call.id, result: `0x${(25_000_000).toString(16)}` }
      if (call.method === 'eth_getBlockByNumber') {
        const tag = call.params[0] as string
        const number = tag === 'latest' ? 25_000_000 : Number(tag)
        return { jsonrpc: '2.0', id: call.id, result: { number: `0x${number.toString(16)}`, timestamp: `0x${(1_700_000_000 + 2 * number).toString(16)}`, hash: `0x${number.toString(16).padStart(64, '0')}`, parentHash: `0x${(number - 1).toString(16).padStart(64, '0')}`, transactions: [] } }
      }
      return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `no ${call.method}` } }
    }
    return new Response(JSON.stringify(Array.isArray(body) ? body.map(one) : one(body)), { headers: { 'Content-Type': 'application/json' } })
  }
}

/**
 * Servers started so far: each gets a key of its own, since the process shares one rate budget per
 * key (tier 1, 125 requests per 15 minutes) and the servers' clock stands still.
 */
let servers = 0

/** The server's answer for the addresses: status, and the scores or the error's source and addresses. */
async function serve(rows: readonly PassportRow[], records: readonly PassportRecord[], addresses: readonly string[], mode: 'gated' | 'weighted') {
  const running = await startStrategyServer({
    config: { port: 0, host: '127.0.0.1', store: 'none', rpc: { '10': rpcUrl }, passport: { apiKey: `key-${++servers}`, baseUrl: api, scorerId: '7' }, answerWithinMs: 600_000 },
    fetch: upstream(rows, records),
    log: () => {},
    now: () => 1_750_000_000_000,
  })
  try {
    const response = await running.app.request('/strategies/passport-v2', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ options: { scorerId: 7, mode, decimals: 2 }, network: '10', snapshot: 1000, addresses }),
    })
    const body = (await response.json()) as { score?: { address: string; score: string }[]; error?: { code: string; message: string; source?: string; addresses?: string[] } }
    return { status: response.status, body }
  } finally {
    await running.close()
  }
}

describe('passport-v2 through the strategy server', () => {
  const voterState = fc.record({ kind: fc.constantFrom('never', 'before', 'after'), score: fc.constantFrom(0, 12, 25, 40), later: fc.constantFrom(0, 30) })

  test('the clean scores in the body, or a 502 naming the source and a conflicting voter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(voterState, voterState, voterState),
        fc.integer({ min: 1, max: 3 }),
        fc.array(copying, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(5), { minLength: 1, maxLength: 9 }),
        fc.boolean(),
        fc.constantFrom('gated' as const, 'weighted' as const),
        async (states, asked, how, order, conflicts, mode) => {
          const addresses = voters.slice(0, asked)
          const rows = states.flatMap((state, index) => (state.kind === 'never' ? [] : [listingRow(voters[index]!, state.kind === 'before' ? state.score : state.later, state.kind === 'before' ? at - 10 : at + 10)]))
          const records = states.flatMap((state, index) => (state.kind === 'after' ? [historyRecord(voters[index]!, state.score)] : []))
          const clean = await serve(rows, records, addresses, mode)
          expect(clean.status, JSON.stringify(clean.body)).toBe(200)
          const listed = perturb(rows, how, order, otherSide, conflicts)
          const recorded = perturb(records, [...how].reverse(), [...order].reverse(), otherSide, conflicts)
          const result = await serve(listed.rows, recorded.rows, addresses, mode)
          if (result.status === 200) {
            expect(result.body).toEqual(clean.body)
            return
          }
          const conflicted = new Set([...listed.conflicted, ...recorded.conflicted])
          expect(result.status, JSON.stringify(result.body)).toBe(502)
          expect(Object.values(passportSourceNames)).toContain(result.body.error?.source)
          expect(result.body.error?.message).toMatch(/answered two different rows for 0x[0-9a-fA-F]{40}: which one is true cannot be told/)
          // The address in conflict is named; the voters left without an answer are asked ones (a
          // listing may hold a conflict about a voter not asked).
          const named = /rows for (0x[0-9a-fA-F]{40}):/.exec(result.body.error!.message)![1]!.toLowerCase()
          expect(conflicted.has(named), JSON.stringify(result.body)).toBe(true)
          const askedKeys = addresses.map((address) => address.toLowerCase())
          expect(result.body.error?.addresses?.length, JSON.stringify(result.body)).toBeGreaterThan(0)
          expect(result.body.error?.addresses?.every((address) => askedKeys.includes(address.toLowerCase())), JSON.stringify(result.body)).toBe(true)
          if (askedKeys.includes(named)) expect(result.body.error?.addresses?.map((address) => address.toLowerCase())).toEqual([named])
        },
      ),
      runs(100),
    )
  })
})
