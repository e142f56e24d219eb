/** Small helpers the client and server tests share. */

/** Runs a promise that must fail and returns what it threw; fails the test if it resolves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read error fields freely
export async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the call to fail, but it succeeded')
}

/** now/sleep over one fake clock: sleeping advances it, nothing waits. */
export function fakeClock(start = 0) {
  let time = start
  const sleeps: number[] = []
  return {
    now: () => time,
    sleep: async (ms: number) => {
      sleeps.push(ms)
      time += ms
    },
    sleeps,
  }
}

/** A fetch that records the (fake) time at which each request starts, then lets nock answer. */
export function recordingFetch(now: () => number, starts: number[]): typeof fetch {
  return (input, init) => {
    starts.push(now())
    return globalThis.fetch(input, init)
  }
}

/** How many times each value occurs. */
export function countBy(values: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {}
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1
  return counts
}

/** The most request starts that fall in any window of `windowMs` (half-open, wherever it starts). */
export function maxInAnyWindow(starts: readonly number[], windowMs: number): number {
  const sorted = [...starts].sort((a, b) => a - b)
  let max = 0
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[i] as number) - (sorted[j] as number) >= windowMs) j++
    max = Math.max(max, i - j + 1)
  }
  return max
}

/**
 * Waits until `condition()` holds, checking after each turn of the event loop: for a state the test
 * brings about itself (a gate it holds), never a clock. Only the test's own timeout bounds it.
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2))
}

/**
 * Timers a test fires itself (the transport's `timer` option): an attempt times out when the test
 * says, typically once its request has reached the server, never by racing a real timer.
 */
export function manualTimers() {
  const pending = new Set<() => void>()
  return {
    timer: (_ms: number, fire: () => void) => {
      const entry = () => {
        pending.delete(entry)
        fire()
      }
      pending.add(entry)
      return () => void pending.delete(entry)
    },
    /** Fires every timer started and not cancelled; how many. */
    fire(): number {
      const due = [...pending]
      for (const entry of due) entry()
      return due.length
    },
    /** Timers started and not yet fired or cancelled. */
    get pending() {
      return pending.size
    },
  }
}
