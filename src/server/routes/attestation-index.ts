/**
 * E8 of the reference server: the attestation index (`{attestation_index_url}`), listing the
 * clean-hands attestation rows of an address page by page, newest first, in the public index's
 * shape `{ data: { page, size, total, rows } }`; and the index's listing of attestations by schema
 * and attester (100 a page), from the same rows.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { AttestationListingPage, AttestationPage } from '../../schemas/attestation.js'
import { queryIntegerSchema } from '../../schemas/common.js'
import type { AttestationRow } from '../../world/types.js'
import type { ServerContext } from '../context.js'
import { answerError, HttpError } from '../errors.js'
import { parseQuery } from '../request.js'

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

/** Newest first: `attestTimestamp`, then attestation id, descending. */
function newestFirst(a: AttestationRow, b: AttestationRow): number {
  if (a.attestTimestamp !== b.attestTimestamp) return b.attestTimestamp - a.attestTimestamp
  const left = attestationNumber(a.attestationId)
  const right = attestationNumber(b.attestationId)
  return left === right ? 0 : left < right ? 1 : -1
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
  const matching = rows.filter((row) => row.address.toLowerCase() === address).sort(newestFirst)
  return onePage(matching, parameters, toIndexRow)
}

/** Page `page` of `matching`, `size` rows a page, in the index's `{ data: { page, size, total, rows } }`. */
function onePage<row>(matching: readonly AttestationRow[], { page, size }: { page: number; size: number }, toRow: (row: AttestationRow) => row) {
  const start = (page - 1) * size
  return { data: { page, size, total: matching.length, rows: matching.slice(start, start + size).map(toRow) } }
}

/** Rows per page of the listing when `size` is not given (the public index's). */
export const defaultAttestationListingPageSize = 100

/** Listing query: `schemaId` (the full schema id) and `attester` required; `recipient`, `page` and `size` (1 to 100, default 100) optional. */
export const attestationListingQuerySchema = z.object({
  schemaId: z.string().regex(/^\S+$/, 'Expected a full schema id such as onchain_evm_10_0x8'),
  attester: z.string().regex(addressPattern, 'Expected 0x followed by 40 hex characters'),
  recipient: z.string().regex(addressPattern, 'Expected 0x followed by 40 hex characters').optional(),
  page: queryIntegerSchema({ min: 1, max: 1_000_000 }).default(1),
  size: queryIntegerSchema({ min: 1, max: maxAttestationPageSize }).default(defaultAttestationListingPageSize),
})

/** A row of the listing: the attestation, not one address's view of it (no `isReceiver`). */
export type ListingRow = AttestationListingPage['data']['rows'][number]

function toListingRow(row: AttestationRow): ListingRow {
  const { isReceiver: _isReceiver, ...listed } = toIndexRow(row)
  return { ...listed, recipients: [...row.recipients] }
}

/**
 * Every attestation once, newest first: the index rows grouped by `attestationId`, each taken from
 * its receiver's page (the row with `isReceiver`), else from the first page listing it.
 */
export function listedAttestations(rows: readonly AttestationRow[]): AttestationRow[] {
  const byId = new Map<string, AttestationRow>()
  for (const row of rows) {
    const id = row.attestationId.toLowerCase()
    const seen = byId.get(id)
    if (!seen || (!seen.isReceiver && row.isReceiver)) byId.set(id, row)
  }
  return [...byId.values()].sort(newestFirst)
}

/**
 * One page of the listing by schema (exact) and attester (any letter case), optionally of the
 * attestations naming `recipient`, from {@link listedAttestations}. A page past the end has no rows.
 */
export function pageAttestationListing(
  listed: readonly AttestationRow[],
  parameters: { schemaId: string; attester: string; recipient?: string | undefined; page: number; size: number },
): AttestationListingPage {
  const attester = parameters.attester.toLowerCase()
  const recipient = parameters.recipient?.toLowerCase()
  const matching = listed.filter(
    (row) =>
      row.fullSchemaId === parameters.schemaId &&
      row.attester.toLowerCase() === attester &&
      (recipient === undefined || row.recipients.some((entry) => entry.toLowerCase() === recipient)),
  )
  return onePage(matching, parameters, toListingRow)
}

/** The E8 route and the listing over a function returning the index rows; mount under the index base (`/attestation-index`). */
export function createAttestationIndexApp(source: { attestations: () => readonly AttestationRow[]; revision?: () => number }): Hono {
  const app = new Hono()
  app.onError(answerError)
  // The listing sorts every attestation: once per revision of the rows.
  let listed: { rows: readonly AttestationRow[]; revision: number | undefined; sorted: AttestationRow[] } | undefined
  const listing = () => {
    const rows = source.attestations()
    const revision = source.revision?.()
    if (!listed || listed.rows !== rows || listed.revision !== revision || revision === undefined) {
      listed = { rows, revision, sorted: listedAttestations(rows) }
    }
    return listed.sorted
  }
  app.get('/api/index/attestations', (c) => {
    const query = parseQuery(c, attestationListingQuerySchema, 'plain')
    return c.json(pageAttestationListing(listing(), query))
  })
  app.get('/api/scan/addresses/:address/attestations', (c) => {
    const address = c.req.param('address')
    if (!addressPattern.test(address)) {
      throw new HttpError(400, 'Invalid address: expected 0x followed by 40 hex characters.')
    }
    const query = parseQuery(c, attestationIndexQuerySchema, 'plain')
    return c.json(pageAttestations(source.attestations(), { address, ...query }))
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
  return createAttestationIndexApp({ attestations: () => ctx.store.state.attestations, revision: () => ctx.store.revision })
}
