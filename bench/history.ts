/**
 * What the A2 history costs: heap and state-file bytes per A1 read when the score does not change
 * (one run, one number per read) and per run when it does. Prints a markdown table (the budget in
 * docs/server.md comes from it).
 *
 * Run: `node --expose-gc --import tsx bench/history.ts`
 */
import type { V2Score } from '../src/schemas/passport.js'
import { recordRead } from '../src/server/state/history.js'
import type { HistoryRun } from '../src/server/state/types.js'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('Run with node --expose-gc --import tsx bench/history.ts')

function record(at: number, variant: number, stamps: number): V2Score {
  const expiry = '2025-08-01T00:00:00.000Z'
  return {
    address: '0x00000000000000000000000000000000000000c7',
    score: `${variant}.00000`,
    passing_score: variant >= 20,
    threshold: '20.00000',
    last_score_timestamp: new Date(at).toISOString(),
    expiration_timestamp: expiry,
    error: null,
    stamps: Object.fromEntries(Array.from({ length: stamps }, (_, i) => [`Provider${i}`, { score: '1.00000', dedup: false, expiration_date: expiry }])),
  }
}

function heapUsed(): number {
  gc!()
  gc!()
  return process.memoryUsage().heapUsed
}

type Case = { name: string; addresses: number; reads: number; changes: number; stamps: number }
const cases: Case[] = [
  { name: 'unchanged score, one address', addresses: 1, reads: 1_000_000, changes: 1, stamps: 10 },
  { name: 'unchanged score, 1,000 addresses', addresses: 1_000, reads: 1_000, changes: 1, stamps: 10 },
  { name: 'score changes at every read', addresses: 1_000, reads: 100, changes: 100, stamps: 10 },
]

console.log(`Node ${process.version}; a read every 60 s (plus a few ms of jitter); records with the stated stamps.\n`)
console.log('| Case | Reads | Runs | Heap per read (B) | File per read (B) | Heap per run (B) | File per run (B) |')
console.log('|---|---:|---:|---:|---:|---:|---:|')
for (const { name, addresses, reads, changes, stamps } of cases) {
  const books: HistoryRun[][] = []
  const before = heapUsed()
  let at = Date.parse('2025-06-01T00:00:00.000Z')
  for (let a = 0; a < addresses; a++) {
    const runs: HistoryRun[] = []
    books.push(runs)
    for (let i = 0; i < reads; i++) {
      at += 60_000 + (i % 7)
      recordRead(runs, at, record(at, Math.floor((i * changes) / reads), stamps))
    }
  }
  const heap = heapUsed() - before
  const file = JSON.stringify(books).length
  const total = addresses * reads
  const runs = books.reduce((sum, runs) => sum + runs.length, 0)
  const fmt = (value: number) => value.toFixed(1)
  // Per run is meaningful only where the runs are the changes (not one long run per address).
  const perRun = changes > 1 ? `${fmt(heap / runs)} | ${fmt(file / runs)}` : '- | -'
  console.log(`| ${name} | ${total.toLocaleString('en-US')} | ${runs.toLocaleString('en-US')} | ${fmt(heap / total)} | ${fmt(file / total)} | ${perRun} |`)
}
