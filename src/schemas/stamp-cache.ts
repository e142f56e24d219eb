import { z } from 'zod'
import {
  addressSchema,
  integerLikeSchema,
  isoTimestampSchema,
  numberLikeSchema,
  numberOrStringSchema,
  queryIntegerSchema,
} from './common.js'
import { v2StampScoreResponseSchema } from './passport.js'

// ---------------------------------------------------------------------------------------------
// Stamps
// ---------------------------------------------------------------------------------------------

/** A cached stamp: `{ id, address, provider, stamp }` (`stamp` is any JSON value, required). */
export const cachedStampSchema = z.object({
  id: z.number().int(),
  address: z.string(),
  provider: z.string(),
  stamp: z.json(),
})
/** A cached stamp: `{ id, address, provider, stamp }` (`stamp` is any JSON value). */
export type CachedStamp = z.output<typeof cachedStampSchema>

/** D3/D6 response: `{ success, stamps }`. */
export const stampsResponseSchema = z.object({ success: z.boolean(), stamps: z.array(cachedStampSchema) })
/** A stamps answer (D3, D6): `{ success, stamps }`. */
export type StampsResponse = z.output<typeof stampsResponseSchema>

/** Points data of a score: total, eligibility, multiplier and a breakdown (name to integer). */
export const pointsDataSchema = z.object({
  total_points: z.number().int(),
  is_eligible: z.boolean(),
  multiplier: z.number().int(),
  breakdown: z.record(z.string(), z.number().int()),
})
/** The points data of a cached score: total, eligibility, multiplier and a breakdown. */
export type PointsData = z.output<typeof pointsDataSchema>

const stampScoreMapSchema = z.record(z.string(), v2StampScoreResponseSchema)

/** Score data of the canonical wallet of a linked wallet group; `wallet_stamps` maps wallet to its stamp scores. */
export const linkedScoreSchema = z.object({
  address: z.string(),
  score: numberOrStringSchema.nullable(),
  passing_score: z.boolean(),
  last_score_timestamp: isoTimestampSchema.nullable(),
  expiration_timestamp: isoTimestampSchema.nullable(),
  threshold: numberOrStringSchema,
  stamps: stampScoreMapSchema.nullable(),
  wallet_stamps: z.record(z.string(), stampScoreMapSchema).nullish(),
})
/** The score data of a linked wallet group's canonical wallet; `wallet_stamps` maps each wallet to its stamp scores. */
export type LinkedScore = z.output<typeof linkedScoreSchema>
/** What {@link linkedScoreSchema} accepts. */
export type LinkedScoreInput = z.input<typeof linkedScoreSchema>

/**
 * The cache's score record (D7, D8). `score` and `threshold` stay as sent (number or string);
 * stamp entries are normalized like A1's.
 */
export const internalScoreSchema = z.object({
  address: z.string(),
  score: numberOrStringSchema.nullable(),
  passing_score: z.boolean(),
  last_score_timestamp: isoTimestampSchema.nullable(),
  expiration_timestamp: isoTimestampSchema.nullable(),
  threshold: numberOrStringSchema,
  error: z.string().nullable(),
  stamps: stampScoreMapSchema.nullable(),
  points_data: pointsDataSchema.nullish(),
  possible_points_data: pointsDataSchema.nullish(),
  linked_score: linkedScoreSchema.nullish(),
})
/** The stamp cache's score record (D7, D8): score and threshold as sent, stamps normalized as in A1. */
export type InternalScore = z.output<typeof internalScoreSchema>
/** What {@link internalScoreSchema} accepts. */
export type InternalScoreInput = z.input<typeof internalScoreSchema>

/** D1/D2 response: `{ success, stamps, score }`. */
export const stampsWithScoreResponseSchema = z.object({
  success: z.boolean(),
  stamps: z.array(cachedStampSchema),
  score: internalScoreSchema,
})
/** A stamps-and-score answer (D1, D2): `{ success, stamps, score }`. */
export type StampsWithScoreResponse = z.output<typeof stampsWithScoreResponseSchema>
/** What {@link stampsWithScoreResponseSchema} accepts. */
export type StampsWithScoreResponseInput = z.input<typeof stampsWithScoreResponseSchema>

// ---------------------------------------------------------------------------------------------
// Bulk writes (request bodies)
// ---------------------------------------------------------------------------------------------

