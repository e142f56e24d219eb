/**
 * `personhood audit` end to end on a votes file, against the reference server and the local chain
 * seeded from one world: every voter's verdict is the strategy's at the same snapshot, a re-run
 * seals the same digest without a single request, and bad input or a failing source is an error
 * with its documented exit code, never a partial report.
 */
import { createServer, type Server } from 'node:http'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAuditCommand, type AuditCommandOptions } from '../../src/cli/audit.js'
import { demoVotes, runAuditDemo } from '../../src/cli/audit-demo.js'
import { serveEnvironment } from '../../src/cli/serve.js'
import { startServe } from '../../src/server/start.js'
import { exitCodeFor, exitCodes } from '../../src/cli/exit-codes.js'
import { VotesFileError } from '../../src/errors/audit.js'
import { BlockInFutureError, ChainMismatchError } from '../../src/errors/chain.js'
import { InvalidParameterError } from '../../src/errors/input.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import { generateWorld } from '../../src/world/generate/index.js'
import { startChainWorld } from '../strategies/human-id-serving.js'

type World = Awaited<ReturnType<typeof startChainWorld>>
let world: World
let dir: string
let votesFile: string
let env: Record<string, string>
const snapshot = 136_566_811
const options = { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'any', scorerId: 1 }
let requests = 0
const counting: typeof fetch = (input, init) => {
  requests++
  return fetch(input, init)
}

