/**
 * Vitest setup file used only by `bench/suite.ts`: in each test file's process it appends one JSON
 * line to `$PERSONHOOD_SUITE_BENCH/<pid>.jsonl` when the file starts and one when it ends, with the
 * process's resident-set high-water mark (VmHWM from /proc/self/status, the kernel's own figure, so
 * nothing is missed between samples) and its resident set now. Not part of the suite's own config.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, expect } from 'vitest'

const directory = process.env.PERSONHOOD_SUITE_BENCH
const root = new URL('../..', import.meta.url).pathname

/** A field of /proc/self/status in bytes (the kernel prints kB). */
function status(field: 'VmHWM' | 'VmRSS'): number {
  const line = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))
  return line ? Number(line[1]) * 1024 : 0
}

function record(event: 'start' | 'end'): void {
  if (!directory) return
  const testPath = expect.getState().testPath ?? ''
  const line = { event, file: relative(root, testPath), pid: process.pid, at: Date.now(), hwm: status('VmHWM'), rss: status('VmRSS') }
  appendFileSync(join(directory, `${process.pid}.jsonl`), `${JSON.stringify(line)}\n`)
}

record('start')
afterAll(() => record('end'))
