/**
 * The score-api folders `strategies/passport-v2`, `strategies/human-verification` and
 * `validations/human-verification`, laid out as score-api lays them out (`src/strategies/utils.ts`,
 * `src/strategies/strategies/<name>/`, `src/strategies/validations/<name>/`) in a temp copy, against
 * the reference server with the demo world and the local chain. Their scores must equal the
 * library's `runStrategy` on the same world and block, before and after the world moves on; a
 * failing Passport source throws; every request is counted.
 *
 * The `utils.ts` and `validation.ts` of the layout are this test's small stand-ins (score-api's
 * `customFetch`, `getProvider`, `getSnapshots`, `getScoresDirect` and `Validation`, in our words);
 * the faithful host (TypeScript 4.7, CommonJS) runs the same folders in its own suite.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Web3Provider } from '@ethersproject/providers'
import { getAddress, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runStrategy } from '../../src/index.js'
import { humanVerificationStrategy, passportV2Strategy } from '../../src/strategy/index.js'
import { root } from '../helpers/built.js'
import { startChainWorld } from './human-id-serving.js'
import { startWorldServer, type WorldServer } from './world-server.js'

const layout = join(root, '.tmp', `passport-folders-${process.pid}`)
const hour = 60 * 60 * 1000

type Example = { name: string; strategy: { name: string; params: Record<string, unknown> }; network: string; addresses: string[]; snapshot: number }
type StrategyModule = { strategy: (...args: unknown[]) => Promise<Record<string, number>> }
type ValidationClass = new (author: string, space: string, network: string, snapshot: number | 'latest', params: unknown) => { validate(): Promise<boolean> }

/** Requests the folders sent, by kind: Passport by endpoint, JSON-RPC by method. */
let requests: Record<string, number> = {}
/** What the Passport host answers instead of the server, when set (a failing or a huge scorer). */
let passportOverride: ((url: URL) => Response | undefined) | undefined
let providers: Record<string, () => unknown> = {}
let passportUrl = ''
/** The hub chains' clocks (block n at genesis + n * blockTime), for the blockfinder stand-in. */
let hubClocks: Record<string, { genesis: number; blockTime: number }> = {}

function count(kind: string) {
  requests[kind] = (requests[kind] ?? 0) + 1
}

function passportKind(url: URL): string {
  if (url.pathname.startsWith('/registry/score/')) return url.searchParams.has('address') ? 'C4 by address' : 'C4 page'
  if (url.pathname.endsWith('/history')) return 'A2'
  if (url.pathname.startsWith('/v2/stamps/')) return 'A1'
  return `http ${url.pathname.split('/')[1]}`
}

const blockDefaults = {
  nonce: '0x0000000000000000',
  difficulty: '0x0',
  gasLimit: '0x1c9c380',
  gasUsed: '0x0',
  miner: '0x0000000000000000000000000000000000000000',
  extraData: '0x',
  transactions: [],
}

/** An ethers v5 provider that knows its chain (as snapshot.js's StaticJsonRpcProvider does), counting each request. */
class StaticProvider extends Web3Provider {
  override detectNetwork() {
    return Promise.resolve({ chainId: this.chain, name: `chain-${this.chain}` })
  }
  constructor(
    eip1193: { request(args: { method: string; params?: unknown }): Promise<unknown> },
    private readonly chain: number,
  ) {
    super({
      request: async (args: { method: string; params?: unknown[] }) => {
        count(`rpc ${args.method}`)
        const answer = await eip1193.request(args)
        // The world's chain clock answers a header's number, hash and time only; ethers v5 wants
        // every field of a block, so the ones it does not read for a timestamp are filled in.
        if (args.method !== 'eth_getBlockByNumber' || answer === null) return answer
        return { ...blockDefaults, ...(answer as object) }
      },
    } as never, chain)
  }
}

async function load<T>(path: string): Promise<T> {
  return (await import(join(layout, 'src/strategies', path))) as T
}