beforeAll(async () => {
  world = await startChainWorld()
  dir = mkdtempSync(join(tmpdir(), 'personhood-audit-command-'))
  const voters = world.voters(120)
  votesFile = join(dir, 'votes.csv')
  writeFileSync(votesFile, `address,choice,voting_power\n${voters.map((voter, index) => `${voter},${(index % 3) + 1},${(index % 7) + 1}`).join('\n')}\n`)
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ strategy: 'human-verification', options }))
  const context = world.context()
  env = {
    PERSONHOOD_RPC_URL: (context.humanId!.hubChain as string) ?? '',
    PASSPORT_API_KEY: world.apiKey,
    PASSPORT_API_URL: world.baseUrl,
    PASSPORT_API_TIER: '3',
    ATTESTATION_INDEX_URL: context.humanId!.attestationIndexBaseUrl!,
  }
}, 120_000)
afterAll(async () => {
  await world?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

function audit(overrides: Partial<AuditCommandOptions> = {}) {
  const lines: string[] = []
  const run = runAuditCommand(
    { votes: votesFile, config: join(dir, 'config.json'), snapshot: String(snapshot), network: '10', out: join(dir, 'out'), choices: ['For', 'Against', 'Abstain'], ...overrides },
    { env, log: (line) => lines.push(line), fetch: counting },
  )
  return { run, lines }
}

describe('personhood audit', () => {
  it('judges every voter as the strategy does at the snapshot; a re-run seals the same digest and asks again only what is current state', async () => {
    requests = 0
    const first = await audit().run
    const sent = requests
    expect(sent).toBeGreaterThan(0)
    expect(first.files.map((file) => file.split('/').pop())).toEqual(['audit.json', 'audit.csv', 'audit.md', 'audit.html'])

    const voters = first.result.voters.map((voter) => voter.address)
    const strategy = await runStrategy(humanVerificationStrategy, {
      network: '10',
      provider: world.provider('10'),
      addresses: voters,
      options,
      snapshot,
      context: { ...world.context(), passport: { apiKey: world.apiKey, baseUrl: world.baseUrl, rateLimiter: false } },
    })
    for (const voter of first.result.voters) {
      const answer = strategy.results.get(voter.address as Address)!
      expect({ address: voter.address, score: voter.score, eligible: voter.eligible, method: voter.method }).toEqual({
        address: voter.address,
        score: answer.score,
        eligible: answer.detail.eligible,
        method: answer.detail.method,
      })
    }
    const methods = new Set(first.result.voters.map((voter) => voter.method))
    expect(methods.has('passport')).toBe(true)
    expect(methods.has(null)).toBe(true)
    expect([...methods].some((method) => method !== null && method !== 'passport')).toBe(true)
    expect(first.result.run).toMatchObject({ strategy: 'human-verification', network: '10', snapshot: String(snapshot) })

    const json = JSON.parse(readFileSync(join(dir, 'out', 'audit.json'), 'utf8')) as { digest: string; voters: unknown[] }
    expect(json.digest).toBe(first.result.digest)
    expect(json.voters).toHaveLength(120)

    requests = 0
    const second = await audit().run
    // Every answer fixed for the snapshot comes from the cache; what went out is current state (the
    // score listing, attestations) and the two checks made before the cache opens (eth_chainId and
    // the block header).
    expect(second.cache).toMatchObject({ misses: 0 })
    expect(second.cache!.hits).toBeGreaterThan(0)
    expect(requests).toBe(second.cache!.uncacheable + 2)
    expect(requests).toBeLessThan(sent / 4)
    expect(second.result.digest).toBe(first.result.digest)
  }, 180_000)

  it('--fail-if-unverified-share fails the policy above the share, and not below', async () => {
    const strict = await audit({ failIfUnverifiedShare: 10 }).run
    expect(strict.result.summary.unverifiedShare).toBeGreaterThan(10)
    expect(strict.policyFailed).toBe(true)
    expect((await audit({ failIfUnverifiedShare: 100 }).run).policyFailed).toBe(false)
  }, 180_000)

  it('a malformed votes file names its line and field, and nothing is written', async () => {
    const bad = join(dir, 'bad.csv')
    writeFileSync(bad, 'address,choice,voting_power\n0x52908400098527886E0F7030069857D2E4169EE7,1,3\n0x1234,2,1\n')
    const out = join(dir, 'bad-out')
    const error = await audit({ votes: bad, out }).run.catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(VotesFileError)
    expect((error as VotesFileError).line).toBe(3)
    expect(exitCodeFor(error)).toBe(exitCodes.input)
    expect(existsSync(join(out, 'audit.json'))).toBe(false)
  })

  it('a block in the future is exit 5, a source that is down exit 4, and no report is written', async () => {
    const future = await audit({ snapshot: '999999999', out: join(dir, 'future') }).run.catch((caught: unknown) => caught)
    expect(exitCodeFor(future)).toBe(exitCodes.block)
    const down = await audit({ passportUrl: 'http://127.0.0.1:9', registryUrl: 'http://127.0.0.1:9', out: join(dir, 'down'), cache: false }).run.catch((caught: unknown) => caught)
    expect(exitCodeFor(down)).toBe(exitCodes.source)
    expect(existsSync(join(dir, 'down', 'audit.json'))).toBe(false)
  }, 180_000)

  it('an unknown proposal is exit 3, an unreachable hub exit 4', async () => {
    const hub: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ data: { proposal: null } }))
    })
    await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = hub.address() as { port: number }
      const proposal = `0x${'ab'.repeat(32)}`
      const unknown = await audit({ votes: undefined, proposal, hub: `http://127.0.0.1:${port}/graphql`, out: join(dir, 'p'), cache: false }).run.catch((caught: unknown) => caught)
      expect(exitCodeFor(unknown)).toBe(exitCodes.input)
      const unreachable = await audit({ votes: undefined, proposal, hub: 'http://127.0.0.1:9/graphql', out: join(dir, 'p'), cache: false }).run.catch((caught: unknown) => caught)
      expect(exitCodeFor(unreachable)).toBe(exitCodes.source)
    } finally {
      await new Promise((resolve) => hub.close(resolve))
    }
  }, 60_000)
})

