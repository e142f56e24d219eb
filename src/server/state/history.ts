/**
 * The A2 history of one (scorer, address), kept whole and compactly: consecutive A1 reads that
 * answered the same record (all fields but `last_score_timestamp`) form one {@link HistoryRun}, which
 * holds the record once and each read as one number. A2 asks for the latest read at or before a
 * time; its answer is the run's record with that read's timestamp, exactly as A1 answered it then.
 */
import { isDeepStrictEqual } from 'node:util'
import type { V2Score } from '../../schemas/passport.js'
import type { HistoryEvent, HistoryRun } from './types.js'

const iso = (ms: number): string => new Date(ms).toISOString()

/** Whether two records are the same score but for `last_score_timestamp`. */
function sameScore(a: V2Score, b: V2Score): boolean {
  return isDeepStrictEqual({ ...a, last_score_timestamp: null }, { ...b, last_score_timestamp: null })
}

/** The index of the last run that starts at or before `at`, or -1. */
function runAtOrBefore(runs: readonly HistoryRun[], at: number): number {
  let low = 0
  let high = runs.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (runs[middle]!.start <= at) low = middle + 1
    else high = middle
  }
  return low - 1
}

/** The number of offsets at or before `offset` (offsets ascending). */
function countAtOrBefore(offsets: readonly number[], offset: number): number {
  let low = 0
  let high = offsets.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (offsets[middle]! <= offset) low = middle + 1
    else high = middle
  }
  return low
}

function newRun(at: number, record: V2Score): HistoryRun {
  return { record: { ...record, last_score_timestamp: iso(at) }, start: at, offsets: [0] }
}

/** A run of `offsets` (ascending, relative to `start`) moved to start at its first offset. */
function rebase(run: HistoryRun, offsets: number[]): HistoryRun {
  const first = offsets[0]!
  const start = run.start + first
  return { record: { ...run.record, last_score_timestamp: iso(start) }, start, offsets: offsets.map((offset) => offset - first) }
}

/**
 * What {@link recordRead} changed, for persistence: one offset pushed onto the run at `index`, one
 * run pushed at the end, or (a read out of order) the list otherwise.
 */
export type HistoryWrite = { kind: 'offset'; index: number; offset: number } | { kind: 'run'; run: HistoryRun } | { kind: 'list' }

/**
 * Records an A1 read answered at `at` with `record` in `runs` (changed in place). A read after the
 * last one (the usual case) costs one number when the score did not change, one new run when it
 * did. A read out of order (a clock that went back) lands in its place; among reads at the same
 * millisecond the one recorded last is the latest.
 */
export function recordRead(runs: HistoryRun[], at: number, record: V2Score): HistoryWrite {
  const index = runAtOrBefore(runs, at)
  if (index === -1) {
    const first = runs[0]
    if (first && sameScore(first.record, record)) runs[0] = rebase(first, [at - first.start, ...first.offsets])
    else runs.unshift(newRun(at, record))
    return runs.length === 1 && !first ? { kind: 'run', run: runs[0]! } : { kind: 'list' }
  }
  const run = runs[index]!
  const offset = at - run.start
  const split = countAtOrBefore(run.offsets, offset)
  if (sameScore(run.record, record)) {
    if (split === run.offsets.length) {
      run.offsets.push(offset)
      return { kind: 'offset', index, offset }
    }
    run.offsets.splice(split, 0, offset)
    return { kind: 'list' }
  }
  if (split === run.offsets.length) {
    // After the run's last read: the next run may hold the same score (a read out of order).
    const next = runs[index + 1]
    if (next && sameScore(next.record, record)) {
      runs[index + 1] = rebase(next, [at - next.start, ...next.offsets])
      return { kind: 'list' }
    }
    const added = newRun(at, record)
    runs.splice(index + 1, 0, added)
    return index + 1 === runs.length - 1 ? { kind: 'run', run: added } : { kind: 'list' }
  }
  // Inside the run, with another score: split it around the new read.
  const before = rebase(run, run.offsets.slice(0, split))
  const after = rebase(run, run.offsets.slice(split))
  runs.splice(index, 1, before, newRun(at, record), after)
  return { kind: 'list' }
}

/** The latest read at or before `at` (Unix ms), with the record A1 answered then; undefined when none. */
export function readAt(runs: readonly HistoryRun[] | undefined, at: number): HistoryEvent | undefined {
  if (!runs?.length) return undefined
  const index = runAtOrBefore(runs, at)
  if (index === -1) return undefined
  const run = runs[index]!
  const count = countAtOrBefore(run.offsets, at - run.start)
  const read = run.start + run.offsets[count - 1]!
  return { at: read, record: read === run.start ? run.record : { ...run.record, last_score_timestamp: iso(read) } }
}

/** The number of reads in `runs`. */
export function readCount(runs: readonly HistoryRun[] | undefined): number {
  return runs?.reduce((total, run) => total + run.offsets.length, 0) ?? 0
}
