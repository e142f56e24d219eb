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
import { HttpError } from '../errors.js'
import { bearerAuth, issueAccessToken, type BearerVariables } from '../auth/jwt.js'
import { errorResponse, parseRequest, readJsonBody } from '../auth/respond.js'
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

function fromHttpError(error: unknown): Response {
  if (error instanceof HttpError) return errorResponse(error.status, error.detail, error.headers)
  throw error
}

/** The path address, checked (400) and matched against the token's (403). */
function ownPathAddress(c: Context<Env>): { address: Address } | { response: Response } {
  const value = c.req.param('address') ?? ''
  if (!isValidAddress(value)) return { response: errorResponse(400, 'Invalid address.') }
  if (value.toLowerCase() !== c.var.address) return { response: errorResponse(403, forbiddenDetail) }
  return { address: c.var.address }
}

/** Refuses (403) a bulk payload naming another address than the token's. */
function checkPayloadAddresses(items: ReadonlyArray<{ address?: string | null | undefined }>, owner: Address): Response | undefined {
  const index = items.findIndex((item) => item.address !== undefined && item.address !== null && item.address.toLowerCase() !== owner)
  if (index === -1) return undefined
  return errorResponse(403, `Item ${index}: ${forbiddenDetail}`)
}

/** The InternalScore of the address (D1, D2, D7, D8): the v2 score record of the store's scoring. */
function internalScore(ctx: ServerContext, address: Address, alternateScorerId?: number | null): InternalScore {
  const record = ctx.store.score(address, { alternateScorerId: alternateScorerId ?? null })
  return { ...record }
}

