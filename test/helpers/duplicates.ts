/**
 * What the duplicated-rows properties (issue #27) share: three voters, the ways a row is listed
 * again (another casing, keys reversed, a conflicting copy), the reordering, and an in-memory
 * Passport API (C4 listing and by-address reads, A2 history) for scorer 7.
 */
import fc from 'fast-check'
import { getAddress } from 'viem'

/** The snapshot's time: block 1000 of a chain whose genesis is at 1,700,000,000 with 2 s blocks. */
export const at = 1_700_000_000 + 2 * 1000

/** Seeded: a failure names its seed and path, and the same runs come back every time. */
export const runs = (numRuns: number) => ({ numRuns, seed: 27, endOnFailure: true })

export const voters = [
  getAddress('0x52908400098527886e0f7030069857d2e4169ee7'),
  getAddress('0xde709f2102306220921060314715629080e2fb77'),
  getAddress('0x8617e340b3d01fa5f11f306f4090fd50e238070d'),
] as const

/** An address in another casing: lower, upper (after 0x) or EIP-55. */
export const recase = (address: string, casing: number) =>
  casing === 0 ? address.toLowerCase() : casing === 1 ? `0x${address.slice(2).toUpperCase()}` : getAddress(address.toLowerCase())
/** The same object, its keys in reverse order. */
export const reversedKeys = <T extends object>(row: T): T => Object.fromEntries(Object.entries(row).reverse()) as T

/** How a row is listed again: `copies` times, each under a casing, keys reversed or not; `conflict`: one copy says another score. */
export const copying = fc.record({ copies: fc.nat(2), casing: fc.nat(2), reverse: fc.boolean(), conflict: fc.nat(9) })
export type Copying = { copies: number; casing: number; reverse: boolean; conflict: number }

/**
 * The rows of a clean answer, each listed again as `how` says, then ordered by `order`. Returns the
 * answer and the addresses given a conflicting copy (when `conflicts`).
 */
export function perturb<R extends { address: string }>(rows: readonly R[], how: readonly Copying[], order: readonly number[], conflicting: (row: R) => R, conflicts: boolean) {
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

/**
 * A conflicting copy of a Passport row: a score on the other side of the threshold (20), so that a
 * reader that takes whichever copy comes first gives another answer in gated mode as in weighted.
 */
export const otherSide = <R extends { score: string }>(row: R): R => {
  const score = Number(row.score) >= 20 ? Number(row.score) - 20 : Number(row.score) + 20
  // An A2 record says whether it passes; a copy that contradicts itself would fail the schema instead.
  return { ...row, score: score.toFixed(5), ...('passing_score' in row ? { passing_score: score >= 20 } : {}) }
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()
export type PassportRow = { address: string; score: string; status: string; last_score_timestamp: string; expiration_date: null; evidence: null; error: null }
export type PassportRecord = { address: string; score: string; passing_score: boolean; threshold: string; last_score_timestamp: string; expiration_timestamp: null; error: null; stamps: object }
/** A C4 row as the service sends it. */
export const listingRow = (address: string, score: number, scoredAt: number): PassportRow => ({ address: address.toLowerCase(), score: score.toFixed(9), status: 'DONE', last_score_timestamp: iso(scoredAt), expiration_date: null, evidence: null, error: null })
/** An A2 record, computed five seconds before the snapshot. */
export const historyRecord = (address: string, score: number): PassportRecord => ({ address: address.toLowerCase(), score: score.toFixed(5), passing_score: score >= 20, threshold: '20.00000', last_score_timestamp: iso(at - 5), expiration_timestamp: null, error: null, stamps: {} })

/** A stand-in of the Passport API over the rows and records given, in their order. */
export function passportStandIn(rows: readonly PassportRow[], records: readonly PassportRecord[]): typeof fetch {
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