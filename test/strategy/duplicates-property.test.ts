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
import { at, copying, historyRecord, listingRow, otherSide, passportStandIn, perturb, runs, voters, type PassportRecord, type PassportRow } from '../helpers/duplicates.js'

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
  const context = (upstream: typeof fetch): StrategyContext => ({ passport: { apiKey: 'key', baseUrl: api, scorerId: '7', rateLimiter: false }, cache: false, fetch: upstream, sleep: async () => {}, now: () => 1_750_000_000_000 })
  const score = (rows: readonly PassportRow[], records: readonly PassportRecord[], addresses: readonly Address[], mode: 'gated' | 'weighted') =>
    outcome(async () => {
      const run = await runStrategy(passportV2Strategy, { network: '10', provider, addresses, options: { mode }, snapshot: 1000, context: context(passportStandIn(rows, records)) })
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
          const listed = perturb(rows, how, order, otherSide, conflicts)
          const recorded = perturb(records, [...how].reverse(), [...order].reverse(), otherSide, conflicts)
          const result = await score(listed.rows, recorded.rows, addresses, mode)
          if ('value' in result) {
            expect(result.value).toEqual((clean as { value: unknown }).value)
            return
          }
          // An error: only for a conflicting copy, typed, naming the source and that address (a
          // listing may hold one of a voter not asked about: the error then leaves the asked ones
          // without an answer).
          const conflicted = new Set([...listed.conflicted, ...recorded.conflicted])
          expect(result.error, result.error.message).toBeInstanceOf(StrategySourceError)
          const error = result.error as StrategySourceError
          expect(Object.values(passportSourceNames)).toContain(error.source)
          expect(error.shortMessage).toMatch(/answered two different rows for 0x[0-9a-fA-F]{40}: which one is true cannot be told, so no score is given\.$/)
          const named = /rows for (0x[0-9a-fA-F]{40}):/.exec(error.shortMessage)![1]!.toLowerCase()
          expect(conflicted.has(named), error.message).toBe(true)
          const askedKeys = addresses.map((address) => address.toLowerCase())
          expect(error.addresses.length, error.message).toBeGreaterThan(0)
          expect(error.addresses.every((address) => askedKeys.includes(address.toLowerCase())), error.message).toBe(true)
          if (askedKeys.includes(named)) expect(error.addresses.map((address) => address.toLowerCase())).toEqual([named])
        },
      ),
      runs(200),
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
      return answer.rows.map((own) => own.map((row) => rowFingerprint({ ...(row as object), attestationId: String((row as { attestationId?: unknown }).attestationId).toLowerCase(), isReceiver: true })).sort())
    })
  const attestation = fc.record({ voter: fc.nat(3), id: fc.constantFrom(0x65, 0x6a, 0x67, 0x1001, 0x100f), revoked: fc.boolean(), validUntil: fc.constantFrom(0, 1_800_000_000) })

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
          // The copies: the recipient re-cased (perturb re-cases `address`) and then the attestation
          // id too, keys reversed, one maybe revoked the other way.
          const asAddressed = rows.map((row) => ({ ...row, address: row.recipients[0]! }))
          const perturbed = perturb(asAddressed, how, order, (row) => ({ ...row, revoked: !row.revoked }), conflicts)
          const again = perturbed.rows.map(({ address, ...row }) => ({ ...row, ...(address === address.toLowerCase() ? {} : { attestationId: row.attestationId.toUpperCase().replace('0X', '0x') }), recipients: [address] }))
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
            again.forEach((row, at) => pagesOf.set(row.attestationId.toLowerCase(), (pagesOf.get(row.attestationId.toLowerCase()) ?? new Set()).add(Math.floor(at / size))))
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