/** Most stamps one bulk call may carry (more: 422). */
export const maxBulkStamps = 100

/** A stamp to cache: `provider` (required), optional `address` and `stamp` (a PATCH item without `stamp` is a deletion). */
export const cacheStampPayloadSchema = z.object({
  address: z.string().nullish(),
  provider: z.string(),
  stamp: z.json().optional(),
})
/** What {@link cacheStampPayloadSchema} returns. */
export type CacheStampPayload = z.output<typeof cacheStampPayloadSchema>

/** D1/D2 body: at most {@link maxBulkStamps} {@link CacheStampPayload}s. */
export const cacheStampPayloadListSchema = z.array(cacheStampPayloadSchema).max(maxBulkStamps)

/** A stamp to delete: `provider` (required), optional `address`. */
export const deleteStampPayloadSchema = z.object({ address: z.string().nullish(), provider: z.string() })
/** What {@link deleteStampPayloadSchema} returns. */
export type DeleteStampPayload = z.output<typeof deleteStampPayloadSchema>

/** D3 body: at most {@link maxBulkStamps} {@link DeleteStampPayload}s. */
export const deleteStampPayloadListSchema = z.array(deleteStampPayloadSchema).max(maxBulkStamps)

/** The save statuses of a cached stamp. */
export const saveStatuses = ['pending', 'saved', 'failed'] as const
/** Save status schema: pending, saved or failed. */
export const saveStatusSchema = z.enum(saveStatuses)
/** The save status of a cached stamp: `pending`, `saved` or `failed`. */
export type SaveStatus = z.output<typeof saveStatusSchema>

/** A save status update: `{ id, store_save_status, store_stream_id? }`. */
export const saveStatusPayloadSchema = z.object({
  id: z.number().int(),
  store_save_status: saveStatusSchema,
  store_stream_id: z.string().nullish(),
})
/** What {@link saveStatusPayloadSchema} returns. */
export type SaveStatusPayload = z.output<typeof saveStatusPayloadSchema>

/** D4 body: an array of {@link SaveStatusPayload}. */
export const saveStatusPayloadListSchema = z.array(saveStatusPayloadSchema)

/** D4 response: `{ updated: [id...] }`. */
export const saveStatusResponseSchema = z.object({ updated: z.array(z.number().int()) })
/** A save-status answer (D4): `{ updated: [id...] }`. */
export type SaveStatusResponse = z.output<typeof saveStatusResponseSchema>

// ---------------------------------------------------------------------------------------------
// Scores, weights, stakes
// ---------------------------------------------------------------------------------------------

/** D8 body: `{ alternate_scorer_id? }` (integer or null). */
export const calcScorePayloadSchema = z.object({ alternate_scorer_id: z.number().int().nullish() })
/** What {@link calcScorePayloadSchema} returns. */
export type CalcScorePayload = z.output<typeof calcScorePayloadSchema>

/** D7 query (server side): `alternate_scorer_id` (optional integer). */
export const internalScoreQuerySchema = z.object({
  alternate_scorer_id: queryIntegerSchema({ min: 0 }).optional(),
})
/** What {@link internalScoreQuerySchema} returns. */
export type InternalScoreQuery = z.output<typeof internalScoreQuerySchema>

/** D6 query (server side): `address` (required). */
export const cachedStampQuerySchema = z.object({ address: addressSchema })
/** What {@link cachedStampQuerySchema} returns. */
export type CachedStampQuery = z.output<typeof cachedStampQuerySchema>

/** D5 scorer weights: stamp name to weight. Weights sent as decimal strings become numbers. */
export const scorerWeightsSchema = z.record(z.string(), numberLikeSchema)
/** A scorer's stamp weights (D5): stamp name to weight. */
export type ScorerWeights = z.output<typeof scorerWeightsSchema>
/** What {@link scorerWeightsSchema} accepts. */
export type ScorerWeightsInput = z.input<typeof scorerWeightsSchema>

/** A token stake (D9); `chain` and `last_updated_in_block` sent as digit strings become integers. */
export const stakeSchema = z.object({
  chain: integerLikeSchema,
  staker: z.string(),
  stakee: z.string(),
  amount: numberOrStringSchema,
  unlock_time: z.string(),
  lock_time: z.string(),
  last_updated_in_block: integerLikeSchema,
})
/** A token stake (D9). */
export type Stake = z.output<typeof stakeSchema>
/** What {@link stakeSchema} accepts. */
export type StakeInput = z.input<typeof stakeSchema>

