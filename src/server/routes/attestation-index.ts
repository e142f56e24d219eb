/**
 * E8 of the reference server: the attestation index (`{attestation_index_url}`), listing the
 * clean-hands attestation rows of an address page by page, newest first, in the public index's
 * shape `{ data: { page, size, total, rows } }`.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { AttestationPage } from '../../schemas/attestation.js'
import { queryIntegerSchema } from '../../schemas/common.js'
import type { AttestationRow } from '../../world/types.js'
import type { ServerContext } from '../context.js'
import { errorResponse, parseRequest } from '../auth/respond.js'

/** Rows per page when `size` is not given (the public index's page size). */
export const defaultAttestationPageSize = 10

/** Largest `size` accepted. */
export const maxAttestationPageSize = 100

/** E8 query: `page` (from 1, default 1) and `size` (1 to 100, default 10). */
export const attestationIndexQuerySchema = z.object({
  page: queryIntegerSchema({ min: 1, max: 1_000_000 }).default(1),
  size: queryIntegerSchema({ min: 1, max: maxAttestationPageSize }).default(defaultAttestationPageSize),
})

const addressPattern = /^0x[0-9a-fA-F]{40}$/

/** An index row as E8 lists it: every field of the record but the world's own (`address`, `kind`). */
export type IndexRow = AttestationPage['data']['rows'][number]

function toIndexRow(row: AttestationRow): IndexRow {
  return {
    attestationId: row.attestationId,
    fullSchemaId: row.fullSchemaId,
    schemaId: row.schemaId,
    attester: row.attester,
    isReceiver: row.isReceiver,
    revoked: row.revoked,
    validUntil: row.validUntil,
    attestTimestamp: row.attestTimestamp,
    recipients: [...row.recipients],
  }
}

function attestationNumber(id: string): bigint {
  return /^0x[0-9a-fA-F]+$/.test(id) ? BigInt(id) : 0n
}

/**
 * One page of an address's rows (matched case-insensitively), newest first (`attestTimestamp`,
 * then attestation id, descending). A page past the end has no rows.
 */
export function pageAttestations(
  rows: readonly AttestationRow[],
  parameters: { address: string; page: number; size: number },
): AttestationPage {
  const address = parameters.address.toLowerCase()
  const matching = rows
    .filter((row) => row.address.toLowerCase() === address)
    .sort((a, b) => {
      if (a.attestTimestamp !== b.attestTimestamp) return b.attestTimestamp - a.attestTimestamp
      const left = attestationNumber(a.attestationId)
      const right = attestationNumber(b.attestationId)
      return left === right ? 0 : left < right ? 1 : -1
    })
  const start = (parameters.page - 1) * parameters.size
  return {
    data: {
      page: parameters.page,
      size: parameters.size,
      total: matching.length,
      rows: matching.slice(start, start + parameters.size).map(toIndexRow),
    },
  }
}

/** The E8 route over a function returning the index rows; mount under the index base (`/attestation-index`). */
export function createAttestationIndexApp(source: { attestations: () => readonly AttestationRow[] }): Hono {
  const app = new Hono()
  app.get('/api/scan/addresses/:address/attestations', (c) => {
    const address = c.req.param('address')
    if (!addressPattern.test(address)) {
      return errorResponse(400, 'Invalid address: expected 0x followed by 40 hex characters.')
    }
    const query = parseRequest(attestationIndexQuerySchema, c.req.query(), 'query', 'plain')
    if (!query.success) return query.response
    return c.json(pageAttestations(source.attestations(), { address, ...query.data }))
  })
  return app
}

/**
 * The E8 route of the reference server, reading the attestation rows of `ctx.store`.
 *
 * @example
 * app.route('/attestation-index', createAttestationIndexRoutes(ctx))
 */
export function createAttestationIndexRoutes(ctx: ServerContext): Hono {
  return createAttestationIndexApp({ attestations: () => ctx.store.state.attestations })
}
