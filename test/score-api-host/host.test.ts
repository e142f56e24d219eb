/**
 * The score-api test host, proved on a small fixture folder in score-api's idiom
 * (`fixtures/strategies/legacy-unique`: one snapshot.js `multicall` and one `customFetch`), against
 * the local chain and the reference server of one demo world: the tree compiles with TypeScript 4.7
 * and loads as score-api loads it; `getScoresDirect` answers what the chain and the server say,
 * read here on their own; a space on Ethereum reaches Optimism's block through the blockfinder
 * stand-in; each upstream request is counted; a folder that does not compile or load fails naming
 * the error.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPublicClient, custom, getAddress, parseAbi, type Address } from 'viem'
import type { Eip1193ProviderLike } from '../../src/index.js'
import { startChainWorld } from '../strategies/human-id-serving.js'
import { buildScoreApi, ScoreApiCompileError, ScoreApiLoadError, type ScoreApi, type ScoreApiBuild } from './host.js'
import { startUpstreams, type Upstreams } from './upstreams.js'

const fixtures = join(import.meta.dirname, 'fixtures')
const govIdStore = '0xdD748977BAb5782625AF1466F4C5F02Eb92Fce31'
const actionId = 123456789n

let world: Awaited<ReturnType<typeof startChainWorld>>
let upstreams: Upstreams
let build: ScoreApiBuild
let api: ScoreApi
let voters: Address[]
let snapshot: number
const saved: Record<string, string | undefined> = {}

/** The world's provider of a network (an EIP-1193 provider: the local chain, or Ethereum's chain clock). */
function rpc(network: string): Eip1193ProviderLike {
  return world.provider(network) as Eip1193ProviderLike
}

/** What the fixture's rule gives, read without the host: the store through viem, phone through the server. */
async function expectedScores(addresses: readonly Address[], block: number): Promise<Record<string, number>> {
  const client = createPublicClient({
    transport: custom(rpc('10')),
  })
  const abi = parseAbi(['function isUniqueForAction(address user, uint256 actionId) view returns (bool)'])
  const unique = await Promise.all(
    addresses.map((address) =>
      client.readContract({
        address: govIdStore,
        abi,
        functionName: 'isUniqueForAction',
        args: [address, actionId],
        blockNumber: BigInt(block),
      }),
    ),
  )
  const query = new URLSearchParams({
    network: '10',
    snapshot: String(block),
    addresses: addresses.join(','),
    'action-id': String(actionId),
  })
  const phone = (await (await fetch(`${world.env.HUMAN_ID_API_URL}/voting-strategies/sybil-resistance/phone?${query}`)).json()) as { score: { address: string; score: number }[] }
  const byPhone = new Set(phone.score.filter((entry) => entry.score > 0).map((entry) => entry.address.toLowerCase()))
  return Object.fromEntries(addresses.map((address, index) => [getAddress(address), unique[index] || byPhone.has(address.toLowerCase()) ? 1 : 0]))
}

/** Only the positive scores, as getScoresDirect keeps them. */
function positive(scores: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(scores).filter(([, score]) => score > 0))
}

beforeAll(async () => {
  world = await startChainWorld()
  upstreams = await startUpstreams({
    '10': rpc('10'),
    '1': rpc('1'),
  })
  for (const [name, value] of Object.entries(env())) {
    saved[name] = process.env[name]
    process.env[name] = value
  }
  build = buildScoreApi({
    strategies: {
      'legacy-unique': join(fixtures, 'strategies', 'legacy-unique'),
    },
    validations: {
      'legacy-unique': join(fixtures, 'validations', 'legacy-unique'),
    },
  })
  api = build.load()
  voters = world.voters(40) as Address[]
  snapshot = Number(await world.latestBlock('10')) - 100
}, 180_000)

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  build?.remove()
  await upstreams?.close()
  await world?.close()
})

function env() {
  return { ...world.env, ...upstreams.env }
}

