/**
 * The admin API (`/admin`, bearer admin token): puts the reference server into any state for tests
 * and demos. Bodies are validated with zod (422 with a FastAPI-style list on failure). Documented in
 * docs/server.md.
 */
import { randomBytes } from 'node:crypto'
import { Hono, type Context } from 'hono'
import type { Address, Hex } from 'viem'
import { z } from 'zod'
import { addressSchema, decimalLikeSchema, isoTimestampSchema } from '../../schemas/common.js'
import { modelNameSchema } from '../../schemas/model.js'
import { stampIssuerDid } from '../../verify/stamp-credential.js'
import { generateWorld } from '../../world/generate.js'
import { cleanHandsAttester, cleanHandsFullSchemaId, cleanHandsSchemaId, defaultActionIdText, humanIdCircuitIds, humanIdIssuers, verificationLifetimeSeconds, stampLifetimeSeconds } from '../../world/constants.js'
import type { World } from '../../world/types.js'
import type { ServerContext } from '../context.js'
import { InvalidStateError } from '../../errors/input.js'
import { HttpError } from '../errors.js'
import { parseBody, requireAddress } from '../request.js'
import { buildStampCredential } from '../state/credentials.js'
import { createEmptyState, parseState } from '../state/store.js'
import { stateVersion, type ServerState, type StampRecord } from '../state/types.js'
import { stateFromWorld } from '../state/world.js'

const hexSchema = z.string().regex(/^0x[0-9a-fA-F]*$/, 'Expected 0x-prefixed hex')
const lowerAddress = addressSchema.transform((value) => value.toLowerCase() as Address)
const unixSeconds = z.number().int().nonnegative()

const scorerBody = z.strictObject({
  name: z.string().min(1).optional(),
  type: z.enum(['unique-humanity', 'binary']).optional(),
  threshold: decimalLikeSchema.optional(),
  /** Replaces the weights; `weightsPatch` merges (null removes a weight). */
  weights: z.record(z.string(), decimalLikeSchema).optional(),
  weightsPatch: z.record(z.string(), decimalLikeSchema.nullable()).optional(),
  /** Make this scorer the default (first). */
  default: z.boolean().optional(),
})

const apiKeyBody = z.strictObject({
  name: z.string().min(1).optional(),
  tier: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).optional(),
  historyAllowlisted: z.boolean().optional(),
})

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

const verificationBody = z.strictObject({
  address: lowerAddress,
  credential: z.enum(['gov-id', 'phone', 'biometrics']),
  network: z.enum(['optimism', 'base-sepolia']).optional(),
  source: z.enum(['hub', 'legacy-store', 'zk-passport']).optional(),
  circuitId: hexSchema.nullable().optional(),
  actionId: z.string().regex(/^\d+$/).optional(),
  issuer: hexSchema.nullable().optional(),
  nullifier: z.string().regex(/^\d+$/).nullable().optional(),
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
  actionId: z.string().regex(/^\d+$/).optional(),
  circuitId: hexSchema.optional(),
  issuedAt: unixSeconds.optional(),
  expiresAt: unixSeconds.optional(),
  revoked: z.boolean().optional(),
  kind: z.enum(['valid', 'expired', 'revoked', 'custom-action']).optional(),
})

const modelScoresBody = z.partialRecord(modelNameSchema, z.number().int().min(-1).max(100).nullable())

const stakeBody = z.strictObject({
  chain: z.number().int().positive().optional(),
  staker: lowerAddress,
  stakee: lowerAddress,
  amount: decimalLikeSchema,
  lock_time: isoTimestampSchema.optional(),
  unlock_time: isoTimestampSchema.optional(),
  last_updated_in_block: z.number().int().nonnegative().optional(),
})

const roundStakeBody = z.strictObject({
  address: lowerAddress,
  roundId: z.string().min(1),
  stakes: z.array(z.strictObject({ stake: decimalLikeSchema, round: z.strictObject({ id: z.string() }) })).optional(),
  xstakeAggregates: z.array(z.strictObject({ total: decimalLikeSchema, round: z.strictObject({ id: z.string() }) })).optional(),
})

