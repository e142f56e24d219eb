/**
 * The admin API of the reference server: bearer auth, whole-state operations, and every kind of
 * record it can put in place, each checked through the public endpoint that reads it.
 */
import { describe, expect, test } from 'vitest'
import { stampCredentialSchema } from '../../src/schemas/passport.js'
import type { StampCredentialJson } from '../../src/server/state/credentials.js'
import { stampIssuerDid, verifyStampCredential } from '../../src/verify/stamp-credential.js'
import { adminToken, setup, worldNow, worldNowMs } from './harness.js'

describe('admin auth', () => {
  test('401 with WWW-Authenticate without the bearer admin token or with a wrong one', async () => {
    const h = setup()
    const none = await h.call('/admin/state', { apiKey: null })
    expect(none.status).toBe(401)
    expect(none.headers.get('WWW-Authenticate')).toBe('Bearer realm="admin"')
    expect(none.body).toEqual({ detail: 'Invalid or missing admin token.' })
    expect((await h.call('/admin/state', { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401)
    expect((await h.call('/admin/state', { headers: { Authorization: `Basic ${adminToken}` } })).status).toBe(401)
    // An API key is not an admin token.
    expect((await h.call('/admin/reset', { method: 'POST', headers: { Authorization: `Bearer ${h.keys.indexer}` } })).status).toBe(401)
    expect((await h.call('/admin/state', { admin: true })).status).toBe(200)
  })
})

describe('whole state', () => {
  test('GET /admin/state dumps the state; reset empties it but keeps API keys and secrets', async () => {
    const h = setup()
    const { body: state } = await h.call('/admin/state', { admin: true })
    expect(state).toMatchObject({ version: 2, origin: { seed: h.world.seed, worldNow } })
    expect(state.scorers).toEqual(h.world.scorers)

    expect((await h.call('/admin/reset', { method: 'POST', admin: true })).status).toBe(200)
    const { body: empty } = await h.call('/admin/state', { admin: true })
    expect(empty).toMatchObject({ scorers: [], stamps: {}, verifications: [], apiKeys: h.world.apiKeys })
    expect((await h.call(`/v2/stamps/1/score/${h.world.demoAccounts[0]!.address}`)).status).toBe(404)
    expect((await h.call('/admin/state', { admin: true })).status).toBe(200)
  })

  test('POST /admin/world loads a generated world; PUT /admin/state restores a dump', async () => {
    const h = setup()
    const { body: before } = await h.call('/admin/state', { admin: true })
    const loaded = await h.call('/admin/world', { method: 'POST', admin: true, json: { seed: 'other', wallets: 60, now: worldNow } })
    expect(loaded.status).toBe(200)
    expect(loaded.body).toMatchObject({ seed: 'other', wallets: 60 })
    const otherKey = loaded.body.apiKeys.find((key: { tier: number }) => key.tier === 4).key
    expect((await h.call('/v2/stamps/metadata', { apiKey: otherKey })).status).toBe(200)
    expect((await h.call('/admin/state', { admin: true })).status).toBe(200)

    expect((await h.call('/admin/state', { method: 'PUT', admin: true, json: before })).status).toBe(200)
    const { body: after } = await h.call('/admin/state', { admin: true })
    expect(after).toEqual(before)
    const bad = await h.call('/admin/state', { method: 'PUT', admin: true, json: { version: 99 } })
    expect(bad.status).toBe(400)
    expect(bad.body.detail).toMatch(/^body\.version: /)
    const unusable = await h.call('/admin/state', { method: 'PUT', admin: true, json: { ...before, scorers: 'none' } })
    expect(unusable.status).toBe(422)
    expect(unusable.body.detail[0].loc).toEqual(['body', 'scorers'])
  })
})

describe('records', () => {
  test('scorers: create, change weights and threshold, make default, delete', async () => {
    const h = setup()
    const address = '0x0000000000000000000000000000000000000a01'
    const put = (json: object) => h.call('/admin/scorers/50', { method: 'PUT', admin: true, json })
    expect((await put({ name: 'Tiny', weights: { Google: '3' }, threshold: '2.5' })).body).toEqual({
      id: 50,
      name: 'Tiny',
      type: 'unique-humanity',
      threshold: '2.5',
      weights: { Google: '3' },
    })
    await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: 'Google' } })
    expect((await h.call(`/v2/stamps/50/score/${address}`)).body).toMatchObject({ score: '3.00000', passing_score: true, threshold: '2.50000' })
    await put({ weightsPatch: { Google: '1.5', Discord: '1' }, type: 'binary' })
    expect((await h.call(`/v2/stamps/50/score/${address}`)).body).toMatchObject({ score: '1.50000', passing_score: false })
    await put({ weightsPatch: { Google: null } })
    expect((await h.call(`/v2/stamps/50/score/${address}`)).body.stamps.Google.score).toBe('0.00000')
    await put({ default: true })
    expect((await h.call('/stamp-cache/weights')).body).toEqual({ Discord: 1 })
    expect((await h.call('/admin/scorers/50', { method: 'DELETE', admin: true })).status).toBe(204)
    expect((await h.call(`/v2/stamps/50/score/${address}`)).status).toBe(404)
    expect((await h.call('/admin/scorers/50', { method: 'DELETE', admin: true })).status).toBe(404)
  })

  test('bodies are validated by the server\'s one contract: 422 with a list detail for a wrong shape, 400 for a bad value', async () => {
    const h = setup()
    const bad = await h.call('/admin/scorers/51', { method: 'PUT', admin: true, json: { threshold: 'twenty', colour: 'red' } })
    expect(bad.status).toBe(422)
    expect(bad.body).toMatchInlineSnapshot(`
      {
        "detail": [
          {
            "loc": [
              "body",
              "threshold",
            ],
            "msg": "Expected a decimal number or decimal string",
            "type": "value_error",
          },
          {
            "loc": [
              "body",
              "colour",
            ],
            "msg": "Extra inputs are not permitted",
            "type": "extra_forbidden",
          },
        ],
      }
    `)
    expect((await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address: '0x1', provider: 'Google' } })).status).toBe(400)
    expect((await h.call('/admin/stamps', { method: 'POST', admin: true, json: { provider: 'Google' } })).status).toBe(422)
    expect((await h.call('/admin/api-keys/k', { method: 'PUT', admin: true, json: { tier: 5 } })).status).toBe(400)
    expect((await h.call('/admin/api-keys/k', { method: 'PUT', admin: true, json: { historyAllowlisted: 'yes' } })).status).toBe(422)
  })

  test('API keys: a new key works at its tier; the A2 allowlist follows the flag; deleted keys are refused', async () => {
    const h = setup()
    const key = 'new.key.0123'
    const address = h.world.demoAccounts[0]!.address
    expect((await h.call('/v2/stamps/metadata', { apiKey: key })).status).toBe(401)
    expect((await h.call(`/admin/api-keys/${key}`, { method: 'PUT', admin: true, json: { name: 'new', tier: 2 } })).body).toEqual({
      key,
      name: 'new',
      tier: 2,
      historyAllowlisted: false,
    })
    await h.call(`/v2/stamps/1/score/${address}`, { apiKey: key })
    expect((await h.call(`/v2/stamps/1/score/${address}/history?created_at=2030-01-01`, { apiKey: key })).status).toBe(403)
    await h.call(`/admin/api-keys/${key}`, { method: 'PUT', admin: true, json: { historyAllowlisted: true } })
    expect((await h.call(`/v2/stamps/1/score/${address}/history?created_at=2030-01-01`, { apiKey: key })).status).toBe(200)
    expect((await h.call(`/admin/api-keys/${key}`, { method: 'DELETE', admin: true })).status).toBe(204)
    expect((await h.call('/v2/stamps/metadata', { apiKey: key })).status).toBe(401)
  })

  test('stamps: built as signed credentials of the spec shape; raw credential JSON; deletion', async () => {
    const h = setup()
    const address = '0x0000000000000000000000000000000000000a02'
    const created = await h.call('/admin/stamps', {
      method: 'POST',
      admin: true,
      json: { address, provider: 'Discord', hash: 'v0.0.0:abc', issuanceDate: '2025-05-01T00:00:00.000Z', expirationDate: '2025-08-01T00:00:00.000Z' },
    })
    expect(created.status).toBe(201)
    const credential = created.body.stamp as StampCredentialJson
    expect(stampCredentialSchema.parse(credential)).toEqual(credential)
    expect(credential.credentialSubject).toMatchObject({ id: `did:pkh:eip155:1:${address}`, hash: 'v0.0.0:abc', provider: 'Discord' })
    const issuer = h.store.state.stampIssuers.find((entry) => entry.did === credential.issuer)!
    expect(issuer.trusted).toBe(true)
    expect(credential.issuer).toBe(stampIssuerDid(issuer.privateKey!))
    // Checked with the credential alone: the key is in the issuer's did:key.
    expect(verifyStampCredential(credential)).toEqual({ valid: true })
    expect(verifyStampCredential({ ...credential, expirationDate: '2030-01-01T00:00:00.000Z' })).toEqual({ valid: false, reason: 'the signature does not match the credential' })

    // Raw JSON is stored as given (the admin seeds states), but a credential edited after signing
    // is listed at 0 with the reason: its proof no longer verifies.
    const raw = { ...credential, credentialSubject: { ...credential.credentialSubject, provider: 'Google', hash: 'v0.0.0:raw' } }
    await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: 'Google', stamp: raw } })
    expect((await h.call(`/admin/stamps/${address}`, { admin: true })).body.map((record: { provider: string }) => record.provider)).toEqual(['Discord', 'Google'])
    const scored = (await h.call(`/v2/stamps/1/score/${address}`)).body
    expect(scored.score).toBe('0.51600')
    expect(scored.stamps.Google).toEqual({
      score: '0.00000',
      dedup: false,
      expiration_date: '2025-08-01T00:00:00.000Z',
      reason: 'The credential was not counted: its proof does not verify against its issuer’s key.',
    })

    expect((await h.call(`/admin/stamps/${address}?provider=Discord`, { method: 'DELETE', admin: true })).body.deleted).toHaveLength(1)
    expect((await h.call(`/v2/stamps/1/score/${address}`)).body.score).toBe('0.00000')
    await h.call(`/admin/stamps/${address}`, { method: 'DELETE', admin: true })
    expect((await h.call(`/v2/stamps/${address}`)).body.items).toEqual([])
  })

  test('stamp issuers: distrusting an issuer drops its stamps from scores', async () => {
    const h = setup()
    const account = h.world.demoAccounts.find((entry) => entry.story === 'passing-stamps')!
    const before = (await h.call(`/v2/stamps/1/score/${account.address}`)).body
    expect(before.passing_score).toBe(true)
    for (const issuer of h.world.stampIssuers) {
      await h.call(`/admin/stamp-issuers/${issuer.did}`, { method: 'PUT', admin: true, json: { trusted: false } })
    }
    expect((await h.call(`/v2/stamps/1/score/${account.address}`)).body).toMatchObject({ score: '0.00000', stamps: {} })
  })

  test('claims: an owner can be put in place', async () => {
    const h = setup()
    const [owner, other] = ['0x0000000000000000000000000000000000000a03', '0x0000000000000000000000000000000000000a04']
    await h.call('/admin/claims', { method: 'PUT', admin: true, json: { scorerId: 1, hash: 'v0.0.0:held', owner, expiresAt: '2026-01-01T00:00:00.000Z' } })
    await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address: other, provider: 'Google', hash: 'v0.0.0:held' } })
    expect((await h.call(`/v2/stamps/1/score/${other}`)).body.stamps.Google).toEqual({ score: '0.00000', dedup: true, expiration_date: '2026-01-01T00:00:00.000Z' })
    expect((await h.call('/admin/claims/1', { admin: true })).body['v0.0.0:held']).toEqual({ owner, expiresAt: Date.parse('2026-01-01T00:00:00.000Z') })
  })

  test('verifications: E1 follows issuance, expiry, revocation, network and action id', async () => {
    const h = setup()
    const user = '0x0000000000000000000000000000000000000a05'
    const e1 = (query = '') => h.call(`/human-id/sybil-resistance/gov-id/optimism?user=${user}&action-id=123456789${query}`).then((response) => response.body)
    expect(await e1()).toEqual({ result: false })
    const nowSeconds = Math.floor(worldNowMs / 1000)
    const created = await h.call('/admin/verifications', { method: 'POST', admin: true, json: { address: user, credential: 'gov-id', expiresAt: nowSeconds + 100 } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ address: user, network: 'optimism', source: 'hub', actionId: '123456789', revoked: false })
    expect(await e1()).toEqual({ result: true, expirationDate: nowSeconds + 100 })
    h.clock.advance(101_000)
    expect(await e1()).toEqual({ result: false })
    await h.call('/admin/verifications', { method: 'POST', admin: true, json: { address: user, credential: 'gov-id', revoked: true } })
    expect(await e1()).toEqual({ result: false })
    await h.call('/admin/verifications', { method: 'POST', admin: true, json: { address: user, credential: 'gov-id', actionId: '42' } })
    expect(await e1()).toEqual({ result: false })
    expect((await h.call(`/human-id/sybil-resistance/gov-id/optimism?user=${user}&action-id=42`)).body.result).toBe(true)
    expect((await h.call(`/admin/verifications?address=${user}`, { method: 'DELETE', admin: true })).body).toEqual({ deleted: 1 })
    expect((await h.call(`/admin/verifications?address=${user}`, { admin: true })).body).toEqual([])
  })

  test('attestations (every field of an index row) and clean-hands SBTs: E8 lists them, E7 judges them', async () => {
    const h = setup()
    const address = '0x0000000000000000000000000000000000000a06'
    const row = {
      attestationId: '0xabc',
      address,
      fullSchemaId: 'onchain_evm_10_0x8',
      schemaId: '0x8',
      attester: '0xb1f50c6c34c72346b1229e5c80587d0d659556fd',
      isReceiver: true,
      revoked: false,
      validUntil: '1900000000',
      attestTimestamp: 1_700_000_000_000,
      recipients: [address],
      kind: 'valid-attester-case',
    }
    expect((await h.call('/admin/attestations', { method: 'POST', admin: true, json: row })).body).toEqual(row)
    const page = (await h.call(`/attestation-index/api/scan/addresses/${address}/attestations`)).body
    expect(page.data.rows).toHaveLength(1)
    expect(page.data.rows[0]).toMatchObject({ attestationId: '0xabc', validUntil: '1900000000', isReceiver: true })
    expect((await h.call(`/human-id/attestation/sbts/clean-hands?address=${address}&action-id=123456789`)).body).toMatchObject({ isUnique: true })
    await h.call('/admin/attestations', { method: 'POST', admin: true, json: { ...row, revoked: true } })
    expect((await h.call(`/human-id/attestation/sbts/clean-hands?address=${address}&action-id=123456789`)).body).toEqual({ isUnique: false })
    expect((await h.call(`/admin/attestations?address=${address}`, { method: 'DELETE', admin: true })).body).toEqual({ deleted: 1 })

    const near = 'carol-test.near'
    await h.call('/admin/clean-hands-sbts', { method: 'POST', admin: true, json: { chain: 'near', address: near } })
    expect((await h.call(`/human-id/attestation/sbts/clean-hands?address=${near}&action-id=123456789`)).body).toMatchObject({ isUnique: true })
  })

  test('stakes, round stakes and terms', async () => {
    const h = setup()
    const [staker, stakee] = ['0x0000000000000000000000000000000000000a07', '0x0000000000000000000000000000000000000a08']
    const stake = await h.call('/admin/stakes', { method: 'POST', admin: true, json: { staker, stakee, amount: '12.5' } })
    expect(stake.status).toBe(201)
    expect(h.store.stakes(stakee)).toEqual([stake.body])
    expect(stake.body).toMatchObject({ chain: 10, amount: '12.5', lock_time: worldNow })
    expect((await h.call(`/admin/stakes?address=${staker}`, { method: 'DELETE', admin: true })).body).toEqual({ deleted: 1 })

    await h.call('/admin/round-stakes', {
      method: 'POST',
      admin: true,
      json: { address: staker, roundId: '7', stakes: [{ stake: '3', round: { id: '7' } }], xstakeAggregates: [] },
    })
    expect((await h.call(`/registry/token-stake/${staker}/7`)).body).toEqual({ users: [{ stakes: [{ stake: '3', round: { id: '7' } }], xstakeAggregates: [] }] })

    await h.call('/admin/terms', { method: 'POST', admin: true, json: { address: staker } })
    expect(h.store.tosAccepted('IST', staker)).toBe(true)
    await h.call(`/admin/terms?address=${staker}&tosType=IST`, { method: 'DELETE', admin: true })
    expect(h.store.tosAccepted('IST', staker)).toBe(false)
  })
})
