/**
 * Interface C of the reference server (C1-C7), through the foundation registry client and raw
 * requests: signed submissions (EIP-191, single-use nonces), PROCESSING -> DONE, v1 decimals and
 * evidence, listings with both filter spellings, stamps, metadata and stakes.
 */
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { createRegistryClient } from '../../src/clients/registry/index.js'
import { InvalidRequestError, NotFoundError } from '../../src/errors/index.js'
import { registryScoreItemsSchema, registryScorePageSchema, registryScoreSchema, signingMessageSchema } from '../../src/schemas/registry.js'
import { verdictFromScore } from '../../src/verify/verdict.js'
import { failure, setup, worldNowMs, type Harness } from './harness.js'

describe('C1 signing message and C2 submit', () => {
  test('the message embeds a fresh 60-hex nonce; a signed submit is scored; the nonce cannot be reused', async () => {
    const h = setup()
    const client = h.registry()
    const account = h.world.demoAccounts.find((entry) => entry.story === 'passing-stamps')!
    const signer = privateKeyToAccount(account.privateKey)

    const message = await client.getSigningMessage()
    expect(signingMessageSchema.parse(message)).toEqual(message)
    expect(message.nonce).toMatch(/^[0-9a-f]{60}$/)
    expect(message.message.endsWith(`Nonce: ${message.nonce}`)).toBe(true)
    expect((await client.getSigningMessage()).nonce).not.toBe(message.nonce)

    const signature = await signer.signMessage({ message: message.message })
    const record = await client.submitPassport({ address: account.address, scorerId: 1, signature, nonce: message.nonce })
    expect(registryScoreSchema.parse(record)).toEqual(record)
    expect(record).toMatchObject({ address: account.address, status: 'DONE', evidence: null, error: null })
    expect(record.score).toMatch(/^\d+\.\d{9}$/)

    const reused = await h.call('/registry/submit-passport', {
      method: 'POST',
      json: { address: account.address, scorer_id: '1', signature, nonce: message.nonce },
    })
    expect(reused).toMatchObject({ status: 400, body: { detail: 'Invalid nonce (used).' } })
    expect(await failure(client.submitPassport({ address: account.address, scorerId: 1, signature, nonce: message.nonce }))).toBeInstanceOf(
      InvalidRequestError,
    )
  })

  test('a signature by another key, a signature without nonce and an unknown nonce are 400', async () => {
    const h = setup()
    const [owner, other] = h.world.demoAccounts
    const message = await h.registry().getSigningMessage()
    const signature = await privateKeyToAccount(other!.privateKey).signMessage({ message: message.message })
    const submit = (json: object) => h.call('/registry/submit-passport', { method: 'POST', json: { address: owner!.address, scorer_id: 1, ...json } })
    expect(await submit({ signature, nonce: message.nonce })).toMatchObject({ status: 400, body: { detail: 'Address does not match signature.' } })
    // The nonce was consumed by the failed attempt: single use.
    expect(await submit({ signature, nonce: message.nonce })).toMatchObject({ status: 400, body: { detail: 'Invalid nonce (used).' } })
    expect(await submit({ signature })).toMatchObject({ status: 400, body: { detail: 'A nonce is required with a signature.' } })
    expect(await submit({ signature, nonce: 'ab'.repeat(30) })).toMatchObject({ status: 400, body: { detail: 'Invalid nonce (unknown).' } })
    // Nonces expire (10 minutes by default).
    const late = await h.registry().getSigningMessage()
    h.clock.advance(10 * 60 * 1000)
    const lateSignature = await privateKeyToAccount(owner!.privateKey).signMessage({ message: late.message })
    expect(await submit({ signature: lateSignature, nonce: late.nonce })).toMatchObject({ status: 400, body: { detail: 'Invalid nonce (expired).' } })
  })

  test('invalid address 400, missing fields 422, unknown scorer 404, body not JSON 422', async () => {
    const h = setup()
    const submit = (json: unknown) => h.call('/registry/submit-passport', { method: 'POST', json })
    expect(await submit({ address: '0x12', scorer_id: '1' })).toMatchObject({ status: 400, body: { detail: 'Invalid address.' } })
    const missing = await submit({ address: h.world.demoAccounts[0]!.address })
    expect(missing.status).toBe(422)
    expect(missing.body).toMatchInlineSnapshot(`
      {
        "detail": [
          {
            "loc": [
              "body",
              "scorer_id",
            ],
            "msg": "Field required",
            "type": "missing",
          },
        ],
      }
    `)
    expect(await submit({ address: h.world.demoAccounts[0]!.address, scorer_id: '99' })).toMatchObject({ status: 404 })
    const notJson = await h.call('/registry/submit-passport', { method: 'POST', body: '{nope', headers: { 'Content-Type': 'application/json' } })
    expect(notJson).toMatchObject({ status: 422, body: { detail: [{ loc: ['body'], type: 'json_invalid' }] } })
    expect(await failure(h.registry().submitPassport({ address: h.world.demoAccounts[0]!.address, scorerId: 99 }))).toBeInstanceOf(NotFoundError)
  })

  test('the binary scorer answers 1 or 0 with ThresholdScoreCheck evidence as strings', async () => {
    const h = setup()
    const passing = h.world.demoAccounts.find((entry) => entry.story === 'passing-stamps')!
    const failing = h.world.demoAccounts.find((entry) => entry.story === 'gov-id-verified')!
    const client = h.registry()
    const yes = await client.submitPassport({ address: passing.address, scorerId: 3 })
    const v2 = await h.passport().getScore({ scorerId: 3, address: passing.address })
    expect(yes.score).toBe('1.000000000')
    expect(yes.evidence).toEqual({ type: 'ThresholdScoreCheck', success: true, rawScore: `${v2.score}0000`, threshold: '20.000000000' })
    const no = await client.submitPassport({ address: failing.address, scorerId: 3 })
    expect(no).toMatchObject({ score: '0.000000000', evidence: { success: false, threshold: '20.000000000' } })
  })

  test('with a processing delay a submission reads PROCESSING, then DONE; resubmitting refreshes it', async () => {
    const h = setup({ processingDelayMs: 5000 })
    const address = '0x00000000000000000000000000000000000000d1'
    const client = h.registry()
    const submitted = await client.submitPassport({ address, scorerId: 1 })
    expect(submitted).toEqual({
      address,
      score: null,
      status: 'PROCESSING',
      last_score_timestamp: null,
      expiration_date: null,
      evidence: null,
      error: null,
    })
    expect((await client.getScore({ scorerId: 1, address })).status).toBe('PROCESSING')
    h.clock.advance(5000)
    const done = await client.getScore({ scorerId: 1, address })
    expect(done).toMatchObject({ status: 'DONE', score: '0.000000000', last_score_timestamp: new Date(worldNowMs).toISOString() })

    // waitForScore polls through the client's sleep; here sleeping moves the server's clock.
    await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: 'Google' } })
    await client.submitPassport({ address, scorerId: 1 })
    const waiting = setupWaiter(h)
    const refreshed = await waiting.waitForScore({ scorerId: 1, address, intervalMs: 2000 })
    expect(refreshed).toMatchObject({ status: 'DONE', score: '0.525000000', stamp_scores: { Google: '0.525000000' } })
  })

  test('C3 before any submit is 400 with the service\'s detail; the record is wrapped in items', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000d2'
    const never = await h.call(`/registry/score/1/${address}`)
    expect({ status: never.status, body: never.body }).toMatchInlineSnapshot(`
      {
        "body": {
          "detail": "Unable to get score for provided scorer.",
        },
        "status": 400,
      }
    `)
    expect(await failure(h.registry().getScore({ scorerId: 1, address }))).toBeInstanceOf(InvalidRequestError)
    await h.registry().submitPassport({ address, scorerId: 1 })
    const { body } = await h.call(`/registry/score/1/${address}`)
    expect(registryScoreItemsSchema.parse(body).items).toHaveLength(1)
    expect((await h.call('/registry/score/1/0xzz')).status).toBe(400)
    expect((await h.call(`/registry/score/55/${address}`)).status).toBe(404)
  })
})

