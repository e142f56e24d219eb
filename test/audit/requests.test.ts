/**
 * What an audit reads once, whatever its size: 2,000 voters are judged in four strategy calls of
 * 500, and still each chain's id, each block header, each page of the attestation index's listing
 * and each page of the Passport score listing is asked for exactly once (they used to be asked again
 * by every call). Requests are
 * counted as they leave, by JSON-RPC method and by listing page: counting, not timing.
 */
import { createPublicClient, getAddress, http, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audit } from '../../src/audit/audit.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import type { AuditVote } from '../../src/audit/votes.js'
import { startChainWorld } from '../strategies/human-id-serving.js'

type World = Awaited<ReturnType<typeof startChainWorld>>
let world: World

/** Requests as they leave: JSON-RPC calls by method (and params), listing pages by page, the rest by path. */
function createCounter() {
  const rpc = new Map<string, number>()
  const listingPages = new Map<string, number>()
  const scorePages = new Map<string, number>()
  const paths = new Map<string, number>()
  /** Each distinct eth_call (its params). */
  const calls = new Set<string>()
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)
  const counting: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    if (request.method === 'POST') {
      const body = JSON.parse(await request.clone().text()) as { method: string; params?: unknown[] } | { method: string; params?: unknown[] }[]
      for (const call of Array.isArray(body) ? body : [body]) {
        add(rpc, call.method === 'eth_call' ? 'eth_call' : `${call.method} ${JSON.stringify(call.params ?? [])}`)
        if (call.method === 'eth_call') calls.add(JSON.stringify(call.params))
      }
    } else if (url.pathname.endsWith('/api/index/attestations') && url.searchParams.has('schemaId')) {
      add(listingPages, url.searchParams.get('page') ?? '1')
    } else if (/\/registry\/score\/\d+$/.test(url.pathname) && !url.searchParams.has('address')) {
      add(scorePages, url.searchParams.get('offset') ?? '0')
    } else add(paths, url.pathname.replace(/0x[0-9a-fA-F]{40}/, '<address>'))
    return fetch(request)
  }
  return { counting, rpc, calls, listingPages, scorePages, paths }
}

