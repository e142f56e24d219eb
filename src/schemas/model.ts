import { z } from 'zod'
import { numberLikeSchema } from './common.js'

/** The models of interface B, in the spec's order; `aggregate` combines the others. */
export const modelNames = [
  'aggregate',
  'ethereum_activity',
  'nft',
  'arbitrum',
  'base',
  'optimism',
  'polygon',
  'zksync',
] as const
/** A model name of interface B. */
export type ModelName = (typeof modelNames)[number]

/** The model B1 uses when none is requested. */
export const defaultModelName: ModelName = 'aggregate'

/** A model name (B1 `model` query parameter). */
export const modelNameSchema = z.enum(modelNames)

/** B1 query (server side): `model`, defaulting to `aggregate`. */
export const modelScoreQuerySchema = z.object({ model: modelNameSchema.default(defaultModelName) })
/** What {@link modelScoreQuerySchema} returns. */
export type ModelScoreQuery = z.output<typeof modelScoreQuerySchema>
/** What {@link modelScoreQuerySchema} accepts. */
export type ModelScoreQueryInput = z.input<typeof modelScoreQuerySchema>

/** One model's score as our server emits it: -1 (insufficient data) or 0 to 100. */
export const modelScoreEntrySchema = z.object({ score: z.number().min(-1).max(100) })
/** What {@link modelScoreEntrySchema} returns. */
export type ModelScoreEntry = z.output<typeof modelScoreEntrySchema>

/** B1 model score as our server emits it: `{ address, details: { models: { <model>: { score } } } }`. */
export const modelScoreSchema = z.object({
  address: z.string(),
  details: z.object({ models: z.record(z.string(), modelScoreEntrySchema) }),
})
/** A model score (B1): `{ address, details: { models: { <model>: { score } } } }`. */
export type ModelScore = z.output<typeof modelScoreSchema>

/**
 * B1 model score as the services send it, normalized to {@link ModelScore}: a score may come as a
 * numeric string; model names outside {@link modelNames} are kept; the range is not enforced.
 */
export const modelScoreResponseSchema = z.object({
  address: z.string(),
  details: z.object({ models: z.record(z.string(), z.object({ score: numberLikeSchema })) }),
})
/** What {@link modelScoreResponseSchema} accepts. */
export type ModelScoreResponseInput = z.input<typeof modelScoreResponseSchema>