/** A registry client whose sleep advances the server's clock (so waitForScore polls without real time). */
function setupWaiter(h: Harness) {
  return createRegistryClient({
    apiKey: h.keys.indexer,
    baseUrl: 'http://personhood.local',
    fetch: h.fetch as typeof fetch,
    rateLimiter: false,
    retry: false,
    now: h.clock.now,
    sleep: async (ms: number) => h.clock.advance(ms),
  })
}

describe('C4 score list', () => {
  test('{ items, count } in submission order with limit/offset and both spellings of the filters', async () => {
    const h = setup()
    const scorer = 4
    const addresses = ['0x00000000000000000000000000000000000000e1', '0x00000000000000000000000000000000000000e2', '0x00000000000000000000000000000000000000e3']
    const client = h.registry()
    const existing = (await client.listScores({ scorerId: scorer })).count
    const times: string[] = []
    for (const address of addresses) {
      h.clock.advance(60_000)
      times.push(new Date(h.clock.ms).toISOString())
      await client.submitPassport({ address, scorerId: scorer })
    }
    const all = await client.listScores({ scorerId: scorer })
    expect(registryScorePageSchema.parse(all)).toEqual(all)
    expect(all.count).toBe(existing + 3)
    expect(all.items.slice(-3).map((item) => item.address)).toEqual(addresses)

    const page = await client.listScores({ scorerId: scorer, limit: 2, offset: existing + 1 })
    expect(page).toMatchObject({ count: existing + 3, items: [{ address: addresses[1] }, { address: addresses[2] }] })

    const query = (q: string) => h.call(`/registry/score/${scorer}?${q}`).then((response) => response.body)
    expect((await query(`last_score_timestamp_gt=${times[0]}`)).items.map((item: { address: string }) => item.address)).toEqual(addresses.slice(1))
    expect(await query(`last_score_timestamp__gt=${times[0]}`)).toEqual(await query(`last_score_timestamp_gt=${times[0]}`))
    expect((await query(`last_score_timestamp_gte=${times[1]}`)).count).toBe(2)
    expect(await query(`last_score_timestamp__gte=${times[1]}`)).toEqual(await query(`last_score_timestamp_gte=${times[1]}`))
    expect((await query(`address=${addresses[2]}`)).items).toHaveLength(1)
    expect((await client.listScores({ scorerId: scorer, lastScoreTimestampGt: times[1] })).items.map((item) => item.address)).toEqual([addresses[2]])

    expect((await h.call(`/registry/score/${scorer}?last_score_timestamp_gt=soon`)).status).toBe(400)
    expect((await h.call(`/registry/score/${scorer}?limit=1001`)).status).toBe(400)
    expect((await h.call('/registry/score/77')).status).toBe(404)
  })
})

