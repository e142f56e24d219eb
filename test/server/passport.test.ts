/**
 * Interface A of the reference server (A1-A4), through the foundation passport client and raw
 * requests: scoring semantics (docs/interface.md §1), history, stamp pages, metadata and error answers.
 */
import { describe, expect, test } from 'vitest'
import { AuthenticationError, InvalidRequestError, NotFoundError, PermissionDeniedError } from '../../src/errors/index.js'
import { sumDecimals } from '../../src/schemas/common.js'
import { stampListPageSchema, stampMetadataListSchema, v2ScoreHistorySchema, v2ScoreSchema } from '../../src/schemas/passport.js'
import { checksumAddress } from '../../src/utils/address.js'
import type { Wallet, World } from '../../src/world/types.js'
import { failure, setup, worldNowMs } from './harness.js'

const day = 86_400_000

/** The stamps that count for a wallet at `at`, computed from the world description alone. */
function expectedStamps(world: World, wallet: Wallet, at: number) {
  const trusted = new Set(world.stampIssuers.filter((issuer) => issuer.trusted).map((issuer) => issuer.did))
  const seen = new Set<string>()
  return wallet.stamps.filter((stamp) => {
    if (Date.parse(stamp.expirationDate) < at || Date.parse(stamp.issuanceDate) > at || !trusted.has(stamp.issuer)) return false
    if (seen.has(stamp.provider)) return false
    seen.add(stamp.provider)
    return true
  })
}