const folders = {
  passportV2: () => load<StrategyModule>('strategies/passport-v2/index.ts'),
  humanVerification: () => load<StrategyModule>('strategies/human-verification/index.ts'),
  validation: async () => (await load<{ default: ValidationClass }>('validations/human-verification/index.ts')).default,
}

const env = (values: Record<string, string>) => {
  for (const [key, value] of Object.entries(values)) vi.stubEnv(key, value)
}

async function fixture(path: string): Promise<Example[]> {
  return JSON.parse(await readFile(join(root, 'test/strategies/fixtures', path), 'utf8')) as Example[]
}

beforeAll(async () => {
  await rm(layout, { recursive: true, force: true })
  for (const name of ['passport-v2', 'human-verification', 'human-id']) {
    await mkdir(join(layout, 'src/strategies/strategies', name), { recursive: true })
    await cp(join(root, 'strategies', name), join(layout, 'src/strategies/strategies', name), { recursive: true })
  }
  await cp(join(root, 'validations/human-verification'), join(layout, 'src/strategies/validations/human-verification'), { recursive: true })
  ;(globalThis as Record<string, unknown>).__passportFolders = {
    fetch: async (input: string, init?: RequestInit) => {
      const url = new URL(input)
      if (input.startsWith(passportUrl)) {
        count(passportKind(url))
        const answer = passportOverride?.(url)
        if (answer) return answer
      } else count(`http ${url.host}`)
      return fetch(input, init)
    },
    blockAt: (network: string, timestamp: number) => {
      count('blockfinder')
      const clock = hubClocks[network]
      if (!clock) throw new Error(`no blockfinder answer for network ${network}`)
      return Math.floor((timestamp - clock.genesis) / clock.blockTime)
    },
    provider: (network: string) => {
      const make = providers[network]
      if (!make) throw new Error(`no provider for network ${network}`)
      return make()
    },
    strategies: async (name: string) => (name === 'human-verification' ? folders.humanVerification() : folders.passportV2()),
  }
  await writeFile(
    join(layout, 'src/strategies/utils.ts'),
    [
      '// score-api utils as far as these folders need them, for this test only',
      'const host = (globalThis as any).__passportFolders;',
      'export const customFetch = (url: string, init: any = {}, timeout = 20000) => host.fetch(url, init);',
      'export const getProvider = (network: string) => host.provider(network);',
      '// As snapshot.js: the snapshot block read through the provider, then the blockfinder (here the',
      '// world\'s exact hub clock) for the other networks\' blocks at or before its time.',
      'export const getSnapshots = async (network: string, snapshot: any, provider: any, networks: string[]) => {',
      '  const others = networks.filter((n) => n !== network);',
      '  if (snapshot === "latest" || others.length === 0) return Object.fromEntries(networks.map((n) => [n, snapshot]));',
      '  const { timestamp } = await provider.getBlock(snapshot);',
      '  return Object.fromEntries(networks.map((n) => [n, n === network ? snapshot : host.blockAt(n, timestamp)]));',
      '};',
      '// As score-api: each strategy on its network; scores not above 0, or of addresses not asked, dropped.',
      'export async function getScoresDirect(space: string, strategies: any[], network: string, provider: any, addresses: string[], snapshot: any) {',
      '  return Promise.all(strategies.map(async (s) => {',
      '    const module = await host.strategies(s.name);',
      '    const asked = new Set(addresses.map((a) => a.toLowerCase()));',
      '    const score = await module.strategy(space, s.network || network, host.provider(s.network || network), addresses, s.params, snapshot);',
      '    return Object.fromEntries(Object.entries(score).filter(([a, vp]: [string, any]) => vp > 0 && asked.has(a.toLowerCase())));',
      '  }));',
      '}',
      '',
    ].join('\n'),
  )
  await writeFile(
    join(layout, 'src/strategies/validations/validation.ts'),
    [
      "import { getAddress } from '@ethersproject/address';",
      '// score-api\'s Validation base class as far as it matters here: a malformed author does not pass.',
      'export default class Validation {',
      '  constructor(public author: string, public space: string, public network: string, public snapshot: number | "latest", public params: any) {}',
      '  async validate(customAuthor = this.author): Promise<boolean> {',
      '    try { getAddress(customAuthor); } catch { return false; }',
      '    return this.doValidate(customAuthor);',
      '  }',
      '  protected async doValidate(_customAuthor: string): Promise<boolean> { return true; }',
      '}',
      '',
    ].join('\n'),
  )
})

