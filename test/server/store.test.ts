/**
 * The store the routes share: stamp writes (D1-D4 semantics), nonces, serialization (the A2 history: history.test.ts).
 */
import type { Address } from 'viem'
import { describe, expect, test } from 'vitest'
import { createEmptyState, Store } from '../../src/server/state/index.js'
import { buildStampCredential } from '../../src/server/state/credentials.js'
import { referenceIssuer } from '../../src/server/state/store.js'

const address = '0x00000000000000000000000000000000000000c7'
const other = '0x00000000000000000000000000000000000000c8'

function newStore() {
  const clock = { ms: Date.parse('2025-06-01T00:00:00.000Z') }
  const state = createEmptyState({ adminToken: 'a', jwtSecret: 'j' })
  state.scorers.push({ id: 1, name: 'Default', type: 'unique-humanity', threshold: '1', weights: { Google: '1', Discord: '2' } })
  const store = new Store(state, { now: () => clock.ms })
  const credential = (provider: string, hash = `v0.0.0:${provider}`, holder: Address = address) =>
    buildStampCredential(
      { address: holder, provider, hash, issuer: referenceIssuer.did, issuanceDate: '2025-05-01T00:00:00.000Z', expirationDate: '2025-08-01T00:00:00.000Z' },
      referenceIssuer.privateKey,
    )
  return { store, clock, credential }
}

describe('store', () => {
  test('addStamps replaces a provider; patchStamps deletes items without stamp; ids keep increasing', () => {
    const { store, credential } = newStore()
    const first = store.addStamps(address, [{ provider: 'Google', stamp: credential('Google') }, { provider: 'Discord', stamp: credential('Discord') }])
    expect(first.map((stamp) => [stamp.id, stamp.provider])).toEqual([[1, 'Google'], [2, 'Discord']])
    const replaced = store.addStamps(address, [{ provider: 'Google', stamp: credential('Google', 'v0.0.0:new') }])
    expect(replaced.map((stamp) => [stamp.id, stamp.provider])).toEqual([[2, 'Discord'], [3, 'Google']])
    const patched = store.patchStamps(address, [{ provider: 'Discord' }, { provider: 'Ens', stamp: credential('Ens') }])
    expect(patched.map((stamp) => stamp.provider)).toEqual(['Google', 'Ens'])
    expect(store.score(address).score).toBe('1.00000')
    expect(store.deleteStamps(address, ['Nope'])).toEqual([])
    expect(store.deleteStamps(address, ['Google', 'Ens']).map((stamp) => stamp.id)).toEqual([3, 4])
    expect(store.cachedStamps(address)).toEqual([])
    // The owner keeps the claim after deleting its stamp.
    expect(store.claim(1, 'v0.0.0:new')?.owner).toBe(address)
  })

  test('updateSaveStatus only touches the caller\'s rows', () => {
    const { store, credential } = newStore()
    const [mine] = store.addStamps(address, [{ provider: 'Google', stamp: credential('Google') }])
    const [theirs] = store.addStamps(other, [{ provider: 'Google', stamp: credential('Google', 'v0.0.0:x', other) }])
    expect(store.updateSaveStatus(address, [{ id: mine!.id, store_save_status: 'saved', store_stream_id: 's1' }, { id: theirs!.id, store_save_status: 'failed' }])).toEqual([mine!.id])
    expect(store.stampRecords(address)[0]).toMatchObject({ store_save_status: 'saved', store_stream_id: 's1' })
    expect(store.stampRecords(other)[0]).toMatchObject({ store_save_status: 'pending', store_stream_id: null })
  })

  test('nonces are single use, expire, and may be bound to an address and a purpose', () => {
    const { store, clock } = newStore()
    const nonce = store.issueNonce('tos', { ttlMs: 1000, address, purpose: 'IST' })
    expect(nonce).toMatch(/^[0-9a-f]{60}$/)
    expect(store.checkNonce('tos', nonce, { address: other })).toBe('wrong-address')
    expect(store.checkNonce('tos', nonce, { address, purpose: 'OTHER' })).toBe('wrong-purpose')
    expect(store.checkNonce('siwe', nonce)).toBe('unknown')
    expect(store.consumeNonce('tos', nonce, { address: address.toUpperCase().replace('0X', '0x'), purpose: 'IST' })).toBeNull()
    expect(store.consumeNonce('tos', nonce)).toBe('used')
    const late = store.issueNonce('signing', { ttlMs: 1000 })
    clock.ms += 1000
    expect(store.consumeNonce('signing', late)).toBe('expired')
    expect(store.checkNonce('signing', '__proto__')).toBe('unknown')
  })

  test('serializes to JSON and back; refuses an async change; notifies listeners', () => {
    const { store, clock, credential } = newStore()
    const revisions: number[] = []
    store.onChange((revision) => revisions.push(revision))
    store.addStamps(address, [{ provider: 'Google', stamp: credential('Google') }])
    store.score(address, { recordHistory: true })
    const copy = Store.fromJSON(JSON.stringify(store), { now: () => clock.ms })
    expect(copy.toJSON()).toEqual(store.toJSON())
    expect(copy.score(address).score).toBe('1.00000')
    expect(() => store.mutate(async () => {})).toThrow('synchronous')
    expect(revisions.length).toBeGreaterThanOrEqual(2)
    expect(() => Store.fromJSON('{"version":0}')).toThrow('Not a personhood server state')
  })
})
