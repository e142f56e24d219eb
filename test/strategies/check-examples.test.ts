/**
 * `npm run strategies:check-examples` runs the folders' examples.json against real endpoints given
 * in the environment. Without them it must say what it needs, example by example, and run nothing:
 * no request, no layout, exit code 2.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { checkExamples, loadExamples, missingNeeds, needsOf, type ExampleCase } from '../../scripts/check-examples.js'
import type { Eip1193ProviderLike } from '../../src/index.js'
import { startUpstreams, type Upstreams } from '../score-api-host/upstreams.js'
import { startChainWorld } from './human-id-serving.js'

const root = new URL('../..', import.meta.url).pathname
const temporary: string[] = []
afterEach(() => {
  vi.unstubAllGlobals()
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const voter = '0x8dABc053C7Fda425826d913a58C0DC4C2a0B36d7'

/** A repository root holding only examples.json files. */
function rootWith(files: Record<string, unknown[]>): string {
  const dir = mkdtempSync(join(tmpdir(), 'check-examples-'))
  temporary.push(dir)
  for (const [folder, examples] of Object.entries(files)) {
    mkdirSync(join(dir, folder), { recursive: true })
    writeFileSync(join(dir, folder, 'examples.json'), JSON.stringify(examples))
  }
  return dir
}

const examples = {
  'strategies/human-id': [
    { name: 'Optimism', strategy: { name: 'human-id', params: { credentials: ['gov-id'] } }, network: '10', addresses: [voter], snapshot: 140000000 },
    { name: 'Ethereum', strategy: { name: 'human-id', params: { credentials: ['gov-id'] } }, network: '1', addresses: [voter], snapshot: 23000000 },
  ],
  'strategies/passport-v2': [{ name: 'On Ethereum', strategy: { name: 'passport-v2', params: {} }, network: '1', addresses: [voter], snapshot: 23000000 }],
  'validations/human-verification': [
    { name: 'No Passport', author: voter, space: 'personhood.eth', network: '10', snapshot: 140000000, params: { credentials: ['gov-id'], passportScore: 0 }, valid: true },
    { name: 'With Passport', author: voter, space: 'personhood.eth', network: '10', snapshot: 140000000, params: { credentials: ['gov-id'] }, valid: false },
  ],
}

const variables = (example: ExampleCase, env: Record<string, string> = {}) => missingNeeds(needsOf(example), env).map((need) => need.variable)

describe('what each example needs', () => {
  it('reads every folder and example, and asks for exactly what its strategy reads', () => {
    const cases = loadExamples(rootWith(examples))
    expect(cases.map((example) => `${example.folder} #${example.index} ${example.kind}`)).toEqual([
      'strategies/human-id #0 strategy',
      'strategies/human-id #1 strategy',
      'strategies/passport-v2 #0 strategy',
      'validations/human-verification #0 validation',
      'validations/human-verification #1 validation',
    ])
    const [optimism, ethereum, passport, noPassport, withPassport] = cases as [ExampleCase, ExampleCase, ExampleCase, ExampleCase, ExampleCase]
    expect(variables(optimism)).toEqual(['RPC_URL_10'])
    // A space on Ethereum: its own RPC, the hub's, and the blockfinder to map the block.
    expect(variables(ethereum)).toEqual(['RPC_URL_1', 'RPC_URL_10', 'BLOCKFINDER_URL'])
    // Passport on chain, no key: Ethereum has no decoder, so Optimism's at the snapshot's time.
    expect(variables(passport)).toEqual(['RPC_URL_1', 'RPC_URL_10', 'BLOCKFINDER_URL'])
    expect(variables(noPassport)).toEqual(['RPC_URL_10'])
    // On Optimism the decoder is on the space's own chain.
    expect(variables(withPassport)).toEqual(['RPC_URL_10'])
    // score-api's own BROVIDER_URL serves every network; an empty variable is not a setting.
    expect(variables(ethereum, { BROVIDER_URL: 'https://rpc.example', BLOCKFINDER_URL: '' })).toEqual(['BLOCKFINDER_URL'])
    expect(loadExamples(rootWith(examples), ['passport-v2']).map((example) => example.folder)).toEqual(['strategies/passport-v2'])
  })
})

