/**
 * The shape of a saved server state, checked field by field when a state file is loaded: a file
 * with a wrong-typed field is refused at start (naming the field), never served as 500s later.
 * The records the world generates (keys, verifications, attestations...) are held to their types;
 * stamps stay any JSON (the cache stores what clients post), and score records in the history are
 * held to the A1 shape.
 */
import { z } from 'zod'
import { v2ScoreSchema } from '../../schemas/passport.js'
import { isValidAddress } from '../../utils/address.js'
import { recordActionId, recordDecimal, recordHex } from '../../world/hub-state.js'
import { recordRead } from './history.js'
import { stateVersion, type HistoryRun, type ServerState } from './types.js'

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'Expected 0x-prefixed hex')
const address = z.string().refine(isValidAddress, 'Expected an address (0x and 40 hex characters; mixed case a valid EIP-55 checksum)')
const unixMs = z.number().finite()

/** An action id of a world record, as the Hub holds it (`world/hub-state.ts`): decimal digits of a uint256. */
export const recordActionIdSchema = z.string().refine((value) => recordActionId(value) !== undefined, 'Expected a decimal action id (a uint256)')
/** A nullifier of a world record, as the Hub holds it: decimal digits of a uint256. */
export const recordNullifierSchema = z.string().refine((value) => recordDecimal(value) !== undefined, 'Expected a decimal nullifier (a uint256)')
/** An issuer of a world record, as the Hub holds it: a uint256 in 0x hex. */
export const recordIssuerSchema = z.string().refine((value) => recordHex(value) !== undefined, 'Expected an issuer in 0x hex (a uint256)')
const unixSeconds = z.number().finite()
const count = z.number().int().nonnegative()

const nonce = z.object({
  issuedAt: unixMs,
  expiresAt: unixMs.nullable(),
  usedAt: unixMs.nullable(),
  address: address.nullable().optional(),
  purpose: z.string().optional(),
})

const historyRun = z
  .object({ record: v2ScoreSchema, start: unixMs, offsets: z.array(count).min(1) })
  .superRefine((run, ctx) => {
    if (run.offsets[0] !== 0) ctx.addIssue({ code: 'custom', path: ['offsets', 0], message: 'The first read of a run is at offset 0' })
    const unordered = run.offsets.findIndex((offset, index) => index > 0 && offset < run.offsets[index - 1]!)
    if (unordered !== -1) ctx.addIssue({ code: 'custom', path: ['offsets', unordered], message: 'The offsets of a run are ascending' })
  })

/** The A2 history as version 1 kept it: one event per read. */
const historyV1 = z.record(z.string(), z.record(z.string(), z.array(z.object({ at: unixMs, record: v2ScoreSchema }))))

const submissionResult = z.object({
  rawScore: z.string(),
  threshold: z.string(),
  passing: z.boolean(),
  stampScores: z.record(z.string(), z.string()),
  expiresAt: unixMs.nullable(),
  error: z.string().nullable(),
})

/** An API key of the state (and of `createServer({ apiKeys })`). */
export const apiKeySchema = z.object({ key: z.string().min(1), name: z.string(), tier: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]), historyAllowlisted: z.boolean() })

