/**
 * An audit parses its strategy call once: options, network, snapshot and every voter go through
 * `parseStrategyCall` once, however many batches the judge runs (issue #32).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { audit } from '../../src/audit/index.js'
import * as call from '../../src/strategy/call.js'
import * as optionsModule from '../../src/strategy/options.js'
import * as snapshotModule from '../../src/strategy/snapshot.js'
import * as parse from '../../src/utils/parse.js'
import { startChainWorld } from '../strategies/human-id-serving.js'

type World = Awaited<ReturnType<typeof startChainWorld>>
let world: World
const snapshot = 136_566_811

beforeAll(async () => {
  world = await startChainWorld()
}, 240_000)
afterAll(async () => {
  await world?.close()
})

describe('audit()', () => {
  it('parses the call once: snapshot and network once, whatever the batches', async () => {
    const context = world.context()
    const calls = vi.spyOn(call, 'parseStrategyCall')
    const snapshots = vi.spyOn(snapshotModule, 'parseSnapshot')
    const networks = vi.spyOn(parse, 'parseNetwork')
    // parseSnapshot's own reading: counts a snapshot parsed inside snapshot.ts too (resolveSnapshot
    // calls parseSnapshot through its own binding, which the spy above does not see).
    const blocks = vi.spyOn(parse, 'parseBlockNumber')
    const options = vi.spyOn(optionsModule, 'parseStrategyOptions')
    const result = await audit({
      votes: world.voters(12).map((voter, index) => ({ voter: voter as `0x${string}`, choice: (index % 2) + 1, votingPower: 1 })),
      strategy: 'human-verification',
      options: { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'any', scorerId: 1 },
      network: '10',
      snapshot,
      provider: context.humanId!.hubChain as string,
      context: { passport: { apiKey: world.apiKey, baseUrl: world.baseUrl, tier: 3 }, humanId: { attestationIndexBaseUrl: context.humanId!.attestationIndexBaseUrl } },
      linkedWallets: false,
      batchSize: 5,
    })
    expect(result.voters).toHaveLength(12)
    expect(calls).toHaveBeenCalledTimes(1)
    expect(snapshots).toHaveBeenCalledTimes(1)
    expect(networks).toHaveBeenCalledTimes(1)
    expect(blocks).toHaveBeenCalledTimes(1)
    expect(options).toHaveBeenCalledTimes(1)
  }, 120_000)
})
