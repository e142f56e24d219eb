/**
 * Interface D of the reference server: the stamp cache (`/stamp-cache/...`) and its wallet sign-in.
 *
 * - `GET /account/nonce` issues a single-use SIWE nonce (10 minutes by default); D13 signs in with a
 *   SIWE message carrying it and answers an HS256 JWT (`did:pkh:eip155:1:<address>`, 7 days).
 * - Every bearer route acts on the token's address: a path or payload address that differs is a
 *   403; a malformed one a 400.
 * - Bulk writes carry at most 100 stamps (more: 422); PATCH items without `stamp` are deletions;
 *   deleting nothing is a 404; save-status updates touch only the caller's records.
 * - Every written stamp must be a credential whose subject is the token's address (else 403), whose
 *   provider is the item's, and whose proof verifies against its issuer's key (else 422): a stamp
 *   copied from another wallet and re-addressed, or made up, is never stored.
 * - A wallet stores at most `maxStampsPerWallet` stamps and `maxStampBytesPerWallet` bytes of
 *   them (else 422; see the store).
 * - D7/D8 score through the store (the same engine and dedup claims as A1), shaped as InternalScore.
 * - Terms of service: type `IST` only (others 400); the text to sign ends in `Nonce: <nonce>`; D12
 *   checks the nonce (issued for that address and type, single use) and an EIP-191 signature of the
 *   text by the address (400 otherwise).
 */
import { Hono, type Context } from 'hono'
import type { Address, Hex } from 'viem'
import { toPublicClient } from '../../chain/provider.js'
import {
  cacheStampPayloadListSchema,
  cachedStampQuerySchema,
  calcScorePayloadSchema,
  deleteStampPayloadListSchema,
  internalScoreQuerySchema,
  saveStatusPayloadListSchema,
  signInSubmitSchema,
  tosSignedSchema,
  type AccessToken,
  type CacheStampPayload,
  type InternalScore,
  type StakeResponse,
  type StampsResponse,
  type StampsWithScoreResponse,
} from '../../schemas/stamp-cache.js'
import type { ValidationErrorItem } from '../../schemas/common.js'
import { isValidAddress } from '../../utils/address.js'
import type { ServerContext } from '../context.js'
import { readCredentialFacts } from '../scoring.js'
import { answerError, HttpError } from '../errors.js'
import { bearerAuth, issueAccessToken, type BearerVariables } from '../auth/jwt.js'
import { parseBody, parseQuery } from '../request.js'
import { defaultSiweDomains, verifySignIn, verifyWalletSignature, type SiweChainClient } from '../auth/siwe.js'

/** The terms-of-service types the cache knows (docs/interface.md §3: `IST` is the one in use). */
export const tosTypes: readonly string[] = Object.freeze(['IST'])

/** Lifetime of SIWE and ToS nonces when the configuration gives none: 10 minutes. */
export const defaultNonceTtlMs = 10 * 60 * 1000

/**
 * The text a wallet signs to accept the terms (D11). It ends in `Nonce: <nonce>`.
 *
 * @example
 * tosMessage('IST', '0xabc...', '3f2a...') // 'I have read and I accept ...\n\nAddress: 0xabc...\nNonce: 3f2a...'
 */
export function tosMessage(tosType: string, address: string, nonce: string): string {
  return [
    `I have read and I accept the Individual Terms of Service (${tosType}) of the Passport stamp cache.`,
    '',
    `Address: ${address.toLowerCase()}`,
    `Nonce: ${nonce}`,
  ].join('\n')
}

/** The env of the stamp-cache app: bearer routes see the token's address in `c.var.address`. */
export type StampCacheEnv = { Variables: BearerVariables }
type Env = StampCacheEnv

const forbiddenDetail = 'The address does not match the address you signed in with.'

/**
 * The path address, checked and matched against the token's.
 *
 * @throws {HttpError} 400 for a malformed address, 403 for another address than the token's.
 */
function ownPathAddress(c: Context<Env>): Address {
  const value = c.req.param('address') ?? ''
  if (!isValidAddress(value)) throw new HttpError(400, 'Invalid address.')
  if (value.toLowerCase() !== c.var.address) throw new HttpError(403, forbiddenDetail)
  return c.var.address
}

/**
 * Refuses a bulk payload naming another address than the token's.
 *
 * @throws {HttpError} 403 naming the first such item.
 */
function checkPayloadAddresses(items: ReadonlyArray<{ address?: string | null | undefined }>, owner: Address): void {
  const index = items.findIndex((item) => item.address !== undefined && item.address !== null && item.address.toLowerCase() !== owner)
  if (index !== -1) throw new HttpError(403, `Item ${index}: ${forbiddenDetail}`)
}

/** The InternalScore of the address (D1, D2, D7, D8): the v2 score record of the store's scoring. */
function internalScore(ctx: ServerContext, address: Address, alternateScorerId?: number | null): InternalScore {
  const record = ctx.store.score(address, { alternateScorerId: alternateScorerId ?? null })
  return { ...record }
}

