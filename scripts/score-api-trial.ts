/**
 * Runs score-api's own checks on this package's folders in a real snapshot-labs/score-api checkout,
 * offline: the folders are copied in (with the demo-world examples of test/strategies/fixtures/ in
 * place of the real-network examples.json), and score-api's `yarn typecheck`, eslint on the new
 * folders and `yarn test:strategy <name> 500` run unchanged, under
 * Node 22, against the demo world's local chain and reference server.
 *
 * score-api reaches the networks through snapshot.js: `getProvider(network)` calls
 * https://rpc.snapshot.org/<network> and `getSnapshots` calls https://blockfinder.snapshot.org. A
 * preload given to Node (`--require`) sends those two hosts to the test host's gateway on
 * 127.0.0.1 (test/score-api-host/upstreams.ts), which answers network 10 from the local chain and
 * network 1 from a 12 s chain clock; nothing else of score-api is touched. Passport and the
 * attestation index are reached through the folders' own environment overrides. The manifest-author
 * check calls api.github.com, which cannot be reached here: that one check fails, and is reported.
 *
 * Usage: npx tsx scripts/score-api-trial.ts <score-api checkout> [name ...]
 * (TRIAL_TESTS_ONLY=1 skips the typecheck and lint; TRIAL_AGES_ONLY=1 runs only the request counts;
 * TRIAL_AGES=0 skips them)
 * The checkout must be installed (`yarn install` under Node 22.6+, yarn 1). The folders copied in are
 * removed at the end (git clean of the strategy folders and a checkout of nothing else).
 */
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Eip1193ProviderLike } from '../src/index.js'
import { startUpstreams } from '../test/score-api-host/upstreams.js'
import { startGatedWorld } from '../test/strategy/gated-world.js'
import { servings } from '../test/strategies/servings.js'
import { snapshotHostsPreload } from './score-api-preload.js'

/**
 * The score-api process of the request-count trial (CommonJS, in the checkout, under ts-node as
 * score-api's dev server runs): loads score-api's strategies once, then for each case on stdin
 * requires the folder afresh and scores with a new provider from snapshot.js's getProvider.
 */
const agesChild = `
const path = require('path');
const readline = require('readline');
const snapshotjs = require('@snapshot-labs/snapshot.js');
const snapshot = snapshotjs.default || snapshotjs;
require('./src/strategies/strategies');
const strategiesDir = path.join(process.cwd(), 'src', 'strategies', 'strategies');
const folder = path.join(strategiesDir, process.env.TRIAL_FOLDER);
// A cold call: the folder and the folders it imports (passport-v2 and human-verification import human-id).
const ours = ['human-id', 'passport-v2', 'human-verification', 'human-gated'].map((name) => path.join(strategiesDir, name) + path.sep);
let fresh = 0;
process.stdout.write(JSON.stringify({ ready: true }) + '\\n');
const lines = readline.createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => {
  queue = queue.then(async () => {
    const ask = JSON.parse(line);
    for (const key of Object.keys(require.cache)) if (ours.some((dir) => key.startsWith(dir))) delete require.cache[key];
    const strategy = require(folder);
    const provider = snapshot.utils.getProvider(ask.network, { timeout: 25000 + ++fresh });
    try {
      const scores = await strategy.strategy('personhood.eth', ask.network, provider, ask.addresses, ask.params, ask.snapshot);
      const values = Object.values(scores);
      process.stdout.write(JSON.stringify({ ok: true, count: values.length, positive: values.filter((v) => v > 0).length }) + '\\n');
    } catch (error) {
      process.stdout.write(JSON.stringify({ ok: false, error: String((error && error.message) || error).slice(0, 400) }) + '\\n');
    }
  });
});
`

