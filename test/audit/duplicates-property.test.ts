/**
 * The one rule for duplicated rows, as a property (issue #27): the hub's votes (latestVotePerVoter,
 * and the whole read as audit() does it: the hub client over a stand-in hub, then
 * latestVotePerVoter) and the attestation index's rows (uniqueListedRows, which every index read
 * goes through) fed their answers duplicated, reordered and re-cased give the same answer, or a
 * clear error in every order.
 */
import fc from 'fast-check'
import { getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { latestVotePerVoter, type AuditVote } from '../../src/audit/votes.js'
import { createSnapshotHubClient } from '../../src/clients/snapshot-hub.js'
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
        // Worked out apart from the code: each voter's votes at its latest time must agree (choice
        // and power), else no one can tell which Snapshot counts.
        const latest = new Map<string, Set<string>>()
        for (const voter of new Set(votes.map((entry) => entry.voter.toLowerCase()))) {
          const own = votes.filter((entry) => entry.voter.toLowerCase() === voter)
          const at = Math.max(...own.map((entry) => entry.created ?? 0))
          latest.set(voter, new Set(own.filter((entry) => (entry.created ?? 0) === at).map((entry) => `${voter} ${JSON.stringify(entry.choice)} ${entry.votingPower} ${at}`)))
        }
        const conflicting = [...latest.values()].some((kinds) => kinds.size > 1)
        expect(first).toEqual(conflicting ? { error: SnapshotHubError.name } : { value: [...latest.values()].map((kinds) => [...kinds][0]!).sort() })
      }),
      { numRuns: 300 },
    )
  })

  test('the attestation index rows: the same rows kept, or a ResponseValidationError, whatever the order and casing', () => {
    // 0x1a re-cases to 0x1A: the same attestation.
    const row = fc.record({ attestationId: fc.constantFrom('0x65', '0x1a', '0x1001'), recipient: fc.constantFrom(...voters), revoked: fc.boolean() })
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
        // Worked out apart from the code: one row per id (any casing), unless two rows of one id differ.
        const byId = new Map<string, Set<string>>()
        for (const entry of rows) {
          const id = entry.attestationId.toLowerCase()
          byId.set(id, (byId.get(id) ?? new Set()).add(`${id} ${entry.recipients[0]!.toLowerCase()} ${entry.revoked}`))
        }
        const conflicting = [...byId.values()].some((kinds) => kinds.size > 1)
        expect(once).toEqual(conflicting ? { error: ResponseValidationError.name } : { value: [...byId.values()].map((kinds) => [...kinds][0]!).sort() })
      }),
      { numRuns: 300 },
    )
  })
})

describe("the audit's votes read from the Snapshot hub (the hub client, then latestVotePerVoter, as audit() does)", () => {
  const hubUrl = 'https://hub.test/graphql'
  type HubVote = { id: string; voter: string; choice: number; vp: number; created: number; reason: string }
  /** A stand-in hub over the votes given: oldest first (the order within a second as given), `created_gte`, `skip`, `first`. */
  const hub = (votes: readonly HubVote[]): typeof fetch => async (_input, init) => {
    const { variables } = JSON.parse(String(init?.body)) as { variables: { first: number; skip: number; createdGte: number } }
    const ordered = votes.map((vote, index) => ({ vote, index })).sort((a, b) => a.vote.created - b.vote.created || a.index - b.index).map(({ vote }) => vote)
    const page = ordered.filter((vote) => vote.created >= variables.createdGte).slice(variables.skip, variables.skip + variables.first)
    return new Response(JSON.stringify({ data: { votes: page } }), { headers: { 'Content-Type': 'application/json' } })
  }
  const read = async (votes: readonly HubVote[]): Promise<{ value: string[]; error?: undefined } | { value?: undefined; error: SnapshotHubError }> => {
    try {
      const client = createSnapshotHubClient({ url: hubUrl, fetch: hub(votes), retry: false })
      const { votes: counted } = latestVotePerVoter(await client.getVotes({ proposal: '0xproposal' }), { source: client.url })
      return { value: counted.map((vote) => `${vote.voter.toLowerCase()} ${JSON.stringify(vote.choice)} ${vote.votingPower} ${vote.created}`).sort() }
    } catch (error) {
      if (!(error instanceof SnapshotHubError)) throw error
      return { error }
    }
  }
  /** The casings a hub may send an address in: lower, upper after 0x, EIP-55 (any other mix is not an address). */
  const hubCasing = (address: string, casing: number) => (casing === 0 ? address.toLowerCase() : casing === 1 ? `0x${address.slice(2).toUpperCase()}` : getAddress(address.toLowerCase()))
  const vote = fc.record({ voter: fc.nat(1), choice: fc.constantFrom(1, 2), vp: fc.constantFrom(1, 5), created: fc.constantFrom(100, 200, 300) })

  test('the same votes counted as the clean answer, or a SnapshotHubError naming the hub and the voter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(vote, { minLength: 1, maxLength: 5 }),
        fc.array(fc.record({ pick: fc.nat(9), sameId: fc.boolean(), casing: fc.nat(2), conflict: fc.nat(5) }), { maxLength: 5 }),
        fc.array(fc.nat(7), { minLength: 1, maxLength: 9 }),
        fc.boolean(),
        async (base, copies, order, conflicts) => {
          // One vote per voter and second in the clean answer (two would be a conflict of the hub's own).
          const unique = [...new Map(base.map((entry) => [`${entry.voter} ${entry.created}`, entry])).values()]
          const votes: HubVote[] = unique.map((entry, index) => ({ id: `0xv${index}`, voter: voters[entry.voter]!.toLowerCase(), choice: entry.choice, vp: entry.vp, created: entry.created, reason: '' }))
          const clean = await read(votes)
          expect(clean.error?.message).toBeUndefined()
          // Worked out apart from the code: each voter's latest vote (one per voter and second here).
          const latest = new Map<string, HubVote>()
          for (const entry of votes) if ((latest.get(entry.voter)?.created ?? -1) < entry.created) latest.set(entry.voter, entry)
          expect(clean.value).toEqual([...latest.values()].map((entry) => `${entry.voter} ${JSON.stringify(entry.choice)} ${entry.vp} ${entry.created}`).sort())
          const conflicted = new Set<string>()
          const again = [
            ...votes,
            ...copies.map((copy, index) => {
              const original = votes[copy.pick % votes.length]!
              const changed = conflicts && copy.conflict < 2
              if (changed) conflicted.add(original.voter)
              return { ...original, id: copy.sameId ? original.id : `0xcopy${index}`, voter: hubCasing(original.voter, copy.casing), choice: changed ? 3 - original.choice : original.choice }
            }),
          ]
          const shuffled = again.map((entry, index) => ({ entry, key: order[index % order.length]! })).sort((a, b) => a.key - b.key).map(({ entry }) => entry)
          const result = await read(shuffled)
          if (result.error === undefined) {
            expect(result.value).toEqual(clean.value)
            return
          }
          expect(result.error.message).toContain('hub.test')
          expect([...conflicted].some((voter) => result.error.message.toLowerCase().includes(voter)), result.error.message).toBe(true)
        },
      ),
      { numRuns: 50, seed: 27, endOnFailure: true },
    )
  })
})
