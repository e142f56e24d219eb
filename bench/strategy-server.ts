/**
 * What `personhood strategy-server` costs as Snapshot calls it, through score-api's api-v2 request
 * (api-post, secret header), against the reference server and the local chain seeded from one
 * world, with 50 ms added to every upstream request (JSON-RPC and APIs alike). Strategy:
 * human-verification (gov-id, phone, biometrics; Passport fallback on a tier-3 key).
 *
 * Prints: a single voter's latency (the first call of a snapshot, then p50/p90 warm), a burst of
 * 1,000 single-voter calls against one 1,000-voter call (wall time and upstream requests), and the
 * close of a proposal with 10,000 voters in one call (cold, then asked again). A call not answered
 * within the server's answerWithinMs (18 s, inside api-v2's 20 s) gets 503 with Retry-After: the
 * table counts them, and asks them again once the runs are done, as a caller retrying would. Wall times are as
 * the caller sees them, including the api-v2 reader itself (it finds each address in the answer by
 * a linear search, quadratic for 10,000 voters); "server" is the server's own time (Server-Timing).
 *
 *   npx tsx bench/strategy-server.ts        # WALLETS=12000 BURST=1000 CLOSE=10000
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServe } from '../src/server/index.js'
import { startStrategyServer } from '../src/strategy-server/start.js'
import { generateWorld } from '../src/world/generate/index.js'
import { apiV2, ApiV2Error } from '../test/strategy-server/api-v2.js'

const wallets = Number(process.env.WALLETS ?? 12_000)
const burstSize = Number(process.env.BURST ?? 1000)
const closeSize = Number(process.env.CLOSE ?? 10_000)
const addedMs = 50
const worldNow = '2025-06-01T00:00:00.000Z'
const now = () => Date.parse(worldNow)
const salt = 'bench-salt-0123456789'

const setup = performance.now()
const world = generateWorld({ now: worldNow, wallets })
const reference = await startServe({ port: 0, seed: 'demo', world, now, chain: { port: 0 } })
const { state } = reference.app.context.store
const chain = reference.chain!
const key = state.apiKeys.find((candidate) => candidate.name === 'analytics')!
const folder = mkdtempSync(join(tmpdir(), 'bench-strategy-server-'))
const slow: typeof fetch = async (input, init) => {
  await new Promise((resolve) => setTimeout(resolve, addedMs))
  return fetch(input, init)
}
const server = await startStrategyServer({
  config: {
    port: 0,
    salt,
    store: join(folder, 'answers.log'),
    rpc: { '10': chain.rpcUrl! },
    passport: { apiKey: key.key, baseUrl: reference.url, tier: 3, scorerId: String(state.scorers[0]!.id) },
    humanId: { hubChainRpc: chain.rpcUrl!, apiUrl: reference.urls.humanId, attestationIndexUrl: reference.urls.attestationIndex },
    deadlineMs: 600_000,
  },
  fetch: slow,
  now,
})
const everyone = [...new Set([...state.demoAccounts.map((account) => account.address), ...world.wallets.map((wallet) => wallet.address)])]
console.log(`World: ${wallets} wallets (${everyone.length} voters); reference server, local chain and strategy server up in ${((performance.now() - setup) / 1000).toFixed(1)} s; ${addedMs} ms added per upstream request.`)

const options = { credentials: ['gov-id', 'phone', 'biometrics'], verifiedScore: 1, passportScore: 1 }
const url = `${server.url}/strategies/human-verification`
const head = chain.blockAt(new Date(now() - 3_600_000).toISOString())
let nextSnapshot = Number(head)
/** A snapshot nothing was asked about yet (an hour before the world's now, then one block earlier each time). */
const freshSnapshot = () => nextSnapshot--
const upstream = () => server.metrics.total('personhood_strategy_upstream_http_requests_total')

