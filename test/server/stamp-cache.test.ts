/**
 * Interface D (the stamp cache) of the reference server, in-process: bulk writes with the score
 * answer, save status, weights, stamps, scores, stakes and the terms-of-service flow, each call
 * acting on the signed-in address.
 */
import type { Hono } from 'hono'
import type { Address, Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { beforeEach, describe, expect, test } from 'vitest'
import { validationErrorBodySchema } from '../../src/schemas/common.js'
import {
  internalScoreSchema,
  stakeResponseSchema,
  stampsResponseSchema,
  stampsWithScoreResponseSchema,
  tosToSignSchema,
} from '../../src/schemas/stamp-cache.js'
import { createStampCacheClient } from '../../src/clients/stamp-cache/index.js'
import { AuthenticationError, NotFoundError, PermissionDeniedError } from '../../src/errors/index.js'
import { createServer } from '../../src/server/app.js'
import { buildStampCredential, createEmptyState, referenceIssuer, type Store, type ServerState } from '../../src/server/state/index.js'
import { signStampCredential } from '../../src/verify/stamp-credential.js'

const start = Date.parse('2025-06-01T12:00:00.000Z')
const day = 24 * 3600 * 1000
const base = 'http://personhood.local'

type Harness = { app: Hono; store: Store; clock: { now: number } }

function createHarness(prepare: (state: ServerState) => void = () => {}): Harness {
  const clock = { now: start }
  const state = createEmptyState({ jwtSecret: 'a-stamp-cache-test-secret-of-32-bytes+' })
  state.scorers.push(
    { id: 1, name: 'Default', type: 'unique-humanity', threshold: '20', weights: { Google: '10.5', Discord: '7.25', Ens: '3' } },
    { id: 2, name: 'Strict', type: 'binary', threshold: '30', weights: { Google: '1', Discord: '1', Ens: '1' } },
  )
  prepare(state)
  const app = createServer({ state, now: () => clock.now, siweDomains: ['personhood.local'] })
  return { app, store: app.context.store, clock }
}

async function call(app: Hono, method: string, path: string, options: { body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {}
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  const response = await app.fetch(
    new Request(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) }),
  )
  const text = await response.text()
  return { status: response.status, text, body: text ? (JSON.parse(text) as unknown) : undefined }
}

async function signIn(harness: Harness, account: PrivateKeyAccount): Promise<string> {
  const { body } = await call(harness.app, 'GET', '/account/nonce')
  const message = {
    domain: 'personhood.local',
    address: account.address,
    uri: 'http://personhood.local/',
    version: '1' as const,
    chainId: 1,
    nonce: (body as { nonce: string }).nonce,
    issuedAt: new Date(harness.clock.now).toISOString(),
  }
  const signature = await account.signMessage({ message: createSiweMessage({ ...message, issuedAt: new Date(message.issuedAt) }) })
  const answer = await call(harness.app, 'POST', '/stamp-cache/authenticate/v2', { body: { message, signature } })
  expect(answer.status).toBe(200)
  return (answer.body as { access: string }).access
}

/** A stamp credential for `address`, signed by the reference issuer (trusted), valid 90 days from `start`. */
function credential(address: Address, provider: string, hash = `v0.0.0:${provider}-${address}`) {
  return buildStampCredential(
    {
      address: address.toLowerCase() as Address,
      provider,
      hash,
      issuer: referenceIssuer.did,
      issuanceDate: new Date(start - day).toISOString(),
      expirationDate: new Date(start + 90 * day).toISOString(),
    },
    referenceIssuer.privateKey,
  )
}

let harness: Harness
let alice: PrivateKeyAccount
let bob: PrivateKeyAccount
let token: string

beforeEach(async () => {
  alice = privateKeyToAccount(generatePrivateKey())
  bob = privateKeyToAccount(generatePrivateKey())
  harness = createHarness((state) => {
    state.stakes.push(
      {
        chain: 10,
        staker: alice.address.toLowerCase() as Address,
        stakee: alice.address.toLowerCase() as Address,
        amount: '12.5',
        lock_time: '2025-01-01T00:00:00.000Z',
        unlock_time: '2025-07-01T00:00:00.000Z',
        last_updated_in_block: 123,
      },
      {
        chain: 1,
        staker: bob.address.toLowerCase() as Address,
        stakee: bob.address.toLowerCase() as Address,
        amount: '5',
        lock_time: '2025-01-01T00:00:00.000Z',
        unlock_time: '2025-07-01T00:00:00.000Z',
        last_updated_in_block: 9,
      },
    )
  })
  token = await signIn(harness, alice)
})

