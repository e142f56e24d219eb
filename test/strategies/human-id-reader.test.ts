/**
 * The score-api folder `strategies/human-id`: its deployless reader (reader.sol, compiled into
 * index.ts) against the in-process EVM with the Human ID contracts, and its verdicts against the
 * library's `verifyCredentials` at the same block, voter by voter and credential by credential:
 * valid, expired, revoked, wrong issuer, action and recipient, short public values, the zk-passport
 * SBT, the permanent stores. The folder reads no attestation index: it refuses `clean-hands`
 * (served by the strategy server and the library only).
 *
 * The folder runs as score-api lays it out (`src/strategies/utils.ts` and
 * `src/strategies/strategies/human-id/`), in a temp copy with a small `utils.ts` of this test's:
 * `getProvider` is an ethers v5 provider on the local chain, `customFetch` is counted and refused
 * (the folder reads nothing off chain), and every request is counted.
 */
import { StaticJsonRpcProvider, Web3Provider } from '@ethersproject/providers'
import { createServer } from 'node:http'
import { createPublicClient, custom, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { optimismNetwork } from '../../src/chain/constants.js'
import { verifyCredentials } from '../../src/verify/credentials/index.js'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getStrategyJsonSchema } from '../../src/strategy/define.js'
import { humanIdStrategy } from '../../src/strategy/human-id.js'
import { compileReader, readerCodeInModule } from '../../scripts/strategy-reader.js'
import { folderSchema } from '../../scripts/strategy-schemas.js'
import { root } from '../helpers/built.js'
import { TestChain, type Eip1193 } from '../chain/harness.js'
import { freshAddress } from '../chain/helpers.js'
import { layHumanIdFolder, type HumanIdFolder } from './human-id-layout.js'

const day = 86_400n
const credentials = ['gov-id', 'phone', 'biometrics'] as const
let layout: Awaited<ReturnType<typeof layHumanIdFolder>>

let chain: TestChain
let snapshot: bigint
/** Each voter with the reasons the story gives it (credentials not named: none). */
const story: { address: Address; expected: Partial<Record<(typeof credentials)[number], string>> }[] = []

/** What the folder's requests were, by kind. */
const requests = { rpc: {} as Record<string, number>, index: 0, snapshots: 0 }
let chainDown = false
let blockfinderDown = false
/** The next eth_call fails once, as a dropped connection does (not about the block). */
let callFailsOnce = false

function resetCounts() {
  requests.rpc = {}
  requests.index = 0
  requests.snapshots = 0
}

function counted(provider: Eip1193): Eip1193 {
  return {
    request: async (args: { method: string; params?: unknown }) => {
      requests.rpc[args.method] = (requests.rpc[args.method] ?? 0) + 1
      if (chainDown) throw new Error('connection refused')
      if (callFailsOnce && args.method === 'eth_call') {
        callFailsOnce = false
        throw new Error('connection reset')
      }
      return provider.request(args as never)
    },
  } as Eip1193
}

/** An ethers v5 provider that knows its chain (as snapshot.js's StaticJsonRpcProvider does). */
class StaticProvider extends Web3Provider {
  override detectNetwork() {
    return Promise.resolve({ chainId: 10, name: 'optimism' })
  }
}

/** score-api's customFetch: the folder has no off-chain source, so a call is counted and refused. */
const indexFetch = async (input: string) => {
  requests.index++
  throw new Error(`human-id reads nothing off chain, but fetched ${input}`)
}


/** The timestamp of a block of the test chain. */
async function timeOf(block: bigint): Promise<bigint> {
  const header = (await chain.provider.request({ method: 'eth_getBlockByNumber', params: [`0x${block.toString(16)}`, false] })) as { timestamp: string }
  return BigInt(header.timestamp)
}

/** A fresh load of the folder (a cold module cache). */
const load = (): Promise<HumanIdFolder> => layout.load()