describe('what the audit checks before it trusts an answer', () => {
  it('a cache filled at one snapshot gives no stale verdict at a later one: equal to --no-cache', async () => {
    const out = join(dir, 'stale')
    const later = (await world.latestBlock('10')).toString()
    await audit({ out }).run
    // The world changes after the first audit: every voter is scored now (A1 scores on read).
    for (const voter of world.voters(120)) {
      const answer = await fetch(`${world.baseUrl}/v2/stamps/1/score/${voter}`, { headers: { 'X-API-KEY': world.apiKey } })
      expect(answer.status).toBe(200)
    }
    const cached = await audit({ out, snapshot: later }).run
    const fresh = await audit({ out: join(dir, 'stale-fresh'), snapshot: later, cache: false }).run
    const verdicts = (result: typeof fresh) => result.result.voters.map((voter) => [voter.address, voter.eligible, voter.method, voter.score])
    expect(verdicts(cached)).toEqual(verdicts(fresh))
    expect(cached.result.digest).toBe(fresh.result.digest)
  }, 180_000)

  it('a voter the hub lists under two vote ids counts once, by the latest vote, and the audit says so', async () => {
    const [first, second] = world.voters(2) as [Address, Address]
    const votes = [
      { id: 'a', voter: first, choice: 1, vp: 10, created: 1_700_000_000, reason: '' },
      { id: 'b', voter: second, choice: 2, vp: 7, created: 1_700_000_001, reason: '' },
      { id: 'c', voter: first.toLowerCase(), choice: 2, vp: 500, created: 1_700_000_002, reason: '' },
    ]
    const proposal = { id: `0x${'cd'.repeat(32)}`, title: 'Twice', choices: ['For', 'Against'], type: 'single-choice', state: 'closed', snapshot: String(snapshot), network: '10', start: 1, end: 2, votes: 3, space: { id: 'dao.eth' }, strategies: [] }
    const hub: Server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        const query = (JSON.parse(body) as { query: string }).query
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ data: query.includes('votes(') ? { votes } : { proposal } }))
      })
    })
    await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = hub.address() as { port: number }
      const { run, lines } = audit({ votes: undefined, proposal: proposal.id, hub: `http://127.0.0.1:${port}/graphql`, snapshot: undefined, choices: undefined, out: join(dir, 'twice'), cache: false })
      const result = (await run).result
      expect(result.voters.map((voter) => [voter.address.toLowerCase(), voter.votingPower, voter.choice])).toEqual([
        [second.toLowerCase(), 7, 2],
        [first.toLowerCase(), 500, 2],
      ])
      expect(result.summary.votingPower).toBe(507)
      expect(lines).toContain("1 earlier vote was replaced by the same voter's latest vote (as Snapshot counts them).")
    } finally {
      await new Promise((resolve) => hub.close(resolve))
    }
  }, 60_000)

  it('an RPC of another chain than --network is an input error (exit 3) before any verdict', async () => {
    const error = await audit({ network: '1', out: join(dir, 'wrong-chain'), cache: false }).run.catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ChainMismatchError)
    expect((error as ChainMismatchError).shortMessage).toBe('The RPC endpoint for network 1 serves chain 10.')
    expect(exitCodeFor(error)).toBe(exitCodes.input)
    expect(existsSync(join(dir, 'wrong-chain', 'audit.json'))).toBe(false)
  }, 60_000)

  it('a block dated ahead of the local clock by more than the margin is exit 5', async () => {
    const lines: string[] = []
    const before = Date.parse('2020-01-01T00:00:00Z')
    const error = await runAuditCommand(
      { votes: votesFile, config: join(dir, 'config.json'), snapshot: String(snapshot), network: '10', out: join(dir, 'clock'), cache: false },
      { env, log: (line) => lines.push(line), now: () => before },
    ).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(BlockInFutureError)
    expect(exitCodeFor(error)).toBe(exitCodes.block)
  }, 60_000)

  it('--out naming a file is an input error, and a missing --snapshot a usage error (exit 2)', async () => {
    const file = join(dir, 'a-file')
    writeFileSync(file, 'keep me')
    const error = await audit({ out: file }).run.catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect((error as InvalidParameterError).details).toBe(`${file} exists and is not a folder: give a folder for the report's files.`)
    expect(exitCodeFor(error)).toBe(exitCodes.input)
    expect(readFileSync(file, 'utf8')).toBe('keep me')
    const missing = await audit({ snapshot: undefined, out: join(dir, 'no-snapshot') }).run.catch((caught: unknown) => caught)
    expect(exitCodeFor(missing)).toBe(exitCodes.usage)
  })
})