describe('without the endpoints', () => {
  it('says what it needs, per setting and example, and runs nothing: no request, exit code 2', async () => {
    const dir = rootWith(examples)
    const fetch = vi.fn(() => Promise.reject(new Error('no request may be sent')))
    vi.stubGlobal('fetch', fetch)
    const lines: string[] = []
    const code = await checkExamples({ root: dir, env: { RPC_URL_10: 'https://optimism.example' }, log: (line) => lines.push(line) })
    expect(code).toBe(2)
    expect(fetch).not.toHaveBeenCalled()
    expect(lines.join('\n')).toMatchInlineSnapshot(`
      "Ran nothing: 2 of 5 examples need settings the environment does not give. Set:
        RPC_URL_1 (or BROVIDER_URL): a JSON-RPC URL of Ethereum that serves past blocks (an archive node); for strategies/human-id #1, strategies/passport-v2 #0
        BLOCKFINDER_URL: snapshot's blockfinder (https://blockfinder.snapshot.org), mapping the snapshot to Optimism's block; for strategies/human-id #1, strategies/passport-v2 #0
      Then run npm run strategies:check-examples again (folders may be named after --)."
    `)
  })

  it('the command exits 2 on the repository with an empty environment, naming an RPC URL first', () => {
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }
    const result = spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/check-examples.ts')], { cwd: root, env, encoding: 'utf8', timeout: 60_000 })
    expect(result.status, result.stderr).toBe(2)
    expect(result.stdout).toMatch(/^Ran nothing: (\d+) of \1 examples need settings/)
    expect(result.stdout).toContain('RPC_URL_10 (or BROVIDER_URL)')
    expect(result.stdout).not.toContain('PASSPORT_API_KEY')
  }, 60_000)
})

describe('with the endpoints (the demo world behind the test gateway)', () => {
  let world: Awaited<ReturnType<typeof startChainWorld>>
  let upstreams: Upstreams
  const exampleRoot = join(root, '.tmp', `check-examples-root-${process.pid}`)

  beforeAll(async () => {
    world = await startChainWorld()
    upstreams = await startUpstreams({ '10': world.provider('10') as Eip1193ProviderLike, '1': world.provider('1') as Eip1193ProviderLike })
    const fixtures = JSON.parse(readFileSync(join(root, 'test/strategies/fixtures/human-id/examples.json'), 'utf8')) as Array<{ network: string; strategy: { params: Record<string, unknown> } }>
    const onOptimism = fixtures.find((example) => example.network === '10' && example.strategy.params.source === undefined)
    const onEthereum = fixtures.find((example) => example.network === '1')
    const nobody = { ...onOptimism, name: 'Nobody verified', addresses: ['0x000000000000000000000000000000000000dEaD', '0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000002'] }
    cpSync(join(root, 'strategies/human-id'), join(exampleRoot, 'strategies/human-id'), { recursive: true })
    writeFileSync(join(exampleRoot, 'strategies/human-id/examples.json'), JSON.stringify([onOptimism, onEthereum, nobody]))
  }, 180_000)
  afterAll(async () => {
    rmSync(exampleRoot, { recursive: true, force: true })
    await upstreams?.close()
    await world?.close()
  })

  it('builds the folder as score-api does and reports each example: a voter with a positive score passes, none fails', async () => {
    const lines: string[] = []
    const env = {
      // One RPC URL per network, as an operator gives them (the gateway serves each under /<network>).
      RPC_URL_10: `${upstreams.broviderUrl}/10`,
      RPC_URL_1: `${upstreams.broviderUrl}/1`,
      BLOCKFINDER_URL: upstreams.blockFinderUrl,
    }
    // The time limit is score-api's concern, not this test's: 2 shared cores are slow.
    const code = await checkExamples({ root: exampleRoot, env, log: (line) => lines.push(line), timeLimitMs: 300_000 })
    const verdicts = lines.map((line) => line.replace(/ \(network.*?s\):/, ':'))
    expect(verdicts).toEqual([
      expect.stringMatching(/^PASS strategies\/human-id #0 ".*": [1-9]\d* of 12 addresses with a positive score$/),
      expect.stringMatching(/^PASS strategies\/human-id #1 ".*": [1-9]\d* of 12 addresses with a positive score$/),
      'FAIL strategies/human-id #2 "Nobody verified": 0 of 3 addresses with a positive score: score-api requires at least one',
      '2 of 3 examples passed.',
    ])
    expect(code).toBe(1)
  }, 300_000)
})
