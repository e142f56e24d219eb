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
 * The checkout must be installed (`yarn install` under Node 22.6+, yarn 1). The folders copied in are
 * removed at the end (git clean of the strategy folders and a checkout of nothing else).
 */
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Eip1193ProviderLike } from '../src/index.js'
import { startUpstreams } from '../test/score-api-host/upstreams.js'
import { startGatedWorld } from '../test/strategy/gated-world.js'
import { servings } from '../test/strategies/servings.js'
import { snapshotHostsPreload } from './score-api-preload.js'

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
  const verdict = status === 0 ? 'passed' : onlyGithub ? 'passed but for the GitHub author check (api.github.com is unreachable here)' : `exit ${status}`
  console.log(`\n## ${label}: ${verdict} (${((Date.now() - started) / 1000).toFixed(0)} s)`)
  console.log(summary.slice(0, 40).join('\n'))
  return { label, ok: status === 0 || onlyGithub, tail: output.slice(-6000) }
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
  if (!process.env.TRIAL_TESTS_ONLY) results.push(await run('yarn typecheck (the whole of score-api, our folders in)', 'yarn -s typecheck', base))
  if (!process.env.TRIAL_TESTS_ONLY) results.push(await run('eslint on the copied folders', `npx eslint ${copied.map((path) => JSON.stringify(path)).join(' ')}`, base))
  {
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
        console.log(`upstream requests during the run: ${recorded.requests.total} (${JSON.stringify(recorded.requests.rpc)}, subgraph ${JSON.stringify(recorded.requests.subgraph)})`)
      } finally {
        await upstreams.close()
        await server.close()
      }
    }
  }
  if (wanted('human-gated') && strategyNames.includes('human-gated')) {
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
