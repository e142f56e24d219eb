/**
 * The one rule for duplicated rows, as a property (issue #27): the hub's votes (latestVotePerVoter)
 * and the attestation index's rows (uniqueListedRows, which every index read goes through) fed
 * their answers duplicated, reordered and re-cased give the same answer, or a clear error in every
 * order.
 */
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { latestVotePerVoter, type AuditVote } from '../../src/audit/votes.js'
import { SnapshotHubError } from '../../src/errors/audit.js'
import { ResponseValidationError } from '../../src/errors/http.js'
import { uniqueListedRows } from '../../src/http/listing.js'

const voters = ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D'] as const
const recase = (address: string, upper: boolean[]) => `0x${[...address.slice(2)].map((char, index) => (upper[index % upper.length] ? char.toUpperCase() : char.toLowerCase())).join('')}`

/** The outcome of a call: its value, or the name of its error. */
function outcome<T>(run: () => T): { value: T } | { error: string } {
  try {
    return { value: run() }
  } catch (error) {
    return { error: (error as Error).name }
  }
}

describe('duplicated, reordered and re-cased upstream rows', () => {
  test('the hub votes: the same votes counted, or a SnapshotHubError, whatever the order and casing', () => {
    const vote = fc.record({ voter: fc.constantFrom(...voters), choice: fc.constantFrom(1, 2), votingPower: fc.constantFrom(1, 5), created: fc.constantFrom(100, 200) })
    fc.assert(
      fc.property(fc.array(vote, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(9), { maxLength: 6 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), fc.nat(), (base, copies, upper, seed) => {
        const votes: AuditVote[] = base.map((entry, index) => ({ ...entry, id: `v${index}` }))
        const withCopies = [...votes, ...copies.map((pick, index) => ({ ...votes[pick % votes.length]!, id: `copy${index}`, voter: recase(votes[pick % votes.length]!.voter, upper) as AuditVote['voter'] }))]
        const shuffled = [...withCopies].sort((a, b) => ((String(a.id).charCodeAt(String(a.id).length - 1) * 31 + seed) % 7) - ((String(b.id).charCodeAt(String(b.id).length - 1) * 31 + seed) % 7))
        const summary = (run: () => ReturnType<typeof latestVotePerVoter>) => {
          const result = outcome(run)
          if ('error' in result) return result
          return { value: result.value.votes.map((entry) => `${entry.voter.toLowerCase()} ${JSON.stringify(entry.choice)} ${entry.votingPower} ${entry.created}`).sort() }
        }
        const first = summary(() => latestVotePerVoter(withCopies))
        expect(summary(() => latestVotePerVoter(shuffled))).toEqual(first)
        if ('error' in first) expect(first.error).toBe(SnapshotHubError.name)
      }),
      { numRuns: 300 },
    )
  })

  test('the attestation index rows: the same rows kept, or a ResponseValidationError, whatever the order and casing', () => {
    const row = fc.record({ attestationId: fc.constantFrom('0x65', '0x66', '0x1001'), recipient: fc.constantFrom(...voters), revoked: fc.boolean() })
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), fc.nat(), (base, upper, seed) => {
        const rows: { attestationId: string; recipients: string[]; revoked: boolean }[] = base.map((entry) => ({ attestationId: entry.attestationId, recipients: [entry.recipient], revoked: entry.revoked }))
        const recased = rows.map((entry) => ({ revoked: entry.revoked, recipients: entry.recipients.map((recipient) => recase(recipient, upper)), attestationId: entry.attestationId.toUpperCase().replace('0X', '0x') }))
        const doubled = [...rows, ...recased]
        const shuffled = [...doubled].reverse().sort((a, b) => ((a.attestationId.length + seed) % 3) - ((b.attestationId.length + seed) % 3))
        const summary = (input: typeof rows) => {
          const result = outcome(() => uniqueListedRows(input, 'index'))
          if ('error' in result) return result
          return { value: result.value.map((entry) => `${entry.attestationId.toLowerCase()} ${entry.recipients[0]!.toLowerCase()} ${entry.revoked}`).sort() }
        }
        const once = summary(rows)
        expect(summary(doubled)).toEqual(once)
        expect(summary(shuffled)).toEqual(once)
        if ('error' in once) expect(once.error).toBe(ResponseValidationError.name)
      }),
      { numRuns: 300 },
    )
  })
})