describe('personhood demo', () => {
  it('votes of the demo world: every demo account and sybil, deterministic', () => {
    const demoWorld = generateWorld({ now: '2025-06-01T00:00:00.000Z', wallets: 200 })
    const votes = demoVotes(demoWorld, 150)
    expect(votes).toEqual(demoVotes(demoWorld, 150))
    expect(votes).toHaveLength(150)
    const voters = new Set(votes.map((vote) => vote.voter.toLowerCase()))
    for (const account of demoWorld.demoAccounts) expect(voters.has(account.address.toLowerCase())).toBe(true)
    for (const member of demoWorld.sybilClusters.flatMap((cluster) => cluster.members)) expect(voters.has(member.toLowerCase())).toBe(true)
  })

  it('runs the whole audit offline and leaves a report that matches the demo world', async () => {
    const out = join(dir, 'demo')
    const lines: string[] = []
    const worldNow = '2025-06-01T00:00:00.000Z'
    const report = await runAuditDemo({ out, voters: 120, wallets: 200, worldNow, now: () => Date.parse(worldNow) + 3_600_000, log: (line) => lines.push(line) })
    const demoWorld = generateWorld({ now: worldNow, wallets: 200 })
    const line = (address: string) => report.result.voters.find((voter) => voter.address.toLowerCase() === address.toLowerCase())!
    const story = (name: string) => line(demoWorld.demoAccounts.find((account) => account.story === name)!.address)
    // Each demo account is judged as its story says.
    expect(story('gov-id-verified').method).toBe('gov-id')
    expect(story('clean-hands-only').method).toBe('clean-hands')
    expect(story('passing-stamps').method).toBe('passport')
    expect(story('nothing').eligible).toBe(false)
    // Every group of wallets the report links is (part of) one of the world's sybil clusters. (The
    // 'sybil' demo account itself was never scored, so it has no stamps at the snapshot to link.)
    expect(report.result.summary.clusters.length).toBeGreaterThan(0)
    for (const cluster of report.result.summary.clusters) {
      const truth = demoWorld.sybilClusters.find((candidate) => candidate.members.includes(cluster.addresses[0]!.toLowerCase() as never))
      expect(truth, cluster.addresses.join(', ')).toBeDefined()
      for (const address of cluster.addresses) expect(truth!.members).toContain(address.toLowerCase())
    }
    for (const name of ['votes.csv', 'config.json', 'audit.json', 'audit.csv', 'audit.md', 'audit.html']) expect(existsSync(join(out, name)), name).toBe(true)
    expect(report.result.voters).toHaveLength(120)
    expect(report.result.summary.clusters.length).toBeGreaterThan(0)
    expect(report.result.summary.eligibleVoters).toBeGreaterThan(0)
    expect(report.result.summary.eligibleVoters).toBeLessThan(120)
    expect(lines.join('\n')).toMatch(/were verified unique humans at block/)
    expect(lines.join('\n')).toContain('npx personhood audit --votes')
  }, 180_000)

  it("the demo's reproduce command, run against a new start of the same world, seals the demo's digest", async () => {
    const out = join(dir, 'demo-reproduce')
    const worldNow = '2025-06-01T00:00:00.000Z'
    const demo = await runAuditDemo({ out, voters: 60, wallets: 200, worldNow, now: () => Date.parse(worldNow) + 3_600_000, log: () => {} })
    // Read the printed command as the CLI would: every --flag and its value.
    const flags = Object.fromEntries(
      [...demo.command.matchAll(/--([a-z-]+) (\S+)/g)].map(([, name, value]) => [name!.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase()), value!]),
    ) as Record<string, string>
    expect(Object.keys(flags).sort()).toEqual(['choices', 'config', 'network', 'out', 'snapshot', 'type', 'votes'])
    const later = () => Date.parse(worldNow) + 5 * 3_600_000
    const running = await startServe({ port: 0, host: '127.0.0.1', seed: 'demo', world: generateWorld({ now: worldNow, wallets: 200 }), now: later, chain: { port: 0 } })
    try {
      const served = Object.fromEntries(serveEnvironment(running).map((variable) => [variable.name, variable.value]))
      const again = await runAuditCommand(
        { ...flags, choices: flags.choices!.split(','), out: join(dir, 'demo-again') } as unknown as AuditCommandOptions,
        { env: served, log: () => {}, now: later },
      )
      expect(again.result.digest).toBe(demo.result.digest)
    } finally {
      await running.close()
    }
  }, 180_000)
})
