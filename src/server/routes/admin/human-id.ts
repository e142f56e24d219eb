/** Admin routes of Human ID: verifications (E1-E6 SBTs), clean-hands attestations (E8 rows) and SBTs on other chains (E7). */
import { randomBytes } from 'node:crypto'
import type { Hono } from 'hono'
import { z } from 'zod'
import { cleanHandsAttester, cleanHandsFullSchemaId, cleanHandsSchemaId, defaultActionIdText, humanIdCircuitIds, humanIdIssuers, verificationLifetimeSeconds } from '../../../world/constants.js'
import type { ServerContext } from '../../context.js'
import { HttpError } from '../../errors.js'
import { parseBody } from '../../request.js'
import { recordActionIdSchema, recordIssuerSchema, recordNullifierSchema } from '../../state/schema.js'
import { hexSchema, lowerAddress, nowSeconds, queryAddress, unixSeconds } from './common.js'

const verificationBody = z.strictObject({
  address: lowerAddress,
  credential: z.enum(['gov-id', 'phone', 'biometrics']),
  network: z.enum(['optimism', 'base-sepolia']).optional(),
  source: z.enum(['hub', 'legacy-store', 'zk-passport']).optional(),
  circuitId: hexSchema.nullable().optional(),
  actionId: recordActionIdSchema.optional(),
  issuer: recordIssuerSchema.nullable().optional(),
  nullifier: recordNullifierSchema.nullable().optional(),
  emptyPublicValues: z.boolean().optional(),
  issuedAt: unixSeconds.optional(),
  expiresAt: unixSeconds.nullable().optional(),
  revoked: z.boolean().optional(),
  revokedAt: unixSeconds.nullable().optional(),
  kind: z
    .enum(['valid', 'expired', 'revoked', 'custom-action', 'sandbox', 'sandbox-empty-public-values', 'legacy-store', 'zk-passport', 'wrong-issuer'])
    .optional(),
})

const attestationBody = z.strictObject({
  attestationId: hexSchema.optional(),
  address: lowerAddress,
  fullSchemaId: z.string().min(1).optional(),
  schemaId: z.string().min(1).optional(),
  attester: z.string().min(1).optional(),
  isReceiver: z.boolean().optional(),
  revoked: z.boolean().optional(),
  validUntil: z.union([z.number(), z.string()]).optional(),
  attestTimestamp: z.number().int().nonnegative().optional(),
  recipients: z.array(z.string()).optional(),
  kind: z
    .enum(['valid', 'valid-attester-case', 'wrong-attester', 'wrong-schema', 'wrong-chain-schema', 'revoked', 'expired', 'valid-until-now', 'valid-until-zero', 'not-receiver'])
    .optional(),
})

const cleanHandsSbtBody = z.strictObject({
  chain: z.enum(['near', 'aptos']),
  address: z.string().min(1),
  actionId: recordActionIdSchema.optional(),
  circuitId: hexSchema.optional(),
  issuedAt: unixSeconds.optional(),
  expiresAt: unixSeconds.optional(),
  revoked: z.boolean().optional(),
  revokedAt: unixSeconds.nullable().optional(),
  kind: z.enum(['valid', 'expired', 'revoked', 'custom-action']).optional(),
})

const nullifier = (): string => BigInt(`0x${randomBytes(31).toString('hex')}`).toString()

