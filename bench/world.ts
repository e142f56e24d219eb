/**
 * How long the demo world takes to generate, serialize and parse: the reference server generates it
 * at start-up and must start in under 2 s. Run: `npx tsx bench/world.ts`.
 */
import { generateWorld, summarizeWorld } from '../src/world/index.js'

const now = '2025-06-01T00:00:00.000Z'
const runs = 5

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function time<T>(fn: () => T): [T, number] {
  const start = performance.now()
  const result = fn()
  return [result, performance.now() - start]
}

// The first call pays for module warm-up (keccak, secp256k1 tables): report it apart.
const [, coldMs] = time(() => generateWorld({ now, wallets: 1000 }))

const rows = []
for (const wallets of [100, 1000, 5000, 10_000]) {
  const generate: number[] = []
  const stringify: number[] = []
  const parse: number[] = []
  let bytes = 0
  for (let i = 0; i < runs; i++) {
    const [world, g] = time(() => generateWorld({ now, wallets }))
    const [json, s] = time(() => JSON.stringify(world))
    const [, p] = time(() => JSON.parse(json) as unknown)
    generate.push(g)
    stringify.push(s)
    parse.push(p)
    bytes = json.length
  }
  rows.push({
    wallets,
    'generate (ms, median)': Number(median(generate).toFixed(1)),
    'JSON.stringify (ms)': Number(median(stringify).toFixed(1)),
    'JSON.parse (ms)': Number(median(parse).toFixed(1)),
    'JSON size (KiB)': Math.round(bytes / 1024),
  })
}

console.log(`World generation, median of ${runs} runs (first cold run at 1,000 wallets: ${coldMs.toFixed(1)} ms)`)
console.table(rows)

const summary = summarizeWorld(generateWorld({ now, wallets: 1000 }))
console.log(`Seed "${summary.seed}", 1,000 wallets, now ${summary.now}`)
console.table({
  wallets: summary.wallets.total,
  stamps: summary.stamps.total,
  'expired stamps': summary.stamps.expired,
  'shared hashes': summary.stamps.sharedHashes,
  'sybil clusters': summary.sybilClusters.clusters,
  'passing before dedup': summary.scoring.passingBeforeDedup,
  verifications: summary.verifications.total,
  'attestation rows': summary.attestations.rows,
  'model scores': summary.modelScores.total,
})