afterAll(async () => {
  vi.unstubAllEnvs()
  await rm(layout, { recursive: true, force: true })
})

describe('passport-v2 on the demo world (reference server, scorer 1)', () => {
  let world: WorldServer
  let snapshot: number
  let context: () => Parameters<typeof runStrategy>[1]['context']
  const library = (example: Example, addresses = example.addresses, at = snapshot) =>
    runStrategy(passportV2Strategy, { network: '10', provider: world.provider, addresses, options: structuredClone(example.strategy.params), snapshot: at, context: context() }).then((run) => run.scores)
  const folder = async (example: Example, addresses = example.addresses, at = snapshot) =>
    (await folders.passportV2()).strategy('personhood.eth', '10', providers['10']!(), addresses, structuredClone(example.strategy.params), at)

  beforeAll(async () => {
    world = await startWorldServer()
    passportUrl = world.url
    providers = { '10': () => new StaticProvider(world.provider, 10) }
    env({ PASSPORT_API_KEY: world.keys.analytics, PASSPORT_SCORER_ID: '1', PASSPORT_API_URL: world.url })
    context = () => ({ passport: { apiKey: world.keys.analytics, baseUrl: world.url, scorerId: '1', rateLimiter: false }, cache: false, now: world.clock.now })
    snapshot = Number(world.provider.head())
  })
  afterAll(() => world.close())

  it('scores every voter of the world as the library does, for each example option set, in 1 block read and 1 listing page', async () => {
    const voters = world.wallets()
    expect(voters.length).toBeGreaterThan(20)
    for (const example of await fixture('passport-v2/examples.json')) {
      requests = {}
      const scores = await folder(example, voters)
      expect(requests).toEqual({ 'rpc eth_getBlockByNumber': 1, 'C4 page': 1 })
      expect(scores).toEqual(await library(example, voters))
      expect(Object.values(scores).some((score) => score > 0)).toBe(true)
      expect(Object.values(scores).some((score) => score === 0)).toBe(true)
    }
  })

  it('after every voter is rescored an hour later, still answers the snapshot: the listing, then the history (A2) of each rescored voter', async () => {
    const examples = await fixture('passport-v2/examples.json')
    const addresses = [...new Set(examples.flatMap((example) => example.addresses))]
    const before = await Promise.all(examples.map((example) => folder(example, addresses)))
    world.clock.advance(hour)
    for (const address of addresses) {
      world.store.deleteStamps(address.toLowerCase() as Address, world.store.stampRecords(address.toLowerCase() as Address).map((record) => record.provider))
      world.store.score(address.toLowerCase() as Address, { scorerId: 1, at: world.clock.now(), recordHistory: true })
    }
    for (const [index, example] of examples.entries()) {
      requests = {}
      const scores = await folder(example, addresses)
      expect(scores).toEqual(before[index])
      expect(scores).toEqual(await library(example, addresses))
      expect(requests['C4 page']).toBe(1)
      expect(requests.A2).toBeGreaterThan(0)
      expect(requests.A2).toBeLessThanOrEqual(addresses.length)
    }
    // At the head (after the rescore) the same voters, stampless now, pass no more.
    const now = Number(world.provider.head())
    const gated = examples[0]!
    expect(Object.values(await folder(gated, addresses, now)).every((score) => score === 0)).toBe(true)
    expect(await folder(gated, addresses, now)).toEqual(await library(gated, addresses, now))
  })

  it('a single voter costs one block read and one listing read by address (plus A2 when rescored since)', async () => {
    const [example] = await fixture('passport-v2/examples.json')
    for (const address of world.wallets().slice(0, 12)) {
      requests = {}
      const scores = await folder(example!, [address])
      expect(scores).toEqual(await library(example!, [address]))
      expect(requests['rpc eth_getBlockByNumber']).toBe(1)
      expect(requests['C4 by address']).toBe(1)
      expect(requests['C4 page']).toBeUndefined()
      expect(Object.values(requests).reduce((a, b) => a + b, 0)).toBe(2 + (requests.A2 ?? 0))
    }
  })

  it('throws, naming the source, when Passport fails; never answers 0', async () => {
    const [example] = await fixture('passport-v2/examples.json')
    const voters = world.wallets().slice(0, 5)
    passportOverride = () => new Response('<html>Bad gateway</html>', { status: 502 })
    try {
      await expect(folder(example!, voters)).rejects.toThrowErrorMatchingInlineSnapshot(`[Error: passport-v2: the Passport score listing (C4) page 1 answered HTTP 502]`)
      await expect(folder(example!, voters.slice(0, 1))).rejects.toThrow(/^passport-v2: the Passport score listing \(C4\) for 0x[0-9a-fA-F]{40} answered HTTP 502$/)
      passportOverride = (url) => (url.pathname.endsWith('/history') ? new Response('{}', { status: 500 }) : undefined)
      world.clock.advance(hour)
      for (const address of voters) world.store.score(address, { scorerId: 1, at: world.clock.now(), recordHistory: true })
      await expect(folder(example!, voters)).rejects.toThrow(/^passport-v2: the Passport score history \(A2\) of 0x[0-9a-fA-F]{40} answered HTTP 500$/)
      passportOverride = (url) => (url.pathname.endsWith('/history') ? new Response('{"detail":"Forbidden"}', { status: 403 }) : undefined)
      requests = {}
      await expect(folder(example!, voters)).rejects.toThrow(/^passport-v2: the API key may not read Passport score history \(A2 answered 403/)
      expect(requests.A2).toBe(1)
    } finally {
      passportOverride = undefined
    }
    vi.stubEnv('PASSPORT_API_KEY', 'not-a-key')
    try {
      await expect(folder(example!, voters)).rejects.toThrowErrorMatchingInlineSnapshot(`[Error: passport-v2: the Passport score listing (C4) page 1 answered HTTP 401 (check PASSPORT_API_KEY)]`)
    } finally {
      vi.stubEnv('PASSPORT_API_KEY', world.keys.analytics)
    }
  })

  it('a scorer of real size (2,000,000 scores) at 500 voters: one listing page, then a clear error naming the cost', async () => {
    const [example] = await fixture('passport-v2/examples.json')
    const voters = Array.from({ length: 500 }, (_, index) => getAddress(`0x${(index + 1).toString(16).padStart(40, '0')}`))
    passportOverride = (url) => (url.pathname.startsWith('/registry/score/') ? Response.json({ items: [], count: 2_000_000 }) : undefined)
    requests = {}
    try {
      await expect(folder(example!, voters)).rejects.toThrowErrorMatchingInlineSnapshot(
        `[Error: passport-v2: reading the Passport scores of 500 voters takes 500 requests (scorer 1 lists 2000000 scores: 2000 pages of 1000), over the 50 one call may send: a scorer this size needs the personhood strategy server, which keeps scores across calls (docs/strategy-server.md)]`,
      )
      expect(requests).toEqual({ 'rpc eth_getBlockByNumber': 1, 'C4 page': 1 })
    } finally {
      passportOverride = undefined
    }
  })

  it('a listing that loses rows while it is read throws rather than count the missing voters 0', async () => {
    const [example] = await fixture('passport-v2/examples.json')
    const voters = Array.from({ length: 20 }, (_, index) => getAddress(`0x${(index + 1).toString(16).padStart(38, '0')}bb`))
    passportOverride = (url) => {
      if (!url.pathname.startsWith('/registry/score/')) return undefined
      return Response.json({ items: [], count: 2_500 })
    }
    try {
      await expect(folder(example!, voters)).rejects.toThrow(/counted 2500 scores but page 2 holds 0 rows instead of 1000: an absent voter cannot be taken as never scored/)
    } finally {
      passportOverride = undefined
    }
  })

  it('checks its options before any request', async () => {
    requests = {}
    const run = (params: Record<string, unknown>) => folders.passportV2().then((module) => module.strategy('personhood.eth', '10', providers['10']!(), world.wallets().slice(0, 3), params, snapshot))
    await expect(run({ mode: 'gated', cap: 3 })).rejects.toThrow('passport-v2: cap applies in weighted mode only')
    await expect(run({ mode: 'weighted', score: 3 })).rejects.toThrow('passport-v2: score applies in gated mode only')
    await expect(run({ mode: 'ranked' })).rejects.toThrow("passport-v2: mode must be 'gated' or 'weighted'")
    vi.stubEnv('PASSPORT_SCORER_ID', '')
    try {
      await expect(run({})).rejects.toThrow('passport-v2: no Passport scorer: set scorerId in the options or PASSPORT_SCORER_ID (a positive integer)')
    } finally {
      vi.stubEnv('PASSPORT_SCORER_ID', '1')
    }
    expect(requests).toEqual({})
  })
})

describe('human-verification and its validation on the demo world (local chain and reference server)', () => {
  let world: Awaited<ReturnType<typeof startChainWorld>>
  let context: () => Parameters<typeof runStrategy>[1]['context']
  let snapshot: number

  beforeAll(async () => {
    world = await startChainWorld()
    passportUrl = world.baseUrl
    providers = { '10': () => new StaticProvider(world.provider('10') as never, 10), '1': () => new StaticProvider(world.provider('1') as never, 1) }
    const { hubClock } = world.humanIdContext().humanId as { hubClock: { anchor: { timestamp: bigint }; blockTimeSeconds: number } }
    hubClocks = { '10': { genesis: Number(hubClock.anchor.timestamp), blockTime: hubClock.blockTimeSeconds } }
    env({ ...world.env, PASSPORT_API_KEY: world.apiKey, PASSPORT_API_URL: world.baseUrl, PASSPORT_SCORER_ID: '1' })
    context = () => ({ ...world.humanIdContext(), passport: { apiKey: world.apiKey, baseUrl: world.baseUrl, tier: 3, scorerId: '1', rateLimiter: false } })
    snapshot = Number(await world.latestBlock('10'))
  })
  afterAll(() => world.close())

  const library = (params: Record<string, unknown>, addresses: string[], network = '10', at = snapshot) =>
    runStrategy(humanVerificationStrategy, { network, provider: world.provider(network), addresses, options: structuredClone(params), snapshot: at, context: context() }).then((run) => run.scores)
  const folder = async (params: Record<string, unknown>, addresses: string[], network = '10', at = snapshot) =>
    (await folders.humanVerification()).strategy('personhood.eth', network, providers[network]!(), addresses, structuredClone(params), at)

  it('scores every voter of the world as the library does, Passport asked only about the voters Human ID did not verify', async () => {
    const voters = world.voters(1000)
    const examples = (await fixture('human-verification/examples.json')).filter((example) => example.network === '10')
    const optionSets = [
      ...examples.map((example) => example.strategy.params),
      { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'all', verifiedScore: 3, passportScore: 2 },
      { credentials: ['phone'], passportScore: 1, threshold: 25 },
    ]
    for (const params of optionSets) {
      requests = {}
      const scores = await folder(params, voters)
      expect(scores).toEqual(await library(params, voters))
      const values = new Set(Object.values(scores))
      expect(values.has(0)).toBe(true)
      expect(values.size).toBeGreaterThan(1)
      // The reader's eth_calls, the index (clean hands) and one listing page: within score-api's 5.
      expect(requests['C4 page']).toBe(1)
      expect(requests['C4 by address']).toBeUndefined()
      expect(Object.values(requests).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(5)
    }
  }, 180_000)

  it('a space on Ethereum: the Ethereum block read once (for the blockfinder and the Passport time), the same scores as the library', async () => {
    const voters = world.voters(1000)
    const [example] = (await fixture('human-verification/examples.json')).filter((each) => each.network === '1')
    for (const params of [example!.strategy.params, { credentials: ['gov-id', 'phone', 'biometrics'], scorerId: 1 }]) {
      requests = {}
      const scores = await folder(params, voters, '1', example!.snapshot)
      expect(requests['rpc eth_getBlockByNumber']).toBe(1)
      expect(requests.blockfinder).toBe(1)
      expect(requests['C4 page']).toBe(1)
      expect(scores).toEqual(await library(params, voters, '1', example!.snapshot))
      expect(new Set(Object.values(scores)).size).toBeGreaterThan(1)
    }
  }, 180_000)

  it('passportScore 0 turns Passport off: no Passport request and no key needed', async () => {
    const voters = world.voters(1000)
    const params = { credentials: ['gov-id', 'phone', 'biometrics'], passportScore: 0 }
    vi.stubEnv('PASSPORT_API_KEY', '')
    requests = {}
    try {
      const scores = await folder(params, voters)
      expect(Object.keys(requests).filter((kind) => kind.startsWith('C4') || kind.startsWith('A'))).toEqual([])
      vi.stubEnv('PASSPORT_API_KEY', world.apiKey)
      expect(scores).toEqual(await library(params, voters))
    } finally {
      vi.stubEnv('PASSPORT_API_KEY', world.apiKey)
    }
  }, 60_000)

  it('a failing Passport source throws naming it', async () => {
    passportOverride = () => new Response('upstream down', { status: 503 })
    try {
      await expect(folder({ scorerId: 1 }, world.voters(1000))).rejects.toThrow(/^human-verification: the Passport score listing \(C4\) page 1 answered HTTP 503$/)
    } finally {
      passportOverride = undefined
    }
  })

  it('the validation: a voter the strategy scores above 0 passes, one it scores 0 does not, a malformed author does not, a failing source throws', async () => {
    const Validation = await folders.validation()
    const params = { credentials: ['gov-id', 'phone', 'biometrics'], scorerId: 1 }
    const scores = await library(params, world.voters(1000))
    const passing = Object.entries(scores).filter(([, score]) => score > 0).map(([address]) => address)
    const failing = Object.entries(scores).filter(([, score]) => score === 0).map(([address]) => address)
    expect(passing.length).toBeGreaterThan(0)
    expect(failing.length).toBeGreaterThan(0)
    for (const author of [...passing.slice(0, 4), ...failing.slice(0, 4)]) {
      requests = {}
      expect(await new Validation(author, 'personhood.eth', '10', snapshot, params).validate()).toBe(scores[author as Address]! > 0)
      const passport = Object.entries(requests).filter(([kind]) => kind.startsWith('C4') || kind.startsWith('A'))
      expect(passport.every(([kind, n]) => (kind === 'C4 by address' || kind === 'A2') && n === 1)).toBe(true)
    }
    expect(await new Validation('0xnot-an-address', 'personhood.eth', '10', snapshot, params).validate()).toBe(false)
    passportOverride = () => new Response('upstream down', { status: 503 })
    try {
      await expect(new Validation(failing[0]!, 'personhood.eth', '10', snapshot, params).validate()).rejects.toThrow(/^human-verification: the Passport score listing \(C4\) for 0x[0-9a-fA-F]{40} answered HTTP 503$/)
    } finally {
      passportOverride = undefined
    }
  }, 60_000)
})
