import { z } from 'zod'
import {
  addressSchema,
  decimalLikeSchema,
  decimalStringSchema,
  expectedError,
  isoTimestampQuerySchema,
  isoTimestampSchema,
  queryIntegerSchema,
  v1DecimalSchema,
} from './common.js'

// ---------------------------------------------------------------------------------------------
// Status and evidence
// ---------------------------------------------------------------------------------------------

/** The v1 score statuses known today. */
export const registryScoreStatuses = ['PROCESSING', 'BULK_PROCESSING', 'DONE', 'ERROR'] as const
/** A known v1 score status. */
export type KnownRegistryScoreStatus = (typeof registryScoreStatuses)[number]
/** A v1 score status: one of the known ones, or any other string a newer service sends. */
export type RegistryScoreStatus = KnownRegistryScoreStatus | (string & {})

/** Tells whether a status is one of {@link registryScoreStatuses}. */
export function isKnownRegistryScoreStatus(status: unknown): status is KnownRegistryScoreStatus {
  return typeof status === 'string' && (registryScoreStatuses as readonly string[]).includes(status)
}

/** A v1 score status as the services send it: any string (unknown ones are kept), typed {@link RegistryScoreStatus}. */
export const registryScoreStatusSchema = z.custom<RegistryScoreStatus>((value) => typeof value === 'string', {
  message: 'Invalid input: expected string status',
})

const knownRegistryScoreStatusSchema = z.custom<RegistryScoreStatus>(isKnownRegistryScoreStatus, {
  message: `Invalid input: expected status ${registryScoreStatuses.join(', ')}`,
})

/** Binary scorer evidence as our server emits it: `{ type: 'ThresholdScoreCheck', success, rawScore, threshold }` (strings). */
export const thresholdScoreEvidenceSchema = z.object({
  type: z.literal('ThresholdScoreCheck'),
  success: z.boolean(),
  rawScore: decimalStringSchema,
  threshold: decimalStringSchema,
})
/** A binary scorer's evidence in a v1 record: `{ type: 'ThresholdScoreCheck', success, rawScore, threshold }`. */
export type ThresholdScoreEvidence = z.output<typeof thresholdScoreEvidenceSchema>

/** Binary scorer evidence as the services send it (rawScore/threshold as numbers or strings), normalized to strings. */
export const thresholdScoreEvidenceResponseSchema = z.object({
  type: z.literal('ThresholdScoreCheck'),
  success: z.boolean(),
  rawScore: decimalLikeSchema,
  threshold: decimalLikeSchema,
})
/** What {@link thresholdScoreEvidenceResponseSchema} accepts. */
export type ThresholdScoreEvidenceResponseInput = z.input<typeof thresholdScoreEvidenceResponseSchema>

// ---------------------------------------------------------------------------------------------
// Score record, C2-C4
// ---------------------------------------------------------------------------------------------

/** C score record as our server emits it (score with 9 decimals or null while processing). */
export const registryScoreSchema = z.object({
  address: z.string(),
  score: v1DecimalSchema.nullable(),
  status: knownRegistryScoreStatusSchema,
  last_score_timestamp: isoTimestampSchema.nullable(),
  expiration_date: isoTimestampSchema.nullable(),
  evidence: thresholdScoreEvidenceSchema.nullable(),
  error: z.string().nullable(),
  stamp_scores: z.record(z.string(), decimalStringSchema).optional(),
})
/** A v1 score record (C2-C4): status, the score with 9 decimals (null while processing), evidence and timestamps. */
export type RegistryScore = z.output<typeof registryScoreSchema>

/**
 * C score record as the services send it, normalized to {@link RegistryScore}: unknown status
 * strings kept; decimals as strings or numbers; evidence numbers become strings; absent score,
 * timestamps, evidence and error become null; a null `stamp_scores` is dropped.
 */
