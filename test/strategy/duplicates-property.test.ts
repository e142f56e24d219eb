/**
 * The one rule for duplicated rows, as a property of the library's readers (issue #27): each path
 * is fed its upstream answers as a clean world would give them, then the same answers with rows
 * listed again (identical, under another casing, keys in another order), reordered, and sometimes
 * with a conflicting copy. The answer must be the clean one, or a typed error naming the source and
 * the address; never another score. Paths: Passport's by-address read (C4 with `address`), the
 * scorer's listing (C4) and the score history (A2) through passport-v2; the clean-hands attestation
 * lookup (E8 per address and the listing); human-gated's inner answers. Runs are few and seeded, the
 * upstreams are in-memory fetches: nothing depends on timing.
 */
import fc from 'fast-check'
import { getAddress, type Address } from 'viem'
import { describe, expect, test } from 'vitest'
import { createScoreApiClient } from '../../src/clients/score-api.js'
import { BaseError } from '../../src/errors/base.js'
import { ResponseValidationError } from '../../src/errors/http.js'
import { StrategySourceError } from '../../src/errors/strategy.js'
import { passportV2Strategy, runStrategy, type StrategyContext } from '../../src/index.js'
import { rowFingerprint } from '../../src/rules/rows.js'
import { passportSourceNames } from '../../src/strategy/passport-scores.js'
import { findCleanHandsRows } from '../../src/verify/attestation-lookup.js'
import { chainClockProvider } from '../strategies/world-server.js'

/** Seeded: a failure names its seed and path, and the same runs come back every time. */
const runs = (numRuns: number) => ({ numRuns, seed: 27, endOnFailure: true })

const voters = [
  getAddress('0x52908400098527886e0f7030069857d2e4169ee7'),
  getAddress('0xde709f2102306220921060314715629080e2fb77'),
  getAddress('0x8617e340b3d01fa5f11f306f4090fd50e238070d'),
] as const

/** An address in another casing: lower, upper (after 0x) or EIP-55. */
const recase = (address: string, casing: number) =>
  casing === 0 ? address.toLowerCase() : casing === 1 ? `0x${address.slice(2).toUpperCase()}` : getAddress(address.toLowerCase())
/** The same object, its keys in reverse order. */
const reversedKeys = <T extends object>(row: T): T => Object.fromEntries(Object.entries(row).reverse()) as T

/** How a row is listed again: `copies` times, each under a casing, keys reversed or not; `conflict`: one copy says another score. */
const copying = fc.record({ copies: fc.nat(2), casing: fc.nat(2), reverse: fc.boolean(), conflict: fc.nat(9) })
type Copying = { copies: number; casing: number; reverse: boolean; conflict: number }

/**
 * The rows of a clean answer, each listed again as `how` says, then ordered by `order`. Returns the
 * answer and the addresses given a conflicting copy (when `conflicts`).
 */
function perturb<R extends { address: string }>(rows: readonly R[], how: readonly Copying[], order: readonly number[], conflicting: (row: R) => R, conflicts: boolean) {
  const out: R[] = []
  const conflicted = new Set<string>()
  rows.forEach((row, index) => {
    const rule = how[index % Math.max(1, how.length)] ?? { copies: 0, casing: 0, reverse: false, conflict: 9 }
    out.push(row)
    for (let copy = 0; copy < rule.copies; copy++) {
      let again: R = { ...row, address: recase(row.address, (rule.casing + copy) % 3) }
      if (rule.reverse) again = reversedKeys(again)
      if (conflicts && copy === 0 && rule.conflict < 3) {
        again = conflicting(again)
        conflicted.add(row.address.toLowerCase())
      }
      out.push(again)
    }
  })
  const keyed = out.map((row, index) => ({ row, key: order[index % Math.max(1, order.length)] ?? 0, index }))
  keyed.sort((a, b) => a.key - b.key || a.index - b.index)
  return { rows: keyed.map(({ row }) => row), conflicted }
}

