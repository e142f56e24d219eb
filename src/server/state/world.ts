/**
 * Loads a demo {@link World} into a server state: credentials built and signed for every wallet
 * stamp, then the world's past score requests replayed in order (which fixes who claimed each
 * shared credential first, and fills the A2 history and the v1 listings).
 */
import type { Address } from 'viem'
import type { World } from '../../world/types.js'
import { buildStampCredential } from './credentials.js'
import { createEmptyState, Store } from './store.js'
import type { ModelScores, ServerState, StampRecord } from './types.js'
import { InvalidParameterError } from '../../errors/input.js'

/** Options of {@link stateFromWorld}. */
export type StateFromWorldOptions = {
  adminToken?: string
  jwtSecret?: string
}

/**
 * A server state holding `world`. Stamp records get increasing ids in wallet order and
 * `store_save_status: 'saved'`; score events are replayed as reads at their time (A1 events into the
 * history, C2 events as DONE submissions).
 *
 * @example
 * const state = stateFromWorld(generateWorld({ now: new Date() }))
 */
export function stateFromWorld(world: World, options: StateFromWorldOptions = {}): ServerState {
  const state = createEmptyState(options)
  const clone = <T>(value: T): T => structuredClone(value)
  state.origin = { seed: world.seed, worldNow: world.now }
  state.chain = { ...world.chain }
  state.stampProviders = clone(world.stampProviders)
  state.stampIssuers = clone(world.stampIssuers)
  state.scorers = clone(world.scorers)
  state.apiKeys = clone(world.apiKeys)
  state.verifications = clone(world.verifications)
  state.attestations = clone(world.attestations)
  state.cleanHandsSbts = clone(world.cleanHandsSbts)
  state.onchainPassports = clone(world.onchainPassports ?? [])
  state.stakes = clone(world.stakes)
  state.roundStakes = clone(world.roundStakes)
  state.tosAcceptances = clone(world.tosAcceptances)
  state.demoAccounts = clone(world.demoAccounts)

  const issuerKeys = new Map(world.stampIssuers.map((issuer) => [issuer.did, issuer.privateKey]))
  let nextId = 1
  for (const wallet of world.wallets) {
    if (!wallet.stamps.length) continue
    const records: StampRecord[] = []
    for (const stamp of wallet.stamps) {
      const key = issuerKeys.get(stamp.issuer)
      if (!key) throw new InvalidParameterError({ parameter: 'world', reason: `World stamp of ${wallet.address} names an unknown issuer ${stamp.issuer}.` })
      records.push({
        id: nextId++,
        address: wallet.address,
        provider: stamp.provider,
        stamp: buildStampCredential({ address: wallet.address, ...stamp }, key),
        store_save_status: 'saved',
        store_stream_id: null,
        createdAt: Date.parse(stamp.issuanceDate),
      })
    }
    state.stamps[wallet.address] = records
  }
  state.nextStampId = nextId

  const models: Record<string, ModelScores> = {}
  for (const entry of world.modelScores) (models[entry.address] ??= {})[entry.model] = entry.score
  state.modelScores = models

  const store = new Store(state)
  for (const event of world.scoreEvents) {
    const at = Date.parse(event.at)
    if (event.via === 'A1') store.score(event.address as Address, { scorerId: event.scorerId, at, recordHistory: true })
    else store.submit(event.scorerId, event.address, { at })
  }
  return store.state
}