describe('one score row per scorer and address, written by A1 as well as C2', () => {
  test('an address scored only through A1 is listed by C4 and read by C3, with its latest score', async () => {
    const h = setup()
    const scorer = 4
    const address = h.world.demoAccounts.find((account) => account.story === 'passing-stamps')!.address
    expect((await h.call(`/registry/score/${scorer}/${address}`)).status).toBe(400)
    h.clock.advance(60_000)
    const a1 = await h.passport().getScore({ scorerId: scorer, address })
    const row = await h.registry().getScore({ scorerId: scorer, address })
    expect(row).toMatchObject({ address, status: 'DONE', last_score_timestamp: a1.last_score_timestamp })
    const listed = await h.registry().listScores({ scorerId: scorer, lastScoreTimestampGte: a1.last_score_timestamp! })
    expect(listed.items.map((item) => item.address)).toEqual([address])
    // Read again later: the same row, refreshed (not a second one).
    h.clock.advance(60_000)
    const again = await h.passport().getScore({ scorerId: scorer, address })
    const relisted = (await h.call(`/registry/score/${scorer}?address=${address}`)).body
    expect(relisted.items).toHaveLength(1)
    expect(relisted.items[0].last_score_timestamp).toBe(again.last_score_timestamp)
  })
})

describe('C3 answers in both shapes at once', () => {
  test('the record at the top (the public service, passport-gated) and in items (the spec)', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000e7'
    await h.registry().submitPassport({ address, scorerId: 1 })
    const { body } = await h.call(`/registry/score/1/${address}`)
    expect(body.status).toBe('DONE')
    expect(body.address).toBe(address)
    const { items, ...top } = body
    expect(items).toEqual([top])
    expect(registryScoreItemsSchema.parse(body).items[0]).toEqual(top)
  })
})

describe('C5-C7', () => {
  test('C5 lists stamps like A3; C6 lists the metadata like A4', async () => {
    const h = setup()
    const account = h.world.demoAccounts.find((entry) => entry.story === 'passing-stamps')!
    const registry = h.registry()
    const v1 = await registry.listStamps({ address: account.address, limit: 3 })
    const v2 = await h.passport().listStamps({ address: account.address, limit: 3 })
    expect(v1).toEqual(v2)
    expect(v1.items).toHaveLength(3)
    expect((await h.call(`/registry/stamps/${account.address}?limit=5000`)).status).toBe(400)
    expect(await registry.getStampMetadata()).toEqual(await h.passport().getStampMetadata())
  })

  test('C7 answers the round stakes at the spec path and the public path; none is an empty list', async () => {
    const h = setup()
    const stake = h.world.roundStakes[0]!
    const record = await h.registry().getTokenStake({ address: stake.address, roundId: stake.roundId })
    expect(record).toEqual({ users: [{ stakes: stake.stakes, xstakeAggregates: stake.xstakeAggregates }] })
    expect((await h.call(`/registry/gtc-stake/${stake.address}/${stake.roundId}`)).body).toEqual(record)
    expect((await h.call(`/registry/token-stake/${stake.address}`)).body.users).toHaveLength(1)
    expect((await h.call(`/registry/token-stake/${stake.address}/999`)).body).toEqual({ users: [] })
    expect((await h.call('/registry/token-stake/0x12/1')).status).toBe(400)
  })
})