beforeAll(async () => {
  chain = await TestChain.start()
  ;(globalThis as Record<string, unknown>).__humanIdTest = {
    provider: () => new StaticProvider(counted(chain.provider) as never, 10),
    fetch: indexFetch,
    snapshots: async (network: string, block: number | string, _provider: unknown, networks: string[]) => {
      requests.snapshots++
      if (blockfinderDown) throw new Error('blockfinder timed out')
      return Object.fromEntries(networks.map((n) => [n, block === 'latest' ? 'latest' : Number(snapshot)]))
    },
  }
  layout = await layHumanIdFolder(
    'human-id-reader',
    [
      '// score-api utils as far as human-id needs them, answered by this test',
      'const test = (globalThis as any).__humanIdTest;',
      'export const getProvider = (network: string) => { if (network !== "10") throw new Error(`no provider for ${network}`); return test.provider(); };',
      'export const customFetch = (url: string, init: any, timeout: number) => test.fetch(url, init);',
      'export const getSnapshots = (...args: any[]) => test.snapshots(...args);',
      '',
    ].join('\n'),
  )

  const { timestamp } = await chain.latest()
  const future = timestamp + 365n * day
  const voter = (expected: (typeof story)[number]['expected']) => {
    const address = freshAddress()
    story.push({ address, expected })
    return address
  }
  const govId = optimismNetwork.circuitIds['gov-id']
  await chain.issueSBT(voter({ 'gov-id': 'valid' }), 'gov-id', { expiry: future })
  await chain.issueSBT(voter({ 'gov-id': 'expired' }), 'gov-id', { expiry: timestamp + 500n })
  const revoked = voter({ 'gov-id': 'revoked' })
  await chain.issueSBT(revoked, 'gov-id', { expiry: future })
  await chain.revokeSBT(revoked, 'gov-id')
  await chain.issueSBT(voter({ 'gov-id': 'wrong-issuer' }), 'gov-id', { expiry: future, issuer: 5n })
  await chain.issueSBT(voter({ 'gov-id': 'wrong-action' }), 'gov-id', { expiry: future, actionId: 42n })
  // publicValues[1] naming someone else is no condition of Human ID's (issue #27): valid.
  const borrowed = voter({ 'gov-id': 'valid' })
  await chain.setSBT(borrowed, govId, future, [future, BigInt(freshAddress()), 123456789n, 0n, optimismNetwork.issuers['gov-id']])
  await chain.setSBT(voter({ 'gov-id': 'wrong-issuer' }), govId, future, [future, 0n, 123456789n])
  await chain.issueSBT(voter({ 'gov-id': 'valid' }), 'zk-passport', { expiry: future })
  const legacy = voter({ 'gov-id': 'legacy' })
  await chain.setLegacyUnique('gov-id', legacy, 123456789n)
  const expiredThenStore = voter({ 'gov-id': 'legacy' })
  await chain.issueSBT(expiredThenStore, 'gov-id', { expiry: timestamp + 500n })
  await chain.setLegacyUnique('gov-id', expiredThenStore, 123456789n)
  const bothBad = voter({ 'gov-id': 'expired' })
  await chain.issueSBT(bothBad, 'gov-id', { expiry: timestamp + 500n })
  await chain.issueSBT(bothBad, 'zk-passport', { expiry: future })
  await chain.revokeSBT(bothBad, 'zk-passport')
  await chain.issueSBT(voter({ 'gov-id': 'wrong-issuer' }), 'zk-passport', { expiry: future, issuer: 7n })
  await chain.issueSBT(voter({ phone: 'valid' }), 'phone', { expiry: future })
  const phoneStore = voter({ phone: 'legacy' })
  await chain.setLegacyUnique('phone', phoneStore, 123456789n)
  const otherAction = voter({})
  await chain.setLegacyUnique('phone', otherAction, 42n)
  await chain.setLegacyUnique('gov-id', otherAction, 42n)
  await chain.issueSBT(voter({ biometrics: 'valid' }), 'biometrics', { expiry: future })
  const bioRevoked = voter({ biometrics: 'revoked' })
  await chain.issueSBT(bioRevoked, 'biometrics', { expiry: future })
  await chain.revokeSBT(bioRevoked, 'biometrics')
  const all = voter({ 'gov-id': 'valid', phone: 'valid', biometrics: 'valid' })
  for (const circuit of ['gov-id', 'phone', 'biometrics'] as const) await chain.issueSBT(all, circuit, { expiry: future })
  // Valid at the snapshot, revoked after it.
  const revokedLater = voter({ 'gov-id': 'valid' })
  await chain.issueSBT(revokedLater, 'gov-id', { expiry: future })
  voter({})

  snapshot = (await chain.mine(timestamp + 1000n)).blockNumber
  // After the block: what a past snapshot must not see.
  await chain.revokeSBT(revokedLater, 'gov-id')
})

