/**
 * What `human-verification` costs against the naive combination (one Human ID verification read
 * and one Passport score read per voter), on the reference server with 50 ms of latency per
 * request and the local chain seeded from the same world: a world of WALLETS wallets (default
 * 20,000), a Passport key paced at tier 1 (125 requests per 15 minutes, and the server holds the
 * key to tier 1 too), all four Human ID credentials. Prints HTTP requests, JSON-RPC requests, 429s
 * and wall time.
 *
 *   npx tsx bench/strategies.ts            # WALLETS=20000 VOTERS=500,10000
 */
import { startServe } from '../src/server/index.js'
import { createHumanIdClient } from '../src/clients/human-id/index.js'
import { createPassportClient } from '../src/clients/passport/index.js'
import { createRegistryClient } from '../src/clients/registry/index.js'
import { mapWithConcurrency } from '../src/http/concurrency.js'
import { runStrategy } from '../src/strategy/define.js'
import { humanVerificationStrategy } from '../src/strategy/human-verification.js'
import { generateWorld } from '../src/world/generate/index.js'

const wallets = Number(process.env.WALLETS ?? 20_000)
const voterCounts = (process.env.VOTERS ?? '500,10000').split(',').map(Number)
const latencyMs = 50
const worldNow = '2025-06-01T00:00:00.000Z'
const now = () => Date.parse(worldNow)

let started = Date.now()
const world = generateWorld({ now: worldNow, wallets })
const running = await startServe({ port: 0, seed: 'demo', world, now, latencyMs, chain: { port: 0 } })
const { state } = running.app.context.store
const key = state.apiKeys.find((candidate) => candidate.key === running.apiKey)!
key.tier = 1 // the server holds the key to tier 1 as well
const scorer = state.scorers[0]!
const listed = await createRegistryClient({ apiKey: key.key, baseUrl: running.url, rateLimiter: false }).listScores({ scorerId: scorer.id, limit: 1 })
console.log(`World: ${wallets} wallets, scorer ${scorer.id} lists ${listed.count} scored addresses; server and chain up in ${((Date.now() - started) / 1000).toFixed(1)} s; ${latencyMs} ms latency per HTTP request.`)

const chain = running.chain!
const snapshot = chain.blockAt(new Date(now() - 3_600_000).toISOString())
const everyone = [...new Set([...state.demoAccounts.map((account) => account.address), ...world.wallets.map((wallet) => wallet.address)])]

type Row = { approach: string; voters: number; http: number; rpc: number; tooMany: number; seconds: number; estimated?: boolean }
const rows: Row[] = []

function counting() {
  const counts = { http: 0, tooMany: 0 }
  const fetcher: typeof fetch = async (input, init) => {
    counts.http++
    const response = await fetch(input, init)
    if (response.status === 429) counts.tooMany++
    return response
  }
  return { counts, fetcher }
}

for (const voters of voterCounts) {
  const addresses = everyone.slice(0, voters)
  const { counts, fetcher } = counting()
  let rpc = 0
  const provider = {
    request: (args: { method: string; params?: unknown }) => {
      rpc++
      return chain.provider.request(args)
    },
  }
  started = Date.now()
  const run = await runStrategy(humanVerificationStrategy, {
    network: '10',
    provider,
    addresses,
    options: { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], scorerId: scorer.id },
    snapshot,
    context: {
      fetch: fetcher,
      now,
      deadlineMs: Infinity,
      humanId: { attestationIndexBaseUrl: running.urls.attestationIndex },
      passport: { apiKey: key.key, baseUrl: running.url, tier: 1 },
    },
  })
  rows.push({ approach: 'human-verification', voters, http: counts.http, rpc, tooMany: counts.tooMany, seconds: (Date.now() - started) / 1000 })
  const verified = Object.values(run.scores).filter((score) => score > 0).length
  console.log(`human-verification, ${voters} voters: ${verified} eligible; requests by source`, run.requests)
}

// The naive combination: one E1 (gov-id) and one A1 per voter, unpaced, 4 in flight. Run for the
// smallest count; larger counts scale linearly and are estimated.
{
  const voters = Math.min(...voterCounts)
  const addresses = everyone.slice(0, voters)
  const { counts, fetcher } = counting()
  const humanId = createHumanIdClient({ baseUrl: running.urls.humanId, fetch: fetcher })
  const passport = createPassportClient({ apiKey: key.key, baseUrl: running.url, fetch: fetcher, rateLimiters: false, retry: false })
  started = Date.now()
  await mapWithConcurrency(addresses, 4, async (address) => {
    await humanId.getVerification({ credential: 'gov-id', user: address })
    await passport.getScore({ scorerId: scorer.id, address }).catch(() => undefined)
  })
  const seconds = (Date.now() - started) / 1000
  rows.push({ approach: 'naive (E1 + A1 per voter, unpaced)', voters, http: counts.http, rpc: 0, tooMany: counts.tooMany, seconds })
  for (const more of voterCounts.filter((count) => count !== voters)) {
    rows.push({ approach: 'naive (E1 + A1 per voter, unpaced)', voters: more, http: counts.http * (more / voters), rpc: 0, tooMany: 0, seconds: seconds * (more / voters), estimated: true })
  }
}
await running.close()

const format = (value: number) => value.toLocaleString('en-US')
console.log('')
console.log('| Approach | Voters | HTTP requests | JSON-RPC requests | 429s | Wall time | Tier-1 windows (125 per 15 min) |')
console.log('|---|---:|---:|---:|---:|---:|---:|')
for (const row of rows) {
  const passportRequests = row.approach.startsWith('naive') ? row.http / 2 : row.http
  console.log(
    `| ${row.approach} | ${format(row.voters)} | ${format(Math.round(row.http))}${row.estimated ? ' (est.)' : ''} | ${format(row.rpc)} | ${row.estimated ? '-' : row.tooMany} | ${row.seconds.toFixed(1)} s${row.estimated ? ' (est., unpaced)' : ''} | ${format(Math.ceil(passportRequests / 125))} |`,
  )
}
for (const voters of voterCounts) {
  const ours = rows.find((row) => row.approach === 'human-verification' && row.voters === voters)!
  const naive = rows.find((row) => row.approach.startsWith('naive') && row.voters === voters)!
  console.log(`${format(voters)} voters: ${(naive.http / (ours.http + ours.rpc)).toFixed(0)}x fewer requests than naive.`)
}