const own = () => alice.address.toLowerCase()

describe('D1-D3 bulk writes', () => {
  test('D1 writes stamps for the token address and answers 201 with every stamp and the score', async () => {
    const { status, body } = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', {
      token,
      body: [
        { provider: 'Google', stamp: credential(alice.address, 'Google') },
        { provider: 'Discord', stamp: credential(alice.address, 'Discord'), address: alice.address },
        { provider: 'Ens', stamp: credential(alice.address, 'Ens') },
      ],
    })
    expect(status).toBe(201)
    const answer = stampsWithScoreResponseSchema.parse(body)
    expect(answer.success).toBe(true)
    expect(answer.stamps.map((stamp) => [stamp.provider, stamp.address])).toEqual([
      ['Google', own()],
      ['Discord', own()],
      ['Ens', own()],
    ])
    expect(new Set(answer.stamps.map((stamp) => stamp.id)).size).toBe(3)
    expect(answer.score).toMatchObject({ address: own(), score: '20.75000', passing_score: true, threshold: '20.00000', error: null })
    expect(Object.keys(answer.score.stamps ?? {})).toEqual(['Google', 'Discord', 'Ens'])
  })

  test('D2 replaces stamps and deletes the items without a stamp; D3 deletes, and deleting nothing is a 404', async () => {
    await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', {
      token,
      body: ['Google', 'Discord', 'Ens'].map((provider) => ({ provider, stamp: credential(alice.address, provider) })),
    })
    const patched = await call(harness.app, 'PATCH', '/stamp-cache/stamps/bulk', {
      token,
      body: [{ provider: 'Google', stamp: credential(alice.address, 'Google', 'v0.0.0:renewed') }, { provider: 'Discord' }],
    })
    expect(patched.status).toBe(200)
    const afterPatch = stampsWithScoreResponseSchema.parse(patched.body)
    expect(afterPatch.stamps.map((stamp) => stamp.provider).sort()).toEqual(['Ens', 'Google'])
    expect(afterPatch.score.score).toBe('13.50000')
    expect(afterPatch.score.passing_score).toBe(false)

    const deleted = await call(harness.app, 'DELETE', '/stamp-cache/stamps/bulk', { token, body: [{ provider: 'Ens' }] })
    expect(deleted.status).toBe(200)
    expect(stampsResponseSchema.parse(deleted.body).stamps.map((stamp) => stamp.provider)).toEqual(['Google'])

    const nothing = await call(harness.app, 'DELETE', '/stamp-cache/stamps/bulk', { token, body: [{ provider: 'Ens' }] })
    expect(nothing).toMatchObject({ status: 404, body: { detail: 'Unable to find stamp to delete.' } })
  })

  test('more than 100 items is a 422; 100 is fine', async () => {
    const items = (count: number) => Array.from({ length: count }, (_, i) => ({ provider: `P${i}`, stamp: credential(alice.address, `P${i}`) }))
    const tooMany = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: items(101) })
    expect(tooMany.status).toBe(422)
    expect(validationErrorBodySchema.parse(tooMany.body).detail).toEqual([
      { loc: ['body'], msg: 'List should have at most 100 items', type: 'too_long' },
    ])
    expect((await call(harness.app, 'PATCH', '/stamp-cache/stamps/bulk', { token, body: items(101) })).status).toBe(422)
    expect((await call(harness.app, 'DELETE', '/stamp-cache/stamps/bulk', { token, body: items(101) })).status).toBe(422)
    expect((await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: items(100) })).status).toBe(201)
  })

  test('D1 items need a provider and a stamp (422 with their location)', async () => {
    const { status, body } = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', {
      token,
      body: [{ provider: 'Google', stamp: credential(alice.address, 'Google') }, { provider: 'Ens' }],
    })
    expect(status).toBe(422)
    expect(body).toEqual({ detail: [{ loc: ['body', 1, 'stamp'], msg: 'Field required', type: 'missing' }] })
    const noProvider = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: [{ stamp: {} }] })
    expect(noProvider.body).toEqual({ detail: [{ loc: ['body', 0, 'provider'], msg: 'Field required', type: 'missing' }] })
  })

  test('writing for another address is a 403 and changes nothing', async () => {
    const { status, body } = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', {
      token,
      body: [{ provider: 'Google', stamp: credential(bob.address, 'Google'), address: bob.address }],
    })
    expect(status).toBe(403)
    expect(body).toEqual({ detail: 'Item 0: The address does not match the address you signed in with.' })
    expect(harness.store.cachedStamps(bob.address)).toEqual([])
  })

  test('bulk writes need a token', async () => {
    expect((await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { body: [] })).status).toBe(401)
    expect((await call(harness.app, 'DELETE', '/stamp-cache/stamps/bulk', { body: [] })).status).toBe(401)
  })

  test('a stamp issued to another address is refused (403) and not stored', async () => {
    const { status, body } = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', {
      token,
      body: [{ provider: 'Google', stamp: credential(bob.address, 'Google') }],
    })
    expect(status).toBe(403)
    expect(body).toEqual({ detail: `Item 0: the credential's subject is ${bob.address.toLowerCase()}, not the address you signed in with.` })
    expect(harness.store.cachedStamps(alice.address)).toEqual([])
  })
})