/** @throws {HttpError} 400 for a terms type the cache does not know. */
function checkTosType(tosType: string): void {
  if (!tosTypes.includes(tosType)) throw new HttpError(400, `Unknown terms of service type "${tosType.slice(0, 40)}": use ${tosTypes.join(', ')}.`)
}

const bulkWriteSchema = cacheStampPayloadListSchema

const problemMessages = {
  unreadable: 'Not a stamp credential: it needs credentialSubject (id, hash, provider), issuer, issuanceDate, expirationDate and a proof.',
  'unknown-issuer': 'The credential\u2019s issuer is not known to this server: its proof cannot be checked.',
  'bad-proof': 'The credential\u2019s proof does not verify against its issuer\u2019s key.',
} as const

/**
 * Checks the stamps of a bulk write: each is a readable credential for the token's address (403),
 * of the item's provider, with a proof that verifies (422 listing every bad item).
 *
 * @throws {HttpError} 403 or 422.
 */
function checkWrittenStamps(ctx: ServerContext, items: readonly CacheStampPayload[], owner: Address): void {
  const problems: ValidationErrorItem[] = []
  for (const [index, item] of items.entries()) {
    if (item.stamp === undefined || item.stamp === null) continue
    const facts = readCredentialFacts(item.stamp)
    if (!facts) {
      problems.push({ loc: ['body', index, 'stamp'], msg: problemMessages.unreadable, type: 'value_error' })
      continue
    }
    if (facts.subject !== owner) {
      throw new HttpError(403, `Item ${index}: the credential's subject is ${facts.subject}, not the address you signed in with.`)
    }
    if (facts.provider !== item.provider) {
      problems.push({ loc: ['body', index, 'provider'], msg: `The item's provider "${item.provider.slice(0, 60)}" is not the credential's ("${facts.provider.slice(0, 60)}").`, type: 'value_error' })
      continue
    }
    const problem = ctx.store.checkStampProof(item.stamp)
    if (problem) problems.push({ loc: ['body', index, 'stamp', 'proof'], msg: problemMessages[problem], type: 'value_error' })
  }
  if (problems.length) throw new HttpError(422, problems)
}

/**
 * The stamp-cache routes (D1-D13) and the SIWE nonce endpoint, at their spec paths
 * (`/stamp-cache/...`, `/account/nonce`): mount at the root.
 *
 * @example
 * app.route('/', createStampCacheRoutes(ctx))
 */