describe('A1 score', () => {
  test('sums the weights of the stamps that count, exactly, with 5 decimals', async () => {
    const h = setup()
    const account = h.world.demoAccounts.find((entry) => entry.story === 'passing-stamps')!
    const wallet = h.world.wallets.find((entry) => entry.address === account.address)!
    const weights = h.world.scorers[0]!.weights
    const counted = expectedStamps(h.world, wallet, worldNowMs)

    const score = await h.passport().getScore({ scorerId: 1, address: account.address })

    expect(v2ScoreSchema.parse(score)).toEqual(score)
    expect(score.address).toBe(account.address)
    expect(score.score).toBe(sumDecimals(counted.map((stamp) => weights[stamp.provider] ?? '0'), 5))
    expect(score.passing_score).toBe(true)
    expect(score.threshold).toBe('20.00000')
    expect(score.error).toBeNull()
    expect(score.last_score_timestamp).toBe(new Date(worldNowMs).toISOString())
    expect(Object.keys(score.stamps).sort()).toEqual(counted.map((stamp) => stamp.provider).sort())
    const earliest = Math.min(...counted.map((stamp) => Date.parse(stamp.expirationDate)))
    expect(score.expiration_timestamp).toBe(new Date(earliest).toISOString())
  })

  test('a sybil presenting claimed credentials gets every stamp dedup\'ed at 0 with the owner\'s expiry', async () => {
    const h = setup()
    const sybil = h.world.demoAccounts.find((entry) => entry.story === 'sybil')!
    const score = await h.passport().getScore({ scorerId: 1, address: sybil.address })
    const entries = Object.entries(score.stamps)
    expect(entries.length).toBeGreaterThan(0)
    for (const [provider, entry] of entries) {
      expect(entry).toMatchObject({ score: '0.00000', dedup: true })
      const hash = h.world.wallets.find((wallet) => wallet.address === sybil.address)!.stamps.find((stamp) => stamp.provider === provider)!.hash
      const claim = h.store.claim(1, hash)!
      expect(claim.owner).not.toBe(sybil.address)
      expect(entry.expiration_date).toBe(new Date(claim.expiresAt).toISOString())
    }
    expect(score).toMatchObject({ score: '0.00000', passing_score: false, expiration_timestamp: null })
  })

  test('drops expired and untrusted stamps, counts the first stamp per provider, lists unweighted providers at 0', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000a1'
    await h.call('/admin/scorers/9', { method: 'PUT', admin: true, json: { weights: { Google: '1.25', Discord: '2', Linkedin: '4' }, threshold: '3.25' } })
    const untrusted = await h.call('/admin/stamp-issuers', { method: 'POST', admin: true, json: { trusted: false } })
    expect(untrusted.status).toBe(201)
    const stamp = (json: object) => h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, ...json } })
    await stamp({ provider: 'Google', hash: 'v0.0.0:first-google' })
    await stamp({ provider: 'Google', hash: 'v0.0.0:second-google' })
    await stamp({ provider: 'Discord', issuanceDate: new Date(worldNowMs - 100 * day).toISOString(), expirationDate: new Date(worldNowMs - 1).toISOString() })
    expect((await stamp({ provider: 'Linkedin', issuer: untrusted.body.did })).status).toBe(201)
    await stamp({ provider: 'NoWeight' })

    const { body, status } = await h.call(`/v2/stamps/9/score/${address}`)

    expect(status).toBe(200)
    expect(body.score).toBe('1.25000')
    expect(Object.keys(body.stamps).sort()).toEqual(['Google', 'NoWeight'])
    expect(body.stamps.NoWeight).toMatchObject({ score: '0.00000', dedup: false })
    expect(body.passing_score).toBe(false)
    expect(h.store.claim(9, 'v0.0.0:first-google')?.owner).toBe(address)
    expect(h.store.claim(9, 'v0.0.0:second-google')).toBeUndefined()
  })

  test('passing_score is score >= threshold; decimals are exact and rounded half to even', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000a2'
    await h.call('/admin/scorers/9', { method: 'PUT', admin: true, json: { weights: { A: '0.1', B: '0.2', C: '0.000015' }, threshold: '0.300015' } })
    for (const provider of ['A', 'B', 'C']) await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider } })
    const score = await h.passport().getScore({ scorerId: 9, address })
    // 0.1 + 0.2 + 0.000015 = 0.300015 exactly (floats would give 0.30001500000000004): equal to the threshold.
    expect(score.passing_score).toBe(true)
    expect(score.score).toBe('0.30002')
    expect(score.threshold).toBe('0.30002')
    expect(score.stamps.C!.score).toBe('0.00002')
    await h.call('/admin/scorers/9', { method: 'PUT', admin: true, json: { threshold: '0.300016' } })
    expect((await h.passport().getScore({ scorerId: 9, address })).passing_score).toBe(false)
  })

  test('accepts a checksummed address and answers in lower case; an address without stamps scores 0', async () => {
    const h = setup()
    const nothing = h.world.demoAccounts.find((entry) => entry.story === 'nothing')!
    const { status, body } = await h.call(`/v2/stamps/1/score/${checksumAddress(nothing.address)}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ address: nothing.address, score: '0.00000', passing_score: false, stamps: {}, expiration_timestamp: null })
  })

  test('errors: invalid address 400, unknown scorer 404, non-integer scorer 422, missing or unknown key 401', async () => {
    const h = setup()
    const address = h.world.demoAccounts[0]!.address
    expect(await h.call('/v2/stamps/1/score/0x1234')).toMatchObject({ status: 400, body: { detail: 'Invalid address.' } })
    expect(await h.call(`/v2/stamps/1/score/${address.replace('0x0', '0xG')}`)).toMatchObject({ status: 400 })
    const unknown = await h.call(`/v2/stamps/404/score/${address}`)
    expect({ status: unknown.status, body: unknown.body }).toMatchInlineSnapshot(`
      {
        "body": {
          "detail": "No scorer matches the given id: 404.",
        },
        "status": 404,
      }
    `)
    expect((await h.call(`/v2/stamps/abc/score/${address}`)).body).toMatchInlineSnapshot(`
      {
        "detail": [
          {
            "loc": [
              "path",
              "scorer_id",
            ],
            "msg": "Input should be a valid integer",
            "type": "int_parsing",
          },
        ],
      }
    `)
    const missing = await h.call(`/v2/stamps/1/score/${address}`, { apiKey: null })
    expect(missing.status).toBe(401)
    expect(missing.body).toEqual({ detail: 'Invalid API Key.' })
    expect(missing.headers.get('WWW-Authenticate')).toBe('ApiKey header="X-API-KEY"')
    expect((await h.call(`/v2/stamps/1/score/${address}`, { apiKey: 'not-a-key' })).status).toBe(401)

    expect(await failure(h.passport('wrong.key').getScore({ scorerId: 1, address }))).toBeInstanceOf(AuthenticationError)
    expect(await failure(h.passport().getScore({ scorerId: 404, address }))).toBeInstanceOf(NotFoundError)
  })

  test('every read rescores: a stamp added later counts at the next read', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000a3'
    const client = h.passport()
    expect((await client.getScore({ scorerId: 1, address })).score).toBe('0.00000')
    await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: 'Google' } })
    h.clock.advance(1000)
    const after = await client.getScore({ scorerId: 1, address })
    expect(after.score).toBe('0.52500')
    expect(after.last_score_timestamp).toBe(new Date(worldNowMs + 1000).toISOString())
  })
})

describe('A2 history', () => {
  test('answers the latest A1 record at or before created_at; date-only is midnight UTC', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000b1'
    const client = h.passport(h.keys.analytics)
    h.clock.ms = Date.parse('2025-06-02T10:00:00.000Z')
    const first = await client.getScore({ scorerId: 1, address })
    await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: 'Google', issuanceDate: '2025-06-01T00:00:00.000Z' } })
    h.clock.ms = Date.parse('2025-06-03T10:00:00.000Z')
    const second = await client.getScore({ scorerId: 1, address })
    expect(second.score).toBe('0.52500')

    const at = (createdAt: string) => client.getScoreHistory({ scorerId: 1, address, createdAt })
    expect((await at('2025-06-02T10:00:00.000Z')).items).toEqual([first])
    expect((await at('2025-06-03')).items).toEqual([first])
    expect((await at('2025-06-03T10:00:00.000Z')).items).toEqual([second])
    expect((await at('2025-07-01')).items).toEqual([second])
    const raw = await h.call(`/v2/stamps/1/score/${address}/history?created_at=2025-06-04`, { apiKey: h.keys.analytics })
    expect(v2ScoreHistorySchema.parse(raw.body)).toEqual({ items: [second] })

    const before = await h.call(`/v2/stamps/1/score/${address}/history?created_at=2025-06-02`, { apiKey: h.keys.analytics })
    expect(before).toMatchObject({ status: 404, body: { detail: 'No score found for this address at or before created_at.' } })
    expect(await failure(at('2025-06-02'))).toBeInstanceOf(NotFoundError)
  })

  test('world history: the replayed A1 events of the demo world are there', async () => {
    const h = setup()
    const event = h.world.scoreEvents.find((entry) => entry.via === 'A1')!
    const { items } = await h.passport().getScoreHistory({ scorerId: event.scorerId, address: event.address, createdAt: event.at })
    expect(items[0]!.last_score_timestamp).toBe(event.at)
  })

  test('403 for a key that is not allowlisted, 422 without created_at, 400 for a bad created_at', async () => {
    const h = setup()
    const address = h.world.demoAccounts[0]!.address
    const refused = await h.call(`/v2/stamps/1/score/${address}/history?created_at=2025-06-01`, { apiKey: h.keys.demo })
    expect(refused).toMatchObject({ status: 403, body: { detail: 'This API key is not allowed to read historical scores.' } })
    expect(await failure(h.passport(h.keys.demo).getScoreHistory({ scorerId: 1, address, createdAt: '2025-06-01' }))).toBeInstanceOf(
      PermissionDeniedError,
    )
    const missing = await h.call(`/v2/stamps/1/score/${address}/history`)
    expect(missing.status).toBe(422)
    expect(missing.body).toMatchInlineSnapshot(`
      {
        "detail": [
          {
            "loc": [
              "query",
              "created_at",
            ],
            "msg": "Field required",
            "type": "missing",
          },
        ],
      }
    `)
    expect((await h.call(`/v2/stamps/1/score/${address}/history?created_at=yesterday`)).status).toBe(400)
    expect((await h.call(`/v2/stamps/77/score/${address}/history?created_at=2025-06-01`)).status).toBe(404)
  })
})

describe('A3 stamps', () => {
  test('pages newest first with opaque next/prev tokens the client follows', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000c1'
    const ids: number[] = []
    for (let i = 0; i < 5; i++) {
      const { body } = await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: `P${i}` } })
      ids.push(body.id)
    }
    const client = h.passport()
    const first = await client.listStamps({ address, limit: 2 })
    expect(stampListPageSchema.parse(first)).toEqual(first)
    expect(first.items.map((item) => item.credential.credentialSubject.provider)).toEqual(['P4', 'P3'])
    expect(first.prev).toBeNull()
    expect(first.next).toEqual(expect.any(String))
    const second = await client.listStamps({ address, limit: 2, token: first.next })
    expect(second.items.map((item) => item.credential.credentialSubject.provider)).toEqual(['P2', 'P1'])
    const third = await client.listStamps({ address, limit: 2, token: second.next })
    expect(third.items.map((item) => item.credential.credentialSubject.provider)).toEqual(['P0'])
    expect(third.next).toBeNull()
    const back = await client.listStamps({ address, limit: 2, token: third.prev })
    expect(back.items.map((item) => item.credential.credentialSubject.provider)).toEqual(['P2', 'P1'])

    const all: string[] = []
    for await (const page of client.iterateStamps({ address, limit: 2 })) all.push(...page.items.map((item) => item.credential.credentialSubject.provider))
    expect(all).toEqual(['P4', 'P3', 'P2', 'P1', 'P0'])
  })

  test('include_metadata adds the platform and group of each stamp', async () => {
    const h = setup()
    const account = h.world.demoAccounts.find((entry) => entry.story === 'passing-stamps')!
    const page = await h.passport().listStamps({ address: account.address, includeMetadata: true, limit: 1 })
    const item = page.items[0]!
    const provider = h.world.stampProviders.find((platform) => platform.groups.some((group) => group.stamps.some((stamp) => stamp.name === item.credential.credentialSubject.provider)))!
    expect(item.metadata).toMatchObject({ name: item.credential.credentialSubject.provider, platform: { id: provider.id, name: provider.name } })
    const plain = await h.passport().listStamps({ address: account.address, limit: 1 })
    expect(plain.items[0]).not.toHaveProperty('metadata')
  })

  test('limit above 1000 or not a number is 400; a foreign token is 400; an unknown address has no stamps', async () => {
    const h = setup()
    const address = h.world.demoAccounts[0]!.address
    expect(await h.call(`/v2/stamps/${address}?limit=1001`)).toMatchObject({
      status: 400,
      body: { detail: 'Invalid limit: expected an integer from 1 to 1000.' },
    })
    expect((await h.call(`/v2/stamps/${address}?limit=0`)).status).toBe(400)
    expect((await h.call(`/v2/stamps/${address}?limit=ten`)).status).toBe(400)
    expect(await h.call(`/v2/stamps/${address}?token=bm9wZQ`)).toMatchObject({ status: 400, body: { detail: 'Invalid token.' } })
    expect((await h.call('/v2/stamps/0xnope')).status).toBe(400)
    expect(await failure(h.passport().listStamps({ address: '0x00000000000000000000000000000000000000c2', token: 'bm9wZQ' }))).toBeInstanceOf(InvalidRequestError)
    expect((await h.call('/v2/stamps/0x00000000000000000000000000000000000000c2')).body).toEqual({ next: null, prev: null, items: [] })
  })
})

describe('A4 metadata', () => {
  test('lists every stamp provider of the world', async () => {
    const h = setup()
    const metadata = await h.passport().getStampMetadata()
    expect(stampMetadataListSchema.parse(metadata)).toEqual(metadata)
    expect(metadata.map((platform) => platform.id)).toEqual(h.world.stampProviders.map((platform) => platform.id))
    expect(metadata).toEqual(h.world.stampProviders)
  })
})
