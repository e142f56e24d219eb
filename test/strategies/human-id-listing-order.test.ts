/**
 * The score-api folder `strategies/human-id` keeps the attestation index's clean-hands listing
 * between calls (a warm call reads only what it needs to find new rows). The index documents no
 * order for the listing, so a new attestation must be found wherever it is listed: first (newest
 * first), last (oldest first) or anywhere (shuffled). A missed row would give its voter 0 in the
 * close-time call, which Snapshot keeps.
 *
 * The index here is this test's: the rows in the order under test, 100 a page, with `total` and
 * `size` as the real index sends them. The chain is the in-process EVM with Sign Protocol.
 */
import { StaticJsonRpcProvider, Web3Provider } from '@ethersproject/providers'
import fc from 'fast-check'
import { getAddress, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TestChain } from '../chain/harness.js'
import { freshAddress, indexRow } from '../chain/helpers.js'
import type { AttestationRow } from '../../src/world/types.js'
import { layHumanIdFolder } from './human-id-layout.js'

void StaticJsonRpcProvider
const day = 86_400n
type Order = 'newest-first' | 'oldest-first' | 'shuffled'

class StaticProvider extends Web3Provider {
  override detectNetwork() {
    return Promise.resolve({ chainId: 10, name: 'optimism' })
  }
}

let chain: TestChain
let layout: Awaited<ReturnType<typeof layHumanIdFolder>>
const rows: AttestationRow[] = []
let order: Order = 'newest-first'
let indexReads = 0
/** Whether the index ignores `recipient=` (it is not among the SDK's parameters; issue #27, point 4). */
let ignoresRecipient = false

/** A permutation that depends only on the rows' ids (the same listing reads the same way). */
function shuffle(list: AttestationRow[]): AttestationRow[] {
  const key = (row: AttestationRow) => (Number(BigInt(row.attestationId)) * 2_654_435_761) % 4_294_967_296
  return [...list].sort((a, b) => key(a) - key(b))
}

/** What the index does to its listing besides ordering it (the property test's duplicates). */
let mangle: (list: AttestationRow[]) => AttestationRow[] = (list) => list

function listed(): AttestationRow[] {
  const oldest = [...rows].sort((a, b) => a.attestTimestamp - b.attestTimestamp)
  return mangle(order === 'oldest-first' ? oldest : order === 'newest-first' ? oldest.reverse() : shuffle(oldest))
}

async function indexFetch(url: string) {
  indexReads++
  const query = new URL(url).searchParams
  const recipient = ignoresRecipient ? undefined : query.get('recipient')?.toLowerCase()
  const all = listed().filter((row) => recipient === undefined || row.recipients.some((r) => r.toLowerCase() === recipient))
  const page = Number(query.get('page') ?? 1)
  const data = { total: all.length, size: 100, page, rows: all.slice((page - 1) * 100, page * 100) }
  return new Response(JSON.stringify({ success: true, data }), { headers: { 'content-type': 'application/json' } })
}

let nextId = 0x5000n
async function attest(voter: Address) {
  const { timestamp } = await chain.latest()
  const id = nextId++
  await chain.attest({ attestationId: id, recipient: voter, validUntil: timestamp + 365n * day })
  rows.push(indexRow(id, voter, timestamp + 365n * day, { attestTimestamp: 1_740_000_000_000 + Number(id) }))
}

beforeAll(async () => {
  chain = await TestChain.start()
  ;(globalThis as Record<string, unknown>).__listingOrderTest = {
    provider: () => new StaticProvider(chain.provider as never, 10),
    fetch: indexFetch,
  }
  layout = await layHumanIdFolder(
    'human-id-listing-order',
    [
      'const test = (globalThis as any).__listingOrderTest;',
      'export const getProvider = (network: string) => test.provider();',
      'export const customFetch = (url: string, init: any, timeout: number) => test.fetch(url, init);',
      'export const getSnapshots = () => { throw new Error("no blockfinder here"); };',
      '',
    ].join('\n'),
  )
  process.env.ATTESTATION_INDEX_URL = 'http://index.local'
  // Others' attestations: a listing of three pages.
  for (let i = 0; i < 230; i++) await attest(freshAddress())
})

