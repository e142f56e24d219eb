import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { indexRowsByVoter, judgeCleanHandsChecks, listingPageOrder, mergeIndexListing, parseAttestationId, recipientFilterProblem, recipientListingMaxPages, recipientListingProblem, uniqueIndexRows, type CleanHandsCheck } from './clean-hands-index.js'
import { ConflictingRowsError } from './rows.js'

const voter = (n: number) => `0x${n.toString(16).padStart(40, '0').replace(/^0/, 'a')}`
const row = (id: number, to: number) => ({ attestationId: `0x${id.toString(16)}`, attester: '0xb1f50c6c34c72346b1229e5c80587d0d659556fd', fullSchemaId: 'onchain_evm_10_0x8', recipients: [voter(to)], revoked: false, validUntil: '2000000000' })
const upper = (text: string) => `0x${text.slice(2).toUpperCase()}`

/** A listing of 1 to 400 rows; which of them are new; the order it is listed in. */
const listings = fc
  .tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 30 }))
  .chain(([length, size, fresh]) =>
    fc.record({
      rows: fc.shuffledSubarray(Array.from({ length }, (_, i) => row(i + 1, i % 7)), { minLength: length, maxLength: length }),
      size: fc.constant(size),
      fresh: fc.constant(Math.min(fresh, length)),
    }),
  )

describe('the clean-hands index rules', () => {
  it('a kept listing finds its new rows wherever they are listed, reading pages from both ends in', () => {
    fc.assert(
      fc.property(listings, ({ rows: listed, size, fresh }) => {
        const byId = (a: { attestationId: string }, b: { attestationId: string }) => Number(BigInt(a.attestationId) - BigInt(b.attestationId))
        const newest = [...listed].sort(byId).slice(-fresh).map((r) => r.attestationId)
        const kept = listed.filter((r) => !newest.includes(r.attestationId))
        const pages = Math.ceil(listed.length / size)
        let read: typeof listed = []
        let merged: typeof listed | undefined
        for (const page of listingPageOrder(pages)) {
          read = read.concat(listed.slice((page - 1) * size, page * size))
          merged = mergeIndexListing(kept, read, listed.length)
          if (merged) break
        }
        expect(merged?.map((r) => r.attestationId).sort()).toEqual(listed.map((r) => r.attestationId).sort())
      }),
    )
  })

  it('new rows listed first take page 1 alone; listed last, page 1 and the last page', () => {
    const all = Array.from({ length: 250 }, (_, i) => row(i + 1, 1))
    const kept = all.slice(0, 248)
    const newestFirst = [...all].reverse()
    expect(mergeIndexListing(kept, newestFirst.slice(0, 100), 250)).toHaveLength(250)
    expect(listingPageOrder(3)).toEqual([1, 3, 2])
    expect(mergeIndexListing(kept, all.slice(0, 100), 250)).toBeUndefined()
    expect(mergeIndexListing(kept, [...all.slice(0, 100), ...all.slice(200)], 250)).toHaveLength(250)
    expect(listingPageOrder(5)).toEqual([1, 5, 2, 4, 3])
  })

  it('rows duplicated, re-cased and reordered collapse to the same rows; two rows under one id are an error', () => {
    const rows = Array.from({ length: 12 }, (_, i) => row(i + 1, i))
    fc.assert(
      fc.property(fc.shuffledSubarray(rows), fc.shuffledSubarray(rows, { minLength: 12, maxLength: 12 }), (twice, order) => {
        const recased = twice.map((r) => ({ ...r, attestationId: upper(r.attestationId), recipients: r.recipients.map(upper) }))
        const unique = uniqueIndexRows([...order, ...recased], 'index')
        expect(unique.map((r) => r.attestationId.toLowerCase()).sort()).toEqual(rows.map((r) => r.attestationId).sort())
        const voters = rows.map((r) => r.recipients[0]!)
        const grouped = indexRowsByVoter(unique, voters)
        for (const v of voters) expect(grouped[v.toLowerCase()]).toHaveLength(1)
      }),
    )
    expect(() => uniqueIndexRows([row(1, 1), { ...row(1, 1), recipients: [voter(2)] }], 'human-id: attestation index')).toThrow(ConflictingRowsError)
  })

  it('the reason is the furthest check, whatever the rows order; valid only on chain', () => {
    const reasons: CleanHandsCheck[] = [{ row: 'malformed' }, { row: 'expired' }, { row: 'valid', onchain: 'revoked' }, { row: 'valid', onchain: 'valid', validUntil: 5n }, { row: 'valid', onchain: 'valid', validUntil: 9n }]
    fc.assert(
      fc.property(fc.shuffledSubarray(reasons, { minLength: 1 }), (checks) => {
        const expected = checks.some((c) => c.onchain === 'valid') ? 'valid' : checks.some((c) => c.onchain === 'revoked') ? 'revoked' : checks.some((c) => c.row === 'expired') ? 'expired' : 'malformed'
        const judged = judgeCleanHandsChecks(checks)
        expect(judged.reason).toBe(expected)
        expect(judged.valid).toBe(expected === 'valid')
        if (judged.valid) expect(judged.expiresAt).toBe(checks.some((c) => c.validUntil === 9n) ? 9n : 5n)
      }),
    )
    expect(judgeCleanHandsChecks([])).toEqual({ valid: false, reason: 'none', expiresAt: undefined })
    expect(() => judgeCleanHandsChecks([{ row: 'valid' }])).toThrow('clean hands: a valid row was not read on chain')
  })

  it('an attestation id is a uint64, hex or decimal', () => {
    expect([parseAttestationId('0x1F'), parseAttestationId(' 31 '), parseAttestationId('0x10000000000000000'), parseAttestationId(31)]).toEqual([31n, 31n, undefined, undefined])
  })
})

describe('recipientListingProblem', () => {
  const mine = voter(1)
  it.each([
    ['one page of its rows', { total: 1, pages: 1, rows: [row(1, 1)] }, undefined],
    ['two pages, the bound, its rows in any case', { total: 150, pages: 2, rows: [{ ...row(1, 1), recipients: [upper(mine)] }] }, undefined],
    ['a row that names no recipients array is left to the rule', { total: 1, pages: 1, rows: [{ ...row(1, 1), recipients: 'x' }] }, undefined],
    ['a row of another address: the filter is ignored', { total: 150, pages: 2, rows: [row(1, 1), row(2, 2)] }, `asked for the attestations of recipient ${mine}, got attestation 0x2 of ${voter(2)}: the index ignores recipient=`],
    ['three pages of its own rows', { total: 201, pages: 3, rows: [row(1, 1)] }, `the listing for recipient ${mine} holds 201 attestations on 3 pages, over the 2 pages one address may take`],
  ])('%s', (_name, first, problem) => {
    expect(recipientListingProblem(mine, first)).toBe(problem)
    expect(recipientListingMaxPages).toBe(2)
  })

  it('recipientFilterProblem finds the first row that names only others', () => {
    expect(recipientFilterProblem([row(1, 1), { ...row(2, 2), recipients: [voter(2), upper(mine)] }, row(3, 3)], mine)?.index).toBe(2)
    expect(recipientFilterProblem([], mine)).toBe(undefined)
  })
})