/** A call's answer, or its error as what the property compares: the class, the source, the addresses. */
async function outcome<T>(run: () => Promise<T>): Promise<{ value: T } | { error: BaseError }> {
  try {
    return { value: await run() }
  } catch (error) {
    if (!(error instanceof BaseError)) throw error
    return { error }
  }
}

describe('Passport (passport-v2 in the library): by-address read, the listing, the score history', () => {
  const api = 'https://passport.test'
  const provider = chainClockProvider({ genesisTime: 1_700_000_000, blockTimeSeconds: 2, chainId: 10, now: () => 1_750_000_000_000 })
  /** The snapshot's time: block 1000 of that clock. */
  const at = 1_700_000_000 + 2 * 1000
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString()
  type Row = { address: string; score: string; status: string; last_score_timestamp: string; expiration_date: null; evidence: null; error: null }
  type Record = { address: string; score: string; passing_score: boolean; threshold: string; last_score_timestamp: string; expiration_timestamp: null; error: null; stamps: object }
  const listingRow = (address: string, score: number, scoredAt: number): Row => ({ address: address.toLowerCase(), score: score.toFixed(9), status: 'DONE', last_score_timestamp: iso(scoredAt), expiration_date: null, evidence: null, error: null })
  const historyRecord = (address: string, score: number): Record => ({ address: address.toLowerCase(), score: score.toFixed(5), passing_score: score >= 20, threshold: '20.00000', last_score_timestamp: iso(at - 5), expiration_timestamp: null, error: null, stamps: {} })

  /** A stand-in of the Passport API over the rows and records given, in their order. */
  function passport(rows: readonly Row[], records: readonly Record[]): typeof fetch {
    return async (input) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
      const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })
      if (url.pathname === '/registry/score/7') {
        const address = url.searchParams.get('address')
        const offset = Number(url.searchParams.get('offset') ?? 0)
        const limit = Number(url.searchParams.get('limit') ?? 1000)
        const listed = address === null ? rows : rows.filter((row) => row.address.toLowerCase() === address.toLowerCase())
        return json({ items: listed.slice(offset, offset + limit), count: listed.length })
      }
      const history = /^\/v2\/stamps\/7\/score\/(0x[0-9a-f]{40})\/history$/.exec(url.pathname)
      if (history) return json({ items: records.filter((record) => record.address.toLowerCase() === history[1]) })
      return new Response('not found', { status: 404 })
    }
  }
  const context = (upstream: typeof fetch): StrategyContext => ({ passport: { apiKey: 'key', baseUrl: api, scorerId: '7', rateLimiter: false }, cache: false, fetch: upstream, sleep: async () => {}, now: () => 1_750_000_000_000 })
  const score = (rows: readonly Row[], records: readonly Record[], addresses: readonly Address[], mode: 'gated' | 'weighted') =>
    outcome(async () => {
      const run = await runStrategy(passportV2Strategy, { network: '10', provider, addresses, options: { mode }, snapshot: 1000, context: context(passport(rows, records)) })
      return Object.fromEntries(addresses.map((address) => [address, run.results.get(address)?.score]))
    })

  /** Each voter: never scored, scored before the snapshot, or rescored after it (its history then says what held at the snapshot). */
  const voterState = fc.record({ kind: fc.constantFrom('never', 'before', 'after'), score: fc.constantFrom(0, 12, 25, 40), later: fc.constantFrom(0, 30) })

  test('the same scores as the clean answers, or a StrategySourceError naming the source and a conflicting voter', async () => {
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
          const clean = await score(rows, records, addresses, mode)
          expect('value' in clean, String('error' in clean && clean.error.message)).toBe(true)
          const bump = <R extends { score: string }>(row: R): R => ({ ...row, score: (Number(row.score) + 7).toFixed(5) })
          const listed = perturb(rows, how, order, bump, conflicts)
          const recorded = perturb(records, [...how].reverse(), [...order].reverse(), bump, conflicts)
          const result = await score(listed.rows, recorded.rows, addresses, mode)
          if ('value' in result) {
            expect(result.value).toEqual((clean as { value: unknown }).value)
            return
          }
          // An error: only for a conflicting copy, typed, naming the source and that voter.
          const conflicted = new Set([...listed.conflicted, ...recorded.conflicted])
          expect(result.error, result.error.message).toBeInstanceOf(StrategySourceError)
          const error = result.error as StrategySourceError
          expect(Object.values(passportSourceNames)).toContain(error.source)
          expect(error.addresses.some((address) => conflicted.has(address.toLowerCase())), error.message).toBe(true)
          expect(error.shortMessage).toMatch(/answered two different rows for 0x[0-9a-fA-F]{40}: which one is true cannot be told, so no score is given\.$/)
        },
      ),
      runs(50),
    )
  })
})