beforeAll(async () => {
  world = await startChainWorld()
  // A listing longer than one page (100 rows): clean-hands attestations of wallets that do not vote.
  for (let index = 0; index < 150; index++) {
    const address = getAddress(`0x${(0xb0000 + index).toString(16).padStart(40, '0')}`)
    const answer = await fetch(`${world.admin.url}/attestations`, { method: 'POST', headers: { authorization: `Bearer ${world.admin.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ address }) })
    expect(answer.status).toBe(201)
  }
}, 120_000)
afterAll(async () => {
  await world?.close()
})

describe('an audit of 2,000 voters', () => {
  it('reads the chain id, the block header and every page of each listing once, over four strategy calls', async () => {
    // The world's own wallets and as many that are nowhere (judged unverified by every source).
    const known = world.voters(1000).map((voter) => getAddress(voter))
    const unknown = Array.from({ length: 2000 - known.length }, (_, index) => getAddress(`0x${(0xa0000 + index).toString(16).padStart(40, '0')}`) as Address)
    const votes: AuditVote[] = [...known, ...unknown].map((voter, index) => ({ voter, choice: 1 + (index % 2), votingPower: 1 + (index % 9) }))
    const { counting, rpc, listingPages, scorePages, paths } = createCounter()
    // The snapshot at the world's present: a listing read now cannot be kept for a later call of
    // the strategy on its own (rows scored in the same minute could be missing), but the audit reads it once.
    const snapshot = await world.latestBlock('10')
    const context = world.context()
    const result = await audit({
      votes,
      network: '10',
      snapshot,
      strategy: 'human-verification',
      options: { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'any', scorerId: 1 },
      provider: context.humanId!.hubChain as string,
      context: {
        fetch: counting,
        // The world's clock: its present is the snapshot's.
        now: context.now,
        passport: { apiKey: world.apiKey, baseUrl: world.baseUrl, tier: 3, rateLimiter: false },
        humanId: { attestationIndexBaseUrl: context.humanId!.attestationIndexBaseUrl },
      },
      linkedWallets: false,
      batchSize: 500,
    })
    expect(result.voters).toHaveLength(2000)
    expect(result.summary.eligibleVoters).toBeGreaterThan(0)

    const header = `eth_getBlockByNumber ${JSON.stringify([`0x${snapshot.toString(16)}`, false])}`
    const once = Object.fromEntries([...rpc].filter(([method]) => method !== 'eth_call'))
    // The space is on the hub chain: the one header serves the snapshot and the clean-hands rule.
    expect(once).toEqual({ 'eth_chainId []': 1, [header]: 1 })
    // Four calls of 500 voters, each with its multicalls: the reads above were not repeated by them.
    expect(rpc.get('eth_call')).toBeGreaterThanOrEqual(4)
    // Every page of the clean-hands listing once (it is more than one page long).
    expect(listingPages.size).toBeGreaterThan(1)
    expect([...listingPages.values()].every((count) => count === 1)).toBe(true)
    expect([...listingPages.keys()].map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: listingPages.size }, (_, index) => index + 1))
    // No attestation read per address either: the listing served every call.
    expect([...paths.keys()].filter((path) => path.includes('attestation'))).toEqual([])
    // The Passport score listing (C4), every page once too.
    expect(scorePages.size).toBeGreaterThan(0)
    expect([...scorePages.values()].every((count) => count === 1)).toBe(true)
    // What the audit says it sent is what left.
    const sent = [...rpc.values(), ...listingPages.values(), ...scorePages.values(), ...paths.values()].reduce((total, count) => total + count, 0)
    expect(result.stats.requests.sent).toBe(sent)
  }, 300_000)

  it("sends the reader calls of one strategy call over every voter: batches are the reader's capacity, not score-api's 500", async () => {
    const known = world.voters(1000).map((voter) => getAddress(voter))
    const unknown = Array.from({ length: 1200 - known.length }, (_, index) => getAddress(`0x${(0xa0000 + index).toString(16).padStart(40, '0')}`) as Address)
    const voters = [...known, ...unknown]
    const snapshot = await world.latestBlock('10')
    const given = world.context()
    const options = { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'any', scorerId: 1 }
    const context = (fetch: typeof globalThis.fetch) => ({
      fetch,
      now: given.now,
      passport: { apiKey: world.apiKey, baseUrl: world.baseUrl, tier: 3 as const, rateLimiter: false as const },
      humanId: { attestationIndexBaseUrl: given.humanId!.attestationIndexBaseUrl, expiries: true },
    })
    const audited = createCounter()
    const votes: AuditVote[] = voters.map((voter, index) => ({ voter, choice: 1 + (index % 2), votingPower: 1 }))
    await audit({ votes, network: '10', snapshot, strategy: 'human-verification', options, provider: given.humanId!.hubChain as string, context: context(audited.counting), linkedWallets: false })
    // The same voters in one strategy call, as the audit reads them (with expiries).
    const whole = createCounter()
    const provider = createPublicClient({ transport: http(given.humanId!.hubChain as string, { fetchFn: whole.counting, timeout: 240_000, retryCount: 0 }) })
    await runStrategy(humanVerificationStrategy, { network: '10', provider, addresses: voters, options, snapshot, context: { ...context(whole.counting), deadlineMs: Infinity } })
    // Distinct calls (a call sent again after a timeout counts once: what is compared is the plan).
    // 1,200 voters are 2 reader calls in one strategy call; in score-api's batches of 500, 3.
    expect(whole.calls.size).toBe(2)
    expect(audited.calls.size).toBe(whole.calls.size)
  }, 300_000)
})
