import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { indexRowsByVoter, judgeCleanHandsChecks, parseAttestationId, recipientFilterProblem, uniqueIndexRows, type CleanHandsCheck } from './clean-hands-index.js'
import { ConflictingRowsError } from './rows-error.js'

const voter = (n: number) => `0x${n.toString(16).padStart(40, '0').replace(/^0/, 'a')}`
const row = (id: number, to: number) => ({ attestationId: `0x${id.toString(16)}`, attester: '0xb1f50c6c34c72346b1229e5c80587d0d659556fd', fullSchemaId: 'onchain_evm_10_0x8', recipients: [voter(to)], revoked: false, validUntil: '2000000000' })
const upper = (text: string) => `0x${text.slice(2).toUpperCase()}`

describe('the clean-hands index rules', () => {
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

describe('recipientFilterProblem', () => {
  const mine = voter(1)
  it.each([
    ['its own rows, in any case', [row(1, 1), { ...row(2, 1), recipients: [upper(mine)] }], undefined],
    ['a row that names no recipients array is left to the rule', [{ ...row(1, 1), recipients: 'x' }], undefined],
    ['a row of another address: the filter is ignored', [row(1, 1), row(2, 2)], { index: 1, problem: `asked for the attestations of recipient ${mine}, got attestation 0x2 of ${voter(2)}: the index ignores recipient=` }],
  ])('%s', (_name, rows, problem) => {
    expect(recipientFilterProblem(rows, mine)).toEqual(problem)
  })

  it('finds the first row that names only others', () => {
    expect(recipientFilterProblem([row(1, 1), { ...row(2, 2), recipients: [voter(2), upper(mine)] }, row(3, 3)], mine)?.index).toBe(2)
    expect(recipientFilterProblem([], mine)).toBe(undefined)
  })
})
