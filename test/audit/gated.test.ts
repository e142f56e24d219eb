/**
 * `personhood audit --config` with a `human-gated` configuration, on a votes file against the demo
 * world's reference server and local chain: each voter is judged by the human test (exactly as
 * `human-verification` judges at the snapshot), the mode is applied to the recorded power without
 * calling the inner strategies, and the report shows the outcome under each mode next to the
 * recorded one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAuditCommand } from '../../src/cli/audit.js'
import { StrategyOptionsError } from '../../src/errors/strategy.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import { startChainWorld } from '../strategies/human-id-serving.js'

type World = Awaited<ReturnType<typeof startChainWorld>>
let world: World
let dir: string
let votesFile: string
let env: Record<string, string>
const snapshot = 136_566_811
/** Recorded powers, by voter index modulo 6: whole, decimal, dust, zero, large. */
const powers = [16, 2.25, 0.01, 0, 400, 9]
const humanTest = { credentials: ['gov-id', 'phone'], match: 'any', scorerId: 1, passportScore: 0.5 }
const inner = [{ name: 'erc20-balance-of', params: { address: '0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984', decimals: 18 } }]
let requests = 0
const counting: typeof fetch = (input, init) => {
  requests++
  return fetch(input, init)
}

beforeAll(async () => {
  world = await startChainWorld()
  dir = mkdtempSync(join(tmpdir(), 'personhood-audit-gated-'))
  const voters = world.voters(90)
  votesFile = join(dir, 'votes.csv')
  writeFileSync(votesFile, `address,choice,voting_power\n${voters.map((voter, index) => `${voter},${(index % 2) + 1},${powers[index % powers.length]}`).join('\n')}\n`)
  const context = world.context()
  env = {
    PERSONHOOD_RPC_URL: context.humanId!.hubChain as string,
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

function audit(name: string, options: Record<string, unknown>, choices = ['For', 'Against']) {
  const config = join(dir, `${name}.json`)
  writeFileSync(config, JSON.stringify({ strategy: 'human-gated', options }))
  const lines: string[] = []
  const run = runAuditCommand(
    { votes: votesFile, config, snapshot: String(snapshot), network: '10', out: join(dir, name), choices, cache: false },
    { env, log: (line) => lines.push(line), fetch: counting },
  )
  return { run, lines }
}

describe('personhood audit with human-gated', () => {
  it('judges each voter by the human test and shows the recorded power under each mode', async () => {
    const { run, lines } = audit('cap', { strategies: inner, mode: 'cap', cap: 10, ...humanTest })
    const { result } = await run
    expect(result.run).toMatchObject({ strategy: 'human-gated', network: '10', snapshot: String(snapshot) })

    // The weight is human-verification's score with verifiedScore 1 and the same options.
    const addresses = result.voters.map((voter) => voter.address)
    const { scores: weight } = await runStrategy(humanVerificationStrategy, {
      network: '10',
      provider: world.provider('10'),
      addresses,
      options: { ...humanTest, verifiedScore: 1 },
      snapshot,
      context: { ...world.context(), passport: { apiKey: world.apiKey, baseUrl: world.baseUrl, rateLimiter: false } },
    })
    const gated = result.gated!
    expect(new Set(Object.values(weight))).toEqual(new Set([0, 0.5, 1]))
    for (const [index, line] of gated.voters.entries()) {
      const w = weight[line.address as Address]!
      const recorded = powers[index % powers.length]!
      expect(line).toEqual({
        address: result.voters[index]!.address,
        recorded,
        weight: w,
        gate: recorded > 0 ? recorded * w : 0,
        quadratic: recorded > 0 ? Math.sqrt(recorded) * w : 0,
        cap: recorded > 0 ? Math.min(recorded, 10) * w : 0,
      })
    }
    // A Human ID verified voter with 16 recorded counts 16, 4 or 10; with 400: 400, 20 or 10.
    const verified = gated.voters.filter((line) => line.weight === 1)
    expect(verified.find((line) => line.recorded === 16)).toMatchObject({ gate: 16, quadratic: 4, cap: 10 })
    expect(verified.find((line) => line.recorded === 400)).toMatchObject({ gate: 400, quadratic: 20, cap: 10 })

    // Tallies: recorded, then each mode, per choice (single choice: each voter's power to their choice).
    expect(gated.tallies.map((tally) => tally.counting)).toEqual(['recorded', 'gate', 'quadratic', 'cap'])
    const byChoice = (pick: (line: (typeof gated.voters)[number]) => number) =>
      [1, 2].map((choice) => gated.voters.filter((_, index) => (index % 2) + 1 === choice).reduce((total, line) => total + pick(line), 0))
    const expected = { recorded: byChoice((line) => line.recorded), gate: byChoice((line) => line.gate), quadratic: byChoice((line) => line.quadratic), cap: byChoice((line) => line.cap!) }
    for (const tally of gated.tallies) {
      const totals = expected[tally.counting]
      expect(tally.choices.map((entry) => entry.choice)).toEqual(['For', 'Against'])
      for (const [index, entry] of tally.choices.entries()) expect(entry.power).toBeCloseTo(totals[index]!, 9)
      expect(tally.leader).toBe(totals[0]! === totals[1]! ? null : totals[0]! > totals[1]! ? 0 : 1)
    }

    const markdown = readFileSync(join(dir, 'cap', 'audit.md'), 'utf8')
    expect(markdown).toContain('## human-gated: the recorded power under each mode')
    expect(markdown).toContain('| Counting | For | Against | Total | Leader |')
    expect(markdown).toContain('| Cap 10 \\(configured\\) |')
    expect(readFileSync(join(dir, 'cap', 'audit.html'), 'utf8')).toContain('human-gated: the recorded power under each mode')
    const json = JSON.parse(readFileSync(join(dir, 'cap', 'audit.json'), 'utf8')) as { gated: { mode: string; voters: unknown[] } }
    expect(json.gated.mode).toBe('cap')
    expect(json.gated.voters).toHaveLength(90)
    expect(lines.some((line) => line.startsWith('human-gated'))).toBe(true)
  }, 180_000)

  it('without mode cap there is no cap column; the inner strategies are named and never called', async () => {
    const { result } = await audit('quadratic', { strategies: inner, mode: 'quadratic', ...humanTest }).run
    expect(result.gated!.tallies.map((tally) => tally.counting)).toEqual(['recorded', 'gate', 'quadratic'])
    expect(result.gated!.voters.every((line) => line.cap === null)).toBe(true)
    expect(result.gated!.inner).toEqual([{ name: 'erc20-balance-of' }])
  }, 180_000)

  it('escapes choice labels in the gated section: no markup or table cell from outside reaches audit.md or the terminal', async () => {
    const { run, lines } = audit('labels', { strategies: inner, mode: 'gate', ...humanTest }, ['For | <b>yes</b>', 'Against\u001b[31m'])
    await run
    const section = readFileSync(join(dir, 'labels', 'audit.md'), 'utf8').split('## human-gated')[1]!.split('\n## ')[0]!
    expect(section).toContain('| Counting | For \\| &lt;b&gt;yes&lt;/b&gt; | Against')
    expect(section).not.toContain('<b>')
    expect(lines.filter((line) => line.includes('Against')).every((line) => !line.includes('\u001b'))).toBe(true)
  }, 180_000)

  it('refuses an invalid human-gated configuration before any request', async () => {
    requests = 0
    await expect(audit('bad', { strategies: inner, mode: 'cap', ...humanTest }).run).rejects.toBeInstanceOf(StrategyOptionsError)
    await expect(audit('bad', { mode: 'gate', ...humanTest }).run).rejects.toBeInstanceOf(StrategyOptionsError)
    expect(requests).toBe(0)
  }, 60_000)
})
