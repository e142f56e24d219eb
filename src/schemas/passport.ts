import { z } from 'zod'
import {
  decimalLikeSchema,
  expectedError,
  isoTimestampSchema,
  parseIsoTimestamp,
  queryBooleanSchema,
  queryIntegerSchema,
  v2DecimalSchema,
} from './common.js'

// ---------------------------------------------------------------------------------------------
// A1: score record
// ---------------------------------------------------------------------------------------------

/**
 * A1 stamp score entry as our server emits it: `{ score: "0.73300", dedup, expiration_date, source_wallet?, reason? }`.
 * `reason` (our server's extension) says why a stored stamp is listed at 0 although it is not dedup'ed.
 */
export const v2StampScoreSchema = z.object({
  score: v2DecimalSchema,
  dedup: z.boolean(),
  expiration_date: isoTimestampSchema.nullable(),
  source_wallet: z.string().nullable().optional(),
  reason: z.string().optional(),
})
/** One stamp's entry in a score record: `{ score, dedup, expiration_date, source_wallet?, reason? }`. */
export type V2StampScore = z.output<typeof v2StampScoreSchema>

/** A1 stamp score entry as the services send it (score as a string or number); normalized to {@link V2StampScore}. */
export const v2StampScoreResponseSchema = z
  .object({
    score: decimalLikeSchema,
    dedup: z.boolean(),
    expiration_date: isoTimestampSchema.nullable(),
    source_wallet: z.string().nullish(),
    reason: z.string().nullish(),
  })
  .transform(({ source_wallet, reason, ...entry }): V2StampScore => ({
    ...entry,
    ...(source_wallet === undefined ? {} : { source_wallet }),
    ...(typeof reason === 'string' ? { reason } : {}),
  }))
/** What {@link v2StampScoreResponseSchema} accepts. */
export type V2StampScoreResponseInput = z.input<typeof v2StampScoreResponseSchema>

/** A1 score record as our server emits it (decimals with exactly 5 places). */
export const v2ScoreSchema = z.object({
  address: z.string(),
  score: v2DecimalSchema,
  passing_score: z.boolean(),
  threshold: v2DecimalSchema,
  last_score_timestamp: isoTimestampSchema.nullable(),
  expiration_timestamp: isoTimestampSchema.nullable(),
  error: z.string().nullable(),
  stamps: z.record(z.string(), v2StampScoreSchema),
})
/** A score record (A1, one item of A2): the score and threshold as exact decimal strings, `passing_score`, timestamps and stamp scores. */
export type V2Score = z.output<typeof v2ScoreSchema>

/**
 * A1 score record as the services send it, normalized to {@link V2Score}. Accepts the current shape
 * and the earlier revision (`pass` for `passing_score`, `stamp_scores` name->decimal for `stamps`,
 * whose entries get `dedup: false, expiration_date: null`); `threshold` and scores as strings or
 * numbers (kept as plain decimal strings, every digit kept); null or absent `error`, timestamps and
 * maps (absent `stamps` and `stamp_scores` together is an error).
 */
export const v2ScoreResponseSchema = z
  .object({
    address: z.string(),
    score: decimalLikeSchema,
    passing_score: z.boolean().optional(),
    pass: z.boolean().optional(),
    threshold: decimalLikeSchema,
    last_score_timestamp: isoTimestampSchema.nullish(),
    expiration_timestamp: isoTimestampSchema.nullish(),
    error: z.string().nullish(),
    stamps: z.record(z.string(), v2StampScoreResponseSchema).nullish(),
    stamp_scores: z.record(z.string(), decimalLikeSchema).nullish(),
  })
  .transform((raw, ctx): V2Score => {
    const passing = raw.passing_score ?? raw.pass
    if (passing === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: raw,
        path: ['passing_score'],
        message: 'Invalid input: expected boolean passing_score (or pass), received undefined',
      })
    }
    let stamps: Record<string, V2StampScore> | undefined
    if (raw.stamps) stamps = raw.stamps
    else if (raw.stamp_scores) {
      stamps = Object.fromEntries(
        Object.entries(raw.stamp_scores).map(([name, score]) => [name, { score, dedup: false, expiration_date: null }]),
      )
    } else if (raw.stamps === null || raw.stamp_scores === null) stamps = {}
    else {
      ctx.issues.push({
        code: 'custom',
        input: raw,
        path: ['stamps'],
        message: 'Invalid input: expected object stamps (or stamp_scores), received undefined',
      })
    }
    if (passing === undefined || stamps === undefined) return z.NEVER
    return {
      address: raw.address,
      score: raw.score,
      passing_score: passing,
      threshold: raw.threshold,
      last_score_timestamp: raw.last_score_timestamp ?? null,
      expiration_timestamp: raw.expiration_timestamp ?? null,
      error: raw.error ?? null,
      stamps,
    }
  })
