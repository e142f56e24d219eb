/**
 * The A2 history keeps every A1 read, compactly: reads of an unchanged score are one run (the record
 * once, one number per read), and A2 at any past time answers exactly what A1 answered then.
 */
import { describe, expect, test } from 'vitest'
import type { V2Score } from '../../src/schemas/passport.js'
import { readAt, readCount, recordRead } from '../../src/server/state/history.js'
import type { HistoryEvent, HistoryRun } from '../../src/server/state/types.js'
import { setup, worldNowMs } from './harness.js'

const iso = (ms: number) => new Date(ms).toISOString()

/** An A1 record as toV2Score builds it, read at `at`, with a score that names its `variant`. */
function record(at: number, variant: number, stamps = 2): V2Score {
  return {
    address: '0x00000000000000000000000000000000000000c7',
    score: `${variant}.00000`,
    passing_score: variant >= 20,
    threshold: '20.00000',
    last_score_timestamp: iso(at),
    expiration_timestamp: '2025-08-01T00:00:00.000Z',
    error: null,
    stamps: Object.fromEntries(
      Array.from({ length: stamps }, (_, i) => [`Provider${i}`, { score: '1.00000', dedup: false, expiration_date: '2025-08-01T00:00:00.000Z' }]),
    ),
  }
}

/** A small deterministic PRNG (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** What the history must answer: every read kept, the latest at or before `at` (the last recorded among equal times). */
function reference(events: readonly HistoryEvent[], at: number): HistoryEvent | undefined {
  let found: HistoryEvent | undefined
  for (const event of events) if (event.at <= at && (!found || event.at >= found.at)) found = event
  return found
}

function checkShape(runs: readonly HistoryRun[]): void {
  for (const [index, run] of runs.entries()) {
    expect(run.offsets[0]).toBe(0)
    expect(run.record.last_score_timestamp).toBe(iso(run.start))
    for (let i = 1; i < run.offsets.length; i++) expect(run.offsets[i]).toBeGreaterThanOrEqual(run.offsets[i - 1]!)
    const next = runs[index + 1]
    if (next) {
      expect(next.start).toBeGreaterThanOrEqual(run.start + run.offsets.at(-1)!)
      expect({ ...next.record, last_score_timestamp: null }).not.toEqual({ ...run.record, last_score_timestamp: null })
    }
  }
}

describe('A2 history runs', () => {
  test('100,000 identical reads keep one run: the record once and one number per read, within the stated file budget', () => {
    const runs: HistoryRun[] = []
    const next = random(1)
    const times: number[] = []
    let at = worldNowMs
    for (let i = 0; i < 100_000; i++) {
      at += 55_000 + Math.floor(next() * 10_000) // a client reading about once a minute, with jitter
      times.push(at)
      recordRead(runs, at, record(at, 7))
    }
    expect(runs).toHaveLength(1)
    expect(runs[0]!.offsets).toHaveLength(100_000)
    expect(readCount(runs)).toBe(100_000)
    // docs/server.md: at most 12 bytes of state file per identical read (about 70 days here), plus the record once.
    const recordBytes = JSON.stringify(runs[0]!.record).length
    expect(JSON.stringify(runs).length).toBeLessThanOrEqual(recordBytes + 64 + 12 * 100_000)

    expect(readAt(runs, times[0]! - 1)).toBeUndefined()
    for (let i = 0; i < times.length; i += 997) {
      expect(readAt(runs, times[i]!)).toEqual({ at: times[i], record: record(times[i]!, 7) })
      // Between two reads: the earlier one, with its own timestamp.
      expect(readAt(runs, times[i]! + 1_000)?.record.last_score_timestamp).toBe(iso(times[i]!))
    }
    expect(readAt(runs, Number.MAX_SAFE_INTEGER)?.record).toEqual(record(times.at(-1)!, 7))
  })

  test('N distinct scores in turn keep N runs; the answer at each read is the record of that read', () => {
    const runs: HistoryRun[] = []
    const events: HistoryEvent[] = []
    let at = worldNowMs
    for (let variant = 0; variant < 50; variant++) {
      for (let read = 0; read < 3; read++) {
        at += 60_000
        recordRead(runs, at, record(at, variant % 2 ? 1000 : variant))
        events.push({ at, record: record(at, variant % 2 ? 1000 : variant) })
      }
    }
    expect(runs).toHaveLength(50)
    checkShape(runs)
    for (const event of events) expect(readAt(runs, event.at)).toEqual(event)
  })

  test('reads recorded out of order (a clock that went back) answer as a full list of events would', () => {
    const next = random(42)
    for (let round = 0; round < 40; round++) {
      const runs: HistoryRun[] = []
      const events: HistoryEvent[] = []
      for (let i = 0; i < 60; i++) {
        const at = worldNowMs + Math.floor(next() * 40) * 1000 // many equal times
        const variant = Math.floor(next() * 3)
        recordRead(runs, at, record(at, variant, 1))
        events.push({ at, record: record(at, variant, 1) })
      }
      checkShape(runs)
      expect(readCount(runs)).toBe(events.length)
      for (let query = worldNowMs - 1000; query <= worldNowMs + 41_000; query += 1000) expect(readAt(runs, query)).toEqual(reference(events, query))
    }
  })

  test('after 1,500 A1 reads of one address, A2 still answers the first one exactly', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000b2'
    await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: 'Google', issuanceDate: '2025-05-01T00:00:00.000Z' } })
    const first = h.store.score(address, { scorerId: 1, recordHistory: true })
    for (let i = 0; i < 1_499; i++) {
      h.clock.advance(60_000)
      h.store.score(address, { scorerId: 1, recordHistory: true })
    }
    expect(first.score).toBe('0.52500')
    expect(h.store.state.history[1]![address]).toHaveLength(1)
    expect(readCount(h.store.state.history[1]![address])).toBe(1_500)
    const answer = await h.call(`/v2/stamps/1/score/${address}/history?created_at=${encodeURIComponent(first.last_score_timestamp!)}`)
    expect(answer).toMatchObject({ status: 200, body: { items: [first] } })
    const middle = await h.call(`/v2/stamps/1/score/${address}/history?created_at=${iso(worldNowMs + 700 * 60_000 + 59_999)}`)
    expect(middle.body.items[0]).toEqual({ ...first, last_score_timestamp: iso(worldNowMs + 700 * 60_000) })
  })
})
