/**
 * D13 sign-in (SIWE) and the bearer token of the cache interface, through the stamp-cache routes
 * in-process (`app.fetch`), at an injected time.
 */
import type { Hono } from 'hono'
import { decodeJwt, SignJWT } from 'jose'
import type { Address, Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { beforeEach, describe, expect, test } from 'vitest'
import { accessTokenSchema, type SiweMessageInput } from '../../src/schemas/stamp-cache.js'
import { validationErrorBodySchema } from '../../src/schemas/common.js'
import { bearerAuth, issueAccessToken, verifyAccessToken } from '../../src/server/auth/jwt.js'
import { buildSiweMessageTexts, isAllowedSiweDomain, verifySignIn } from '../../src/server/auth/siwe.js'
import { createServer, type CreateServerOptions } from '../../src/server/app.js'
import { createEmptyState, Store } from '../../src/server/state/index.js'

const start = Date.parse('2025-06-01T12:00:00.000Z')
const day = 24 * 3600 * 1000
const jwtSecret = 'test-secret-of-at-least-thirty-two-bytes!'

type Harness = { app: Hono; clock: { now: number }; store: Store }

function createHarness(options: Partial<CreateServerOptions> = {}): Harness {
  const clock = { now: start }
  const state = createEmptyState({ jwtSecret })
  state.scorers.push({ id: 1, name: 'Default', type: 'unique-humanity', threshold: '20', weights: { Google: '1.5' } })
  const app = createServer({ state, now: () => clock.now, siweDomains: ['localhost', 'personhood.local'], ...options })
  return { app, clock, store: app.context.store }
}

const base = 'http://personhood.local'

async function call(app: Hono, method: string, path: string, options: { body?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = {}
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  const response = await app.fetch(
    new Request(`${base}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
  )
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : undefined }
}

async function getNonce(app: Hono): Promise<string> {
  const { status, body } = await call(app, 'GET', '/account/nonce')
  expect(status).toBe(200)
  return (body as { nonce: string }).nonce
}

type MessageFields = Partial<Omit<SiweMessageInput, 'chainId'>> & { chainId?: number }

function siweMessage(account: PrivateKeyAccount, nonce: string, fields: MessageFields = {}) {
  return {
    domain: 'personhood.local',
    address: account.address,
    statement: 'Sign in to the stamp cache.',
    uri: 'http://personhood.local/login',
    version: '1' as const,
    chainId: 1,
    nonce,
    issuedAt: new Date(start).toISOString(),
    ...fields,
  }
}

/** Signs the EIP-4361 text of the message (dates parsed, as a wallet would see them). */
async function sign(signer: PrivateKeyAccount, message: ReturnType<typeof siweMessage>): Promise<Hex> {
  const text = createSiweMessage({
    ...message,
    address: message.address as Address,
    issuedAt: new Date(message.issuedAt),
    expirationTime: message.expirationTime === undefined ? undefined : new Date(message.expirationTime),
    notBefore: message.notBefore === undefined ? undefined : new Date(message.notBefore),
  })
  return signer.signMessage({ message: text })
}

async function signIn(harness: Harness, account: PrivateKeyAccount, fields: MessageFields = {}, signer = account) {
  const nonce = fields.nonce ?? (await getNonce(harness.app))
  const message = siweMessage(account, nonce, fields)
  const signature = await sign(signer, message)
  return call(harness.app, 'POST', '/stamp-cache/authenticate/v2', { body: { message, signature } })
}

let harness: Harness
let alice: PrivateKeyAccount
let bob: PrivateKeyAccount

beforeEach(() => {
  harness = createHarness()
  alice = privateKeyToAccount(generatePrivateKey())
  bob = privateKeyToAccount(generatePrivateKey())
})

describe('D13 sign-in', () => {
  test('a valid sign-in answers a 7-day HS256 JWT for the lowercase address', async () => {
    const { status, body } = await signIn(harness, alice)
    expect(status).toBe(200)
    const { access } = accessTokenSchema.parse(body)
    const claims = decodeJwt(access)
    expect(claims.did).toBe(`did:pkh:eip155:1:${alice.address.toLowerCase()}`)
    expect(claims.iat).toBe(start / 1000)
    expect(claims.exp).toBe(start / 1000 + 7 * 24 * 3600)
    expect(claims.iss).toBe('personhood')
    expect(claims.jti).toEqual(expect.any(String))

    const score = await call(harness.app, 'GET', `/stamp-cache/score/${alice.address}`, { token: access })
    expect(score.status).toBe(200)
    expect((score.body as { address: string }).address).toBe(alice.address.toLowerCase())
  })

  test('nonces are 60 lowercase hex characters, fresh each time', async () => {
    const first = await getNonce(harness.app)
    const second = await getNonce(harness.app)
    expect(first).toMatch(/^[0-9a-f]{60}$/)
    expect(second).not.toBe(first)
  })

  test('a message for another domain is refused with 401', async () => {
    const { status, body } = await signIn(harness, alice, { domain: 'evil.example' })
    expect(status).toBe(401)
    expect(body).toEqual({ detail: 'Invalid domain: "evil.example" is not a domain this server signs in for.' })
  })

  test('an allowed host on another port is accepted', async () => {
    const { status } = await signIn(harness, alice, { domain: 'localhost:8787', uri: 'http://localhost:8787/' })
    expect(status).toBe(200)
  })

  test('a nonce signs in once', async () => {
    const nonce = await getNonce(harness.app)
    expect((await signIn(harness, alice, { nonce })).status).toBe(200)
    const again = await signIn(harness, alice, { nonce })
    expect(again.status).toBe(401)
    expect(again.body).toEqual({ detail: 'Invalid nonce: it was already used (a nonce signs in once).' })
  })

  test('a nonce the server did not issue is refused', async () => {
    const { status, body } = await signIn(harness, alice, { nonce: 'madeupnonce123' })
    expect(status).toBe(401)
    expect(body).toEqual({ detail: 'Invalid nonce: it was not issued by GET /account/nonce.' })
  })

  test('a nonce older than 10 minutes is refused', async () => {
    const nonce = await getNonce(harness.app)
    harness.clock.now = start + 10 * 60 * 1000
    const { status, body } = await signIn(harness, alice, { nonce, issuedAt: new Date(harness.clock.now).toISOString() })
    expect(status).toBe(401)
    expect(body).toEqual({ detail: 'Invalid nonce: it expired; get a new one from GET /account/nonce.' })
  })

  test('an expired message is refused', async () => {
    const { status, body } = await signIn(harness, alice, { expirationTime: new Date(start).toISOString() })
    expect(status).toBe(401)
    expect(body).toEqual({ detail: 'The sign-in message expired (expirationTime has passed).' })
  })

  test('a message valid only later (notBefore) is refused, and accepted once that time has come', async () => {
    const later = new Date(start + 60_000).toISOString()
    expect((await signIn(harness, alice, { notBefore: later })).status).toBe(401)
    harness.clock.now = start + 60_000
    expect((await signIn(harness, alice, { notBefore: later })).status).toBe(200)
  })

  test('a message signed by another account is refused', async () => {
    const { status, body, headers } = await signIn(harness, alice, {}, bob)
    expect(status).toBe(401)
    expect(body).toEqual({ detail: 'Invalid signature: the message was not signed by its address.' })
    expect(headers.get('www-authenticate')).toBe('SIWE realm="personhood"')
  })

  test('a signature over a text with other fields is refused (the server rebuilds the text)', async () => {
    const nonce = await getNonce(harness.app)
    const signed = siweMessage(alice, nonce)
    const signature = await sign(alice, signed)
    const sent = { ...signed, statement: 'Something else.' }
    const { status } = await call(harness.app, 'POST', '/stamp-cache/authenticate/v2', { body: { message: sent, signature } })
    expect(status).toBe(401)
  })

  test('timestamps sent without milliseconds verify against the text as sent', async () => {
    const nonce = await getNonce(harness.app)
    const message = siweMessage(alice, nonce, { issuedAt: '2025-06-01T12:00:00Z' })
    const text = buildSiweMessageTexts(message).find((candidate) => candidate.includes('Issued At: 2025-06-01T12:00:00Z'))
    expect(text).toBeDefined()
    const signature = await alice.signMessage({ message: text! })
    const { status } = await call(harness.app, 'POST', '/stamp-cache/authenticate/v2', { body: { message, signature } })
    expect(status).toBe(200)
  })

  test('a missing signature is a 422 with a list detail; a malformed address a 400', async () => {
    const nonce = await getNonce(harness.app)
    const missing = await call(harness.app, 'POST', '/stamp-cache/authenticate/v2', { body: { message: siweMessage(alice, nonce) } })
    expect(missing.status).toBe(422)
    expect(validationErrorBodySchema.parse(missing.body).detail).toEqual([{ loc: ['body', 'signature'], msg: 'Field required', type: 'missing' }])

    const badAddress = { ...siweMessage(alice, nonce), address: '0x1234' }
    const malformed = await call(harness.app, 'POST', '/stamp-cache/authenticate/v2', { body: { message: badAddress, signature: '0x00' } })
    expect(malformed.status).toBe(400)
    expect((malformed.body as { detail: string }).detail).toMatch(/^body\.message\.address: Invalid address/)
  })
})

describe('bearer token', () => {
  async function token(): Promise<string> {
    const { body } = await signIn(harness, alice)
    return accessTokenSchema.parse(body).access
  }

  test('no token: 401 with a Bearer challenge', async () => {
    const { status, body, headers } = await call(harness.app, 'GET', '/stamp-cache/stake/token')
    expect(status).toBe(401)
    expect(headers.get('www-authenticate')).toBe('Bearer realm="personhood"')
    expect(body).toEqual({ detail: 'Authentication credentials were not provided: send Authorization: Bearer <access token>.' })
  })

  test('a tampered token (payload swapped for another address) is refused', async () => {
    const access = await token()
    const [header, , signature] = access.split('.')
    const claims = { ...decodeJwt(access), did: `did:pkh:eip155:1:${bob.address.toLowerCase()}` }
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
    const { status, body, headers } = await call(harness.app, 'GET', '/stamp-cache/stake/token', { token: forged })
    expect(status).toBe(401)
    expect(headers.get('www-authenticate')).toBe(
      'Bearer realm="personhood", error="invalid_token", error_description="The access token is invalid"',
    )
    expect(body).toEqual({ detail: 'Invalid token: its signature, issuer or claims do not check out.' })
  })

  test('a token signed with another secret is refused', async () => {
    const other = await issueAccessToken({ address: alice.address, secret: 'another-secret-of-at-least-32-bytes!!', now: start })
    expect((await call(harness.app, 'GET', '/stamp-cache/stake/token', { token: other })).status).toBe(401)
  })

  test('a token with alg none is refused', async () => {
    const claims = decodeJwt(await token())
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`
    expect((await call(harness.app, 'GET', '/stamp-cache/stake/token', { token: unsigned })).status).toBe(401)
  })

  test('a token expires after 7 days at the injected time', async () => {
    const access = await token()
    harness.clock.now = start + 7 * day - 1000
    expect((await call(harness.app, 'GET', '/stamp-cache/stake/token', { token: access })).status).toBe(200)
    harness.clock.now = start + 8 * day
    const { status, body, headers } = await call(harness.app, 'GET', '/stamp-cache/stake/token', { token: access })
    expect(status).toBe(401)
    expect(body).toEqual({ detail: 'Token expired: sign in again.' })
    expect(headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  test('a token without a did:pkh claim is refused', async () => {
    const key = new TextEncoder().encode(jwtSecret)
    const odd = await new SignJWT({ did: 'did:web:example.org' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('personhood')
      .setIssuedAt(start / 1000)
      .setExpirationTime(start / 1000 + 3600)
      .setJti('x')
      .sign(key)
    const result = await verifyAccessToken(odd, { secret: jwtSecret, now: start })
    expect(result).toEqual({ ok: false, reason: 'invalid', detail: 'Invalid token: it does not carry a did:pkh:eip155:1 address.' })
  })

  test('the middleware checks its options when created', () => {
    expect(() => bearerAuth({ secret: 'short', now: () => start })).toThrowErrorMatchingInlineSnapshot(
      `
      [InvalidParameterError: Parameter "secret" is invalid.

      Details: The JWT secret must be at least 32 bytes long, got 5.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0]
    `,
    )
  })

  test('state secrets keep tokens valid across a restart from the same state', async () => {
    const access = await token()
    const restarted = new Store(JSON.parse(JSON.stringify(harness.store.toJSON())), { now: () => start })
    expect(restarted.state.secrets.jwtSecret).toBe(jwtSecret)
    expect((await verifyAccessToken(access, { secret: restarted.state.secrets.jwtSecret, now: start })).ok).toBe(true)
  })
})

describe('verifySignIn', () => {
  const submission = async (account: PrivateKeyAccount, signer: PrivateKeyAccount) => {
    const message = siweMessage(account, 'abcdef123456')
    return { message, signature: await sign(signer, message) }
  }

  test('a smart-contract wallet signature is checked through the chain client', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const calls: Address[] = []
    const chainClient = {
      verifyMessage: async ({ address }: { address: Address }) => {
        calls.push(address)
        return address === wallet.address
      },
    }
    // The wallet's owner (alice) signs; EOA recovery fails, the ERC-1271 check of the wallet passes.
    const result = await verifySignIn({
      submission: await submission(wallet, alice),
      now: start,
      consumeNonce: () => 'ok',
      chainClient,
    })
    expect(result).toMatchObject({ ok: true, address: wallet.address.toLowerCase() })
    expect(calls).toEqual([wallet.address])
  })

  test('without a chain client only EOA signatures pass', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const result = await verifySignIn({ submission: await submission(wallet, alice), now: start, consumeNonce: () => 'ok' })
    expect(result).toMatchObject({ ok: false, status: 401, reason: 'bad-signature' })
  })

  test('a chain that cannot be read is a 503, not a refusal', async () => {
    const chainClient = {
      verifyMessage: async () => {
        throw new Error('connection refused')
      },
    }
    const result = await verifySignIn({ submission: await submission(bob, alice), now: start, consumeNonce: () => 'ok', chainClient })
    expect(result).toMatchObject({ ok: false, status: 503, reason: 'chain-unavailable' })
  })

  test('the nonce is spent before the signature is checked', async () => {
    const seen: string[] = []
    const result = await verifySignIn({
      submission: await submission(alice, bob),
      now: start,
      consumeNonce: (nonce) => {
        seen.push(nonce)
        return 'ok'
      },
    })
    expect(seen).toEqual(['abcdef123456'])
    expect(result).toMatchObject({ ok: false, reason: 'bad-signature' })
  })

  test('domains: host entries allow any port, host:port entries that port only', () => {
    expect(isAllowedSiweDomain('LOCALHOST:3000', ['localhost'])).toBe(true)
    expect(isAllowedSiweDomain('localhost:3000', ['localhost:8787'])).toBe(false)
    expect(isAllowedSiweDomain('localhost:8787', ['localhost:8787'])).toBe(true)
    expect(isAllowedSiweDomain('localhost.evil.example', ['localhost'])).toBe(false)
  })
})

describe('every EIP-4361 field is kept (SIWE from other libraries)', () => {
  test('a message with the optional scheme, signed through viem, signs in', async () => {
    const account = privateKeyToAccount(generatePrivateKey())
    const answer = await signIn(harness, account, { scheme: 'https', requestId: 'req-1', resources: ['https://personhood.local/terms'] })
    expect(answer.status).toBe(200)
  })

  test('spruceid siwe with an ethers wallet, every optional field set, signs in', async () => {
    const { SiweMessage } = await import('siwe')
    const { Wallet } = await import('ethers')
    const wallet = Wallet.createRandom()
    const nonce = await getNonce(harness.app)
    const fields = {
      scheme: 'https',
      domain: 'personhood.local',
      address: wallet.address,
      statement: 'Sign in to the stamp cache.',
      uri: 'https://personhood.local/login',
      version: '1',
      chainId: 10,
      nonce,
      issuedAt: new Date(start).toISOString(),
      expirationTime: new Date(start + 5 * 60_000).toISOString(),
      notBefore: new Date(start - 60_000).toISOString(),
      requestId: 'spruce-1',
      resources: ['https://personhood.local/a', 'ipfs://bafybeigdyrzt'],
    }
    const text = new SiweMessage(fields).prepareMessage()
    expect(text.startsWith('https://personhood.local wants you to sign in')).toBe(true)
    const signature = await wallet.signMessage(text)
    const answer = await call(harness.app, 'POST', '/stamp-cache/authenticate/v2', { body: { message: fields, signature } })
    expect({ status: answer.status, body: answer.status === 200 ? 'token' : answer.body }).toEqual({ status: 200, body: 'token' })
  })
})
