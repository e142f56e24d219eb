import { z } from 'zod'
import { integerLikeSchema, numberOrStringSchema } from './common.js'

/**
 * One row of the attestation index (E8). `validUntil` and `attestTimestamp` are kept exactly as sent
 * (number or string, e.g. "0"): the clean-hands rule reads them. Unknown keys are kept.
 */
export const attestationRowSchema = z.looseObject({
  fullSchemaId: z.string(),
  attester: z.string(),
  isReceiver: z.boolean(),
  revoked: z.boolean(),
  validUntil: numberOrStringSchema,
  attestationId: z.string().optional(),
  schemaId: z.string().optional(),
  recipients: z.array(z.string()).optional(),
  attestTimestamp: numberOrStringSchema.optional(),
})
/** One attestation row (E8): `validUntil` and `attestTimestamp` kept exactly as sent; unknown keys kept. */
export type AttestationRow = z.output<typeof attestationRowSchema>

/**
 * An index row that does not have a row's shape (a field missing or of the wrong type). It is kept,
 * not dropped and not fatal: the clean-hands rule judges it `malformed`, so one garbled row never
 * blocks the other rows or the other voters.
 */
export type MalformedAttestationRow = { readonly malformed: true; readonly row: unknown; readonly issues: readonly string[] }

/** Tells a {@link MalformedAttestationRow} from a row. */
export function isMalformedAttestationRow(row: unknown): row is MalformedAttestationRow {
  return typeof row === 'object' && row !== null && (row as { malformed?: unknown }).malformed === true && 'issues' in row
}

/** Rows of `schema`, where a row without its shape is kept as a {@link MalformedAttestationRow}. */
function keepMalformed<row>(schema: z.ZodType<row>) {
  return z.unknown().transform((value): row | MalformedAttestationRow => {
    const parsed = schema.safeParse(value)
    if (parsed.success) return parsed.data
    return { malformed: true, row: value, issues: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(row)'}: ${issue.message}`) }
  })
}

/** A row as the index answered it: readable, or kept as malformed. */
export const indexedAttestationRowSchema = keepMalformed(attestationRowSchema)

/** E8 response as our server emits it: `{ data: { rows, page?, size?, total? } }`. */
export const attestationPageSchema = z.object({
  data: z.object({
    rows: z.array(attestationRowSchema),
    page: z.number().int().optional(),
    size: z.number().int().optional(),
    total: z.number().int().optional(),
  }),
})
/** A page of an address's attestations (E8): `{ data: { rows, page?, size?, total? } }`. */
export type AttestationPage = z.output<typeof attestationPageSchema>

/**
 * An index page as the services send it, for rows of `row`: counts may be digit strings, a null
 * `rows` is empty, wrapper keys (`success`, `statusCode`, `message`) are dropped.
 */
function indexPageResponseSchema<row extends z.ZodType>(row: row) {
  return z.object({
    data: z.object({
      rows: z
        .array(row)
        .nullable()
        .transform((rows) => rows ?? []),
      page: integerLikeSchema.optional(),
      size: integerLikeSchema.optional(),
      total: integerLikeSchema.optional(),
    }),
  })
}

/**
 * E8 response as the services send it: the spec's `{ data: { rows } }` or the public index's
 * `{ data: { page, size, total, rows } }` (counts may be digit strings; a null `rows` is empty).
 * A row without a row's shape is kept as a {@link MalformedAttestationRow}.
 */
export const attestationPageResponseSchema = indexPageResponseSchema(indexedAttestationRowSchema)
/** What {@link attestationPageResponseSchema} accepts. */
export type AttestationPageResponseInput = z.input<typeof attestationPageResponseSchema>

/**
 * One row of the index's listing by schema and attester
 * (`/api/index/attestations?schemaId=&attester=`). The listing is not about one address, so a row
 * names its `recipients` and carries no `isReceiver` (kept when an index sends one). Unknown keys
 * (`data`, `chainId`, ...) are kept.
 */
export const attestationListingRowSchema = attestationRowSchema.extend({
  recipients: z.array(z.string()),
  isReceiver: z.boolean().optional(),
})
/** A row of the listing: an attestation that names its `recipients` (unknown keys kept). */
export type AttestationListingRow = z.output<typeof attestationListingRowSchema>

/** The listing as our server emits it: `{ data: { page, size, total, rows } }`, every count present. */
export const attestationListingPageSchema = z.object({
  data: z.object({
    rows: z.array(attestationListingRowSchema),
    page: z.number().int(),
    size: z.number().int(),
    total: z.number().int(),
  }),
})
/** A page of the index's listing by schema and attester: `{ data: { page, size, total, rows } }`. */
export type AttestationListingPage = z.output<typeof attestationListingPageSchema>

/**
 * The listing as the services send it: counts may be digit strings, a null `rows` is empty, wrapper
 * keys (`success`, `statusCode`, `message`) are dropped. `total` and `size` may be missing (the
 * reader then follows pages until a short one). A row without a listing row's shape is kept as a
 * {@link MalformedAttestationRow}, as on E8.
 */
export const attestationListingResponseSchema = indexPageResponseSchema(keepMalformed(attestationListingRowSchema))
/** What {@link attestationListingResponseSchema} accepts. */
export type AttestationListingResponseInput = z.input<typeof attestationListingResponseSchema>