export const registryScoreResponseSchema = z
  .object({
    address: z.string(),
    score: decimalLikeSchema.nullish(),
    status: registryScoreStatusSchema,
    last_score_timestamp: isoTimestampSchema.nullish(),
    expiration_date: isoTimestampSchema.nullish(),
    evidence: thresholdScoreEvidenceResponseSchema.nullish(),
    error: z.string().nullish(),
    stamp_scores: z.record(z.string(), decimalLikeSchema).nullish(),
  })
  .transform((raw): RegistryScore => {
    const record: RegistryScore = {
      address: raw.address,
      score: raw.score ?? null,
      status: raw.status,
      last_score_timestamp: raw.last_score_timestamp ?? null,
      expiration_date: raw.expiration_date ?? null,
      evidence: raw.evidence ?? null,
      error: raw.error ?? null,
    }
    if (raw.stamp_scores) record.stamp_scores = raw.stamp_scores
    return record
  })
/** What {@link registryScoreResponseSchema} accepts. */
export type RegistryScoreResponseInput = z.input<typeof registryScoreResponseSchema>

/** C3 response as our server emits it: `{ items: [one score record] }`. */
export const registryScoreItemsSchema = z.object({ items: z.array(registryScoreSchema) })
/** A C3 answer, normalized to `{ items: [one score record] }`. */
export type RegistryScoreItems = z.output<typeof registryScoreItemsSchema>

/** What {@link registryScoreItemsResponseSchema} accepts: `{ items }` or one bare score record. */
export type RegistryScoreItemsResponseInput = { items: RegistryScoreResponseInput[] } | RegistryScoreResponseInput

const registryScoreItemsTolerantSchema = z.object({ items: z.array(registryScoreResponseSchema) })

/** C3 response as the services send it: `{ items: [...] }` or a bare score record; normalized to `{ items }`. */
export const registryScoreItemsResponseSchema = z.unknown().transform((body, ctx): RegistryScoreItems => {
  const wrapped = typeof body === 'object' && body !== null && !Array.isArray(body) && 'items' in body
  const result = wrapped ? registryScoreItemsTolerantSchema.safeParse(body) : registryScoreResponseSchema.safeParse(body)
  if (!result.success) {
    for (const issue of result.error.issues) ctx.issues.push({ ...issue, input: undefined })
    return z.NEVER
  }
  return 'items' in result.data ? result.data : { items: [result.data] }
}) as unknown as z.ZodType<RegistryScoreItems, RegistryScoreItemsResponseInput>

/** C4 page as our server emits it: `{ items, count }` (count = all records matching the filter). */
export const registryScorePageSchema = z.object({
  items: z.array(registryScoreSchema),
  count: z.number().int().nonnegative(),
})
/** A page of a scorer's scores (C4): `{ items, count }` (count: every record matching the filter). */
export type RegistryScorePage = z.output<typeof registryScorePageSchema>

/** C4 page as the services send it; records normalized with {@link registryScoreResponseSchema}. */
export const registryScorePageResponseSchema = z.object({
  items: z.array(registryScoreResponseSchema),
  count: z.number().int().nonnegative(),
})
/** What {@link registryScorePageResponseSchema} accepts. */
export type RegistryScorePageResponseInput = z.input<typeof registryScorePageResponseSchema>

// ---------------------------------------------------------------------------------------------
// C1, C7
// ---------------------------------------------------------------------------------------------

/** C1 signing message: `{ message, nonce }` (the message ends in `Nonce: <nonce>`). */
export const signingMessageSchema = z.object({ message: z.string(), nonce: z.string() })
/** A message to sign and its nonce (C1); the message ends in `Nonce: <nonce>`. */
export type SigningMessage = z.output<typeof signingMessageSchema>

const idLikeSchema = z.union([z.string(), z.number()], { error: expectedError('string or number') }).transform(String)
const stakeRoundSchema = z.object({ id: idLikeSchema })