/** `/verifications`, `/attestations` and `/clean-hands-sbts`. */
export function addHumanIdRoutes(app: Hono, ctx: ServerContext): void {
  const { store } = ctx
  app.get('/verifications', (c) => {
    const address = queryAddress(c)
    return c.json(address ? store.verifications(address) : store.state.verifications)
  })
  app.post('/verifications', async (c) => {
    const input = await parseBody(c, verificationBody)
    const source = input.source ?? 'hub'
    const legacy = source === 'legacy-store'
    const issuedAt = input.issuedAt ?? nowSeconds(ctx)
    const circuit = source === 'zk-passport' ? 'zk-passport' : input.credential
    const issuerKey = source === 'zk-passport' ? 'zk-passport' : input.credential
    const verification = {
      address: input.address,
      credential: input.credential,
      network: input.network ?? 'optimism',
      source,
      circuitId: (input.circuitId !== undefined ? input.circuitId : legacy ? null : humanIdCircuitIds[circuit]) as `0x${string}` | null,
      actionId: input.actionId ?? defaultActionIdText,
      issuer: (input.issuer !== undefined ? input.issuer : legacy ? null : humanIdIssuers[issuerKey]) as `0x${string}` | null,
      nullifier: input.nullifier !== undefined ? input.nullifier : legacy ? null : nullifier(),
      emptyPublicValues: input.emptyPublicValues ?? false,
      issuedAt,
      expiresAt: input.expiresAt !== undefined ? input.expiresAt : legacy ? null : issuedAt + verificationLifetimeSeconds,
      revoked: input.revoked ?? false,
      revokedAt: input.revokedAt ?? (input.revoked ? nowSeconds(ctx) : null),
      kind: input.kind ?? (legacy ? 'legacy-store' : input.revoked ? 'revoked' : 'valid'),
    } as const
    store.mutate((state) => {
      // One SBT per address, circuit and network: a new one replaces the old.
      state.verifications = state.verifications.filter(
        (entry) =>
          !(entry.address === verification.address && entry.credential === verification.credential && entry.network === verification.network && entry.source === verification.source),
      )
      state.verifications.push(verification)
    })
    return c.json(verification, 201)
  })
  app.delete('/verifications', (c) => {
    const address = queryAddress(c)
    if (!address) throw new HttpError(422, [{ loc: ['query', 'address'], msg: 'Field required', type: 'missing' }])
    const credential = c.req.query('credential')
    const removed = store.mutate((state) => {
      const before = state.verifications.length
      state.verifications = state.verifications.filter((entry) => !(entry.address === address && (!credential || entry.credential === credential)))
      return before - state.verifications.length
    })
    return c.json({ deleted: removed })
  })

  app.get('/attestations', (c) => {
    const address = queryAddress(c)
    return c.json(address ? store.attestations(address) : store.state.attestations)
  })
  app.post('/attestations', async (c) => {
    const input = await parseBody(c, attestationBody)
    const row = {
      attestationId: (input.attestationId ?? `0x${(0x10000 + store.state.attestations.length).toString(16)}`) as `0x${string}`,
      address: input.address,
      fullSchemaId: input.fullSchemaId ?? cleanHandsFullSchemaId,
      schemaId: input.schemaId ?? cleanHandsSchemaId,
      attester: input.attester ?? cleanHandsAttester,
      isReceiver: input.isReceiver ?? true,
      revoked: input.revoked ?? false,
      validUntil: input.validUntil ?? nowSeconds(ctx) + verificationLifetimeSeconds,
      attestTimestamp: input.attestTimestamp ?? ctx.now(),
      recipients: input.recipients ?? [input.address],
      kind: input.kind ?? 'valid',
    }
    store.mutate((state) => {
      state.attestations = state.attestations.filter((entry) => !(entry.attestationId === row.attestationId && entry.address === row.address))
      state.attestations.push(row)
    })
    return c.json(row, 201)
  })
  app.delete('/attestations', (c) => {
    const address = queryAddress(c)
    const attestationId = c.req.query('attestationId')
    if (!address && !attestationId) throw new HttpError(422, [{ loc: ['query', 'address'], msg: 'Field required', type: 'missing' }])
    const removed = store.mutate((state) => {
      const before = state.attestations.length
      state.attestations = state.attestations.filter(
        (entry) => !((!address || entry.address === address) && (!attestationId || entry.attestationId === attestationId)),
      )
      return before - state.attestations.length
    })
    return c.json({ deleted: removed })
  })
  app.post('/clean-hands-sbts', async (c) => {
    const input = await parseBody(c, cleanHandsSbtBody)
    const issuedAt = input.issuedAt ?? nowSeconds(ctx)
    const sbt = {
      chain: input.chain,
      address: input.address,
      actionId: input.actionId ?? defaultActionIdText,
      circuitId: (input.circuitId ?? humanIdCircuitIds['clean-hands']) as `0x${string}`,
      issuedAt,
      expiresAt: input.expiresAt ?? issuedAt + verificationLifetimeSeconds,
      revoked: input.revoked ?? false,
      revokedAt: input.revokedAt ?? (input.revoked ? nowSeconds(ctx) : null),
      kind: input.kind ?? (input.revoked ? 'revoked' : 'valid'),
    }
    store.mutate((state) => {
      state.cleanHandsSbts = state.cleanHandsSbts.filter((entry) => !(entry.chain === sbt.chain && entry.address === sbt.address && entry.actionId === sbt.actionId))
      state.cleanHandsSbts.push(sbt)
    })
    return c.json(sbt, 201)
  })
}