/** What {@link v2ScoreResponseSchema} accepts. */
export type V2ScoreResponseInput = z.input<typeof v2ScoreResponseSchema>

// ---------------------------------------------------------------------------------------------
// A2: history
// ---------------------------------------------------------------------------------------------

/** A2 historical score response as our server emits it: `{ items: [score record] }`. */
export const v2ScoreHistorySchema = z.object({ items: z.array(v2ScoreSchema) })
/** A score history answer (A2), normalized to `{ items: [score record] }`. */
export type V2ScoreHistory = z.output<typeof v2ScoreHistorySchema>

/** What {@link v2ScoreHistoryResponseSchema} accepts: the spec's `{ items }` or one bare score record. */
export type V2ScoreHistoryResponseInput = { items: V2ScoreResponseInput[] } | V2ScoreResponseInput

const v2ScoreItemsResponseSchema = z.object({ items: z.array(v2ScoreResponseSchema) })

/**
 * A2 response as the services send it: the spec's `{ items: [...] }` or the public service's single
 * score object; normalized to `{ items: [...] }` ({@link V2ScoreHistory}).
 */
export const v2ScoreHistoryResponseSchema: z.ZodType<V2ScoreHistory, V2ScoreHistoryResponseInput> = z
  .unknown()
  .transform((body, ctx): V2ScoreHistory => {
    const wrapped = typeof body === 'object' && body !== null && !Array.isArray(body) && 'items' in body
    const result = wrapped ? v2ScoreItemsResponseSchema.safeParse(body) : v2ScoreResponseSchema.safeParse(body)
    if (!result.success) {
      for (const issue of result.error.issues) ctx.issues.push({ ...issue, input: undefined })
      return z.NEVER
    }
    return 'items' in result.data ? result.data : { items: [result.data] }
  }) as unknown as z.ZodType<V2ScoreHistory, V2ScoreHistoryResponseInput>

/**
 * Reads A2's `created_at`: a date-only `YYYY-MM-DD` is midnight UTC; a date-time needs `Z` or an
 * offset to be exact (without one it is read as UTC).
 *
 * @throws {Error} when the value is not an ISO 8601 date or date-time.
 * @example
 * import { parseCreatedAt } from './passport.js'
 * parseCreatedAt('2024-10-26').toISOString() // '2024-10-26T00:00:00.000Z'
 */
export function parseCreatedAt(value: string): Date {
  return parseIsoTimestamp(value, 'created_at')
}

/** A2 query (server side): `created_at` (required), parsed to a Date. */
export const v2ScoreHistoryQuerySchema = z.object({
  created_at: z.string().transform((value, ctx): Date => {
    try {
      return parseCreatedAt(value)
    } catch (error) {
      ctx.issues.push({ code: 'custom', input: value, message: (error as Error).message })
      return z.NEVER
    }
  }),
})
/** What {@link v2ScoreHistoryQuerySchema} returns. */
export type V2ScoreHistoryQuery = z.output<typeof v2ScoreHistoryQuerySchema>
/** What {@link v2ScoreHistoryQuerySchema} accepts. */
export type V2ScoreHistoryQueryInput = z.input<typeof v2ScoreHistoryQuerySchema>