/** D9 response: `{ items: [stake...] }`. */
export const stakeResponseSchema = z.object({ items: z.array(stakeSchema) })
/** A stakes answer (D9): `{ items: [stake...] }`. */
export type StakeResponse = z.output<typeof stakeResponseSchema>

/** The cache's 400 body: `{ detail }`. */
export const errorMessageSchema = z.object({ detail: z.string() })
/** What {@link errorMessageSchema} returns. */
export type ErrorMessage = z.output<typeof errorMessageSchema>

// ---------------------------------------------------------------------------------------------
// Terms of service
// ---------------------------------------------------------------------------------------------

/** D10 response: `{ accepted }`. */
export const tosAcceptedSchema = z.object({ accepted: z.boolean() })
/** A terms answer (D10): `{ accepted }`. */
export type TosAccepted = z.output<typeof tosAcceptedSchema>

/** D11 response: the text to sign (ends in `Nonce: <nonce>`) and its nonce. */
export const tosToSignSchema = z.object({ text: z.string(), nonce: z.string() })
/** The terms text to sign (D11), ending in `Nonce: <nonce>`, and its nonce. */
export type TosToSign = z.output<typeof tosToSignSchema>

/** D12 body: `{ tos_type, nonce, signature }`. */
export const tosSignedSchema = z.object({ tos_type: z.string(), nonce: z.string(), signature: z.string() })
/** What {@link tosSignedSchema} returns. */
export type TosSigned = z.output<typeof tosSignedSchema>

// ---------------------------------------------------------------------------------------------
// Sign-in (D13)
// ---------------------------------------------------------------------------------------------

/**
 * An EIP-4361 (SIWE) message as a JSON object: scheme?, domain, address, statement?, uri, version
 * ("1"), chainId, nonce (8+ alphanumerics), issuedAt, expirationTime?, notBefore?, requestId?,
 * resources?. Every field of EIP-4361 is kept, so the text the wallet signed can be rebuilt.
 * Timestamps stay ISO strings; a `chainId` sent as a digit string becomes a number.
 */
export const siweMessageSchema = z.object({
  /** The RFC 3986 scheme of the origin (`https`), written before the domain when given. */
  scheme: z.string().regex(/^[a-zA-Z][a-zA-Z0-9+.-]*$/, 'Expected an RFC 3986 URI scheme').optional(),
  domain: z.string().min(1),
  address: addressSchema,
  statement: z.string().optional(),
  uri: z.string().min(1),
  version: z.literal('1'),
  chainId: integerLikeSchema.pipe(z.number().int().positive()),
  nonce: z.string().regex(/^[a-zA-Z0-9]{8,}$/, 'Expected a nonce of at least 8 letters or digits'),
  issuedAt: isoTimestampSchema,
  expirationTime: isoTimestampSchema.optional(),
  notBefore: isoTimestampSchema.optional(),
  requestId: z.string().optional(),
  resources: z.array(z.string()).optional(),
})
/** What {@link siweMessageSchema} returns. */
export type SiweMessage = z.output<typeof siweMessageSchema>
/** What {@link siweMessageSchema} accepts. */
export type SiweMessageInput = z.input<typeof siweMessageSchema>

/** D13 body: `{ message: SIWE message object, signature }`. */
export const signInSubmitSchema = z.object({
  message: siweMessageSchema,
  signature: z.string().regex(/^0x(?:[0-9a-fA-F]{2})+$/, 'Expected a 0x-prefixed hex signature'),
})
/** What {@link signInSubmitSchema} returns. */
export type SignInSubmit = z.output<typeof signInSubmitSchema>
/** What {@link signInSubmitSchema} accepts. */
export type SignInSubmitInput = z.input<typeof signInSubmitSchema>

/** D13 response: `{ access: JWT, support_user_hash? }`. */
export const accessTokenSchema = z.object({ access: z.string().min(1, 'Expected a non-empty token'), support_user_hash: z.string().nullish() })
/** A sign-in answer (D13): `{ access: JWT, support_user_hash? }`. */
export type AccessToken = z.output<typeof accessTokenSchema>
