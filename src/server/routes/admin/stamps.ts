/** Admin routes of the stamps: issuers (trusted or not, with their keys), stamps built and signed or stored raw, dedup claims. */
import { randomBytes } from 'node:crypto'
import type { Hono } from 'hono'
import type { Hex } from 'viem'
import { z } from 'zod'
import { isoTimestampSchema } from '../../../schemas/common.js'
import { stampIssuerDid } from '../../../verify/stamp-credential.js'
import { stampLifetimeSeconds } from '../../../world/constants.js'
import type { ServerContext } from '../../context.js'
import { HttpError } from '../../errors.js'
import { parseBody, requireAddress } from '../../request.js'
import { buildStampCredential } from '../../state/credentials.js'
import type { StampRecord } from '../../state/types.js'
import { lowerAddress } from './common.js'

const issuerBody = z.strictObject({
  trusted: z.boolean(),
  /** The issuer's Ed25519 key: 32 bytes. */
  privateKey: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'Expected 0x and 64 hex digits (an Ed25519 key)').optional(),
})

const stampBody = z.strictObject({
  address: lowerAddress,
  provider: z.string().min(1),
  hash: z.string().min(1).optional(),
  issuer: z.string().min(1).optional(),
  issuanceDate: isoTimestampSchema.optional(),
  expirationDate: isoTimestampSchema.optional(),
  /** A raw credential JSON to store as is (then hash/issuer/dates are ignored). */
  stamp: z.json().optional(),
  /** `append` (default) keeps the address's other stamps of the provider; `replace` drops them. */
  mode: z.enum(['append', 'replace']).optional(),
  store_save_status: z.enum(['pending', 'saved', 'failed']).optional(),
})

const claimBody = z.strictObject({
  scorerId: z.number().int().nonnegative(),
  hash: z.string().min(1),
  owner: lowerAddress,
  expiresAt: isoTimestampSchema,
})

const newHash = (): string => `v0.0.0:${randomBytes(32).toString('base64')}`

/** `/stamp-issuers`, `/stamps` and `/claims`. */
export function addStampRoutes(app: Hono, ctx: ServerContext): void {
  const { store } = ctx
  app.get('/stamp-issuers', (c) => c.json(store.state.stampIssuers.map(({ did, trusted }) => ({ did, trusted }))))
  app.put('/stamp-issuers/:did', async (c) => {
    const did = c.req.param('did')
    const input = await parseBody(c, issuerBody)
    if (input.privateKey !== undefined && stampIssuerDid(input.privateKey as Hex) !== did) {
      throw new HttpError(422, [{ loc: ['body', 'privateKey'], msg: `Not the Ed25519 key of ${did}`, type: 'value_error' }])
    }
    store.mutate((state) => {
      const others = state.stampIssuers.filter((issuer) => issuer.did !== did)
      const existing = state.stampIssuers.find((issuer) => issuer.did === did)
      const privateKey = (input.privateKey as Hex | undefined) ?? existing?.privateKey
      state.stampIssuers = [...others, { did, trusted: input.trusted, ...(privateKey ? { privateKey } : {}) }]
    })
    return c.json({ did, trusted: input.trusted })
  })
  app.post('/stamp-issuers', async (c) => {
    const input = await parseBody(c, issuerBody)
    const privateKey = (input.privateKey ?? `0x${randomBytes(32).toString('hex')}`) as Hex
    const did = stampIssuerDid(privateKey)
    store.mutate((state) => {
      state.stampIssuers = [...state.stampIssuers.filter((issuer) => issuer.did !== did), { did, trusted: input.trusted, privateKey }]
    })
    return c.json({ did, trusted: input.trusted }, 201)
  })

  app.get('/stamps/:address', (c) => {
    const address = requireAddress(c.req.param('address'))
    return c.json(store.stampRecords(address))
  })
  app.post('/stamps', async (c) => {
    const input = await parseBody(c, stampBody)
    let stamp: unknown = input.stamp
    if (stamp === undefined) {
      const issuer = input.issuer
        ? store.state.stampIssuers.find((candidate) => candidate.did === input.issuer)
        : store.state.stampIssuers.find((candidate) => candidate.trusted && candidate.privateKey)
      if (!issuer) throw new HttpError(422, [{ loc: ['body', 'issuer'], msg: 'Unknown stamp issuer (add it with POST /admin/stamp-issuers)', type: 'value_error' }])
      if (!issuer.privateKey || stampIssuerDid(issuer.privateKey) !== issuer.did) {
        throw new HttpError(422, [{ loc: ['body', 'issuer'], msg: 'The server does not hold this issuer\'s key', type: 'value_error' }])
      }
      const issuedAt = input.issuanceDate ? Date.parse(input.issuanceDate) : ctx.now()
      const expiresAt = input.expirationDate ? Date.parse(input.expirationDate) : issuedAt + stampLifetimeSeconds * 1000
      stamp = buildStampCredential(
        {
          address: input.address,
          provider: input.provider,
          hash: input.hash ?? newHash(),
          issuer: issuer.did,
          issuanceDate: new Date(issuedAt).toISOString(),
          expirationDate: new Date(expiresAt).toISOString(),
        },
        issuer.privateKey,
      )
    }
    const record = store.mutate((state) => {
      const existing = state.stamps[input.address] ?? []
      const kept = input.mode === 'replace' ? existing.filter((entry) => entry.provider !== input.provider) : existing
      const created: StampRecord = {
        id: state.nextStampId++,
        address: input.address,
        provider: input.provider,
        stamp,
        store_save_status: input.store_save_status ?? 'saved',
        store_stream_id: null,
        createdAt: ctx.now(),
      }
      state.stamps[input.address] = [...kept, created]
      return created
    })
    return c.json(record, 201)
  })
  app.delete('/stamps/:address', (c) => {
    const address = requireAddress(c.req.param('address'))
    const provider = c.req.query('provider')
    const deleted = provider
      ? store.deleteStamps(address, [provider])
      : store.deleteStamps(address, store.stampRecords(address).map((record) => record.provider))
    return c.json({ deleted: deleted.map((record) => record.id) })
  })

  app.get('/claims/:scorer_id{[0-9]+}', (c) => c.json(store.state.claims[c.req.param('scorer_id')] ?? {}))
  app.put('/claims', async (c) => {
    const input = await parseBody(c, claimBody)
    const claim = { owner: input.owner, expiresAt: Date.parse(input.expiresAt) }
    store.mutate((state) => {
      ;(state.claims[input.scorerId] ??= {})[input.hash] = claim
    })
    return c.json(claim)
  })
}