// ---------------------------------------------------------------------------------------------
// Stamp credentials and profiles
// ---------------------------------------------------------------------------------------------

const jsonLdContextSchema = z.union([z.array(z.unknown()), z.string(), z.record(z.string(), z.unknown())], {
  error: expectedError('array, string or object'),
})

/**
 * A stamp's verifiable credential as the services send it. Unknown keys are kept at every level;
 * the proof's fields other than `type` are optional (EIP-712 proofs carry `proofValue` and
 * `eip712Domain` instead of `jws`); `@context` may be an array, a string or an object.
 */
export const stampCredentialResponseSchema = z.looseObject({
  '@context': jsonLdContextSchema,
  type: z.array(z.string()),
  issuer: z.string(),
  issuanceDate: isoTimestampSchema,
  expirationDate: isoTimestampSchema,
  credentialSubject: z.looseObject({
    id: z.string(),
    hash: z.string(),
    provider: z.string(),
    '@context': jsonLdContextSchema.optional(),
  }),
  proof: z.looseObject({
    type: z.string(),
    jws: z.string().optional(),
    created: z.string().optional(),
    proofPurpose: z.string().optional(),
    verificationMethod: z.string().optional(),
  }),
})
/** A stamp's verifiable credential as the services send it (tolerant: optional proof fields, `@context` of any shape; unknown keys kept). */
export type StampCredential = z.output<typeof stampCredentialResponseSchema>

const didPkhPattern = /^did:pkh:eip155:\d+:0x[0-9a-fA-F]{40}$/

/**
 * A stamp credential with every field the spec lists (our server emits these): a `jws` proof with
 * created, proofPurpose and verificationMethod; array `@context`s; a `did:pkh:eip155:<chain>:<address>`
 * subject. Same type as {@link stampCredentialResponseSchema}.
 */
export const stampCredentialSchema = stampCredentialResponseSchema.superRefine((credential, ctx) => {
  const missing = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message })
  for (const key of ['jws', 'created', 'proofPurpose', 'verificationMethod'] as const) {
    if (typeof credential.proof[key] !== 'string') missing(['proof', key], `Expected proof.${key} to be a string`)
  }
  if (!Array.isArray(credential['@context'])) missing(['@context'], 'Expected @context to be an array')
  if (!Array.isArray(credential.credentialSubject['@context'])) {
    missing(['credentialSubject', '@context'], 'Expected credentialSubject.@context to be an array')
  }
  if (!didPkhPattern.test(credential.credentialSubject.id)) {
    missing(['credentialSubject', 'id'], 'Expected credentialSubject.id of the form did:pkh:eip155:<chain_id>:<address>')
  }
})

/** A stamp in a profile: `{ provider, credential }`. */
export const stampSchema = z.object({ provider: z.string(), credential: stampCredentialSchema })
/** A stamp in a profile: `{ provider, credential }`. */
export type Stamp = z.output<typeof stampSchema>

/** A profile: a DID-shaped object with `issuanceDate`, `expiryDate` (both nullable) and `stamps`. */
export const passportProfileSchema = z.looseObject({
  issuanceDate: isoTimestampSchema.nullable(),
  expiryDate: isoTimestampSchema.nullable(),
  stamps: z.array(stampSchema),
})
/** A profile: a DID-shaped object with `issuanceDate`, `expiryDate` (both nullable) and `stamps`. */
export type PassportProfile = z.output<typeof passportProfileSchema>

// ---------------------------------------------------------------------------------------------
// A3 / C5: stamp list page
// ---------------------------------------------------------------------------------------------

/** A stamp's metadata (`include_metadata=true`): the public service's fields, all optional, others kept. */
export const stampCredentialMetadataSchema = z.looseObject({
  group: z.string().optional(),
  platform: z
    .looseObject({
      id: z.string().optional(),
      icon: z.string().optional(),
      name: z.string().optional(),
      description: z.string().optional(),
      connectMessage: z.string().optional(),
    })
    .optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  hash: z.string().optional(),
})
/** A stamp's metadata (`include_metadata=true`): the public service's fields, all optional, others kept. */
export type StampCredentialMetadata = z.output<typeof stampCredentialMetadataSchema>