export function createStampCacheRoutes(ctx: ServerContext): Hono<StampCacheEnv> {
  const app = new Hono<Env>()
  app.onError(answerError)
  const chainClient: SiweChainClient | undefined = ctx.config.chainClient ? toPublicClient(ctx.config.chainClient) : undefined
  const nonceTtlMs = (): number => ctx.config.nonceTtlMs ?? defaultNonceTtlMs
  const secret = (): string => ctx.config.jwtSecret
  const auth = bearerAuth({ secret, now: () => ctx.now() })

  // ---- sign-in -------------------------------------------------------------------------------

  app.get('/account/nonce', (c) => {
    const nonce = ctx.store.issueNonce('siwe', { ttlMs: nonceTtlMs(), purpose: 'siwe' })
    return c.json({ nonce })
  })

  // D13
  app.post('/stamp-cache/authenticate/v2', async (c) => {
    const body = await parseBody(c, signInSubmitSchema)
    const result = await verifySignIn({
      submission: body,
      now: ctx.now(),
      domains: ctx.config.siweDomains ?? defaultSiweDomains,
      consumeNonce: (nonce) => ctx.store.consumeNonce('siwe', nonce, { purpose: 'siwe' }) ?? 'ok',
      chainClient,
    })
    if (!result.ok) {
      const headers: Record<string, string> = result.status === 401 ? { 'www-authenticate': 'SIWE realm="personhood"' } : {}
      throw new HttpError(result.status, result.detail, headers)
    }
    const access = await issueAccessToken({ address: result.address, secret: secret(), now: ctx.now() })
    const answer: AccessToken = { access }
    return c.json(answer)
  })

  // ---- no auth ---------------------------------------------------------------------------------

  // D5
  app.get('/stamp-cache/weights', (c) => {
    return c.json(ctx.store.weights())
  })

  // D6
  app.get('/stamp-cache/stamp', (c) => {
    const query = parseQuery(c, cachedStampQuerySchema)
    const answer: StampsResponse = { success: true, stamps: ctx.store.cachedStamps(query.address) }
    return c.json(answer)
  })

  // ---- bearer ------------------------------------------------------------------------------

  app.use('/stamp-cache/stamps/*', auth)
  app.use('/stamp-cache/score/*', auth)
  app.use('/stamp-cache/stake/*', auth)
  app.use('/stamp-cache/tos/*', auth)

  const writeStamps = async (c: Context<Env>, mode: 'post' | 'patch') => {
    const body = await parseBody(c, bulkWriteSchema)
    const owner = c.var.address
    checkPayloadAddresses(body, owner)
    checkWrittenStamps(ctx, body, owner)
    if (mode === 'post') {
      const missing: ValidationErrorItem[] = body.flatMap((item: CacheStampPayload, index: number) =>
        item.stamp === undefined || item.stamp === null ? [{ loc: ['body', index, 'stamp'], msg: 'Field required', type: 'missing' }] : [],
      )
      if (missing.length > 0) throw new HttpError(422, missing)
    }
    const stamps =
      mode === 'post'
        ? ctx.store.addStamps(
            owner,
            body.map((item) => ({ provider: item.provider, stamp: item.stamp })),
          )
        : ctx.store.patchStamps(
            owner,
            body.map((item) => (item.stamp === undefined ? { provider: item.provider } : { provider: item.provider, stamp: item.stamp })),
          )
    const answer: StampsWithScoreResponse = { success: true, stamps, score: internalScore(ctx, owner) }
    return c.json(answer, mode === 'post' ? 201 : 200)
  }

  // D1, D2
  app.post('/stamp-cache/stamps/bulk', (c) => writeStamps(c, 'post'))
  app.patch('/stamp-cache/stamps/bulk', (c) => writeStamps(c, 'patch'))

  // D3
  app.delete('/stamp-cache/stamps/bulk', async (c) => {
    const body = await parseBody(c, deleteStampPayloadListSchema)
    const owner = c.var.address
    checkPayloadAddresses(body, owner)
    const deleted = ctx.store.deleteStamps(
      owner,
      body.map((item) => item.provider),
    )
    if (deleted.length === 0) throw new HttpError(404, 'Unable to find stamp to delete.')
    const answer: StampsResponse = { success: true, stamps: ctx.store.cachedStamps(owner) }
    return c.json(answer)
  })

  // D4
  app.patch('/stamp-cache/stamps/bulk/meta/store-db', async (c) => {
    const body = await parseBody(c, saveStatusPayloadListSchema)
    return c.json({ updated: ctx.store.updateSaveStatus(c.var.address, body) })
  })

  // D7
  app.get('/stamp-cache/score/:address', (c) => {
    const own = ownPathAddress(c)
    const query = parseQuery(c, internalScoreQuerySchema)
    return c.json(internalScore(ctx, own, query.alternate_scorer_id))
  })

  // D8
  app.post('/stamp-cache/score/:address', async (c) => {
    const own = ownPathAddress(c)
    const body = await parseBody(c, calcScorePayloadSchema)
    return c.json(internalScore(ctx, own, body.alternate_scorer_id))
  })

  // D9
  app.get('/stamp-cache/stake/token', (c) => {
    const answer: StakeResponse = { items: ctx.store.stakes(c.var.address) }
    return c.json(answer)
  })

  // D10
  app.get('/stamp-cache/tos/accepted/:tos_type/:address', (c) => {
    const tosType = c.req.param('tos_type')
    checkTosType(tosType)
    const own = ownPathAddress(c)
    return c.json({ accepted: ctx.store.tosAccepted(tosType, own) })
  })

  // D11
  app.get('/stamp-cache/tos/message-to-sign/:tos_type/:address', (c) => {
    const tosType = c.req.param('tos_type')
    checkTosType(tosType)
    const own = ownPathAddress(c)
    const nonce = ctx.store.issueNonce('tos', { ttlMs: nonceTtlMs(), address: own, purpose: tosType })
    return c.json({ text: tosMessage(tosType, own, nonce), nonce })
  })

  // D12
  app.post('/stamp-cache/tos/signed-message/:tos_type/:address', async (c) => {
    const tosType = c.req.param('tos_type')
    checkTosType(tosType)
    const own = ownPathAddress(c)
    const body = await parseBody(c, tosSignedSchema)
    if (body.tos_type !== tosType) {
      throw new HttpError(400, `tos_type "${body.tos_type.slice(0, 40)}" does not match the path (${tosType}).`)
    }
    const expect = { address: own, purpose: tosType }
    const nonceFailure = ctx.store.checkNonce('tos', body.nonce, expect)
    if (nonceFailure) throw new HttpError(400, nonceDetail(nonceFailure))
    const check = await verifyWalletSignature({
      address: own,
      messages: [tosMessage(tosType, own, body.nonce)],
      signature: body.signature as Hex,
      chainClient,
    })
    if (!check.valid) {
      throw check.reason === 'chain-unavailable'
        ? new HttpError(503, 'Could not check the smart-contract wallet signature: the chain is unavailable.')
        : new HttpError(400, 'Invalid signature: the terms were not signed by the address.')
    }
    const consumed = ctx.store.consumeNonce('tos', body.nonce, expect)
    if (consumed) throw new HttpError(400, nonceDetail(consumed))
    ctx.store.acceptTos(tosType, own, ctx.now())
    return c.body(null, 200)
  })

  return app
}

function nonceDetail(failure: 'unknown' | 'used' | 'expired' | 'wrong-address' | 'wrong-purpose'): string {
  switch (failure) {
    case 'used':
      return 'Invalid nonce: it was already used.'
    case 'expired':
      return 'Invalid nonce: it expired; get a new message to sign.'
    case 'wrong-address':
      return 'Invalid nonce: it was issued for another address.'
    case 'wrong-purpose':
      return 'Invalid nonce: it was issued for another terms type.'
    default:
      return 'Invalid nonce: it was not issued by this server.'
  }
}