describe('D4 save status', () => {
  test('updates only the caller\'s own rows', async () => {
    const bobToken = await signIn(harness, bob)
    const bobs = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', {
      token: bobToken,
      body: [{ provider: 'Google', stamp: credential(bob.address, 'Google') }],
    })
    const bobId = stampsWithScoreResponseSchema.parse(bobs.body).stamps[0]!.id
    const mine = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', {
      token,
      body: [{ provider: 'Google', stamp: credential(alice.address, 'Google') }],
    })
    const myId = stampsWithScoreResponseSchema.parse(mine.body).stamps[0]!.id

    const { status, body } = await call(harness.app, 'PATCH', '/stamp-cache/stamps/bulk/meta/store-db', {
      token,
      body: [
        { id: myId, store_save_status: 'saved', store_stream_id: 'stream-1' },
        { id: bobId, store_save_status: 'failed' },
        { id: 999_999, store_save_status: 'saved' },
      ],
    })
    expect(status).toBe(200)
    expect(body).toEqual({ updated: [myId] })
    expect(harness.store.stampRecords(alice.address)[0]).toMatchObject({ store_save_status: 'saved', store_stream_id: 'stream-1' })
    expect(harness.store.stampRecords(bob.address)[0]).toMatchObject({ store_save_status: 'pending' })
  })

  test('an unknown status is a 400; a missing id a 422', async () => {
    const bad = await call(harness.app, 'PATCH', '/stamp-cache/stamps/bulk/meta/store-db', { token, body: [{ id: 1, store_save_status: 'lost' }] })
    expect(bad.status).toBe(400)
    const missing = await call(harness.app, 'PATCH', '/stamp-cache/stamps/bulk/meta/store-db', { token, body: [{ store_save_status: 'saved' }] })
    expect(missing.body).toEqual({ detail: [{ loc: ['body', 0, 'id'], msg: 'Field required', type: 'missing' }] })
  })
})

