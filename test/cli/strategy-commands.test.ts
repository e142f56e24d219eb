/**
 * `personhood score` and `personhood verify` on the demo world's local chain and reference server:
 * score prints what the strategy answers (table, JSON, CSV), verify shows every source's verdict on
 * one address and says when a source could not answer instead of reading it as a no.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { exitCodes } from '../../src/cli/exit-codes.js'
import { main } from '../../src/cli/main.js'
import { runScoreCommand } from '../../src/cli/score.js'
import { formatVerifyReport, runVerifyCommand } from '../../src/cli/verify.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import { startChainWorld } from '../strategies/human-id-serving.js'

let world: Awaited<ReturnType<typeof startChainWorld>>
let env: Record<string, string>
let dir: string
const snapshot = 136_566_811

beforeAll(async () => {
  world = await startChainWorld()
  dir = mkdtempSync(join(tmpdir(), 'personhood-strategy-commands-'))
  const { humanId } = world.context()
  env = {
    PERSONHOOD_RPC_URL: humanId!.hubChain as string,
    PASSPORT_API_KEY: world.apiKey,
    PASSPORT_API_URL: world.baseUrl,
    PASSPORT_API_TIER: '3',
    PASSPORT_SCORER_ID: '1',
    HUMAN_ID_API_URL: humanId!.baseUrl!,
    ATTESTATION_INDEX_URL: humanId!.attestationIndexBaseUrl!,
  }
}, 120_000)
afterAll(async () => {
  await world?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('personhood score', () => {
  it('prints the strategy\'s scores as a table, and writes JSON and CSV equal to them', async () => {
    const voters = world.voters(60)
    const file = join(dir, 'voters.txt')
    writeFileSync(file, `${voters.join('\n')}\n`)
    const options = JSON.stringify({ credentials: ['gov-id', 'clean-hands'] })
    const lines: string[] = []
    const table = await runScoreCommand({ strategy: 'human-verification', network: '10', snapshot: String(snapshot), addresses: file, options }, { env, log: (line) => lines.push(line) })
    const expected = await runStrategy(humanVerificationStrategy, {
      network: '10',
      provider: world.provider('10'),
      addresses: voters,
      options: JSON.parse(options),
      snapshot,
      context: { ...world.context(), passport: { apiKey: world.apiKey, baseUrl: world.baseUrl, scorerId: '1', rateLimiter: false } },
    })
    expect(table.scores).toEqual(expected.scores)
    expect(lines[0]).toMatch(`human-verification on network 10 at block ${snapshot}`)
    expect(lines.join('\n')).toMatch(/\d+ of 60 addresses above 0/)

    await runScoreCommand({ strategy: 'human-verification', network: '10', snapshot: String(snapshot), addresses: file, options, format: 'json', output: join(dir, 'scores.json') }, { env, log: () => {} })
    expect(JSON.parse(readFileSync(join(dir, 'scores.json'), 'utf8'))).toEqual(expected.scores)
    await runScoreCommand({ strategy: 'human-verification', network: '10', snapshot: String(snapshot), addresses: file, options, format: 'csv', output: join(dir, 'scores.csv') }, { env, log: () => {} })
    const csv = readFileSync(join(dir, 'scores.csv'), 'utf8').trim().split('\n')
    expect(csv[0]).toBe('address,score')
    expect(Object.fromEntries(csv.slice(1).map((line) => [line.split(',')[0], Number(line.split(',')[1])]))).toEqual(expected.scores)
  }, 120_000)

  it('an unknown strategy or bad options are refused before any request', async () => {
    await expect(runScoreCommand({ strategy: 'erc20', network: '10', snapshot: '1', addresses: world.voters(1)[0]! }, { env, log: () => {} })).rejects.toThrow(/Unknown strategy "erc20"/)
    await expect(runScoreCommand({ strategy: 'human-id', network: '10', snapshot: '1', addresses: world.voters(1)[0]!, options: '{"match":"most"}' }, { env, log: () => {} })).rejects.toThrow(/options of strategy "human-id" are invalid/)
  })
})

describe('personhood verify', () => {
  it('shows each source with its verdicts and the fallback decision', async () => {
    const verified = world.voters(5)[1]! // the demo world's government-ID account
    const report = await runVerifyCommand({ address: verified, snapshot: String(snapshot) }, { env })
    expect(report.sources.map((source) => source.error)).toEqual([undefined, undefined, undefined])
    const chain = report.sources[0]!.verdicts.find((verdict) => verdict.credential === 'gov-id')!
    const api = report.sources[1]!.verdicts.find((verdict) => verdict.credential === 'gov-id')!
    expect(chain.valid).toBe(true)
    expect(api.valid).toBe(true)
    expect(report.decision).toEqual({ eligible: true, method: 'gov-id' })
    const text = formatVerifyReport(report).join('\n')
    expect(text).toMatch(/ {2}yes {2}Government ID: held at the snapshot until \d{4}-\d\d-\d\d \d\d:\d\d UTC\./)
    expect(text).toMatch(/Eligible: yes, by gov-id\./)
    expect(text).toMatch(/Next:\n {2}- Nothing to do for this proposal\. Government ID counts until /)
  }, 120_000)

  it('a source that cannot answer is shown as such, never as a no', async () => {
    const nobody = world.voters(5)[4]!
    const report = await runVerifyCommand({ address: nobody, snapshot: String(snapshot), passportUrl: 'http://127.0.0.1:9', registryUrl: 'http://127.0.0.1:9' }, { env })
    const passport = report.sources[2]!
    expect(passport.error?.code).toBe('STRATEGY_SOURCE_FAILED')
    expect(passport.verdicts).toEqual([])
    expect(report.decision).toBeNull()
    expect(report.unanswered).toEqual(['Passport score at the snapshot'])
    expect(formatVerifyReport(report).join('\n')).toMatch(/not answered: .*STRATEGY_SOURCE_FAILED[\s\S]*Eligible: unknown/)
  }, 120_000)

  it('a source that cannot answer says its real cause: no Passport key is named as such, never as options the voter gave', async () => {
    const nobody = world.voters(5)[4]!
    const { PASSPORT_API_KEY: _key, ...withoutKey } = env
    const report = await runVerifyCommand({ address: nobody, snapshot: String(snapshot) }, { env: withoutKey })
    expect(report.sources[2]!.error).toEqual({
      code: 'STRATEGY_OPTIONS_INVALID',
      message: 'The options of strategy "passport-v2" are invalid: PASSPORT_API_KEY: No Passport API key: set PASSPORT_API_KEY (or pass passport.apiKey in the context).',
    })
    const text = formatVerifyReport(report).join('\n')
    expect(text).toContain('  not answered: The options of strategy "passport-v2" are invalid: PASSPORT_API_KEY: No Passport API key: set PASSPORT_API_KEY')
    expect(text).toContain('Passport score at the snapshot could not answer: The options of strategy "passport-v2" are invalid: PASSPORT_API_KEY: No Passport API key')
    expect(text).not.toContain(world.apiKey)
  }, 120_000)

  it('an unverified voter reads "Eligible: no" with every reason and the next steps, not "by no source"', async () => {
    const nobody = world.voters(5)[4]! // the demo world's account with nothing
    const report = await runVerifyCommand({ address: nobody, snapshot: String(snapshot) }, { env })
    expect(report.decision).toEqual({ eligible: false, method: null })
    const text = formatVerifyReport(report).join('\n')
    expect(text).not.toContain('by no source')
    expect(text).toMatch(/^Eligible: no\. Not counted: /m)
    expect(text).toContain('Why:\n  - Government ID, Phone, Biometrics and Clean hands: not found: this address held none of them at the snapshot.\n  - Passport score: ')
    expect(text).toMatch(/Next:\n {2}- Get any one of these Human ID credentials: one is enough\.\n {2}- Government ID: get this credential in Human ID’s app \(it mints it on Optimism\)\. https:\/\/id\.human\.tech\/gov-id/)
    expect(text).toContain('https://app.passport.xyz')
  }, 120_000)

  it('a yes from one source while another could not answer exits 4 (source) and names the source', async () => {
    const verified = world.voters(5)[1]! // verified by government ID on chain
    const argv = ['node', 'personhood', 'verify', verified, '--snapshot', String(snapshot), '--human-id-url', 'http://127.0.0.1:9']
    const lines: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
    const saved = { ...process.env }
    const previous = process.exitCode
    Object.assign(process.env, env)
    process.exitCode = undefined
    try {
      await main(argv)
      expect(process.exitCode).toBe(exitCodes.source)
    } finally {
      process.exitCode = previous
      for (const name of Object.keys(env)) if (saved[name] === undefined) delete process.env[name]
      Object.assign(process.env, saved)
      log.mockRestore()
    }
    const text = lines.join('\n')
    expect(text).toContain('Incomplete: 1 of 3 sources did not answer (Human ID API and attestation index); the answer below stands on the others only.')
    expect(text).toMatch(/Eligible: yes, by gov-id\./)
  }, 120_000)

  it('an RPC of another chain than --network is refused before any verdict (score and verify)', async () => {
    const voter = world.voters(1)[0]!
    await expect(runScoreCommand({ strategy: 'passport-v2', network: '1', snapshot: String(snapshot), addresses: voter }, { env, log: () => {} })).rejects.toThrow(
      'The RPC endpoint for network 1 serves chain 10.',
    )
    await expect(runVerifyCommand({ address: voter, network: '1', snapshot: String(snapshot) }, { env })).rejects.toMatchObject({ name: 'ChainMismatchError', code: 'CHAIN_MISMATCH' })
  }, 60_000)
})