/** Reads a stream line by line: each call resolves with the next line. */
function lineReader(stream: NodeJS.ReadableStream): () => Promise<string> {
  const lines: string[] = []
  const waiting: Array<(line: string) => void> = []
  let buffered = ''
  stream.on('data', (chunk: Buffer) => {
    buffered += chunk.toString()
    let end: number
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 1)
      if (!line.startsWith('{')) continue
      const next = waiting.shift()
      if (next) next(line)
      else lines.push(line)
    }
  })
  let ended = false
  stream.on('end', () => {
    ended = true
    for (const next of waiting.splice(0)) next('{"ok":false,"ready":false,"error":"the score-api process ended"}')
  })
  return () =>
    lines.length > 0
      ? Promise.resolve(lines.shift()!)
      : ended
        ? Promise.resolve('{"ok":false,"ready":false,"error":"the score-api process ended"}')
        : new Promise((resolve) => waiting.push(resolve))
}

const root = resolve(import.meta.dirname, '..')
const [checkoutArgument, ...only] = process.argv.slice(2)
if (!checkoutArgument || !existsSync(join(checkoutArgument, 'src', 'strategies', 'strategies'))) {
  console.error('Usage: npx tsx scripts/score-api-trial.ts <score-api checkout> [name ...]')
  process.exit(2)
}
const checkout = resolve(checkoutArgument)