describe('D5-D9 reads', () => {
  test('D5 weights of the default scorer, as numbers, without a token', async () => {
    expect(await call(harness.app, 'GET', '/stamp-cache/weights')).toMatchObject({ status: 200, body: { Google: 10.5, Discord: 7.25, Ens: 3 } })
  })

  test('D6 stamps of an address without a token; missing address 422, malformed 400', async () => {
    await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: [{ provider: 'Ens', stamp: credential(alice.address, 'Ens') }] })
    const { status, body } = await call(harness.app, 'GET', `/stamp-cache/stamp?address=${alice.address}`)
    expect(status).toBe(200)
    expect(stampsResponseSchema.parse(body).stamps.map((stamp) => stamp.provider)).toEqual(['Ens'])
    const missing = await call(harness.app, 'GET', '/stamp-cache/stamp')
    expect(missing).toMatchObject({ status: 422, body: { detail: [{ loc: ['query', 'address'], msg: 'Field required', type: 'missing' }] } })
    expect((await call(harness.app, 'GET', '/stamp-cache/stamp?address=0x12')).status).toBe(400)
  })

  test('D7/D8 score the token address like A1, with an alternate scorer on request', async () => {
    await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', {
      token,
      body: ['Google', 'Discord'].map((provider) => ({ provider, stamp: credential(alice.address, provider) })),
    })
    const score = await call(harness.app, 'GET', `/stamp-cache/score/${alice.address}`, { token })
    expect(score.status).toBe(200)
    expect(internalScoreSchema.parse(score.body)).toMatchObject({ address: own(), score: '17.75000', passing_score: false })
    expect(score.body).toEqual(harness.store.score(alice.address))

    const alternate = await call(harness.app, 'GET', `/stamp-cache/score/${alice.address}?alternate_scorer_id=2`, { token })
    expect(internalScoreSchema.parse(alternate.body)).toMatchObject({ score: '2.00000', threshold: '30.00000' })
    const posted = await call(harness.app, 'POST', `/stamp-cache/score/${own()}`, { token, body: { alternate_scorer_id: 2 } })
    expect(internalScoreSchema.parse(posted.body)).toMatchObject({ score: '2.00000' })
    const defaultPost = await call(harness.app, 'POST', `/stamp-cache/score/${own()}`, { token, body: {} })
    expect(internalScoreSchema.parse(defaultPost.body)).toMatchObject({ score: '17.75000' })
  })

  test('D7/D8: unknown scorer 404, another address 403, malformed address 400, no token 401, no body 422', async () => {
    expect(await call(harness.app, 'GET', `/stamp-cache/score/${alice.address}?alternate_scorer_id=77`, { token })).toMatchObject({
      status: 404,
      body: { detail: 'No scorer matches the given id: 77.' },
    })
    expect(await call(harness.app, 'GET', `/stamp-cache/score/${bob.address}`, { token })).toMatchObject({
      status: 403,
      body: { detail: 'The address does not match the address you signed in with.' },
    })
    expect((await call(harness.app, 'GET', '/stamp-cache/score/0xabc', { token })).status).toBe(400)
    expect((await call(harness.app, 'GET', `/stamp-cache/score/${alice.address}`)).status).toBe(401)
    expect((await call(harness.app, 'POST', `/stamp-cache/score/${alice.address}`, { token })).status).toBe(422)
  })

  test('D9 stakes of the token address', async () => {
    const { status, body } = await call(harness.app, 'GET', '/stamp-cache/stake/token', { token })
    expect(status).toBe(200)
    expect(stakeResponseSchema.parse(body).items).toEqual([
      {
        chain: 10,
        staker: own(),
        stakee: own(),
        amount: '12.5',
        lock_time: '2025-01-01T00:00:00.000Z',
        unlock_time: '2025-07-01T00:00:00.000Z',
        last_updated_in_block: 123,
      },
    ])
  })
})