const termsBody = z.strictObject({
  address: lowerAddress,
  tosType: z.string().min(1).optional(),
  acceptedAt: isoTimestampSchema.optional(),
})

const claimBody = z.strictObject({
  scorerId: z.number().int().nonnegative(),
  hash: z.string().min(1),
  owner: lowerAddress,
  expiresAt: isoTimestampSchema,
})

const generateBody = z.strictObject({
  seed: z.string().min(1).optional(),
  wallets: z.number().int().optional(),
  now: isoTimestampSchema.optional(),
})

function queryAddress(c: Context): Address | undefined {
  const value = c.req.query('address')
  if (value === undefined) return undefined
  return requireAddress(value)
}

const newHash = (): string => `v0.0.0:${randomBytes(32).toString('base64')}`
const nullifier = (): string => BigInt(`0x${randomBytes(31).toString('hex')}`).toString()

/**
 * The admin routes (mount at `/admin`, behind {@link adminAuth}).
 *
 * @example
 * app.use('/admin/*', adminAuth({ token: () => ctx.config.adminToken }))
 * app.route('/admin', createAdminRoutes(ctx))
 */
export function createAdminRoutes(ctx: ServerContext): Hono {
  const { store } = ctx
  const app = new Hono()
  const nowSeconds = () => Math.floor(ctx.now() / 1000)
  const keepSecrets = (state: ServerState): ServerState => ({ ...state, secrets: { ...store.state.secrets } })

  // ---- whole state --------------------------------------------------------------------------
  app.get('/state', (c) => c.json(store.toJSON()))

  app.put('/state', async (c) => {
    let next: ServerState
    try {
      next = parseState(await parseBody(c, z.looseObject({ version: z.union([z.literal(1), z.literal(stateVersion)]) })))
    } catch (error) {
      if (error instanceof HttpError) throw error
      if (error instanceof InvalidStateError) {
        throw new HttpError(422, error.problems.map((problem) => ({ loc: ['body', problem.path], msg: problem.message, type: 'value_error' })))
      }
      throw error
    }
    store.replace(keepSecrets(next))
    return c.json({ ok: true, revision: store.revision })
  })

  app.post('/reset', (c) => {
    const empty = createEmptyState(store.state.secrets)
    empty.apiKeys = store.state.apiKeys
    store.replace(empty)
    return c.json({ ok: true, revision: store.revision })
  })

  app.post('/world', async (c) => {
    const raw = await parseBody(c, z.union([z.looseObject({ version: z.literal(1), wallets: z.array(z.unknown()) }), generateBody]))
    let world: World
    try {
      if ('version' in raw) world = raw as unknown as World
      else {
        world = generateWorld({
          ...(raw.seed ? { seed: raw.seed } : {}),
          ...(raw.wallets ? { wallets: raw.wallets } : {}),
          now: raw.now ?? new Date(ctx.now()).toISOString(),
        })
      }
      store.replace(stateFromWorld(world, store.state.secrets))
    } catch (error) {
      throw new HttpError(422, [{ loc: ['body'], msg: (error as Error).message.split('\n')[0] ?? 'Invalid world', type: 'value_error' }])
    }
    return c.json({ ok: true, seed: world.seed, now: world.now, wallets: world.wallets.length, apiKeys: store.state.apiKeys })
  })

  // ---- scorers ------------------------------------------------------------------------------
  app.get('/scorers', (c) => c.json(store.state.scorers))
  app.put('/scorers/:id{[0-9]+}', async (c) => {
    const id = Number(c.req.param('id'))
    const input = await parseBody(c, scorerBody)
    const scorer = store.mutate((state) => {
      let found = state.scorers.find((candidate) => candidate.id === id)
      if (!found) {
        found = { id, name: `Scorer ${id}`, type: 'unique-humanity', threshold: '20', weights: {} }
        state.scorers.push(found)
      }
      if (input.name !== undefined) found.name = input.name
      if (input.type !== undefined) found.type = input.type
      if (input.threshold !== undefined) found.threshold = input.threshold
      // Replace the weights object (never edit it in place: the engine caches by identity).
      if (input.weights !== undefined) found.weights = { ...input.weights }
      if (input.weightsPatch !== undefined) {
        const weights = { ...found.weights }
        for (const [name, weight] of Object.entries(input.weightsPatch)) {
          if (weight === null) delete weights[name]
          else weights[name] = weight
        }
        found.weights = weights
      }
      if (input.default) state.scorers = [found, ...state.scorers.filter((candidate) => candidate !== found)]
      return found
    })
    return c.json(scorer)
  })
  app.delete('/scorers/:id{[0-9]+}', (c) => {
    const id = Number(c.req.param('id'))
    if (!store.findScorer(id)) throw new HttpError(404, `No scorer ${id}.`)
    store.mutate((state) => {
      state.scorers = state.scorers.filter((scorer) => scorer.id !== id)
      delete state.claims[id]
      delete state.history[id]
      delete state.submissions[id]
    })
    return c.body(null, 204)
  })

  // ---- API keys -----------------------------------------------------------------------------
  app.get('/api-keys', (c) => c.json(store.state.apiKeys))
  app.put('/api-keys/:key', async (c) => {
    const key = c.req.param('key')
    const input = await parseBody(c, apiKeyBody)
    const apiKey = store.mutate((state) => {
      let found = state.apiKeys.find((candidate) => candidate.key === key)
      if (!found) {
        found = { key, name: input.name ?? 'key', tier: 1, historyAllowlisted: false }
        state.apiKeys.push(found)
      }
      if (input.name !== undefined) found.name = input.name
      if (input.tier !== undefined) found.tier = input.tier
      if (input.historyAllowlisted !== undefined) found.historyAllowlisted = input.historyAllowlisted
      return found
    })
    return c.json(apiKey)
  })
  app.delete('/api-keys/:key', (c) => {
    const key = c.req.param('key')
    if (!store.state.apiKeys.some((candidate) => candidate.key === key)) throw new HttpError(404, 'No such API key.')
    store.mutate((state) => {
      state.apiKeys = state.apiKeys.filter((candidate) => candidate.key !== key)
    })
    return c.body(null, 204)
  })

  // ---- stamp issuers ------------------------------------------------------------------------
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

  // ---- stamps -------------------------------------------------------------------------------
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

  // ---- dedup claims -------------------------------------------------------------------------
  app.get('/claims/:scorer_id{[0-9]+}', (c) => c.json(store.state.claims[c.req.param('scorer_id')] ?? {}))
  app.put('/claims', async (c) => {
    const input = await parseBody(c, claimBody)
    const claim = { owner: input.owner, expiresAt: Date.parse(input.expiresAt) }
    store.mutate((state) => {
      ;(state.claims[input.scorerId] ??= {})[input.hash] = claim
    })
    return c.json(claim)
  })

  // ---- Human ID verifications ----------------------------------------------------------------
  app.get('/verifications', (c) => {
    const address = queryAddress(c)
    return c.json(address ? store.verifications(address) : store.state.verifications)
  })
  app.post('/verifications', async (c) => {
    const input = await parseBody(c, verificationBody)
    const source = input.source ?? 'hub'
    const legacy = source === 'legacy-store'
    const issuedAt = input.issuedAt ?? nowSeconds()
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
      revokedAt: input.revokedAt ?? (input.revoked ? nowSeconds() : null),
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

  // ---- clean-hands attestations (E8 rows) and SBTs (E7) --------------------------------------
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
      validUntil: input.validUntil ?? nowSeconds() + verificationLifetimeSeconds,
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
    const issuedAt = input.issuedAt ?? nowSeconds()
    const sbt = {
      chain: input.chain,
      address: input.address,
      actionId: input.actionId ?? defaultActionIdText,
      circuitId: (input.circuitId ?? humanIdCircuitIds['clean-hands']) as `0x${string}`,
      issuedAt,
      expiresAt: input.expiresAt ?? issuedAt + verificationLifetimeSeconds,
      revoked: input.revoked ?? false,
      kind: input.kind ?? (input.revoked ? 'revoked' : 'valid'),
    }
    store.mutate((state) => {
      state.cleanHandsSbts = state.cleanHandsSbts.filter((entry) => !(entry.chain === sbt.chain && entry.address === sbt.address && entry.actionId === sbt.actionId))
      state.cleanHandsSbts.push(sbt)
    })
    return c.json(sbt, 201)
  })

  // ---- model scores, stakes, terms ------------------------------------------------------------
  app.put('/model-scores/:address', async (c) => {
    const address = requireAddress(c.req.param('address'))
    const input = await parseBody(c, modelScoresBody)
    const scores = store.mutate((state) => {
      const entry = { ...(state.modelScores[address] ?? {}) }
      for (const [model, score] of Object.entries(input)) {
        if (score === null) delete entry[model as keyof typeof entry]
        else entry[model as keyof typeof entry] = score
      }
      if (Object.keys(entry).length) state.modelScores[address] = entry
      else delete state.modelScores[address]
      return entry
    })
    return c.json(scores)
  })
  app.post('/stakes', async (c) => {
    const input = await parseBody(c, stakeBody)
    const lockTime = input.lock_time ?? new Date(ctx.now()).toISOString()
    const stake = {
      chain: input.chain ?? 10,
      staker: input.staker,
      stakee: input.stakee,
      amount: input.amount,
      lock_time: lockTime,
      unlock_time: input.unlock_time ?? new Date(Date.parse(lockTime) + 90 * 86_400_000).toISOString(),
      last_updated_in_block: input.last_updated_in_block ?? Math.max(0, Math.floor((nowSeconds() - ctx.blockTime().genesisTime) / ctx.blockTime().blockTimeSeconds)),
    }
    store.mutate((state) => {
      state.stakes = state.stakes.filter((entry) => !(entry.chain === stake.chain && entry.staker === stake.staker && entry.stakee === stake.stakee))
      state.stakes.push(stake)
    })
    return c.json(stake, 201)
  })
  app.delete('/stakes', (c) => {
    const address = queryAddress(c)
    if (!address) throw new HttpError(422, [{ loc: ['query', 'address'], msg: 'Field required', type: 'missing' }])
    const removed = store.mutate((state) => {
      const before = state.stakes.length
      state.stakes = state.stakes.filter((entry) => entry.staker !== address && entry.stakee !== address)
      return before - state.stakes.length
    })
    return c.json({ deleted: removed })
  })
  app.post('/round-stakes', async (c) => {
    const input = await parseBody(c, roundStakeBody)
    const record = {
      address: input.address,
      roundId: input.roundId,
      stakes: input.stakes ?? [],
      xstakeAggregates: input.xstakeAggregates ?? [],
    }
    store.mutate((state) => {
      state.roundStakes = state.roundStakes.filter((entry) => !(entry.address === record.address && entry.roundId === record.roundId))
      state.roundStakes.push(record)
    })
    return c.json(record, 201)
  })
  app.post('/terms', async (c) => {
    const input = await parseBody(c, termsBody)
    const acceptance = { tosType: input.tosType ?? 'IST', address: input.address, acceptedAt: input.acceptedAt ?? new Date(ctx.now()).toISOString() }
    store.mutate((state) => {
      state.tosAcceptances = state.tosAcceptances.filter((entry) => !(entry.address === acceptance.address && entry.tosType === acceptance.tosType))
      state.tosAcceptances.push(acceptance)
    })
    return c.json(acceptance, 201)
  })
  app.delete('/terms', (c) => {
    const address = queryAddress(c)
    if (!address) throw new HttpError(422, [{ loc: ['query', 'address'], msg: 'Field required', type: 'missing' }])
    const tosType = c.req.query('tosType')
    const removed = store.mutate((state) => {
      const before = state.tosAcceptances.length
      state.tosAcceptances = state.tosAcceptances.filter((entry) => !(entry.address === address && (!tosType || entry.tosType === tosType)))
      return before - state.tosAcceptances.length
    })
    return c.json({ deleted: removed })
  })

  return app
}
