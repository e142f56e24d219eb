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
    expect(writes.at(-1)).toContain('Judging [######------------------] 25/100 · ETA 30s')
  })

  test('counts an announced rate-limit wait into the ETA and says what it waits for', () => {
    let clock = 0
    const { stream, writes } = terminal(true)
    const progress = createProgress({ label: 'Judging', total: 10, stream, now: () => clock, minIntervalMs: 0 })
    clock = 1_000
    progress.tick(5)
    progress.waiting(4 * 60_000, 'scoring')
    expect(progress.eta()).toBe(1_000 + 240_000)
    expect(writes.at(-1)).toContain('waiting 4m00s for scoring budget')
  })

  test('is quiet when the output is not a terminal', () => {
    const { stream, writes } = terminal(false)
    const progress = createProgress({ label: 'Judging', total: 3, stream })
    progress.tick()
    progress.waiting(1000)
    progress.done()
    expect(writes).toEqual([])
  })
})
