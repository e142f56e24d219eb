/**
 * First-claimant dedup (docs/interface.md §1). Scoring reads and writes the claims in one
 * synchronous step; what can interleave is everything around it. The first two tests send a batch
 * over a real HTTP port and make it overlap at both ends: every request waits until the whole batch
 * has arrived, then all are scored back to back, and no answer leaves before the whole batch has
 * been scored (saves held). They prove one owner per credential hash under that overlap, and that
 * every answer agrees with the claim the store kept: a scorer that wrote its claims after a yield
 * (a timer, an await, a save) would give several owners here. The last test checks the claim's
 * life cycle (lapse, renewal, deletion).
 */
import type { AddressInfo } from 'node:net'
import { serve as bindNode, type ServerType } from '@hono/node-server'
import { afterEach, describe, expect, test } from 'vitest'
import type { Persistence } from '../../src/server/persistence.js'
import { setup, worldNowMs } from './harness.js'

const day = 86_400_000
const addressOf = (i: number) => `0x${(0xd0000 + i).toString(16).padStart(40, '0')}`

async function giveCredential(h: ReturnType<typeof setup>, address: string, json: object = {}) {
  const response = await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: 'Google', hash: 'v0.0.0:shared', ...json } })
  expect(response.status).toBe(201)
}

/**
 * Makes the next `n` requests overlap for real, at both ends of scoring: each request waits at the
 * door until all `n` have arrived, then all go in together (so every one is scored before any
 * timer or I/O could run between them), and each answer waits for its save until all `n` changes
 * are waiting (so none is answered before every one has been scored). Outside a batch, requests go
 * straight in and saves complete at once.
 */
function overlap() {
  let size = 0
  const atDoor: (() => void)[] = []
  const atSave: (() => void)[] = []
  /** Each time a gate opened: which one, and how many it let through. */
  const opened: string[] = []
  const gate = (waiting: (() => void)[], name: string): Promise<void> => {
    if (size === 0) return Promise.resolve()
    return new Promise<void>((resolve) => {
      waiting.push(resolve)
      if (waiting.length < size) return
      opened.push(`${name} ${waiting.length}`)
      if (name === 'save') size = 0
      for (const done of waiting.splice(0)) done()
    })
  }
  const persistence: Persistence = { saved: () => gate(atSave, 'save') }
  return {
    persistence,
    door: () => gate(atDoor, 'door'),
    /** The next `n` requests are one overlapping batch. */
    batch(n: number) {
      size = n
    },
    opened,
  }
}

const servers: ServerType[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))))
})

/** Binds the in-process server to a free port on 127.0.0.1, behind the batch's door; returns its URL. */
async function listen(h: ReturnType<typeof setup>, door: () => Promise<void>): Promise<string> {
  const server = await new Promise<ServerType>((resolve) => {
    const bound = bindNode(
      {
        fetch: async (request: Request, env: unknown) => {
          await door()
          return h.server.fetch(request, env)
        },
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(bound),
    )
  })
  servers.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** GET or POST over HTTP with the indexer key; status and JSON body. */
async function request(url: string, apiKey: string, json?: unknown) {
  const response = await fetch(url, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { 'X-API-KEY': apiKey, ...(json === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON bodies freely
  return { status: response.status, body: (await response.json()) as any }
}

describe('dedup', () => {
  test('50 overlapping A1 reads over HTTP by addresses holding one credential: exactly one owner, and every answer agrees with it', async () => {
    const batch = overlap()
    const h = setup({ persistence: batch.persistence })
    const url = await listen(h, batch.door)
    const addresses = Array.from({ length: 50 }, (_, i) => addressOf(i))
    for (const address of addresses) await giveCredential(h, address)

    batch.batch(addresses.length)
    const responses = await Promise.all(addresses.map((address) => request(`${url}/v2/stamps/1/score/${address}`, h.keys.indexer)))
    // All 50 went in together, and all 50 were scored while every one was still waiting for its answer.
    expect(batch.opened).toEqual(['door 50', 'save 50'])

    expect(responses.map((response) => response.status)).toEqual(addresses.map(() => 200))
    const owners = responses.filter((response) => response.body.stamps.Google.dedup === false)
    expect(owners).toHaveLength(1)
    const owner = owners[0]!.body
    expect(owner.score).toBe('0.52500')
    expect(h.store.claim(1, 'v0.0.0:shared')?.owner).toBe(owner.address)
    for (const response of responses.filter((entry) => entry !== owners[0])) {
      expect(response.body.score).toBe('0.00000')
      expect(response.body.stamps.Google).toEqual({ score: '0.00000', dedup: true, expiration_date: owner.stamps.Google.expiration_date })
    }
    // What each address was answered is what the history kept for it.
    for (const response of responses) {
      const kept = await h.call(`/v2/stamps/1/score/${response.body.address}/history?created_at=2030-01-01`)
      expect(kept.body.items[0]).toEqual(response.body)
    }
    // Rescoring, overlapped again, does not move the claim.
    batch.batch(addresses.length)
    const again = await Promise.all(addresses.map((address) => request(`${url}/v2/stamps/1/score/${address}`, h.keys.indexer)))
    expect(batch.opened).toEqual(['door 50', 'save 50', 'door 50', 'save 50'])
    expect(again.filter((response) => response.body.stamps.Google.dedup === false).map((response) => response.body.address)).toEqual([owner.address])
  })

  test('overlapping v1 submits and v2 reads over HTTP share one claim; claims are per scorer', async () => {
    const batch = overlap()
    const h = setup({ persistence: batch.persistence })
    const url = await listen(h, batch.door)
    const addresses = Array.from({ length: 20 }, (_, i) => addressOf(100 + i))
    for (const address of addresses) await giveCredential(h, address)

    batch.batch(addresses.length)
    const responses = await Promise.all(
      addresses.map((address, i) =>
        i % 2 ? request(`${url}/registry/submit-passport`, h.keys.indexer, { address, scorer_id: '1' }) : request(`${url}/v2/stamps/1/score/${address}`, h.keys.indexer),
      ),
    )
    expect(batch.opened).toEqual(['door 20', 'save 20'])
    expect(responses.map((response) => response.status)).toEqual(addresses.map(() => 200))
    const owner = h.store.claim(1, 'v0.0.0:shared')!.owner
    expect(addresses).toContain(owner)
    // Of the v2 answers, only the owner's (if it read v2) counts the credential.
    const v2Owners = responses.filter((response, i) => i % 2 === 0 && response.body.stamps.Google.dedup === false).map((response) => response.body.address)
    expect(v2Owners).toEqual(addresses.indexOf(owner) % 2 === 0 ? [owner] : [])
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