/** Runs a command in the checkout under Node 22 and yarn 1, without blocking this process (it serves the world). */
async function run(label: string, command: string, env: NodeJS.ProcessEnv): Promise<{ label: string; ok: boolean; tail: string }> {
  const started = Date.now()
  const child = spawn('npx', ['-y', '-p', 'node@22', '-p', 'yarn@1', 'sh', '-c', command], { cwd: checkout, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  const status = await new Promise<number | null>((done) => child.on('close', done))
  const summary = output.split('\n').filter((line) => /^(Tests|Test Suites):|✕|●.*›|error TS|problems?\)/.test(line.trim()))
  // score-api's manifest check asks api.github.com whether the author exists: unreachable here, so a
  // run whose only failures are that check is reported as such, apart from a real failure.
  const failures = output.split('\n').filter((line) => line.trim().startsWith('✕'))
  const onlyGithub = status !== 0 && failures.length > 0 && failures.every((line) => /github/i.test(line))
  // Two of score-api's pinned server packages are missing here (field notes §6): the typecheck's
  // errors in score-api's own files are those, and are told apart from errors in our folders.
  const typeErrors = output.split('\n').filter((line) => /error TS\d+/.test(line))
  const onlyPinned = status !== 0 && typeErrors.length > 0 && typeErrors.every((line) => !line.includes('src/strategies/strategies/'))
  const verdict =
    status === 0
      ? 'passed'
      : onlyGithub
        ? 'passed but for the GitHub author check (api.github.com is unreachable here)'
        : onlyPinned
          ? `passed for the folders; score-api's own files fail on its missing pinned packages (field notes §6): ${typeErrors.length} error(s), none in src/strategies/strategies/`
          : `exit ${status}`
  console.log(`\n## ${label}: ${verdict} (${((Date.now() - started) / 1000).toFixed(0)} s)`)
  console.log(summary.slice(0, 40).join('\n'))
  return { label, ok: status === 0 || onlyGithub || onlyPinned, tail: output.slice(-6000) }
}

const results: Array<{ label: string; ok: boolean; tail: string }> = []
const work = mkdtempSync(join(tmpdir(), 'score-api-trial-'))
const copied: string[] = []
try {
  const strategyNames = readdirSync(join(root, 'strategies'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
  const wanted = (name: string) => only.length === 0 || only.includes(name)
  for (const name of strategyNames) {
    const target = join(checkout, 'src', 'strategies', 'strategies', name)
    cpSync(join(root, 'strategies', name), target, { recursive: true })
    const fixture = join(root, 'test', 'strategies', 'fixtures', name, 'examples.json')
    if (existsSync(fixture)) cpSync(fixture, join(target, 'examples.json'))
    else if (wanted(name)) throw new Error(`strategies/${name} has no demo-world examples at ${fixture}`)
    copied.push(target)
  }
  const base = { ...process.env, CI: 'true' }
  // TRIAL_TESTS_ONLY=1 skips the typecheck and lint (a minute and a half) when only the tests changed.
  if (!process.env.TRIAL_TESTS_ONLY && !process.env.TRIAL_AGES_ONLY) results.push(await run('yarn typecheck (the whole of score-api, our folders in)', 'yarn -s typecheck', base))
  if (!process.env.TRIAL_TESTS_ONLY && !process.env.TRIAL_AGES_ONLY) results.push(await run('eslint on the copied folders', `npx eslint ${copied.map((path) => JSON.stringify(path)).join(' ')}`, base))
  // TRIAL_AGES_ONLY=1 runs only the request counts below.
  if (!process.env.TRIAL_AGES_ONLY) {
    for (const name of strategyNames.filter(wanted)) {
      const serving = servings[name]
      if (!serving) throw new Error(`No serving for strategies/${name} in test/strategies/servings.ts`)
      const server = await serving.start()
      const upstreams = await startUpstreams({ '10': server.provider('10') as Eip1193ProviderLike, '1': server.provider('1') as Eip1193ProviderLike })
      const preloadFile = join(work, `${name}-preload.cjs`)
      writeFileSync(preloadFile, snapshotHostsPreload(upstreams))
      const env = { ...base, ...server.env, NODE_OPTIONS: `--require ${preloadFile}` }
      try {
        const command = `yarn -s test:strategy ${name} 500`
        const recorded = await upstreams.record(() => run(command, command, env))
        results.push(recorded.result)
        console.log(`upstream requests during the run (at the gateway): ${JSON.stringify(recorded.requests.rpc)}, subgraph ${JSON.stringify(recorded.requests.subgraph)}`)
      } finally {
        await upstreams.close()
        await server.close()
      }
    }
  }
  // Point 4 of #26 in score-api's own process: the Passport folders' requests from a cold start
  // (the folder's modules required afresh, a provider of snapshot.js's getProvider never used
  // before) with 1 and 500 voters at snapshots 1 hour, 1 day and 7 days old. One score-api process
  // per folder (loading score-api's strategies takes most of a minute) takes the cases on stdin.
  if (process.env.TRIAL_AGES !== '0') {
    const ages = { '1 hour': 1_800, '1 day': 43_200, '7 days': 302_400 } as const
    const table: string[] = ['| folder | network | snapshot age | voters | requests | answered (positive) |', '|---|---|---|---:|---:|---|']
    for (const name of ['passport-v2', 'human-verification', 'human-id'].filter((name) => wanted(name) && strategyNames.includes(name))) {
      const server = await servings[name]!.start()
      const upstreams = await startUpstreams({ '10': server.provider('10') as Eip1193ProviderLike, '1': server.provider('1') as Eip1193ProviderLike })
      const preloadFile = join(work, `${name}-ages-preload.cjs`)
      writeFileSync(preloadFile, snapshotHostsPreload(upstreams))
      // In the checkout, so that it requires score-api's own packages; removed below.
      const childFile = join(checkout, `.personhood-${name}-ages.cjs`)
      writeFileSync(childFile, agesChild)
      const env = { ...base, ...server.env, TRIAL_FOLDER: name }
      const child = spawn('npx', ['-y', '-p', 'node@22', 'node', '--require', preloadFile, '--require', 'ts-node/register/transpile-only', childFile], { cwd: checkout, env, stdio: ['pipe', 'pipe', 'inherit'] })
      const answers = lineReader(child.stdout)
      child.stdin.on('error', () => {}) // a process that died is reported by its answers
      try {
        const ready = JSON.parse(await answers()) as { ready: boolean }
        if (!ready.ready) throw new Error(`the ${name} trial process did not start`)
        const [example] = JSON.parse(readFileSync(join(root, 'test', 'strategies', 'fixtures', name, 'examples.json'), 'utf8')) as Array<{ strategy: { params: unknown }; network: string }>
        const heads = { '10': Number(await server.latestBlock('10')), '1': Number(await server.latestBlock('1')) }
        const voters = server.voters(500)
        // Optimism's 2 s blocks; Ethereum's 12 s (a space on Ethereum: Optimism's block by its clock).
        const cases = Object.entries(ages).flatMap(([age, blocks]) =>
          (['10', '1'] as const).flatMap((network) => [voters.slice(0, 1), voters].map((addresses) => ({ age, network, addresses, snapshot: heads[network] - (network === '10' ? blocks : blocks / 6) }))),
        )
        {
          for (const { age, network, addresses, snapshot } of cases) {
            const ask = { network, params: example!.strategy.params, addresses, snapshot }
            const { result, requests } = await upstreams.record(async () => {
              child.stdin.write(`${JSON.stringify(ask)}\n`)
              return JSON.parse(await answers()) as { ok: boolean; count?: number; positive?: number; error?: string }
            })
            // The gateway counts the child's JSON-RPC calls (by method) and blockfinder queries; any
            // other host would be unreachable here, so a read of it fails the case.
            const sent = [requests.rpc, requests.subgraph].flatMap((counts) => Object.values(counts)).reduce((sum, count) => sum + count, 0)
            const answered = result.ok ? `${result.count} (${result.positive})` : `FAILED: ${result.error}`
            table.push(`| ${name} | ${network} | ${age} | ${addresses.length} | ${sent} (${Object.entries({ ...requests.rpc, ...requests.subgraph }).map(([method, count]) => `${method} ${count}`).join(', ')}) | ${answered} |`)
            const limit = addresses.length === 1 ? 2 : 5
            results.push({ label: `${name}, network ${network}, ${age} old, ${addresses.length} voter(s): ${sent} requests (at most ${limit})`, ok: result.ok && result.count === addresses.length && sent <= limit, tail: JSON.stringify({ result, rpc: requests.rpc, http: requests.http }) })
          }
        }
      } finally {
        child.stdin.end()
        if (child.exitCode === null) await new Promise((done) => child.on('close', done))
        rmSync(childFile, { force: true })
        await upstreams.close()
        await server.close()
      }
    }
    console.log(`\n## Requests from a cold start in score-api's process\n${table.join('\n')}`)
  }
  if (!process.env.TRIAL_AGES_ONLY && wanted('human-gated') && strategyNames.includes('human-gated')) {
    // human-gated over score-api's own erc20-balance-of: a TestToken on an Ethereum chain (the
    // space's network) and one on a Base chain, minted before the snapshot and again after it, with
    // the demo world's Human ID and Passport; the example is written for this world.
    const world = await startGatedWorld()
    const upstreams = await startUpstreams({ '10': world.server.provider('10') as Eip1193ProviderLike, '1': world.ethereum.provider, '8453': world.base.provider })
    const target = join(checkout, 'src', 'strategies', 'strategies', 'human-gated')
    const example = {
      name: "ERC-20 balances on Ethereum and Base (score-api's erc20-balance-of), counted for verified humans only",
      strategy: { name: 'human-gated', params: { symbol: 'VOTE', strategies: world.inner(), mode: 'gate' } },
      network: '1',
      addresses: world.voters.slice(0, 20),
      snapshot: Number(world.snapshot),
    }
    writeFileSync(join(target, 'examples.json'), `${JSON.stringify([example], null, 2)}\n`)
    const preloadFile = join(work, 'human-gated-erc20-preload.cjs')
    writeFileSync(preloadFile, snapshotHostsPreload(upstreams))
    const env = { ...base, ...world.server.env, NODE_OPTIONS: `--require ${preloadFile}` }
    try {
      const command = 'yarn -s test:strategy human-gated 500'
      const recorded = await upstreams.record(() => run(`${command} (inner: erc20-balance-of on networks 1 and 8453)`, command, env))
      results.push(recorded.result)
      console.log(`upstream requests during the run: ${JSON.stringify(recorded.requests.rpc)}, subgraph ${JSON.stringify(recorded.requests.subgraph)}`)
    } finally {
      await upstreams.close()
      await world.close()
    }
  }
} finally {
  for (const path of copied) rmSync(path, { recursive: true, force: true })
  rmSync(work, { recursive: true, force: true })
}
console.log('\n# Summary')
for (const result of results) console.log(`- ${result.ok ? 'passed' : 'FAILED'}: ${result.label}`)
const failed = results.filter((result) => !result.ok)
for (const result of failed) console.log(`\n--- ${result.label} (last lines) ---\n${result.tail}`)
process.exit(failed.length === 0 ? 0 : 1)