describe('v1 submits in the A2 history, and thresholds in the rows', () => {
  test('A2 answers a C2 submit, and a later C2 rescore, at their times (not an older A1 read)', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000e1'
    const history = (at: number) => h.call(`/v2/stamps/1/score/${address}/history?created_at=${new Date(at).toISOString()}`)
    // An A1 read first: no stamps, 0.
    expect((await h.call(`/v2/stamps/1/score/${address}`)).body.score).toBe('0.00000')
    // A stamp, then a C2 submit an hour later: the submit's score is the latest.
    h.clock.advance(3_600_000)
    await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address, provider: 'Google' } })
    const submitted = await h.registry().submitPassport({ address, scorerId: 1 })
    expect(submitted.score).toBe('0.525000000')
    const afterSubmit = await history(h.clock.now())
    expect(afterSubmit.status).toBe(200)
    expect(afterSubmit.body.items ?? [afterSubmit.body]).toEqual([
      expect.objectContaining({ address, score: '0.52500', last_score_timestamp: new Date(h.clock.now()).toISOString() }),
    ])
    // Before the submit, A2 still answers the A1 read.
    const before = await history(h.clock.now() - 1)
    expect((before.body.items ?? [before.body])[0]).toMatchObject({ score: '0.00000' })
    // A C2 rescore a day later, after the stamp is gone: A2 at that time reads 0 again.
    h.clock.advance(86_400_000)
    await h.call(`/admin/stamps/${address}?provider=Google`, { method: 'DELETE', admin: true })
    expect((await h.registry().submitPassport({ address, scorerId: 1 })).score).toBe('0.000000000')
    const rescored = await history(h.clock.now())
    expect((rescored.body.items ?? [rescored.body])[0]).toMatchObject({ score: '0.00000' })
    const between = await history(h.clock.now() - 1)
    expect((between.body.items ?? [between.body])[0]).toMatchObject({ score: '0.52500' })
  })

  test('a plain scorer with a threshold other than 20 names it in its C2-C4 rows; at 20 the rows are as the spec shows', async () => {
    const h = setup()
    const scorer4 = h.world.scorers.find((scorer) => scorer.id === 4)!
    expect(scorer4).toMatchObject({ type: 'unique-humanity', threshold: '15' })
    const address = h.world.wallets[0]!.address
    await h.call(`/v2/stamps/4/score/${address}`)
    await h.call(`/v2/stamps/1/score/${address}`)
    const row4 = (await h.registry().listScores({ scorerId: 4, address })).items[0]!
    expect(row4.evidence).toEqual({ type: 'ThresholdScoreCheck', success: Number(row4.score) >= 15, rawScore: row4.score, threshold: '15.000000000' })
    expect((await h.registry().listScores({ scorerId: 1, address })).items[0]!.evidence).toBeNull()

    // A score between the scorer's threshold and 20 passes on the listing as on A2.
    await h.call('/admin/scorers/9', { method: 'PUT', admin: true, json: { name: 'Low bar', threshold: '0.5', weights: { Google: '0.525' } } })
    const voter = '0x00000000000000000000000000000000000000e2'
    await h.call('/admin/stamps', { method: 'POST', admin: true, json: { address: voter, provider: 'Google' } })
    const submitted = await h.registry().submitPassport({ address: voter, scorerId: 9 })
    expect(submitted).toMatchObject({ score: '0.525000000', evidence: { success: true, rawScore: '0.525000000', threshold: '0.500000000' } })
    const listed = (await h.call(`/registry/score/9?address=${voter}`)).body.items[0]
    const a2 = await h.call(`/v2/stamps/9/score/${voter}/history?created_at=${new Date(h.clock.now()).toISOString()}`)
    const fromHistory = (a2.body.items ?? [a2.body])[0]
    expect(verdictFromScore({ record: listed, origin: 'listing', at: new Date(h.clock.now()) })).toMatchObject({ reason: 'valid', valid: true, evidence: { threshold: '0.500000000' } })
    expect(verdictFromScore({ record: fromHistory, origin: 'history', at: new Date(h.clock.now()) })).toMatchObject({ reason: 'valid', valid: true, evidence: { threshold: '0.50000' } })
  })
})