describe('the score-api host', () => {
  test('loads the folders as score-api does: the registry by folder scan, with manifest, schema and README', () => {
    expect(Object.keys(api.strategies)).toEqual(['legacy-unique'])
    const loaded = api.strategies['legacy-unique']!
    expect(loaded.author).toBe('personhood-dao')
    expect(loaded.version).toBe('0.1.0')
    expect(loaded.supportedProtocols).toEqual(['evm'])
    expect(loaded.about).toMatch(/^# legacy-unique/)
    expect(loaded.strategy).toHaveLength(6)
    expect(Object.keys(api.validations)).toEqual(['legacy-unique'])
  })

  test('getScoresDirect answers what the chain and the server say, positive scores only, checksummed; 2 requests a call (one eth_call, one HTTP request), cold and warm', async () => {
    const expected = await expectedScores(voters, snapshot)
    expect(new Set(Object.values(expected))).toEqual(new Set([0, 1]))
    const strategies = [{ name: 'legacy-unique', params: { actionId: Number(actionId) } }]
    const run = () => api.utils.getScoresDirect('personhood.eth', strategies, '10', api.utils.getProvider('10'), voters, snapshot)
    const cold = await upstreams.record(run)
    expect(cold.result).toEqual([positive(expected)])
    const humanIdPath = `${new URL(world.env.HUMAN_ID_API_URL!).host}${new URL(world.env.HUMAN_ID_API_URL!).pathname}/voting-strategies/sybil-resistance/phone`
    expect(cold.requests).toEqual({
      total: 2,
      rpc: { eth_call: 1 },
      http: { [humanIdPath]: 1 },
      subgraph: {},
    })
    const warm = await upstreams.record(run)
    expect(warm.result).toEqual(cold.result)
    expect(warm.requests).toEqual({
      total: 2,
      rpc: { eth_call: 1 },
      http: { [humanIdPath]: 1 },
      subgraph: {},
    })
  })

  test('a space on Ethereum reaches Optimism through getSnapshots: the blockfinder maps the snapshot by time', async () => {
    const ethereumSnapshot = Number(await world.latestBlock('1')) - 50
    const ethereumTime = Number(
      BigInt(
        (
          (await rpc('1').request({
            method: 'eth_getBlockByNumber',
            params: [`0x${ethereumSnapshot.toString(16)}`, false],
          })) as { timestamp: string }
        ).timestamp,
      ),
    )
    const fresh = build.load()
    const { result, requests } = await upstreams.record(async () => {
      const snapshots = await fresh.utils.getSnapshots('1', ethereumSnapshot, fresh.utils.getProvider('1'), ['10'])
      const scores = await fresh.utils.getScoresDirect('personhood.eth', [{ name: 'legacy-unique', network: '10', params: {} }], '1', fresh.utils.getProvider('1'), voters, ethereumSnapshot)
      return { snapshots, scores }
    })
    const optimismBlock = result.snapshots['10'] as number
    const optimismTime = Number(
      BigInt(
        (
          (await rpc('10').request({
            method: 'eth_getBlockByNumber',
            params: [`0x${optimismBlock.toString(16)}`, false],
          })) as { timestamp: string }
        ).timestamp,
      ),
    )
    const nextTime = Number(
      BigInt(
        (
          (await rpc('10').request({
            method: 'eth_getBlockByNumber',
            params: [`0x${(optimismBlock + 1).toString(16)}`, false],
          })) as { timestamp: string }
        ).timestamp,
      ),
    )
    expect(result.snapshots['1']).toBe(ethereumSnapshot)
    expect(optimismTime).toBeLessThanOrEqual(ethereumTime)
    expect(nextTime).toBeGreaterThan(ethereumTime)
    expect(result.scores).toEqual([positive(await expectedScores(voters, optimismBlock))])
    // getSnapshots asks once (its cache answers getScoresDirect's identical question).
    // One header on Ethereum (the snapshot's time), the blockfinder, one eth_call on Optimism, the phone endpoint.
    const humanIdPath = `${new URL(world.env.HUMAN_ID_API_URL!).host}${new URL(world.env.HUMAN_ID_API_URL!).pathname}/voting-strategies/sybil-resistance/phone`
    expect(requests).toEqual({ total: 4, rpc: { eth_getBlockByNumber: 1, eth_call: 1 }, http: { [humanIdPath]: 1 }, subgraph: { blockfinder: 1 } })
  })

  test('a validation is constructed and validated as score-api does; a malformed author does not pass', async () => {
    const expected = await expectedScores(voters, snapshot)
    const passing = voters.find((address) => expected[getAddress(address)] === 1)!
    const failing = voters.find((address) => expected[getAddress(address)] === 0)!
    const Validation = api.validations['legacy-unique']!.validation
    const validate = (author: string) => new Validation(author, 'personhood.eth', '10', snapshot, {}).validate()
    expect(await validate(passing)).toBe(true)
    expect(await validate(failing)).toBe(false)
    expect(await validate('0x1234')).toBe(false)
  })
})

describe('a folder the host refuses', () => {
  function withFolder(name: string, edit: (dir: string) => void) {
    const dir = mkdtempSync(join(tmpdir(), 'score-api-folder-'))
    cpSync(join(fixtures, 'strategies', 'legacy-unique'), join(dir, name), {
      recursive: true,
    })
    edit(join(dir, name))
    return {
      dir: join(dir, name),
      remove: () => rmSync(dir, { recursive: true, force: true }),
    }
  }

  test('does not compile under TypeScript 4.7: the error names the file and the message', () => {
    const folder = withFolder('typed-wrong', (dir) => writeFileSync(join(dir, 'extra.ts'), "export const count: number = 'three';\n"))
    try {
      expect(() => buildScoreApi({ strategies: { 'typed-wrong': folder.dir } })).toThrowError(ScoreApiCompileError)
      expect(() => buildScoreApi({ strategies: { 'typed-wrong': folder.dir } })).toThrowError(
        /src\/strategies\/strategies\/typed-wrong\/extra\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'/,
      )
    } finally {
      folder.remove()
    }
  }, 120_000)

  test('throws when required: the load error names the folder (score-api would drop it with a warning)', () => {
    const folder = withFolder('throws-on-load', (dir) => writeFileSync(join(dir, 'index.ts'), "export const author = 'x';\nthrow new Error('no provider configured');\n"))
    const broken = buildScoreApi({
      strategies: { 'throws-on-load': folder.dir },
    })
    try {
      expect(() => broken.load()).toThrowError(new ScoreApiLoadError('strategies/throws-on-load does not load: no provider configured'))
    } finally {
      broken.remove()
      folder.remove()
    }
  }, 120_000)
})