describe('the clean-hands attestation lookup (E8 per address, and the listing by schema and attester)', () => {
  const attester = '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd' as Address
  const schemaId = 'onchain_evm_10_0x8'
  const other = getAddress('0x2af11bf1a3a239cc8b38899ce27b1450cec9078a')
  type Listed = { attestationId: string; fullSchemaId: string; attester: string; revoked: boolean; validUntil: string; recipients: string[] }
  const listed = (id: number, recipient: string, revoked: boolean, validUntil: number): Listed => ({ attestationId: `0x${id.toString(16)}`, fullSchemaId: schemaId, attester, revoked, validUntil: String(validUntil), recipients: [recipient.toLowerCase()] })
  /** An index over the rows given, in their order: E8 by recipient, and the listing `size` rows a page. */
  const index = (rows: readonly Listed[], size: number) => ({
    getAttestations: async ({ address }: { address: string }) => rows.filter((row) => row.recipients.some((recipient) => recipient.toLowerCase() === address.toLowerCase())).map((row) => ({ ...row, isReceiver: true })),
    getAttestationListingPage: async ({ page }: { page: number }) => ({ items: rows.slice((page - 1) * size, page * size), size, total: rows.length }),
  })
  /** Per address, its rows as text that ignores casing and key order (the rule's fingerprint), sorted. */
  const found = (addresses: readonly Address[], rows: readonly Listed[], lookup: 'address' | 'listing', size: number) =>
    outcome(async () => {
      const answer = await findCleanHandsRows({ index: index(rows, size), addresses, schemaId, attester, lookup, concurrency: 2 })
      return answer.rows.map((own) => own.map((row) => rowFingerprint({ ...(row as object), isReceiver: true })).sort())
    })
  const attestation = fc.record({ voter: fc.nat(3), id: fc.constantFrom(0x65, 0x66, 0x67, 0x1001, 0x1002), revoked: fc.boolean(), validUntil: fc.constantFrom(0, 1_800_000_000) })

  test('the same rows for each voter as the clean listing, or a ResponseValidationError naming the attestation and its recipient', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(attestation, { minLength: 1, maxLength: 6, selector: (entry) => entry.id }),
        fc.array(copying, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(5), { minLength: 1, maxLength: 9 }),
        fc.boolean(),
        fc.constantFrom('address' as const, 'listing' as const),
        fc.integer({ min: 1, max: 4 }),
        async (attestations, how, order, conflicts, lookup, size) => {
          const rows = attestations.map((entry) => listed(entry.id, entry.voter < 3 ? voters[entry.voter]! : other, entry.revoked, entry.validUntil))
          const clean = await found(voters, rows, lookup, size)
          expect('value' in clean, String('error' in clean && clean.error.message)).toBe(true)
          // The copies: the recipient re-cased (perturb re-cases `address`), keys reversed, one maybe revoked the other way.
          const asAddressed = rows.map((row) => ({ ...row, address: row.recipients[0]! }))
          const perturbed = perturb(asAddressed, how, order, (row) => ({ ...row, revoked: !row.revoked }), conflicts)
          const again = perturbed.rows.map(({ address, ...row }) => ({ ...row, recipients: [address] }))
          const result = await found(voters, again, lookup, size)
          if ('value' in result) {
            expect(result.value).toEqual((clean as { value: unknown }).value)
            return
          }
          expect(result.error, result.error.message).toBeInstanceOf(ResponseValidationError)
          const message = (result.error as ResponseValidationError).issues.map((issue) => issue.message).join(' ')
          if (/two different rows/.test(message)) {
            expect([...perturbed.conflicted].some((address) => message.toLowerCase().includes(address)), message).toBe(true)
          } else {
            // The listing's total counts every row it lists. A row listed again on another page is
            // what a shift between two page reads looks like (a row may then be lost): that alone
            // may be called a change while it was read.
            const pagesOf = new Map<string, Set<number>>()
            again.forEach((row, at) => pagesOf.set(row.attestationId, (pagesOf.get(row.attestationId) ?? new Set()).add(Math.floor(at / size))))
            expect(lookup, message).toBe('listing')
            expect([...pagesOf.values()].some((pages) => pages.size > 1), message).toBe(true)
            expect(message).toMatch(/it changed while it was read/)
          }
        },
      ),
      runs(50),
    )
  })
})

