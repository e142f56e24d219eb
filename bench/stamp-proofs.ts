/**
 * Cost of the stamp proofs (Ed25519, detached JWS over RFC 8785 JSON) in the reference server:
 * loading the 1,000-wallet demo world (credentials built, none signed yet), signing all of them (what
 * the first save of a `--data` state file costs), checking all of them anew (a state file read
 * back), and the first A1 read of a wallet after such a reload. Median of 5 runs; prints a markdown
 * table.
 *
 * Run: `npx tsx bench/stamp-proofs.ts`
 */
import { availableParallelism, cpus } from 'node:os'
import { checkStampCredential } from '../src/server/state/credentials.js'
import { parseState, Store } from '../src/server/state/store.js'
import { stateFromWorld } from '../src/server/state/world.js'
import { generateWorld } from '../src/world/index.js'

const worldNow = '2025-06-01T00:00:00.000Z'
const world = generateWorld({ now: worldNow, wallets: 1000 })
const runs = 5

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const timings = { load: [] as number[], sign: [] as number[], verify: [] as number[], firstRead: [] as number[] }
let stamps = 0
for (let run = 0; run < runs; run++) {
  let t = performance.now()
  const state = stateFromWorld(world)
  timings.load.push(performance.now() - t)

  t = performance.now()
  const file = JSON.stringify(state)
  timings.sign.push(performance.now() - t)

  const reloaded = parseState(JSON.parse(file))
  const records = Object.values(reloaded.stamps).flat()
  stamps = records.length
  t = performance.now()
  for (const record of records) if (checkStampCredential(record.stamp)) throw new Error('A world stamp failed its check.')
  timings.verify.push(performance.now() - t)

  const fresh = new Store(parseState(JSON.parse(file)), { now: () => Date.parse(worldNow) })
  const addresses = Object.keys(fresh.state.stamps)
  t = performance.now()
  for (const address of addresses) fresh.score(address, { scorerId: 1 })
  timings.firstRead.push((performance.now() - t) / addresses.length)
}

const rows = [
  ['load the demo world (stateFromWorld, no proof signed)', median(timings.load)],
  [`sign every proof (${stamps.toLocaleString('en-US')} stamps, first JSON save)`, median(timings.sign)],
  [`check every proof anew (${stamps.toLocaleString('en-US')} stamps, a state file read back)`, median(timings.verify)],
  ['first A1 read of one wallet after a reload (checks its stamps)', median(timings.firstRead)],
] as const
console.log(`Stamp proofs, ${runs} runs (median), Node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} x${availableParallelism()}\n`)
console.log('| step | ms |\n|---|---:|')
for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(ms < 10 ? 2 : 0)} |`)
