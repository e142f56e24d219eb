/**
 * First-claimant dedup (docs/interface.md §1) under concurrent requests: many addresses presenting one
 * credential hash end with exactly one owner; claims pass on when they lapse, extend on renewal,
 * survive the owner deleting the stamp, and are per scorer.
 */
import { describe, expect, test } from 'vitest'
import { setup, worldNowMs } from './harness.js'

const day = 86_400_000
const addressOf = (i: number) => `0x${(0xd0000 + i).toString(16).padStart(40, '0')}`

async function giveCredential(h: ReturnType<typeof setup>, address: string, json: object = {}) {
  const response = await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: 'Google', hash: 'v0.0.0:shared', ...json } })
  expect(response.status).toBe(201)
}

describe('dedup', () => {
  test('50 concurrent A1 reads by different addresses holding one credential: exactly one owner', async () => {
    const h = setup()
    const addresses = Array.from({ length: 50 }, (_, i) => addressOf(i))
    for (const address of addresses) await giveCredential(h, address)

    const responses = await Promise.all(addresses.map((address) => h.call(`/v2/stamps/1/score/${address}`)))

    const owners = responses.filter((response) => response.body.stamps.Google.dedup === false)
    expect(responses.every((response) => response.status === 200)).toBe(true)
    expect(owners).toHaveLength(1)
    const owner = owners[0]!.body
    expect(owner.score).toBe('0.52500')
    expect(h.store.claim(1, 'v0.0.0:shared')?.owner).toBe(owner.address)
    for (const response of responses.filter((entry) => entry !== owners[0])) {
      expect(response.body.score).toBe('0.00000')
      expect(response.body.stamps.Google).toEqual({ score: '0.00000', dedup: true, expiration_date: owner.stamps.Google.expiration_date })
    }
    // Rescoring does not move the claim.
    const again = await Promise.all(addresses.map((address) => h.call(`/v2/stamps/1/score/${address}`)))
    expect(again.filter((response) => response.body.stamps.Google.dedup === false).map((response) => response.body.address)).toEqual([owner.address])
  })

  test('concurrent v1 submits and v2 reads share the claim; claims are per scorer', async () => {
    const h = setup()
    const addresses = Array.from({ length: 20 }, (_, i) => addressOf(100 + i))
    for (const address of addresses) await giveCredential(h, address)
    await Promise.all(addresses.map((address, i) =>
      i % 2 ? h.call('/registry/submit-passport', { method: 'POST', json: { address, scorer_id: '1' } }) : h.call(`/v2/stamps/1/score/${address}`),
    ))
    const owner = h.store.claim(1, 'v0.0.0:shared')!.owner
    expect(addresses).toContain(owner)
    // Scorer 2 has no claim yet: the last address claims it there.
    const last = addresses[addresses.length - 1]!
    expect((await h.call(`/v2/stamps/2/score/${last}`)).body.stamps.Google.dedup).toBe(false)
    expect(h.store.claim(2, 'v0.0.0:shared')!.owner).toBe(last)
  })

  test('a lapsed claim passes to the next claimant; renewal extends; the owner keeps the hash after deleting the stamp', async () => {
    const h = setup()
    const [first, second] = [addressOf(200), addressOf(201)]
    const expiry = worldNowMs + 10 * day
    await giveCredential(h, first, { expirationDate: new Date(expiry).toISOString() })
    await giveCredential(h, second, { expirationDate: new Date(worldNowMs + 300 * day).toISOString() })
    expect((await h.call(`/v2/stamps/1/score/${first}`)).body.stamps.Google.dedup).toBe(false)
    const historyOfFirst = await h.call(`/v2/stamps/1/score/${first}/history?created_at=2030-01-01`)

    // The owner deletes its stamp: it keeps the claim, the other address stays dedup'ed.
    await h.call(`/admin/stamps/${first}?provider=Google`, { method: 'DELETE', admin: true })
    expect((await h.call(`/v2/stamps/1/score/${second}`)).body.stamps.Google).toMatchObject({ dedup: true, expiration_date: new Date(expiry).toISOString() })

    // The owner renews (a later expiry): the claim extends.
    await giveCredential(h, first, { expirationDate: new Date(worldNowMs + 20 * day).toISOString() })
    h.clock.advance(day)
    await h.call(`/v2/stamps/1/score/${first}`)
    expect(h.store.claim(1, 'v0.0.0:shared')).toEqual({ owner: first, expiresAt: worldNowMs + 20 * day })

    // After the claim lapses, the next claimant owns it; the earlier holder's records are not rescored.
    h.clock.ms = worldNowMs + 20 * day + 1
    const taken = await h.call(`/v2/stamps/1/score/${second}`)
    expect(taken.body.stamps.Google).toMatchObject({ dedup: false, score: '0.52500' })
    expect(h.store.claim(1, 'v0.0.0:shared')!.owner).toBe(second)
    // The first holder's recorded scores stay as they were answered.
    const recorded = await h.call(`/v2/stamps/1/score/${first}/history?created_at=2030-01-01`)
    expect(recorded.body.items[0]).toMatchObject({ last_score_timestamp: new Date(worldNowMs + day).toISOString(), score: '0.52500' })
    expect(recorded.body.items[0].stamps.Google.dedup).toBe(false)
    expect(historyOfFirst.body.items[0].stamps.Google.dedup).toBe(false)
  })
})