/** A saved server state (version {@link stateVersion}). */
export const serverStateSchema = z.object({
  version: z.literal(stateVersion),
  secrets: z.object({ adminToken: z.string().min(1), jwtSecret: z.string().min(1) }),
  origin: z.object({ seed: z.string().nullable(), worldNow: z.string().nullable() }),
  chain: z.object({ chainId: z.number().int().positive(), genesisTime: unixSeconds, blockTimeSeconds: z.number().positive() }),
  stampProviders: z.array(
    z.object({
      id: z.string(),
      icon: z.string(),
      name: z.string(),
      description: z.string(),
      connectMessage: z.string(),
      groups: z.array(z.object({ name: z.string(), stamps: z.array(z.object({ name: z.string(), description: z.string(), hash: z.string() })) })),
    }),
  ),
  stampIssuers: z.array(z.object({ did: z.string().min(1), trusted: z.boolean(), privateKey: hex })),
  scorers: z.array(
    z.object({
      id: z.number().int().positive(),
      name: z.string(),
      type: z.enum(['unique-humanity', 'binary']),
      threshold: z.string().regex(/^\d+(\.\d+)?$/, 'Expected a decimal string'),
      weights: z.record(z.string(), z.string().regex(/^\d+(\.\d+)?$/, 'Expected a decimal string')),
    }),
  ),
  apiKeys: z.array(apiKeySchema),
  stamps: z.record(
    z.string(),
    z.array(
      z.object({
        id: count,
        address,
        provider: z.string(),
        stamp: z.unknown(),
        store_save_status: z.enum(['pending', 'saved', 'failed']),
        store_stream_id: z.string().nullable(),
        createdAt: unixMs,
      }),
    ),
  ),
  nextStampId: count,
  claims: z.record(z.string(), z.record(z.string(), z.object({ owner: address, expiresAt: unixMs }))),
  history: z.record(z.string(), z.record(z.string(), z.array(historyRun))),
  submissions: z.record(
    z.string(),
    z.record(z.string(), z.object({ address, seq: count, submittedAt: unixMs, doneAt: unixMs, result: submissionResult })),
  ),
  nextSubmissionSeq: count,
  signingNonces: z.record(z.string(), nonce),
  tosNonces: z.record(z.string(), nonce),
  siweNonces: z.record(z.string(), nonce),
  modelScores: z.record(z.string(), z.record(z.string(), z.number())),
  stakes: z.array(
    z.object({ chain: z.number().int(), staker: address, stakee: address, amount: z.string(), lock_time: z.string(), unlock_time: z.string(), last_updated_in_block: count }),
  ),
  roundStakes: z.array(
    z.object({
      address,
      roundId: z.string(),
      stakes: z.array(z.object({ stake: z.string(), round: z.object({ id: z.string() }) })),
      xstakeAggregates: z.array(z.object({ total: z.string(), round: z.object({ id: z.string() }) })),
    }),
  ),
  tosAcceptances: z.array(z.object({ tosType: z.string(), address, acceptedAt: z.string() })),
  verifications: z.array(
    z.looseObject({
      address,
      credential: z.enum(['gov-id', 'phone', 'biometrics']),
      network: z.enum(['optimism', 'base-sepolia']),
      source: z.enum(['hub', 'legacy-store', 'zk-passport']),
      circuitId: hex.nullable(),
      actionId: recordActionIdSchema,
      issuer: recordIssuerSchema.nullable(),
      nullifier: recordNullifierSchema.nullable(),
      emptyPublicValues: z.boolean(),
      issuedAt: unixSeconds,
      expiresAt: unixSeconds.nullable(),
      revoked: z.boolean(),
      revokedAt: unixSeconds.nullable(),
      kind: z.string(),
    }),
  ),
  attestations: z.array(
    z.looseObject({
      attestationId: hex,
      address,
      fullSchemaId: z.string(),
      schemaId: z.string(),
      attester: z.string(),
      isReceiver: z.boolean(),
      revoked: z.boolean(),
      validUntil: z.union([z.number(), z.string()]),
      attestTimestamp: z.number(),
      recipients: z.array(z.string()),
      kind: z.string(),
    }),
  ),
  cleanHandsSbts: z.array(
    z.object({
      chain: z.enum(['near', 'aptos']),
      address: z.string(),
      actionId: recordActionIdSchema,
      circuitId: hex,
      issuedAt: unixSeconds,
      expiresAt: unixSeconds,
      revoked: z.boolean(),
      // Optional: a state saved before it was kept has none (such a revoked SBT is revoked from its issuance).
      revokedAt: unixSeconds.nullable().optional(),
      kind: z.enum(['valid', 'expired', 'revoked', 'custom-action']),
    }),
  ),
  // Optional: a state saved before it was kept has none.
  onchainPassports: z
    .array(
      z.object({
        address,
        score: z.string().regex(/^\d+\.\d{4}$/),
        pushedAt: unixSeconds,
        expiresAt: unixSeconds,
        revokedAt: unixSeconds.nullable(),
      }),
    )
    .default([]),
  demoAccounts: z.array(z.looseObject({ story: z.string(), description: z.string(), address, privateKey: hex })),
})

/** Where a saved state is wrong: the first problem's path (e.g. `scorers[0].threshold`) and what is wrong. */
export type StateProblem = { path: string; message: string }

/**
 * Converts a parsed state of version 1 (its A2 history one event per read) to this version (runs of
 * identical records); other values are returned as they are.
 *
 * @returns the value to check, or the problems of a version 1 history that cannot be read.
 */
export function upgradeState(value: Record<string, unknown>): { ok: true; value: Record<string, unknown> } | { ok: false; problems: StateProblem[] } {
  if (value.version !== 1) return { ok: true, value }
  const parsed = historyV1.safeParse(value.history ?? {})
  if (!parsed.success) return { ok: false, problems: problemsOf(parsed.error.issues, ['history']) }
  const history: ServerState['history'] = {}
  for (const [scorerId, addresses] of Object.entries(parsed.data)) {
    const book: Record<string, HistoryRun[]> = (history[scorerId] = {})
    for (const [address, events] of Object.entries(addresses)) {
      for (const event of events) recordRead((book[address] ??= []), event.at, event.record)
    }
  }
  return { ok: true, value: { ...value, version: stateVersion, history } }
}

function problemsOf(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): StateProblem[] {
  return issues.slice(0, 5).map((issue) => ({
    path: [...prefix, ...issue.path].reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '') || '(root)',
    message: issue.message,
  }))
}

/**
 * Checks a parsed state file against {@link serverStateSchema}.
 *
 * @returns the state, or the problems (at most 5) with their paths.
 */
export function checkServerState(value: unknown): { ok: true; state: ServerState } | { ok: false; problems: StateProblem[] } {
  const parsed = serverStateSchema.safeParse(value)
  if (parsed.success) return { ok: true, state: value as ServerState }
  return { ok: false, problems: problemsOf(parsed.error.issues) }
}