/** C7 stake record (deprecated): self stakes (`stakes`) and community stakes (`xstakeAggregates`) per user. */
export const registryStakeRecordSchema = z.object({
  users: z.array(
    z.object({
      stakes: z.array(z.object({ stake: decimalLikeSchema, round: stakeRoundSchema })),
      xstakeAggregates: z.array(z.object({ total: decimalLikeSchema, round: stakeRoundSchema })),
    }),
  ),
})
/** A stake record (C7, deprecated): self stakes (`stakes`) and community stakes (`xstakeAggregates`) per user. */
export type RegistryStakeRecord = z.output<typeof registryStakeRecordSchema>
/** What {@link registryStakeRecordSchema} accepts. */
export type RegistryStakeRecordInput = z.input<typeof registryStakeRecordSchema>

// ---------------------------------------------------------------------------------------------
// Requests (server side)
// ---------------------------------------------------------------------------------------------

/**
 * C2 submit body: `address` (checked), `scorer_id` (string or integer, kept as a string), optional
 * `signature` and `nonce` (empty strings count as absent, as the public service sends them).
 */
export const submitPassportBodySchema = z
  .object({
    address: addressSchema,
    scorer_id: z
      .union([z.string().min(1), z.number().int().nonnegative()], { error: expectedError('string or integer') })
      .transform(String),
    signature: z.string().optional(),
    nonce: z.string().optional(),
  })
  .transform(({ signature, nonce, ...body }) => ({
    ...body,
    ...(signature ? { signature } : {}),
    ...(nonce ? { nonce } : {}),
  }))
/** What {@link submitPassportBodySchema} returns. */
export type SubmitPassportBody = z.output<typeof submitPassportBodySchema>
/** What {@link submitPassportBodySchema} accepts. */
export type SubmitPassportBodyInput = z.input<typeof submitPassportBodySchema>

/**
 * C4 query: `limit`, `offset`, and the timestamp filters in both spellings
 * (`last_score_timestamp_gt` / `__gt`, `_gte` / `__gte`), merged into the single-underscore names
 * as Dates. The same filter given twice with different values is an error. `address` is accepted
 * (one example uses it).
 */
export const registryScoreListQuerySchema = z
  .object({
    limit: queryIntegerSchema({ min: 1 }).optional(),
    offset: queryIntegerSchema({ min: 0 }).optional(),
    last_score_timestamp_gt: isoTimestampQuerySchema.optional(),
    last_score_timestamp_gte: isoTimestampQuerySchema.optional(),
    last_score_timestamp__gt: isoTimestampQuerySchema.optional(),
    last_score_timestamp__gte: isoTimestampQuerySchema.optional(),
    address: addressSchema.optional(),
  })
  .transform((query, ctx) => {
    const merge = (single: Date | undefined, double: Date | undefined, name: string) => {
      if (single && double && single.getTime() !== double.getTime()) {
        ctx.issues.push({
          code: 'custom',
          input: query,
          path: [name],
          message: `Conflicting values for ${name} and ${name.replace('timestamp_', 'timestamp__')}`,
        })
      }
      return single ?? double
    }
    const gt = merge(query.last_score_timestamp_gt, query.last_score_timestamp__gt, 'last_score_timestamp_gt')
    const gte = merge(query.last_score_timestamp_gte, query.last_score_timestamp__gte, 'last_score_timestamp_gte')
    return {
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
      ...(query.offset !== undefined ? { offset: query.offset } : {}),
      ...(gt ? { last_score_timestamp_gt: gt } : {}),
      ...(gte ? { last_score_timestamp_gte: gte } : {}),
      ...(query.address !== undefined ? { address: query.address } : {}),
    } as {
      limit?: number
      offset?: number
      last_score_timestamp_gt?: Date
      last_score_timestamp_gte?: Date
      address?: z.output<typeof addressSchema>
    }
  })
/** What {@link registryScoreListQuerySchema} returns. */
export type RegistryScoreListQuery = z.output<typeof registryScoreListQuerySchema>
/** What {@link registryScoreListQuerySchema} accepts. */
export type RegistryScoreListQueryInput = z.input<typeof registryScoreListQuerySchema>