function tosTypeError(tosType: string): Response | undefined {
  if (tosTypes.includes(tosType)) return undefined
  return errorResponse(400, `Unknown terms of service type "${tosType.slice(0, 40)}": use ${tosTypes.join(', ')}.`)
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
 */
function checkWrittenStamps(ctx: ServerContext, items: readonly CacheStampPayload[], owner: Address): Response | undefined {
  const problems: ValidationErrorItem[] = []
  for (const [index, item] of items.entries()) {
    if (item.stamp === undefined || item.stamp === null) continue
    const facts = readCredentialFacts(item.stamp)
    if (!facts) {
      problems.push({ loc: ['body', index, 'stamp'], msg: problemMessages.unreadable, type: 'value_error' })
      continue
    }
    if (facts.subject !== owner) {
      return errorResponse(403, `Item ${index}: the credential's subject is ${facts.subject}, not the address you signed in with.`)
    }
    if (facts.provider !== item.provider) {
      problems.push({ loc: ['body', index, 'provider'], msg: `The item's provider "${item.provider.slice(0, 60)}" is not the credential's ("${facts.provider.slice(0, 60)}").`, type: 'value_error' })
      continue
    }
    const problem = ctx.store.checkStampProof(item.stamp)
    if (problem) problems.push({ loc: ['body', index, 'stamp', 'proof'], msg: problemMessages[problem], type: 'value_error' })
  }
  return problems.length ? errorResponse(422, problems) : undefined
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
    const raw = await readJsonBody(c.req.raw)
    if (!raw.success) return raw.response
    const body = parseRequest(signInSubmitSchema, raw.data, 'body')
    if (!body.success) return body.response
    const result = await verifySignIn({
      submission: body.data,
      now: ctx.now(),
      domains: ctx.config.siweDomains ?? defaultSiweDomains,
      consumeNonce: (nonce) => ctx.store.consumeNonce('siwe', nonce, { purpose: 'siwe' }) ?? 'ok',
      chainClient,
    })
    if (!result.ok) {
      const headers: Record<string, string> = result.status === 401 ? { 'www-authenticate': 'SIWE realm="personhood"' } : {}
      return errorResponse(result.status, result.detail, headers)
    }
    const access = await issueAccessToken({ address: result.address, secret: secret(), now: ctx.now() })
    const answer: AccessToken = { access }
    return c.json(answer)
  })

  // ---- no auth ---------------------------------------------------------------------------------

  // D5
  app.get('/stamp-cache/weights', (c) => {
    try {
      return c.json(ctx.store.weights())
    } catch (error) {
      return fromHttpError(error)
    }
  })

  // D6
  app.get('/stamp-cache/stamp', (c) => {
    const query = parseRequest(cachedStampQuerySchema, c.req.query(), 'query')
    if (!query.success) return query.response
    const answer: StampsResponse = { success: true, stamps: ctx.store.cachedStamps(query.data.address) }
    return c.json(answer)
  })

  // ---- bearer ------------------------------------------------------------------------------

  app.use('/stamp-cache/stamps/*', auth)
  app.use('/stamp-cache/score/*', auth)
  app.use('/stamp-cache/stake/*', auth)
  app.use('/stamp-cache/tos/*', auth)

  const writeStamps = async (c: Context<Env>, mode: 'post' | 'patch') => {
    const raw = await readJsonBody(c.req.raw)
    if (!raw.success) return raw.response
    const body = parseRequest(bulkWriteSchema, raw.data, 'body')
    if (!body.success) return body.response
    const owner = c.var.address
    const forbidden = checkPayloadAddresses(body.data, owner)
    if (forbidden) return forbidden
    const refused = checkWrittenStamps(ctx, body.data, owner)
    if (refused) return refused
    if (mode === 'post') {
      const missing: ValidationErrorItem[] = body.data.flatMap((item: CacheStampPayload, index: number) =>
        item.stamp === undefined || item.stamp === null ? [{ loc: ['body', index, 'stamp'], msg: 'Field required', type: 'missing' }] : [],
      )
      if (missing.length > 0) return errorResponse(422, missing)
    }
    try {
      const stamps =
        mode === 'post'
          ? ctx.store.addStamps(
              owner,
              body.data.map((item) => ({ provider: item.provider, stamp: item.stamp })),
            )
          : ctx.store.patchStamps(
              owner,
              body.data.map((item) => (item.stamp === undefined ? { provider: item.provider } : { provider: item.provider, stamp: item.stamp })),
            )
      const answer: StampsWithScoreResponse = { success: true, stamps, score: internalScore(ctx, owner) }
      return c.json(answer, mode === 'post' ? 201 : 200)
    } catch (error) {
      return fromHttpError(error)
    }
  }

  // D1, D2
  app.post('/stamp-cache/stamps/bulk', (c) => writeStamps(c, 'post'))
  app.patch('/stamp-cache/stamps/bulk', (c) => writeStamps(c, 'patch'))

  // D3
  app.delete('/stamp-cache/stamps/bulk', async (c) => {
    const raw = await readJsonBody(c.req.raw)
    if (!raw.success) return raw.response
    const body = parseRequest(deleteStampPayloadListSchema, raw.data, 'body')
    if (!body.success) return body.response
    const owner = c.var.address
    const forbidden = checkPayloadAddresses(body.data, owner)
    if (forbidden) return forbidden
    const deleted = ctx.store.deleteStamps(
      owner,
      body.data.map((item) => item.provider),
    )
    if (deleted.length === 0) return errorResponse(404, 'Unable to find stamp to delete.')
    const answer: StampsResponse = { success: true, stamps: ctx.store.cachedStamps(owner) }
    return c.json(answer)
  })

  // D4
  app.patch('/stamp-cache/stamps/bulk/meta/store-db', async (c) => {
    const raw = await readJsonBody(c.req.raw)
    if (!raw.success) return raw.response
    const body = parseRequest(saveStatusPayloadListSchema, raw.data, 'body')
    if (!body.success) return body.response
    return c.json({ updated: ctx.store.updateSaveStatus(c.var.address, body.data) })
  })

  // D7
  app.get('/stamp-cache/score/:address', (c) => {
    const own = ownPathAddress(c)
    if ('response' in own) return own.response
    const query = parseRequest(internalScoreQuerySchema, c.req.query(), 'query')
    if (!query.success) return query.response
    try {
      return c.json(internalScore(ctx, own.address, query.data.alternate_scorer_id))
    } catch (error) {
      return fromHttpError(error)
    }
  })

  // D8
  app.post('/stamp-cache/score/:address', async (c) => {
    const own = ownPathAddress(c)
    if ('response' in own) return own.response
    const raw = await readJsonBody(c.req.raw)
    if (!raw.success) return raw.response
    const body = parseRequest(calcScorePayloadSchema, raw.data, 'body')
    if (!body.success) return body.response
    try {
      return c.json(internalScore(ctx, own.address, body.data.alternate_scorer_id))
    } catch (error) {
      return fromHttpError(error)
    }
  })

  // D9
  app.get('/stamp-cache/stake/token', (c) => {
    const answer: StakeResponse = { items: ctx.store.stakes(c.var.address) }
    return c.json(answer)
  })

  // D10
  app.get('/stamp-cache/tos/accepted/:tos_type/:address', (c) => {
    const tosType = c.req.param('tos_type')
    const invalid = tosTypeError(tosType)
    if (invalid) return invalid
    const own = ownPathAddress(c)
    if ('response' in own) return own.response
    return c.json({ accepted: ctx.store.tosAccepted(tosType, own.address) })
  })

  // D11
  app.get('/stamp-cache/tos/message-to-sign/:tos_type/:address', (c) => {
    const tosType = c.req.param('tos_type')
    const invalid = tosTypeError(tosType)
    if (invalid) return invalid
    const own = ownPathAddress(c)
    if ('response' in own) return own.response
    const nonce = ctx.store.issueNonce('tos', { ttlMs: nonceTtlMs(), address: own.address, purpose: tosType })
    return c.json({ text: tosMessage(tosType, own.address, nonce), nonce })
  })

  // D12
  app.post('/stamp-cache/tos/signed-message/:tos_type/:address', async (c) => {
    const tosType = c.req.param('tos_type')
    const invalid = tosTypeError(tosType)
    if (invalid) return invalid
    const own = ownPathAddress(c)
    if ('response' in own) return own.response
    const raw = await readJsonBody(c.req.raw)
    if (!raw.success) return raw.response
    const body = parseRequest(tosSignedSchema, raw.data, 'body')
    if (!body.success) return body.response
    if (body.data.tos_type !== tosType) {
      return errorResponse(400, `tos_type "${body.data.tos_type.slice(0, 40)}" does not match the path (${tosType}).`)
    }
    const expect = { address: own.address, purpose: tosType }
    const nonceFailure = ctx.store.checkNonce('tos', body.data.nonce, expect)
    if (nonceFailure) return errorResponse(400, nonceDetail(nonceFailure))
    const check = await verifyWalletSignature({
      address: own.address,
      messages: [tosMessage(tosType, own.address, body.data.nonce)],
      signature: body.data.signature as Hex,
      chainClient,
    })
    if (!check.valid) {
      return check.reason === 'chain-unavailable'
        ? errorResponse(503, 'Could not check the smart-contract wallet signature: the chain is unavailable.')
        : errorResponse(400, 'Invalid signature: the terms were not signed by the address.')
    }
    const consumed = ctx.store.consumeNonce('tos', body.data.nonce, expect)
    if (consumed) return errorResponse(400, nonceDetail(consumed))
    ctx.store.acceptTos(tosType, own.address, ctx.now())
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
