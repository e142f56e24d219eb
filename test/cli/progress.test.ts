import { describe, expect, test } from 'vitest'
import { createProgress } from '../../src/cli/progress.js'

function terminal(isTTY: boolean) {
  const writes: string[] = []
  return { stream: { isTTY, columns: 200, write: (text: string) => writes.push(text) }, writes }
}

describe('createProgress', () => {
  test('draws done/total and an ETA from the pace so far', () => {
    let clock = 0
    const { stream, writes } = terminal(true)
    const progress = createProgress({ label: 'Judging', total: 100, stream, now: () => clock, minIntervalMs: 0 })
    clock = 10_000
    progress.tick(25)
    expect(progress.eta()).toBe(30_000)
    expect(writes.at(-1)).toContain('Judging 25/100 · ETA 30s [######------------------]')
  })

  test('counts an announced rate-limit wait into the ETA and says what it waits for', () => {
    let clock = 0
    const { stream, writes } = terminal(true)
    const progress = createProgress({ label: 'Judging', total: 10, stream, now: () => clock, minIntervalMs: 0 })
    clock = 1_000
    progress.tick(5)
    progress.waiting(4 * 60_000, 'scoring')
    expect(progress.eta()).toBe(1_000 + 240_000)
    expect(writes.at(-1)).toContain('Judging 5/10 · waiting 4m00s for scoring budget')
  })

  test('a wait over 5 s is announced on its own line with when it ends, piped or not; a short one is not', () => {
    for (const isTTY of [false, true]) {
      let clock = Date.parse('2026-01-01T12:00:00Z')
      const { stream, writes } = terminal(isTTY)
      const progress = createProgress({ label: 'Judging', total: 30, stream, now: () => clock, minIntervalMs: 0, every: () => () => {} })
      progress.waiting(4_000, 'Passport API key (tier 1)')
      expect(writes.filter((text) => text.startsWith('Waiting') || text.includes('\x1b[KWaiting'))).toEqual([])
      progress.waiting(15 * 60_000, 'Passport API key (tier 1)')
      progress.waiting(15 * 60_000 - 1_000, 'Passport API key (tier 1)') // the same wait, heard from another request
      const announced = writes.filter((text) => text.includes('Waiting '))
      expect(announced).toHaveLength(1)
      expect(announced[0]!.replace('\r\x1b[K', '')).toBe(
        'Waiting 15m00s for Passport API key (tier 1) budget, until 2026-01-01T12:15:00Z: a key of a higher tier (PASSPORT_API_TIER) waits less; --max-wait bounds it.\n',
      )
      clock += 1 // keeps the clock moving for the next round
    }
  })

  test('the countdown redraws each second while a wait lasts, and stops after', () => {
    let clock = 0
    const ticks: (() => void)[] = []
    let stopped = 0
    const { stream, writes } = terminal(true)
    const progress = createProgress({ label: 'Judging', total: 30, stream: { ...stream, columns: 100 }, now: () => clock, minIntervalMs: 0, every: (_ms, tick) => (ticks.push(tick), () => void stopped++) })
    progress.waiting(3_000, 'Passport API key (tier 1)')
    expect(ticks).toHaveLength(1)
    const lines = [writes.at(-1)]
    for (const at of [1_000, 2_000, 3_000]) {
      clock = at
      ticks[0]!()
      lines.push(writes.at(-1))
    }
    expect(lines.map((line) => /waiting (\w+) for/.exec(line ?? '')?.[1] ?? 'none')).toEqual(['3s', '2s', '1s', 'none'])
    expect(stopped).toBe(1)
    // Cut at the terminal's width, the wait is still there.
    expect(lines[0]!.length).toBeLessThanOrEqual(100 + '\r\x1b[K'.length)
  })

  test('piped, a run shorter than a line interval prints nothing (a short wait neither)', () => {
    let clock = 0
    const { stream, writes } = terminal(false)
    const progress = createProgress({ label: 'Judging', total: 3, stream, now: () => clock, every: () => () => {} })
    clock = 1_000
    progress.tick()
    progress.waiting(1000)
    clock = 4_999
    progress.done()
    expect(writes).toEqual([])
  })

  test('piped or in CI, a plain line every 5 s of the clock (done, total, rate, ETA), and one at the end', () => {
    let clock = 0
    const heartbeats: (() => void)[] = []
    let stopped = 0
    const { stream, writes } = terminal(false)
    const progress = createProgress({ label: 'Judging voters', total: 100_000, stream, now: () => clock, every: (ms, tick) => (expect(ms).toBe(5_000), heartbeats.push(tick), () => void stopped++) })
    expect(heartbeats).toHaveLength(1)
    clock = 1_000
    progress.tick(400)
    expect(writes).toEqual([]) // not 5 s yet
    clock = 5_000
    heartbeats[0]!() // the timer, with no new work
    clock = 6_000
    progress.tick(800)
    heartbeats[0]!() // 1 s after a line: nothing
    clock = 10_000
    progress.tick(1_300) // the work itself reaches the 5 s mark
    clock = 12_500
    progress.done()
    expect(stopped).toBe(1)
    expect(writes).toEqual([
      'Judging voters: 400/100,000 (0%), 80 a second, ETA 20m45s\n',
      'Judging voters: 2,500/100,000 (2%), 250 a second, ETA 6m30s\n',
      'Judging voters: 2,500/100,000 (2%), 200 a second in 13s\n',
    ])
    progress.done() // twice: no second closing line
    expect(writes).toHaveLength(3)
  })

  test('piped, a source that stalls still gets a line every 5 s, with the rate-limit wait it is in', () => {
    let clock = Date.parse('2026-01-01T12:00:00Z')
    const heartbeats: (() => void)[] = []
    const { stream, writes } = terminal(false)
    const progress = createProgress({ label: 'Judging voters', total: 30, stream, now: () => clock, every: (_ms, tick) => (heartbeats.push(tick), () => {}) })
    progress.tick(3)
    progress.waiting(60_000, 'Passport API key (tier 1)')
    for (let second = 5; second <= 15; second += 5) {
      clock += 5_000
      heartbeats[0]!()
    }
    expect(writes.filter((text) => text.startsWith('Judging'))).toEqual([
      'Judging voters: 3/30 (10%), 0.60 a second, waiting 55s for Passport API key (tier 1) budget, ETA 1m40s\n',
      'Judging voters: 3/30 (10%), 0.30 a second, waiting 50s for Passport API key (tier 1) budget, ETA 2m20s\n',
      'Judging voters: 3/30 (10%), 0.20 a second, waiting 45s for Passport API key (tier 1) budget, ETA 3m00s\n',
    ])
  })
})