describe("human-gated's inner answers from score-api (the library's client)", () => {
  const origin = 'https://score-api.test'
  /** A stand-in score-api answering the maps given, as JSON text (so a map may name one address twice). */
  const scoreApi = (maps: readonly (readonly [string, number])[][]): typeof fetch => async () =>
    new Response(`{"jsonrpc":"2.0","id":null,"cache":false,"result":{"state":"final","scores":[${maps.map((map) => `{${map.map(([address, score]) => `${JSON.stringify(address)}:${score}`).join(',')}}`).join(',')}]}}`, { headers: { 'Content-Type': 'application/json' } })
  const ask = (maps: readonly (readonly [string, number])[][]) =>
    outcome(async () => {
      const client = createScoreApiClient({ url: origin, fetch: scoreApi(maps), retry: false })
      const answer = await client.getScores({ network: '1', snapshot: 1000, strategies: maps.map((_, index) => ({ name: `inner-${index}`, network: '1', params: {} })), addresses: voters })
      return answer.scores.map((map) => Object.fromEntries([...map.entries()].sort()))
    })

  test('the same scores as the clean answer, or a ResponseValidationError naming the inner strategy and the address', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.tuple(fc.nat(2), fc.constantFrom<number>(1, 2.5, 40)), { maxLength: 3 }), { minLength: 1, maxLength: 2 }),
        fc.array(copying, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(5), { minLength: 1, maxLength: 9 }),
        fc.boolean(),
        async (strategies, how, order, conflicts) => {
          const maps = strategies.map((entries) => [...new Map(entries.map(([voter, score]) => [voters[voter]!.toLowerCase(), score])).entries()])
          const clean = await ask(maps)
          expect('value' in clean, String('error' in clean && clean.error.message)).toBe(true)
          const conflicted = new Set<string>()
          const again = maps.map((map) => {
            const perturbed = perturb(map.map(([address, score]) => ({ address, score })), how, order, (row) => ({ ...row, score: row.score + 1 }), conflicts)
            perturbed.conflicted.forEach((address) => conflicted.add(address))
            // A JSON object holds a key once (score-api serialises an object): a copy under the same
            // spelling is dropped, copies under other casings stay.
            const original = new Map(map)
            const spelled = new Set<string>()
            return perturbed.rows.flatMap(({ address, score }) => (spelled.has(address) ? [] : (spelled.add(address), [[address, original.get(address) ?? score] as const])))
          })
          const result = await ask(again)
          if ('value' in result) {
            expect(result.value).toEqual((clean as { value: unknown }).value)
            return
          }
          expect(result.error, result.error.message).toBeInstanceOf(ResponseValidationError)
          const message = (result.error as ResponseValidationError).issues.map((issue) => issue.message).join(' ')
          expect(message).toMatch(/score-api \(strategy inner-\d\)/)
          expect([...conflicted].some((address) => message.toLowerCase().includes(address)), message).toBe(true)
        },
      ),
      runs(50),
    )
  })
})