describe('D10-D12 terms of service', () => {
  const accepted = async (address: string = alice.address) =>
    (await call(harness.app, 'GET', `/stamp-cache/tos/accepted/IST/${address}`, { token })).body
  const messageToSign = async () => {
    const { status, body } = await call(harness.app, 'GET', `/stamp-cache/tos/message-to-sign/IST/${alice.address}`, { token })
    expect(status).toBe(200)
    return tosToSignSchema.parse(body)
  }
  const submit = (body: unknown) => call(harness.app, 'POST', `/stamp-cache/tos/signed-message/IST/${alice.address}`, { token, body })

  test('message, signature, accepted; the nonce works once', async () => {
    expect(await accepted()).toEqual({ accepted: false })
    const { text, nonce } = await messageToSign()
    expect(text.endsWith(`\nNonce: ${nonce}`)).toBe(true)
    const signature: Hex = await alice.signMessage({ message: text })
    const signed = await submit({ tos_type: 'IST', nonce, signature })
    expect(signed.status).toBe(200)
    expect(signed.text).toBe('')
    expect(await accepted()).toEqual({ accepted: true })

    const reused = await submit({ tos_type: 'IST', nonce, signature })
    expect(reused).toMatchObject({ status: 400, body: { detail: 'Invalid nonce: it was already used.' } })
  })

  test('a signature by another account is a 400, and the nonce stays usable', async () => {
    const { text, nonce } = await messageToSign()
    const wrong = await submit({ tos_type: 'IST', nonce, signature: await bob.signMessage({ message: text }) })
    expect(wrong).toMatchObject({ status: 400, body: { detail: 'Invalid signature: the terms were not signed by the address.' } })
    expect(await accepted()).toEqual({ accepted: false })
    expect((await submit({ tos_type: 'IST', nonce, signature: await alice.signMessage({ message: text }) })).status).toBe(200)
  })

  test('a nonce the server did not issue, issued for another address, or expired is a 400', async () => {
    const made = await submit({ tos_type: 'IST', nonce: 'f'.repeat(60), signature: '0x00' })
    expect(made).toMatchObject({ status: 400, body: { detail: 'Invalid nonce: it was not issued by this server.' } })

    const bobToken = await signIn(harness, bob)
    const bobs = await call(harness.app, 'GET', `/stamp-cache/tos/message-to-sign/IST/${bob.address}`, { token: bobToken })
    const bobNonce = tosToSignSchema.parse(bobs.body).nonce
    const foreign = await submit({ tos_type: 'IST', nonce: bobNonce, signature: '0x00' })
    expect(foreign).toMatchObject({ status: 400, body: { detail: 'Invalid nonce: it was issued for another address.' } })

    const { text, nonce } = await messageToSign()
    harness.clock.now += 11 * 60 * 1000
    const late = await submit({ tos_type: 'IST', nonce, signature: await alice.signMessage({ message: text }) })
    expect(late).toMatchObject({ status: 400, body: { detail: 'Invalid nonce: it expired; get a new message to sign.' } })
  })

  test('only the IST type: others are a 400; a body type other than the path a 400', async () => {
    for (const path of [`/stamp-cache/tos/accepted/XYZ/${alice.address}`, `/stamp-cache/tos/message-to-sign/XYZ/${alice.address}`]) {
      expect(await call(harness.app, 'GET', path, { token })).toMatchObject({
        status: 400,
        body: { detail: 'Unknown terms of service type "XYZ": use IST.' },
      })
    }
    const { nonce } = await messageToSign()
    expect((await submit({ tos_type: 'ABC', nonce, signature: '0x00' })).status).toBe(400)
  })

  test('terms of another address: 403', async () => {
    expect((await accepted(bob.address)) as unknown).toEqual({ detail: 'The address does not match the address you signed in with.' })
    expect((await call(harness.app, 'GET', `/stamp-cache/tos/message-to-sign/IST/${bob.address}`, { token })).status).toBe(403)
  })
})