afterAll(async () => {
  await layout.remove()
  delete (globalThis as Record<string, unknown>).__humanIdTest
})

function library(addresses: readonly Address[], blockNumber = snapshot) {
  return verifyCredentials(createPublicClient({ transport: custom(chain.provider) }), {
    network: 10,
    addresses,
    credentials: [...credentials],
    blockNumber,
  })
}

describe('strategies/human-id reader', () => {
  it('index.ts carries the creation code solc compiles from reader.sol', async () => {
    expect(await readerCodeInModule()).toBe(await compileReader())
  })

  it("schema.json is the library's options less source (the folder reads the chain only) and clean-hands", async () => {
    const library = getStrategyJsonSchema(humanIdStrategy) as { definitions: { Strategy: { properties: Record<string, { items?: { enum?: string[] } }> } } }
    const folder = JSON.parse(await readFile(join(root, 'strategies/human-id/schema.json'), 'utf8')) as typeof library
    expect(folder).toEqual(folderSchema(humanIdStrategy))
    expect(Object.keys(folder.definitions.Strategy.properties)).toEqual(Object.keys(library.definitions.Strategy.properties).filter((option) => option !== 'source'))
    expect(library.definitions.Strategy.properties.credentials!.items!.enum).toContain('clean-hands')
    expect(folder.definitions.Strategy.properties.credentials!.items!.enum).toEqual(['gov-id', 'phone', 'biometrics'])
  })

  it('every verdict equals verifyCredentials at the same block, and the story', async () => {
    const folderModule = await load()
    const addresses = story.map((entry) => entry.address)
    const ours = await folderModule.verifyHumans('10', new StaticProvider(counted(chain.provider) as never, 10), addresses, { credentials }, Number(snapshot))
    const theirs = await library(addresses)
    expect(ours.block).toEqual({ number: Number(snapshot), timestamp: Number(theirs.blockTimestamp), chainId: 10 })
    for (const { address, expected } of story) {
      const checksummed = Object.keys(ours.voters).find((key) => key.toLowerCase() === address.toLowerCase()) as string
      const mine = ours.voters[checksummed]!.credentials
      const reference = theirs.results[address.toLowerCase() as Address]!
      for (const credential of credentials) {
        expect({ address, credential, ...mine[credential] }).toEqual({
          address,
          credential,
          valid: reference[credential].valid,
          reason: reference[credential].reason,
        })
        expect({ address, credential, reason: mine[credential]!.reason }).toEqual({ address, credential, reason: expected[credential] ?? 'none' })
      }
    }
  })

  it('1,200 voters: chunks under the gas plan (2 calls at one block), verdicts still equal to the library', async () => {
    const { verifyHumans } = await load()
    const addresses = [...Array.from({ length: 600 }, () => freshAddress()), ...story.map((entry) => entry.address)]
    while (addresses.length < 1_200) addresses.push(freshAddress())
    resetCounts()
    const ours = await verifyHumans('10', new StaticProvider(counted(chain.provider) as never, 10), addresses, { credentials: ['gov-id', 'phone', 'biometrics'] }, Number(snapshot))
    expect(requests).toEqual({ rpc: { eth_call: 2 }, index: 0, snapshots: 0 })
    const theirs = await verifyCredentials(createPublicClient({ transport: custom(chain.provider) }), {
      network: 10,
      addresses,
      credentials: ['gov-id', 'phone', 'biometrics'],
      blockNumber: snapshot,
    })
    const simplify = (entry: Record<string, { valid: boolean; reason: string }>) =>
      Object.fromEntries(Object.entries(entry).map(([credential, verdict]) => [credential, `${verdict.valid} ${verdict.reason}`]))
    expect(Object.fromEntries(Object.entries(ours.voters).map(([address, voter]) => [address.toLowerCase(), simplify(voter.credentials)]))).toEqual(
      Object.fromEntries(Object.entries(theirs.results).map(([address, entry]) => [address, simplify(entry)])),
    )
    expect(Object.values(ours.voters).filter((voter) => voter.verified)).toHaveLength(
      story.filter((entry) => ['valid', 'legacy'].some((ok) => [entry.expected['gov-id'], entry.expected.phone, entry.expected.biometrics].includes(ok))).length,
    )
  }, 180_000)

  it('many chunks: at most 3 reader calls at once, and a call that fails names its chunk, its gas and bytes, and what the node did', async () => {
    // snapshot.js's provider gives a call 25 s; a node runs calls of tens of millions of gas one
    // after another, so the folder must not send every chunk at once (at 10,000 voters the last
    // ones timed out, and ethers calls a timed-out eth_call "missing revert data").
    const { verifyHumans } = await load()
    const addresses = Array.from({ length: 3_000 }, () => freshAddress())
    let inFlight = 0
    let most = 0
    let calls = 0
    // After the first call, calls are held until three are in flight (so `most` does not depend on
    // how fast the node answers); then the last of them to arrive never answers, and the provider
    // times out on it. Which chunk arrives last is the network's choice: the message may name any.
    let release!: () => void
    const wave = new Promise<void>((resolve) => (release = resolve))
    const server = createServer((incoming, outgoing) => {
      let body = ''
      incoming.on('data', (part) => (body += part))
      incoming.on('end', async () => {
        const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] }
        const isCall = method === 'eth_call'
        if (isCall) most = Math.max(most, ++inFlight)
        const arrival = isCall ? ++calls : 0
        if (arrival > 1) {
          if (inFlight >= 3) release()
          await wave
        }
        if (arrival === 4) return
        try {
          const result = await chain.provider.request({ method, params } as never)
          outgoing.end(JSON.stringify({ jsonrpc: '2.0', id, result }))
        } catch (error) {
          outgoing.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: (error as Error).message } }))
        } finally {
          if (isCall) inFlight--
        }
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    try {
      const provider = new StaticJsonRpcProvider({ url: `http://127.0.0.1:${port}`, timeout: 60_000 }, 10)
      const failure = await verifyHumans('10', provider, addresses, { credentials: ['gov-id', 'phone', 'biometrics'] }, Number(snapshot)).catch((error: Error) => error)
      // 5 chunks: the first (it pins the block), then the next three together, one of which hangs.
      expect(calls).toBe(4)
      expect(most).toBe(3)
      expect((failure as Error).message).toMatch(
        /^human-id: the reader call [234] of 5 \(\d+ voters, planned \d+ gas, \d+ bytes sent, \d+ returned\) on chain 10 at block \d+ failed: no answer within the provider's 60000 ms$/,
      )
    } finally {
      server.closeAllConnections()
      server.close()
    }
  }, 180_000)

  it('a chunk that runs out of gas is read again once, in two halves, with the same verdicts', async () => {
    const { verifyHumans } = await load()
    const addresses = story.map((entry) => entry.address)
    const whole = await verifyHumans('10', new StaticProvider(chain.provider as never, 10), addresses, { credentials }, Number(snapshot))
    let calls = 0
    const outOfGas = {
      request: async (args: { method: string; params?: unknown }) => {
        if (args.method === 'eth_call' && ++calls === 1) throw new Error('gas required exceeds allowance (50000000)')
        return chain.provider.request(args as never)
      },
    }
    const halves = await verifyHumans('10', new StaticProvider(outOfGas as never, 10), addresses, { credentials }, Number(snapshot))
    expect(calls).toBe(3)
    expect(halves).toEqual(whole)
    expect(Object.values(whole.voters).some((voter) => voter.credentials['gov-id']?.valid)).toBe(true)
  })

  it('a single voter costs 1 request on Optimism: one eth_call, no index', async () => {
    const { strategy } = await load()
    const [first] = story.filter((entry) => entry.expected['gov-id'] === 'valid')
    const provider = new StaticProvider(counted(chain.provider) as never, 10)
    resetCounts()
    const scores = await strategy('space.eth', '10', provider, [first!.address], { credentials: ['gov-id', 'phone', 'biometrics'], score: 3 }, Number(snapshot))
    expect(Object.values(scores)).toEqual([3])
    expect(requests).toEqual({ rpc: { eth_call: 1 }, index: 0, snapshots: 0 })
  })

  it('clean-hands is refused with where to get it, before any request', async () => {
    const { strategy } = await load()
    const provider = new StaticProvider(counted(chain.provider) as never, 10)
    const holder = story[0]!.address
    resetCounts()
    for (const options of [{ credentials: ['clean-hands'] }, { credentials: ['gov-id', 'clean-hands'], match: 'any' }, { sandbox: true, credentials: ['clean-hands'] }]) {
      await expect(strategy('space.eth', '10', provider, [holder], options, Number(snapshot))).rejects.toThrow(
        'human-id: credentials must be some of gov-id,phone,biometrics (clean-hands: through api-v2 and the personhood strategy server)',
      )
    }
    expect(requests).toEqual({ rpc: {}, index: 0, snapshots: 0 })
  })

  /** A space's provider on Ethereum: it answers only the snapshot block's header (at `time`), and counts it. */
  const ethereum = (time: bigint) => {
    const provider = {
      headers: 0,
      getBlock: (block: number) => {
        provider.headers++
        if (chainDown) return Promise.reject(new Error('connection refused'))
        return Promise.resolve({ number: block, timestamp: Number(time) })
      },
      call: () => Promise.reject(new Error('the space provider is not the hub chain')),
    }
    return provider
  }

  it("a space on another network: the snapshot's time from its header; Optimism's block by the clock, and by the blockfinder when that block is not there", async () => {
    const { strategy } = await load()
    const addresses = story.map((entry) => entry.address)
    const timestamp = await timeOf(snapshot)
    const space = ethereum(timestamp)
    resetCounts()
    const scores = await strategy('space.eth', '1', space, addresses, { credentials: ['gov-id', 'phone'], match: 'all' }, 21_000_000)
    // The clock puts the snapshot's time at a block this test chain has not reached: that read
    // fails, the blockfinder maps the time, the read is redone there.
    expect({ headers: space.headers, ...requests }).toEqual({ headers: 1, rpc: { eth_call: 2 }, index: 0, snapshots: 1 })
    const both = story.filter((entry) => ['valid', 'legacy'].includes(entry.expected['gov-id'] ?? '') && ['valid', 'legacy'].includes(entry.expected.phone ?? ''))
    expect(Object.keys(scores).filter((key) => scores[key]! > 0).map((key) => key.toLowerCase())).toEqual(both.map((entry) => entry.address.toLowerCase()))
    // The same snapshot again: its time is kept for the process; a block not there yet is not a
    // chain off its clock, so the clock is tried again.
    resetCounts()
    await strategy('space.eth', '1', space, addresses.slice(0, 1), { credentials: ['gov-id'] }, 21_000_000)
    expect({ headers: space.headers, ...requests }).toEqual({ headers: 1, rpc: { eth_call: 2 }, index: 0, snapshots: 1 })
  })

  it('sandbox: the Base Sepolia hub through the space provider on 84532 (no permanent store, no clean hands)', async () => {
    const sandbox = await TestChain.start({ chainId: 84532 })
    const { timestamp } = await sandbox.latest()
    const [holder, other] = [freshAddress(), freshAddress()]
    await sandbox.issueSBT(holder!, 'gov-id', { expiry: timestamp + day })
    const block = (await sandbox.mine(timestamp + 10n)).blockNumber
    class SandboxProvider extends Web3Provider {
      override detectNetwork() {
        return Promise.resolve({ chainId: 84532, name: 'base-sepolia' })
      }
    }
    const { strategy, verifyHumans } = await load()
    const provider = new SandboxProvider(counted(sandbox.provider) as never, 84532)
    resetCounts()
    const scores = await strategy('space.eth', '84532', provider, [holder, other], { sandbox: true }, Number(block))
    expect(Object.values(scores)).toEqual([1, 0])
    expect(requests).toEqual({ rpc: { eth_call: 1 }, index: 0, snapshots: 0 })
    const answer = await verifyHumans('84532', provider, [other], { sandbox: true, credentials: ['gov-id', 'phone'] }, Number(block))
    expect(Object.values(answer.voters)[0]!.credentials).toEqual({ 'gov-id': { valid: false, reason: 'none' }, phone: { valid: false, reason: 'none' } })
    expect(answer.block.chainId).toBe(84532)
  })

  it('a source that fails is an Error naming it, never a 0', async () => {
    const { strategy } = await load()
    const provider = new StaticProvider(counted(chain.provider) as never, 10)
    const addresses = story.map((entry) => entry.address)
    chainDown = true
    await expect(strategy('space.eth', '10', provider, addresses, { credentials: ['gov-id'] }, Number(snapshot))).rejects.toThrow(
      /^human-id: the reader call 1 of 1 \(\d+ voters, planned \d+ gas, \d+ bytes sent, \d+ returned\) on chain 10 at block \d+ failed: connection refused$/,
    )
    chainDown = false
    const timestamp = await timeOf(snapshot)
    blockfinderDown = true
    await expect(strategy('space.eth', '1', ethereum(timestamp), addresses, { credentials: ['gov-id'] }, 21_000_000)).rejects.toThrow(
      'human-id: getSnapshots (blockfinder) failed to map block 21000000 of network 1 to network 10: blockfinder timed out',
    )
    blockfinderDown = false
    // A read at the clock's block that fails for a reason not about the block (src/rules/hub.ts's
    // hubClockStep): thrown as it is, never answered from another block the blockfinder names.
    resetCounts()
    callFailsOnce = true
    await expect(strategy('space.eth', '1', ethereum(timestamp), addresses, { credentials: ['gov-id'] }, 21_000_000)).rejects.toThrow(
      /^human-id: the reader call 1 of 1 \(\d+ voters, planned \d+ gas, \d+ bytes sent, \d+ returned\) on chain 10 at block \d+ failed: connection reset$/,
    )
    expect(requests).toEqual({ rpc: { eth_call: 1 }, index: 0, snapshots: 0 })
    chainDown = true
    await expect(strategy('space.eth', '1', ethereum(timestamp), addresses, { credentials: ['gov-id'] }, 21_000_001)).rejects.toThrow(
      'human-id: the header of block 21000001 of network 1: connection refused',
    )
    chainDown = false
    await expect(strategy('space.eth', '10', provider, addresses, { credentials: ['passport'] }, Number(snapshot))).rejects.toThrow(
      'human-id: credentials must be some of gov-id,phone,biometrics (clean-hands: through api-v2 and the personhood strategy server)',
    )
  })
  // Last: it mines the test chain far ahead.
  it('a hub chain off its clock: a block where the clock says, at another time, is not used; the blockfinder maps the snapshot, and this process asks it from then on', async () => {
    const { strategy } = await load()
    const addresses = story.map((entry) => entry.address)
    const timestamp = await timeOf(snapshot)
    // Optimism's block at that time by the clock, then mined here one second apart: off the clock.
    const clockBlock = 105_235_063n + (timestamp - 1_686_068_903n) / 2n
    const head = (await chain.latest()).blockNumber
    await chain.provider.request({ method: 'hardhat_mine', params: [`0x${(clockBlock - head + 10n).toString(16)}`, '0x1'] })
    const space = ethereum(timestamp)
    resetCounts()
    const scores = await strategy('space.eth', '1', space, addresses, { credentials: ['gov-id', 'phone'], match: 'all' }, 21_000_000)
    expect({ headers: space.headers, ...requests }).toEqual({ headers: 1, rpc: { eth_call: 2 }, index: 0, snapshots: 1 })
    const both = story.filter((entry) => ['valid', 'legacy'].includes(entry.expected['gov-id'] ?? '') && ['valid', 'legacy'].includes(entry.expected.phone ?? ''))
    expect(Object.keys(scores).filter((key) => scores[key]! > 0).map((key) => key.toLowerCase())).toEqual(both.map((entry) => entry.address.toLowerCase()))
    resetCounts()
    await strategy('space.eth', '1', space, addresses, { credentials: ['gov-id', 'phone'], match: 'all' }, 21_000_000)
    expect({ headers: space.headers, ...requests }).toEqual({ headers: 1, rpc: { eth_call: 1 }, index: 0, snapshots: 1 })
  })
})