async function call(addresses: string[], snapshot: number) {
  const started = performance.now()
  try {
    const { scores, response } = await apiV2({ url, type: 'api-post', ...options }, { network: '10', snapshot, addresses }, salt)
    const serverMs = Number(/dur=([0-9.]+)/.exec(response.headers.get('Server-Timing') ?? '')?.[1])
    return { ms: performance.now() - started, serverMs, scores, status: response.status }
  } catch (error) {
    // 503 STILL_SCORING (Retry-After) past answerWithinMs, or another failure (a 5xx naming its source,
    // a connection reset: status 0): counted and reported, never read as scores.
    const reset = error instanceof TypeError && (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET'
    if (!reset && !(error instanceof ApiV2Error)) throw error
    const status = error instanceof ApiV2Error ? error.status : 0
    if (status !== 503) console.log(`call failed after ${(performance.now() - started).toFixed(0)} ms: ${status || 'connection reset'} ${error instanceof ApiV2Error ? error.body.slice(0, 160) : ''}`)
    return { ms: performance.now() - started, serverMs: Number.NaN, scores: {} as Record<string, number>, status }
  }
}

/** Until every run in flight is done (a caller's Retry-After, without guessing a time). */
const runsDone = () => server.app.scorer.idle()

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

type Row = { measure: string; calls: number; voters: number; wall: string; upstream: number | string; note: string }
const rows: Row[] = []

// 1. A single voter: the first call of a snapshot, then the same snapshot warm (stored answers).
{
  const snapshot = freshSnapshot()
  const voters = everyone.slice(0, 200)
  const before = upstream()
  const first = await call([voters[0]!], snapshot)
  rows.push({ measure: 'single voter, first call of a snapshot', calls: 1, voters: 1, wall: `${first.ms.toFixed(0)} ms`, upstream: upstream() - before, note: 'cold' })
  await call(voters, snapshot) // the voters have voted: their answers are stored
  const warmBefore = upstream()
  const times: number[] = []
  for (const voter of voters) times.push((await call([voter], snapshot)).ms)
  rows.push({
    measure: 'single voter, warm',
    calls: voters.length,
    voters: 1,
    wall: `p50 ${percentile(times, 50).toFixed(1)} ms, p90 ${percentile(times, 90).toFixed(1)} ms`,
    upstream: upstream() - warmBefore,
    note: 'target p50 < 150 ms',
  })
}

// 2. A burst of single-voter calls against one call with the same voters (each at its own fresh snapshot).
{
  const voters = everyone.slice(0, burstSize)
  let before = upstream()
  const one = await call(voters, freshSnapshot())
  const oneUpstream = upstream() - before
  rows.push({ measure: `one call of ${burstSize} voters`, calls: 1, voters: burstSize, wall: `${(one.ms / 1000).toFixed(2)} s`, upstream: oneUpstream, note: '' })
  const snapshot = freshSnapshot()
  before = upstream()
  const runsBefore = server.metrics.total('personhood_strategy_runs_total')
  const started = performance.now()
  const singles = await Promise.all(voters.map((voter) => call([voter], snapshot)))
  const wall = performance.now() - started
  const late = voters.filter((_, index) => singles[index]!.status !== 200)
  const resets = singles.filter((single) => single.status !== 200 && single.status !== 503).length
  await runsDone()
  const retried = await Promise.all(late.map((voter) => call([voter], snapshot)))
  const burstUpstream = upstream() - before
  const runs = server.metrics.total('personhood_strategy_runs_total') - runsBefore
  rows.push({
    measure: `burst of ${burstSize} single-voter calls`,
    calls: burstSize,
    voters: 1,
    wall: `${(wall / 1000).toFixed(2)} s (p50 ${percentile(singles.map((single) => single.ms), 50).toFixed(0)} ms, p99 ${percentile(singles.map((single) => single.ms), 99).toFixed(0)} ms, max ${Math.max(...singles.map((single) => single.ms)).toFixed(0)} ms)`,
    upstream: burstUpstream,
    note: `${burstSize - late.length} answered, ${late.length - resets} 503 + Retry-After, ${resets} failed otherwise; ${runs} runs; ${(burstUpstream / oneUpstream).toFixed(2)}x the one call (target <= 2x)`,
  })
  if (late.length > 0) {
    rows.push({
      measure: `  the 503s asked again`,
      calls: late.length,
      voters: 1,
      wall: `p99 ${percentile(retried.map((single) => single.ms), 99).toFixed(0)} ms`,
      upstream: 0,
      note: `${retried.filter((single) => single.status === 200).length} answered from the store`,
    })
  }
}

// 3. The close of a proposal: every voter in one call, then the same call again.
{
  const voters = everyone.slice(0, closeSize)
  const snapshot = freshSnapshot()
  let before = upstream()
  const cold = await call(voters, snapshot)
  await runsDone()
  rows.push({
    measure: `close: ${voters.length} voters in one call`,
    calls: 1,
    voters: voters.length,
    wall: cold.status === 200 ? `${(cold.ms / 1000).toFixed(2)} s (server ${(cold.serverMs / 1000).toFixed(2)} s)` : `503 after ${(cold.ms / 1000).toFixed(2)} s`,
    upstream: upstream() - before,
    note: cold.status === 200 ? 'cold' : 'cold: 503 + Retry-After, its run went on to the store',
  })
  before = upstream()
  const again = await call(voters, snapshot)
  rows.push({
    measure: `close again (stored)`,
    calls: 1,
    voters: voters.length,
    wall: `${(again.ms / 1000).toFixed(2)} s (server ${(again.serverMs / 1000).toFixed(2)} s)`,
    upstream: upstream() - before,
    note: 'every answer from the store',
  })
  const positive = Object.values(again.scores).filter((score) => score > 0).length
  console.log(`Close: ${positive} of ${voters.length} voters above 0.`)
}

const columns = ['measure', 'calls', 'voters', 'wall', 'upstream', 'note'] as const
const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => String(row[column]).length)))
const line = (cells: string[]) => `| ${cells.map((cell, index) => cell.padEnd(widths[index]!)).join(' | ')} |`
console.log('')
console.log(line([...columns]))
console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
for (const row of rows) console.log(line(columns.map((column) => String(row[column]))))

await server.close()
await reference.close()
rmSync(folder, { recursive: true, force: true })