describe('contract: the stamp-cache client against the server', () => {
  const client = () =>
    createStampCacheClient({
      baseUrl: base,
      fetch: async (input, init) => harness.app.fetch(new Request(input, init)),
      now: () => harness.clock.now,
      retry: false,
    })

  test('sign in, write, patch, delete, save status, read, score, stakes and terms through the client', async () => {
    const cache = client()
    const { accessToken } = await cache.signIn({ account: alice, domain: 'personhood.local', uri: 'http://personhood.local/' })
    expect(accessToken.split('.')).toHaveLength(3)

    const added = await cache.addStamps({ stamps: ['Google', 'Discord', 'Ens'].map((provider) => ({ provider, stamp: credential(alice.address, provider) })) })
    expect(added.score.score).toBe('20.75000')
    const updated = await cache.updateStamps({ stamps: [{ provider: 'Ens' }] })
    expect(updated.stamps.map((stamp) => stamp.provider)).toEqual(['Google', 'Discord'])
    const deleted = await cache.deleteStamps({ stamps: [{ provider: 'Discord' }] })
    expect(deleted.stamps.map((stamp) => stamp.provider)).toEqual(['Google'])
    await expect(cache.deleteStamps({ stamps: [{ provider: 'Discord' }] })).rejects.toBeInstanceOf(NotFoundError)

    const id = deleted.stamps[0]!.id
    expect(await cache.updateSaveStatus({ items: [{ id, store_save_status: 'saved' }] })).toEqual({ updated: [id] })
    expect(await cache.getWeights()).toEqual({ Google: 10.5, Discord: 7.25, Ens: 3 })
    expect((await cache.getStamps({ address: alice.address })).stamps).toHaveLength(1)
    expect((await cache.getScore({ address: alice.address })).score).toBe('10.50000')
    expect((await cache.calculateScore({ address: alice.address, alternateScorerId: 2 })).score).toBe('1.00000')
    expect((await cache.getStakes()).items).toHaveLength(1)

    expect(await cache.isTosAccepted({ address: alice.address })).toBe(false)
    const { text, nonce } = await cache.signAndAcceptTos({ account: alice })
    expect(text.endsWith(`Nonce: ${nonce}`)).toBe(true)
    expect(await cache.isTosAccepted({ address: alice.address })).toBe(true)
  })

  test('the server\'s refusals reach the client as typed errors', async () => {
    const cache = client()
    await cache.signIn({ account: alice, domain: 'personhood.local', uri: 'http://personhood.local/' })
    await expect(cache.getScore({ address: bob.address })).rejects.toBeInstanceOf(PermissionDeniedError)
    await expect(cache.getScore({ address: alice.address, alternateScorerId: 77 })).rejects.toBeInstanceOf(NotFoundError)
    const stranger = client()
    await expect(stranger.signIn({ account: bob, domain: 'evil.example', uri: 'https://evil.example/' })).rejects.toBeInstanceOf(
      AuthenticationError,
    )
    harness.clock.now += 8 * day
    await expect(cache.getStakes()).rejects.toBeInstanceOf(AuthenticationError)
  })
})