/** One item of a stamp list page as our server emits it: `{ version, credential, metadata? }`. */
export const stampListItemSchema = z.object({
  version: z.string(),
  credential: stampCredentialSchema,
  metadata: stampCredentialMetadataSchema.optional(),
})
/** One item of a stamp list page: `{ version, credential, metadata? }`. */
export type StampListItem = z.output<typeof stampListItemSchema>

/** A3/C5 stamp list page as our server emits it: `next`/`prev` tokens (null at the ends) and `items`. */
export const stampListPageSchema = z.object({
  next: z.string().nullable(),
  prev: z.string().nullable(),
  items: z.array(stampListItemSchema),
})
/** A page of an address's stamps (A3, C5): `next`/`prev` tokens (null at the ends) and `items`. */
export type StampListPage = z.output<typeof stampListPageSchema>

/**
 * A3/C5 stamp list page as the services send it, normalized to {@link StampListPage}: `next`/`prev`
 * null or absent become null; a null `metadata` is dropped; credentials are read tolerantly
 * ({@link stampCredentialResponseSchema}).
 */
export const stampListPageResponseSchema = z
  .object({
    next: z.string().nullish(),
    prev: z.string().nullish(),
    items: z.array(
      z.object({
        version: z.string(),
        credential: stampCredentialResponseSchema,
        metadata: stampCredentialMetadataSchema.nullish(),
      }),
    ),
  })
  .transform(
    (page): StampListPage => ({
      next: page.next ?? null,
      prev: page.prev ?? null,
      items: page.items.map(({ metadata, ...item }) => (metadata ? { ...item, metadata } : item)),
    }),
  )
/** What {@link stampListPageResponseSchema} accepts. */
export type StampListPageResponseInput = z.input<typeof stampListPageResponseSchema>

/** Largest `limit` of a stamp list page (A3). */
export const maxStampPageLimit = 1000

/** A3/C5 query (server side): `include_metadata` (default false), `limit` (1-1000), `token`. */
export const stampListQuerySchema = z.object({
  include_metadata: queryBooleanSchema.default(false),
  limit: queryIntegerSchema({ min: 1, max: maxStampPageLimit }).optional(),
  token: z.string().min(1).optional(),
})
/** What {@link stampListQuerySchema} returns. */
export type StampListQuery = z.output<typeof stampListQuerySchema>
/** What {@link stampListQuerySchema} accepts. */
export type StampListQueryInput = z.input<typeof stampListQuerySchema>

// ---------------------------------------------------------------------------------------------
// A4 / C6: stamp metadata list
// ---------------------------------------------------------------------------------------------

/** One platform of the stamp metadata list: id, icon, name, description, connectMessage and groups of stamps. */
export const stampMetadataSchema = z.object({
  id: z.string(),
  icon: z.string(),
  name: z.string(),
  description: z.string(),
  connectMessage: z.string(),
  groups: z.array(
    z.object({
      name: z.string(),
      stamps: z.array(z.object({ name: z.string(), description: z.string(), hash: z.string() })),
    }),
  ),
})
/** One platform of the stamp metadata list: id, icon, name, description, connectMessage and groups of stamps. */
export type StampMetadata = z.output<typeof stampMetadataSchema>

/** A4/C6 stamp metadata list (an array of platforms); unknown keys are dropped. */
export const stampMetadataListSchema = z.array(stampMetadataSchema)
/** The stamp metadata list (A4, C6): an array of platforms. */
export type StampMetadataList = z.output<typeof stampMetadataListSchema>

/** A4/C6 as the services send it: same as {@link stampMetadataListSchema} (the public service follows the spec). */
export const stampMetadataListResponseSchema = stampMetadataListSchema
