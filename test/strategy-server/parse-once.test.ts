/**
 * A strategy-server call is parsed once, at the edge: its options, network, snapshot and addresses
 * go through `parseStrategyCall` once, the snapshot is read once, and `prepare` runs once; the run
 * takes the parsed call (issue #32).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import * as call from '../../src/strategy/call.js'
import { defineStrategy } from '../../src/strategy/define.js'
import * as snapshot from '../../src/strategy/snapshot.js'
import * as parse from '../../src/utils/parse.js'
import { createStrategyServer } from '../../src/strategy-server/app.js'
import { checkVoter } from '../../src/strategy-server/voter-page/check.js'
import type { SnapshotHubClient } from '../../src/clients/snapshot-hub.js'
import * as optionsModule from '../../src/strategy/options.js'

const voters = ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D']

/** A strategy that scores every voter `options.score`, with `detail`, and counts its `prepare` runs. */
function constantStrategy(detail: unknown) {
  let prepared = 0
  const constant = defineStrategy({
    name: 'constant',
    title: 'Constant',
    optionsSchema: z.object({ score: z.number().default(1) }).strict(),
    prepare({ options }) {
      prepared += 1
      return options
    },
    async score({ addresses, options }) {
      return new Map(addresses.map((address) => [address, { score: options.score, detail }]))
    },
  })
  return { constant, prepared: () => prepared }
}

// An ethers-style provider: one block, final (its time long past).
const provider = { getBlock: async (tag: number | string) => ({ number: tag === 'latest' ? 100 : tag, timestamp: 1_600_000_000 }) }

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a strategy-server call', () => {
  it('is parsed once and prepared once, for the store key and the run alike', async () => {
    const { constant, prepared } = constantStrategy(null)
    const app = createStrategyServer({ strategies: { constant }, providers: { '1': provider }, voterPage: false, batchWindowMs: 0 })
    const calls = vi.spyOn(call, 'parseStrategyCall')
    const snapshots = vi.spyOn(snapshot, 'parseSnapshot')
    const networks = vi.spyOn(parse, 'parseNetwork')
    // parseSnapshot's own reading: counts a snapshot parsed inside snapshot.ts too (resolveSnapshot
    // calls parseSnapshot through its own binding, which the spy above does not see).
    const blocks = vi.spyOn(parse, 'parseBlockNumber')
    const options = vi.spyOn(optionsModule, 'parseStrategyOptions')
    const response = await app.fetch(
      new Request('http://localhost/strategies/constant', { method: 'POST', body: JSON.stringify({ options: { score: 3 }, network: '1', snapshot: 100, addresses: voters }) }),
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ score: voters.map((address) => ({ address, score: '3' })) })
    expect(calls).toHaveBeenCalledTimes(1)
    expect(snapshots).toHaveBeenCalledTimes(1)
    expect(blocks).toHaveBeenCalledTimes(1)
    expect(options).toHaveBeenCalledTimes(1)
    // The server's networks are its providers': checked against them, not parsed again anywhere.
    expect(networks).toHaveBeenCalledTimes(0)
    expect(prepared()).toBe(1)
  })
})

describe('a voter-page check', () => {
  it('parses its options, network and snapshot once, and runs the call parsed', async () => {
    const { constant, prepared } = constantStrategy([])
    const calls = vi.spyOn(call, 'parseStrategyCall')
    const options = vi.spyOn(optionsModule, 'parseStrategyOptions')
    const snapshots = vi.spyOn(snapshot, 'parseSnapshot')
    // parseSnapshot's own reading: counted here too, whichever module calls parseSnapshot.
    const blocks = vi.spyOn(parse, 'parseBlockNumber')
    const check = await checkVoter(
      { address: voters[0]!.toLowerCase(), strategy: 'constant', options: '{"score":3}', network: '1', snapshot: '100' },
      { strategies: { constant }, providers: { '1': provider }, hub: {} as SnapshotHubClient, apiV2OptionNames: [] },
    )
    expect(check.score).toBe(3)
    expect(check.address).toBe(voters[0])
    expect(check.snapshot).toEqual({ blockNumber: '100', timestamp: 1_600_000_000 })
    expect(calls).toHaveBeenCalledTimes(1)
    expect(options).toHaveBeenCalledTimes(1)
    expect(snapshots).toHaveBeenCalledTimes(1)
    expect(blocks).toHaveBeenCalledTimes(1)
    expect(prepared()).toBe(1)
  })
})
