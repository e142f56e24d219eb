/**
 * What `--data` costs per change as the state grows: A1 score reads (each records a history event)
 * against a file-persisted server, for demo worlds of growing size. Prints a markdown table: state
 * size, bytes written per read, snapshots written, and read latency with the fsync included.
 *
 * Run: `npx tsx bench/persistence.ts`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from '../src/server/index.js'
import { createFilePersistence } from '../src/server/persistence.js'
import { Store } from '../src/server/state/store.js'
import { stateFromWorld } from '../src/server/state/world.js'
import { generateWorld } from '../src/world/index.js'

const worldNow = '2025-06-01T00:00:00.000Z'
const nowMs = Date.parse(worldNow)
const reads = 300

const rows: string[] = []
for (const wallets of [1000, 5000, 20_000]) {
  const directory = mkdtempSync(join(tmpdir(), 'personhood-bench-'))
  try {
    const world = generateWorld({ now: worldNow, wallets })
    const state = stateFromWorld(world)
    const key = { key: 'bench.0123456789abcdef0123456789abcdef', name: 'bench', tier: 4 as const, historyAllowlisted: true }
    state.apiKeys.push(key)
    const store = new Store(state, { now: () => nowMs })
    const file = join(directory, 'state.json')
    const persistence = createFilePersistence({ file, store })
    const server = createServer({ store, now: () => nowMs, persistence, rateLimits: { stamps: { 4: 1_000_000_000 } } })
    await persistence.flush()
    const snapshotBytes = statSync(file).size
    const before = { ...persistence.writes }
    const latencies: number[] = []
    for (let i = 0; i < reads; i++) {
      const address = world.wallets[i % world.wallets.length]!.address
      const started = performance.now()
      const response = await server.fetch(new Request(`http://x/v2/stamps/1/score/${address}`, { headers: { 'X-API-KEY': key.key } }))
      if (response.status !== 200) throw new Error(`A1 answered ${response.status}`)
      await response.arrayBuffer()
      latencies.push(performance.now() - started)
    }
    await persistence.close()
    latencies.sort((a, b) => a - b)
    const written = persistence.writes.bytes - before.bytes
    rows.push(
      `| ${wallets.toLocaleString('en-US')} | ${(snapshotBytes / 1e6).toFixed(1)} MB | ${Math.round(written / reads).toLocaleString('en-US')} B | ${persistence.writes.snapshots - before.snapshots} | ${latencies[Math.floor(reads / 2)]!.toFixed(2)} ms | ${latencies[Math.floor(reads * 0.99)]!.toFixed(2)} ms |`,
    )
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}

console.log(`A1 reads against a --data server (${reads} reads each, fsync included)\n`)
console.log('| wallets | snapshot | written per read | new snapshots | p50 | p99 |')
console.log('|---|---|---|---|---|---|')
for (const row of rows) console.log(row)
