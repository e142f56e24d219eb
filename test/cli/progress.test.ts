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

  test('draws no line when the output is not a terminal (a short wait says nothing)', () => {
    const { stream, writes } = terminal(false)
    const progress = createProgress({ label: 'Judging', total: 3, stream })
    progress.tick()
    progress.waiting(1000)
    progress.done()
    expect(writes).toEqual([])
  })
})
