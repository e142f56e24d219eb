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
import { isAddressInAnyCase } from '../../utils/address.js'
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
  attester: z.string().refine(isAddressInAnyCase, 'Expected 0x followed by 40 hex characters'),
  recipient: z.string().refine(isAddressInAnyCase, 'Expected 0x followed by 40 hex characters').optional(),
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

/**
 * The rows of the index grouped as E8 and the listing read them, each group newest first: by
 * address (lower case), and the listed attestations by schema and attester, and by schema,
 * attester and recipient. Built once per state of the rows; a page is then a slice of one group.
 */
export class AttestationIndex {
  readonly #byAddress = new Map<string, AttestationRow[]>()
  readonly #byListing = new Map<string, AttestationRow[]>()
  readonly #byRecipient = new Map<string, AttestationRow[]>()

  constructor(rows: readonly AttestationRow[]) {
    // One sort of every row: each group keeps that order.
    const keyed = rows.map((row) => ({ row, id: attestationNumber(row.attestationId) }))
    keyed.sort((a, b) => (a.row.attestTimestamp !== b.row.attestTimestamp ? b.row.attestTimestamp - a.row.attestTimestamp : a.id === b.id ? 0 : a.id < b.id ? 1 : -1))
    const listed = new Map<string, AttestationRow>()
    for (const { row } of keyed) {
      push(this.#byAddress, row.address.toLowerCase(), row)
      const id = row.attestationId.toLowerCase()
      const seen = listed.get(id)
      if (!seen || (!seen.isReceiver && row.isReceiver)) listed.set(id, row)
    }
    for (const { row } of keyed) {
      if (listed.get(row.attestationId.toLowerCase()) !== row) continue
      const key = listingKey(row.fullSchemaId, row.attester)
      push(this.#byListing, key, row)
      for (const recipient of new Set(row.recipients.map((entry) => entry.toLowerCase()))) push(this.#byRecipient, `${key}\n${recipient}`, row)
    }
  }

  /** One page of an address's rows, newest first (as {@link pageAttestations}). */
  page(parameters: { address: string; page: number; size: number }): AttestationPage {
    return onePage(this.#byAddress.get(parameters.address.toLowerCase()) ?? [], parameters, toIndexRow)
  }

  /** One page of the listing by schema and attester, optionally naming `recipient` (as {@link pageAttestationListing}). */
  listing(parameters: { schemaId: string; attester: string; recipient?: string | undefined; page: number; size: number }): AttestationListingPage {
    const key = listingKey(parameters.schemaId, parameters.attester)
    const rows = parameters.recipient === undefined ? this.#byListing.get(key) : this.#byRecipient.get(`${key}\n${parameters.recipient.toLowerCase()}`)
    return onePage(rows ?? [], parameters, toListingRow)
  }
}

function listingKey(schemaId: string, attester: string): string {
  return `${schemaId}\n${attester.toLowerCase()}`
}

function push<value>(groups: Map<string, value[]>, key: string, item: value): void {
  const group = groups.get(key)
  if (group) group.push(item)
  else groups.set(key, [item])
}

/**
 * The E8 route and the listing over a function returning the index rows; mount under the index
 * base (`/attestation-index`). Both answer from an {@link AttestationIndex} built once per
 * `revision` (a number that changes whenever the rows do); without one, once per array of rows and
 * length (a source that edits rows in place must give a revision).
 */
export function createAttestationIndexApp(source: { attestations: () => readonly AttestationRow[]; revision?: () => number }): Hono {
  const app = new Hono()
  app.onError(answerError)
  let built: { rows: readonly AttestationRow[]; length: number; revision: number | undefined; index: AttestationIndex } | undefined
  const index = () => {
    const rows = source.attestations()
    const revision = source.revision?.()
    if (!built || built.rows !== rows || built.length !== rows.length || built.revision !== revision) {
      built = { rows, length: rows.length, revision, index: new AttestationIndex(rows) }
    }
    return built.index
  }
  app.get('/api/index/attestations', (c) => {
    const query = parseQuery(c, attestationListingQuerySchema, 'plain')
    return c.json(index().listing(query))
  })
  app.get('/api/scan/addresses/:address/attestations', (c) => {
    const address = c.req.param('address')
    if (!isAddressInAnyCase(address)) {
      throw new HttpError(400, 'Invalid address: expected 0x followed by 40 hex characters.')
    }
    const query = parseQuery(c, attestationIndexQuerySchema, 'plain')
    return c.json(index().page({ address, ...query }))
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
  return createAttestationIndexApp({ attestations: () => ctx.store.state.attestations, revision: () => ctx.store.partRevision('attestations') })
}
