/**
 * A real score-api as the inner-strategy source of the strategy server's `human-gated`, offline:
 * score-api (a snapshot-labs/score-api checkout, built: `yarn build`) runs unchanged under Node 22
 * (`node build/src/index.js`, what `yarn start` runs; no database), its two outside hosts
 * (rpc.snapshot.org and blockfinder.snapshot.org) sent by a `--require` preload to the gateway of
 * test/score-api-host/upstreams.ts, which answers from the gated world's local chains (a TestToken
 * on an Ethereum chain and on a Base chain, Human ID and Passport on the demo world's hub chain).
 * The strategy server is pointed at it (`scoreApi.url`), and api-v2's code path
 * (test/strategy-server/api-v2.ts) asks the server for `human-gated` over score-api's own
 * `erc20-balance-of` on both networks, in each mode; each answer is compared with the library's
 * (`runStrategy` with the same strategy in process).
 *
 * Usage: npx tsx scripts/score-api-gate-trial.ts <built score-api checkout>
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Eip1193ProviderLike } from '../src/chain/provider.js'
import { runStrategy } from '../src/strategy/define.js'
import { humanGatedStrategy } from '../src/strategy/human-gated.js'
import { startStrategyServer } from '../src/strategy-server/start.js'
import { startUpstreams } from '../test/score-api-host/upstreams.js'
import { apiV2 } from '../test/strategy-server/api-v2.js'
import { startGatedWorld } from '../test/strategy/gated-world.js'
import { snapshotHostsPreload } from './score-api-preload.js'

const checkoutArgument = process.argv[2]
if (!checkoutArgument || !existsSync(join(checkoutArgument, 'build', 'src', 'index.js'))) {
  console.error('Usage: npx tsx scripts/score-api-gate-trial.ts <score-api checkout, built (yarn build)>')
  process.exit(2)
}
const checkout = resolve(checkoutArgument)


function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => done(port))
    })
  })
}

const work = mkdtempSync(join(tmpdir(), 'score-api-gate-trial-'))
const world = await startGatedWorld()
const upstreams = await startUpstreams({ '10': world.server.provider('10') as Eip1193ProviderLike, '1': world.ethereum.provider, '8453': world.base.provider })
const preloadFile = join(work, 'preload.cjs')
writeFileSync(preloadFile, snapshotHostsPreload(upstreams))
const port = await freePort()
// score-api under Node 22, loopback only; nothing of it is changed.
const child = spawn('npx', ['-y', '-p', 'node@22', 'sh', '-c', 'exec node build/src/index.js'], {
  cwd: checkout,
  env: { ...process.env, PORT: String(port), NODE_OPTIONS: `--require ${preloadFile}`, SENTRY_DSN: '', AWS_REGION: '', KEYCARD_SECRET: '' },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
})
let output = ''
child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()))
child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()))
const stopScoreApi = () => {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGTERM')
  } catch {
    // already gone
  }
}
let failed = 0
try {
  const scoreApiUrl = `http://127.0.0.1:${port}`
  const started = Date.now()
  for (;;) {
    if (/Listening at/.test(output)) break
    if (child.exitCode !== null || Date.now() - started > 120_000) throw new Error(`score-api did not start:\n${output.slice(-3000)}`)
    await new Promise((done) => setTimeout(done, 250))
  }
  console.log(`score-api (${checkout}) listening at ${scoreApiUrl} after ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const salt = 'trial-salt-of-this-run'
  const worldContext = world.server.context()
  const server = await startStrategyServer({
    config: { port: 0, salt, store: 'none', scoreApi: { url: scoreApiUrl } },
    providers: { '1': world.ethereum.provider },
    context: { humanId: worldContext.humanId, passport: worldContext.passport, ...(worldContext.clients ? { clients: worldContext.clients } : {}) },
    now: worldContext.now,
  })
  try {
    console.log('\n| mode | voters | api-v2 through the server and score-api | library in process | equal | requests to score-api so far | gateway requests (score-api JSON-RPC, blockfinder) | ms |')
    console.log('|---|---|---|---|---|---|---|---|')
    for (const options of [{ mode: 'gate' }, { mode: 'quadratic' }, { mode: 'cap', cap: 5, passportScore: 0.5 }] as const) {
      for (const addresses of [world.voters, world.voters.slice(3, 4)]) {
        const library = await runStrategy(humanGatedStrategy, {
          network: '1',
          provider: world.ethereum.provider,
          addresses,
          options: { strategies: world.inner(), scorerId: 1, ...options },
          snapshot: world.snapshot,
          context: world.context(),
        })
        const begun = Date.now()
        const recorded = await upstreams.record(() =>
          apiV2({ url: `${server.url}/strategies/human-gated`, type: 'api-post', decimals: 6, strategies: world.inner(), scorerId: 1, ...options }, { network: '1', snapshot: Number(world.snapshot), addresses }, salt),
        )
        const ms = Date.now() - begun
        const served = recorded.result.scores
        const equal = JSON.stringify(served) === JSON.stringify(library.scores)
        if (!equal) failed += 1
        const sum = (scores: Record<string, number>) => Object.values(scores).reduce((total, score) => total + score, 0).toFixed(4)
        const toScoreApi = server.metrics.total('personhood_strategy_upstream_http_requests_total', { host: `127.0.0.1:${port}` })
        console.log(`| ${options.mode} | ${addresses.length} | sum ${sum(served)} | sum ${sum(library.scores)} | ${equal ? 'yes' : 'NO'} | ${toScoreApi} | ${recorded.requests.total} | ${ms} |`)
      }
    }
    // What score-api answers for a name it does not have, through the server: a 400 naming the option.
    const wrong = await apiV2(
      { url: `${server.url}/strategies/human-gated`, type: 'api-post', strategies: [{ name: 'erc20-balance-off', params: {} }], scorerId: 1 },
      { network: '1', snapshot: Number(world.snapshot), addresses: world.voters.slice(0, 2) },
      salt,
    ).catch((error: { status: number; body: string }) => error)
    console.log(`\nA strategy score-api lacks: HTTP ${(wrong as { status: number }).status} ${(wrong as { body: string }).body}`)
    if ((wrong as { status: number }).status !== 400) failed += 1
  } finally {
    await server.close()
  }
} finally {
  stopScoreApi()
  await upstreams.close()
  await world.close()
  rmSync(work, { recursive: true, force: true })
}
console.log(failed === 0 ? '\nEvery answer equal.' : `\n${failed} answer(s) differ or failed.`)
process.exit(failed === 0 ? 0 : 1)