describe('stamp proofs: only a credential its issuer signed, for the writer, is stored or counted', () => {
  const providers = ['Google', 'Discord', 'Ens']

  test('40 self-made credentials with a trusted issuer and a junk proof are refused, and score nothing', async () => {
    const forged = Array.from({ length: 40 }, (_, i) => {
      const real = credential(alice.address, providers[i % 3]!, `v0.0.0:made-up-${i}`)
      return { provider: providers[i % 3]!, stamp: { ...real, proof: { ...real.proof, jws: 'not..a-signature' } } }
    })
    const { status, body } = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: forged })
    expect(status).toBe(422)
    const detail = validationErrorBodySchema.parse(body).detail
    expect(detail).toHaveLength(40)
    expect(detail[0]).toEqual({ loc: ['body', 0, 'stamp', 'proof'], msg: 'The credential’s proof does not verify against its issuer’s key.', type: 'value_error' })
    expect(harness.store.cachedStamps(alice.address)).toEqual([])
    const score = harness.store.score(alice.address, { scorerId: 1 })
    expect([score.score, score.passing_score]).toEqual(['0.00000', false])
  })

  test('a signed credential with any field changed after signing is refused', async () => {
    const real = credential(alice.address, 'Google')
    for (const edited of [
      { ...real, expirationDate: new Date(start + 900 * day).toISOString() },
      { ...real, credentialSubject: { ...real.credentialSubject, hash: 'v0.0.0:other' } },
      { ...real, issuer: 'did:ethr:0x0000000000000000000000000000000000000001' },
    ]) {
      const { status } = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: [{ provider: 'Google', stamp: edited }] })
      expect(status).toBe(422)
    }
    // The same credential, keys in another order, is the same credential.
    const reordered = Object.fromEntries(Object.entries(real).reverse())
    const { status } = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: [{ provider: 'Google', stamp: reordered }] })
    expect(status).toBe(201)
  })

  test('a well-formed proof signed by another key than the trusted issuer’s, under its DID, is refused', async () => {
    const { proof, ...unsigned } = credential(alice.address, 'Google')
    const forged = { ...unsigned, proof: { ...proof, jws: signStampCredential(unsigned, generatePrivateKey()) } }
    expect(forged.proof.jws.split('.')[0]).toBe(proof.jws.split('.')[0])
    const { status, body } = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: [{ provider: 'Google', stamp: forged }] })
    expect(status).toBe(422)
    expect(validationErrorBodySchema.parse(body).detail[0]!.loc).toEqual(['body', 0, 'stamp', 'proof'])
    expect(harness.store.cachedStamps(alice.address)).toEqual([])
  })

  test('an item whose provider is not its credential’s is refused', async () => {
    const { status, body } = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: [{ provider: 'Ens', stamp: credential(alice.address, 'Google') }] })
    expect(status).toBe(422)
    expect(validationErrorBodySchema.parse(body).detail[0]!.loc).toEqual(['body', 0, 'provider'])
  })

  test('a forged credential stored before proofs were checked is listed at 0 with the reason; good stamps still count', async () => {
    const real = credential(alice.address, 'Google')
    harness.store.addStamps(alice.address, [
      { provider: 'Google', stamp: { ...real, proof: { ...real.proof, jws: 'not..a-signature' } } },
      { provider: 'Discord', stamp: credential(alice.address, 'Discord') },
    ])
    const score = harness.store.score(alice.address, { scorerId: 1 })
    expect(score.score).toBe('7.25000')
    expect(score.stamps.Google).toMatchObject({ score: '0.00000', dedup: false, reason: 'The credential was not counted: its proof does not verify against its issuer’s key.' })
    // A forged copy claims nothing: the real owner of the hash is not dedup'ed by it.
    expect(harness.store.claim(1, real.credentialSubject.hash)).toBeUndefined()
  })

  test('theft: a victim’s unscored stamp, read from D6 and re-addressed to the thief, is refused; the victim still counts it', async () => {
    const bobToken = await signIn(harness, bob)
    const victims = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token: bobToken, body: [{ provider: 'Google', stamp: credential(bob.address, 'Google') }] })
    expect(victims.status).toBe(201)
    const listed = stampsResponseSchema.parse((await call(harness.app, 'GET', `/stamp-cache/stamp?address=${bob.address}`)).body)
    const stolen = listed.stamps[0]!.stamp as ReturnType<typeof credential>

    // As it is: the subject is the victim, not the thief (403).
    expect((await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: [{ provider: 'Google', stamp: stolen }] })).status).toBe(403)
    // Re-addressed to the thief: the proof covers the subject (422).
    const readdressed = { ...stolen, credentialSubject: { ...stolen.credentialSubject, id: `did:pkh:eip155:1:${alice.address.toLowerCase()}` } }
    const attack = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: [{ provider: 'Google', stamp: readdressed }] })
    expect(attack.status).toBe(422)
    expect(harness.store.cachedStamps(alice.address)).toEqual([])

    const thief = harness.store.score(alice.address, { scorerId: 1 })
    expect(thief.score).toBe('0.00000')
    const victim = harness.store.score(bob.address, { scorerId: 1 })
    expect(victim.stamps.Google).toEqual({ score: '10.50000', dedup: false, expiration_date: new Date(start + 90 * day).toISOString() })
  })

  test('a wallet keeps at most its quota of stamps', async () => {
    const many = (from: number) => Array.from({ length: 100 }, (_, i) => ({ provider: `P${from + i}`, stamp: credential(alice.address, `P${from + i}`) }))
    expect((await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: many(0) })).status).toBe(201)
    expect((await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: many(100) })).status).toBe(201)
    const over = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: many(200).slice(0, 1) })
    expect(over.status).toBe(422)
    expect(over.body).toEqual({ detail: 'Stamp quota: a wallet keeps at most 200 stamps; this write would leave 201.' })
    // Replacing a provider it holds is within the quota.
    expect((await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: many(0).slice(0, 1) })).status).toBe(201)
    expect(harness.store.cachedStamps(alice.address)).toHaveLength(200)
  })

  test('a wallet keeps at most its quota of bytes', async () => {
    const big = (from: number) =>
      Array.from({ length: 60 }, (_, i) => ({ provider: `B${from + i}`, stamp: credential(alice.address, `B${from + i}`, `v0.0.0:${'x'.repeat(3000)}${from + i}`) }))
    expect((await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: big(0) })).status).toBe(201)
    const over = await call(harness.app, 'POST', '/stamp-cache/stamps/bulk', { token, body: big(60) })
    expect(over.status).toBe(422)
    expect((over.body as { detail: string }).detail).toMatch(/^Stamp quota: a wallet keeps at most 262144 bytes of stamps; this write would leave \d+\.$/)
    expect(harness.store.cachedStamps(alice.address)).toHaveLength(60)
  })
})