afterAll(async () => {
  delete process.env.ATTESTATION_INDEX_URL
  await layout?.remove()
  delete (globalThis as Record<string, unknown>).__listingOrderTest
})

describe('the clean-hands listing cache finds new rows wherever the index lists them', () => {
  for (const each of ['newest-first', 'oldest-first', 'shuffled'] as const) {
    it(`${each}: a voter attested after the listing was kept scores 1 in the warm call`, async () => {
      order = each
      const { strategy } = await layout.load()
      const provider = new StaticProvider(chain.provider as never, 10)
      const [early, late, never] = [freshAddress(), freshAddress(), freshAddress()]
      await attest(early)
      const voters = [early, late, never]
      const options = { credentials: ['clean-hands'] }
      const cold = await strategy('space.eth', '10', provider, voters, options, 'latest')
      expect(Object.values(cold)).toEqual([1, 0, 0])
      await attest(late)
      indexReads = 0
      const warm = await strategy('space.eth', '10', provider, voters, options, 'latest')
      expect(Object.values(warm)).toEqual([1, 1, 0])
      // Found within the listing's three pages, never more.
      expect(indexReads).toBeLessThanOrEqual(3)
      if (each !== 'shuffled') expect(indexReads).toBeLessThanOrEqual(2)
      // Nothing new: the first page tells so.
      indexReads = 0
      expect(await strategy('space.eth', '10', provider, voters, options, 'latest')).toEqual(warm)
      expect(indexReads).toBe(1)
    })
  }

  it('rows listed twice, re-cased and in any order give the same scores, cold and warm', async () => {
    const provider = new StaticProvider(chain.provider as never, 10)
    const [held, none] = [freshAddress(), freshAddress()]
    await attest(held)
    const options = { credentials: ['clean-hands'] }
    const upper = (text: string) => `0x${text.slice(2).toUpperCase()}` as const
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 240, maxLength: 240 }), fc.constantFrom<Order>('newest-first', 'oldest-first', 'shuffled'), async (how, each) => {
          order = each
          mangle = (list) =>
            list.flatMap((row, index) => {
              const twin = how[index % how.length] === 1 ? { ...row } : how[index % how.length] === 2 ? { ...row, attestationId: upper(row.attestationId), recipients: row.recipients.map(upper) } : undefined
              return twin ? (how[(index + 1) % how.length]! > 1 ? [twin, row] : [row, twin]) : [row]
            })
          const { strategy } = await layout.load()
          const cold = await strategy('space.eth', '10', provider, [held, none, freshAddress()], options, 'latest')
          expect(Object.values(cold)).toEqual([1, 0, 0])
          const warm = await strategy('space.eth', '10', provider, [held, none, freshAddress()], options, 'latest')
          expect(Object.values(warm)).toEqual([1, 0, 0])
        }),
        { numRuns: 8 },
      )
    } finally {
      mangle = (list) => list
    }
  })
})

describe("one voter's clean hands reads the listing filtered by recipient, within a bound", () => {
  it('an index that ignores recipient= is not paged through: the first row of another address fails the call, naming the index', async () => {
    const provider = new StaticProvider(chain.provider as never, 10)
    const voter = freshAddress()
    await attest(voter)
    order = 'oldest-first'
    const { strategy } = await layout.load()
    const options = { credentials: ['clean-hands'] }
    // Filtered, the voter's one row: one request.
    indexReads = 0
    expect(Object.values(await strategy('space.eth', '10', provider, [voter], options, 'latest'))).toEqual([1])
    expect(indexReads).toBe(1)
    ignoresRecipient = true
    try {
      indexReads = 0
      // The first row of the page names another voter (the oldest of the listing): the filter is
      // ignored, and the call stops at the first page.
      const first = [...rows].sort((a, b) => a.attestTimestamp - b.attestTimestamp)[0]!
      await expect(strategy('space.eth', '10', provider, [voter], options, 'latest')).rejects.toThrow(
        `human-id: attestation index http://index.local: asked for the attestations of recipient ${getAddress(voter)}, got attestation ${first.attestationId} of ${first.recipients.join(', ')}: the index ignores recipient=`,
      )
      expect(indexReads).toBe(1)
    } finally {
      ignoresRecipient = false
    }
  })
})
