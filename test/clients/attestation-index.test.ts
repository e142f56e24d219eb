import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  createAttestationIndexClient,
  getIndexedAttestations,
  type AttestationIndexClient,
  type CreateAttestationIndexClientParameters,
} from '../../src/clients/index.js'
import { InvalidAddressError, InvalidParameterError, PaginationLimitError, ResponseValidationError } from '../../src/errors/index.js'
import type { TransportOptions } from '../../src/http/index.js'
import * as cleanHands from '../../src/verify/clean-hands.js'
import type { AttestationIndex } from '../../src/verify/index.js'
import { describeEndpointMatrix, fastTransport } from '../helpers/endpoint-matrix.js'
import { failure } from '../helpers/async.js'

const host = 'https://mainnet-rpc.sign.global'
const address = '0x52908400098527886e0f7030069857d2e4169ee7'
const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7'
const path = `/api/scan/addresses/${address}/attestations`
const attester = '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

function client(options: TransportOptions & Partial<CreateAttestationIndexClientParameters> = {}): AttestationIndexClient {
  return createAttestationIndexClient({ ...fastTransport, ...options })
}

/** A row as the public index sends it. */
function row(n: number, overrides: Record<string, unknown> = {}) {
  return {
    attestationId: `0x${(0x1a2b + n).toString(16)}`,
    fullSchemaId: 'onchain_evm_10_0x8',
    schemaId: '0x8',
    attester,
    isReceiver: true,
    revoked: false,
    recipients: [address],
    attestTimestamp: 1735689600000 + n * 1000,
    validUntil: String(1767225600 + n),
    ...overrides,
  }
}

describeEndpointMatrix('attestation index (E8)', [
  {
    name: 'E8 getAttestations (one page)',
    host,
    method: 'get',
    path,
    query: { page: '1' },
    success: { body: { success: true, statusCode: 200, data: { page: 1, size: 10, total: 2, rows: [row(1), row(2)] } } },
    invalidBody: { data: { page: 1, size: 10, total: 1, rows: { 0: row(1) } } },
    idempotent: true,
    call: (options) => client(options).getAttestations({ address: checksummed }),
    expectSuccess: (result) => expect(result).toEqual([row(1), row(2)]),
  },
])

const listingPath = '/api/index/attestations'
const listingQuery = { schemaId: 'onchain_evm_10_0x8', attester: attester.toLowerCase() }
const listing = { schemaId: 'onchain_evm_10_0x8', attester }

/** A listing row as the public index sends it: no isReceiver, the recipients named. */
function listed(n: number, overrides: Record<string, unknown> = {}) {
  const { isReceiver: _isReceiver, ...rest } = row(n, { recipients: [`0x${n.toString(16).padStart(40, '0')}`], data: '0x', ...overrides })
  return rest
}

/** Replies to listing pages from `rows`, `size` a page; `onPage` sees each page number asked. */
function listingReplies(rows: Record<string, unknown>[], size = 100, onPage: (page: number) => void = () => {}) {
  return nock(host)
    .get(listingPath)
    .query((query) => query['schemaId'] === listingQuery.schemaId && query['attester'] === listingQuery.attester)
    .times(1000)
    .reply((uri) => {
      const page = Number(new URL(host + uri).searchParams.get('page'))
      onPage(page)
      return [200, { success: true, statusCode: 200, data: { page, size, total: rows.length, rows: rows.slice((page - 1) * size, page * size) } }]
    })
}

describeEndpointMatrix('attestation index listing', [
  {
    name: 'listing getAttestationListingPage',
    host,
    method: 'get',
    path: listingPath,
    query: { ...listingQuery, page: '1' },
    success: { body: { success: true, statusCode: 200, data: { page: 1, size: 100, total: '2', rows: [listed(1), listed(2)] } } },
    invalidBody: { data: { page: 1, size: 100, total: 'many', rows: [listed(1)] } },
    idempotent: true,
    call: (options) => client(options).getAttestationListingPage(listing),
    expectSuccess: (result) => expect(result).toEqual({ items: [listed(1), listed(2)], page: 1, size: 100, total: 2, next: null }),
  },
])

describe('the listing by schema and attester', () => {
  test('collects every page once: the first tells the total, the rest follow, each attestation once', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => listed(i + 1))
    const pages: number[] = []
    listingReplies(rows, 100, (page) => pages.push(page))
    const result = await client().listAttestations(listing)
    expect(result.rows).toEqual(rows)
    expect(result).toMatchObject({ total: 250, pages: 3 })
    expect(pages.sort()).toEqual([1, 2, 3])
  })

  test('sends the recipient filter in lower case, and one page answers a listing of at most 100', async () => {
    const recipient = checksummed
    const scope = nock(host)
      .get(listingPath)
      .query({ ...listingQuery, recipient: address, page: '1' })
      .reply(200, { data: { page: 1, size: 100, total: 1, rows: [listed(7, { recipients: [address] })] } })
    expect((await client().listAttestations({ ...listing, recipient })).rows).toHaveLength(1)
    expect(scope.isDone()).toBe(true)
  })

  test('the iterator yields the pages in order, with size and total', async () => {
    listingReplies(Array.from({ length: 5 }, (_, i) => listed(i + 1)), 2)
    const seen: [number, number, number | undefined, number | undefined][] = []
    for await (const page of client().iterateAttestationListing(listing)) seen.push([page.page, page.items.length, page.size, page.total])
    expect(seen).toEqual([
      [1, 2, 2, 5],
      [2, 2, 2, 5],
      [3, 1, 2, 5],
    ])
  })

  test('attestations made while the listing is read shift the pages: read the extra pages, keep each attestation once', async () => {
    // Newest first: two attestations arrive after page 1 was read, so pages 2 and 3 repeat two rows
    // and the listing grows by a page.
    const before = Array.from({ length: 5 }, (_, i) => listed(100 - i))
    const after = [listed(200), listed(201), ...before]
    let reads = 0
    nock(host)
      .get(listingPath)
      .query(true)
      .times(10)
      .reply((uri) => {
        const page = Number(new URL(host + uri).searchParams.get('page'))
        const rows = reads++ === 0 ? before : after
        return [200, { data: { page, size: 2, total: rows.length, rows: rows.slice((page - 1) * 2, page * 2) } }]
      })
    const result = await client().listAttestations(listing)
    // Page 1 of the old listing, pages 2-4 of the new one (two of its rows seen twice).
    expect(result.rows).toEqual(before)
    expect(result.pages).toBe(4)
  })

  test('a listing that lost rows while it was read is an error, not a short listing', async () => {
    const rows = Array.from({ length: 4 }, (_, i) => listed(i + 1))
    let reads = 0
    nock(host)
      .get(listingPath)
      .query(true)
      .times(2)
      .reply((uri) => {
        const page = Number(new URL(host + uri).searchParams.get('page'))
        // After page 1, the first row disappears: row 3 moves to page 1 and is never seen.
        const now = reads++ === 0 ? rows : rows.slice(1)
        return [200, { data: { page, size: 2, total: 4, rows: now.slice((page - 1) * 2, page * 2) } }]
      })
    const error = (await failure(client().listAttestations(listing))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues).toEqual([
      {
        path: ['data', 'total'],
        message: 'The listing said 4 attestations but 2 page(s) held 3 distinct ones: it changed while it was read. Read it again.',
      },
    ])
  })

  test('without a total, pages are read one after the other until a short one', async () => {
    const pages: number[] = []
    nock(host)
      .get(listingPath)
      .query(true)
      .times(3)
      .reply((uri) => {
        const page = Number(new URL(host + uri).searchParams.get('page'))
        pages.push(page)
        return [200, { data: { size: 2, rows: page < 3 ? [listed(page * 2), listed(page * 2 + 1)] : [listed(9)] } }]
      })
    const result = await client().listAttestations(listing)
    expect(result).toMatchObject({ total: undefined, pages: 3 })
    expect(result.rows).toHaveLength(5)
    expect(pages).toEqual([1, 2, 3])
  })

  test('guards: a total needing more pages than maxPages fails after the first page; maxItems counts rows', async () => {
    const pages: number[] = []
    listingReplies(Array.from({ length: 1001 }, (_, i) => listed(i + 1)), 100, (page) => pages.push(page))
    const error = (await failure(client().listAttestations({ ...listing, maxPages: 10 }))) as PaginationLimitError
    expect(error).toBeInstanceOf(PaginationLimitError)
    expect(error.kind).toBe('pages')
    expect(pages).toEqual([1])
    const items = (await failure(client().listAttestations({ ...listing, maxItems: 150 }))) as PaginationLimitError
    expect(items.kind).toBe('items')
  })

  test('a garbled row is kept as malformed, not fatal, and still counts toward the total', async () => {
    listingReplies([listed(1), { ...listed(2), recipients: '0x01' }, listed(3)])
    const { rows } = await client().listAttestations(listing)
    expect(rows).toHaveLength(3)
    expect(rows[1]).toMatchObject({ malformed: true, issues: ['recipients: Invalid input: expected array, received string'] })
  })

  test('a page other than the one asked is a ResponseValidationError', async () => {
    nock(host).get(listingPath).query(true).reply(200, { data: { page: 1, size: 100, total: 1, rows: [listed(1)] } })
    const error = (await failure(client().getAttestationListingPage({ ...listing, page: 2 }))) as ResponseValidationError
    expect(error.issues).toEqual([{ path: ['data', 'page'], message: 'Asked for page 2, got page 1' }])
  })

  test('bad parameters are refused before any request', async () => {
    expect(await failure(client().listAttestations({ ...listing, attester: '0x1234' }))).toBeInstanceOf(InvalidAddressError)
    expect(await failure(client().listAttestations({ ...listing, recipient: 'alice.near' }))).toBeInstanceOf(InvalidAddressError)
    expect(await failure(client().listAttestations({ ...listing, schemaId: '' }))).toBeInstanceOf(InvalidParameterError)
    expect(await failure(client().getAttestationListingPage({ ...listing, page: 0 }))).toBeInstanceOf(InvalidParameterError)
    expect(await failure(client().listAttestations({ ...listing, maxPages: 0 }))).toBeInstanceOf(InvalidParameterError)
  })
})

describe('getAttestations paging', () => {
  test('follows three pages and returns every row in order', async () => {
    const pages = [
      [row(1), row(2)],
      [row(3), row(4)],
      [row(5, { fullSchemaId: 'onchain_evm_10_0x80' })],
    ]
    const scopes = pages.map((rows, i) =>
      nock(host)
        .get(path)
        .query({ page: String(i + 1) })
        .reply(200, { data: { page: i + 1, size: '2', total: '5', rows } }),
    )
    const rows = await client().getAttestations({ address })
    expect(rows).toEqual(pages.flat())
    for (const scope of scopes) expect(scope.isDone()).toBe(true)
  })

  test('the iterator yields each page with its number and total', async () => {
    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 2, total: 3, rows: [row(1), row(2)] } })
    nock(host).get(path).query({ page: '2' }).reply(200, { data: { page: 2, size: 2, total: 3, rows: [row(3)] } })
    const seen: [number, number | undefined, number][] = []
    for await (const page of client().iterateAttestationPages({ address })) seen.push([page.page, page.total, page.items.length])
    expect(seen).toEqual([
      [1, 3, 2],
      [2, 3, 1],
    ])
  })

  test('stops at an empty page (an error when the total said more), and at a short page when no total is sent', async () => {
    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 2, total: 50, rows: [row(1), row(2)] } })
    nock(host).get(path).query({ page: '2' }).reply(200, { data: { page: 2, size: 2, total: 50, rows: null } })
    await expect(client().getAttestations({ address })).rejects.toThrow(ResponseValidationError)

    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 2, rows: [row(1), row(2)] } })
    nock(host).get(path).query({ page: '2' }).reply(200, { data: { page: 2, size: 2, rows: null } })
    await expect(client().getAttestations({ address })).resolves.toHaveLength(2)

    nock(host).get(path).query({ page: '1' }).reply(200, { data: { size: 2, rows: [row(1), row(2)] } })
    nock(host).get(path).query({ page: '2' }).reply(200, { data: { size: 2, rows: [row(3)] } })
    await expect(client().getAttestations({ address })).resolves.toHaveLength(3)
    expect(nock.isDone()).toBe(true)
  })

  test("the spec's { data: { rows } } is one page", async () => {
    const scope = nock(host).get(path).query({ page: '1' }).reply(200, { data: { rows: [row(1)] } })
    await expect(client().getAttestations({ address })).resolves.toEqual([row(1)])
    expect(scope.isDone()).toBe(true)
  })

  test('a server that never stops trips the page guard after exactly maxPages requests', async () => {
    let requests = 0
    nock(host)
      .get(path)
      .query(true)
      .times(50)
      .reply((uri) => {
        requests++
        const page = Number(new URL(host + uri).searchParams.get('page'))
        return [200, { data: { page, size: 2, total: 1_000_000, rows: [row(page * 2), row(page * 2 + 1)] } }]
      })
    const error = (await failure(client().getAttestations({ address, maxPages: 5 }))) as PaginationLimitError
    expect(error).toBeInstanceOf(PaginationLimitError)
    expect(error.kind).toBe('pages')
    expect(requests).toBe(5)

    requests = 0
    const items = (await failure(client().getAttestations({ address, maxItems: 7 }))) as PaginationLimitError
    expect(items.kind).toBe('items')
    expect(requests).toBe(4)
  })

  test('an index that ignores ?page (answers page 1 again) is a ResponseValidationError, not duplicated rows', async () => {
    nock(host).get(path).query(true).times(2).reply(200, { data: { page: 1, size: 2, total: 4, rows: [row(1), row(2)] } })
    const error = (await failure(client().getAttestations({ address }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues).toEqual([{ path: ['data', 'page'], message: 'Asked for page 2, got page 1' }])
  })

  test('a malformed address or guard is refused before any request', async () => {
    expect(await failure(client().getAttestations({ address: '0x52908400098527886e0F7030069857D2E4169EE7' }))).toBeInstanceOf(InvalidAddressError)
    for (const guard of [{ maxPages: 0 }, { maxItems: -1 }, { maxPages: 1.5 }]) {
      expect(await failure(client().getAttestations({ address, ...guard }))).toBeInstanceOf(InvalidParameterError)
    }
    expect(() => createAttestationIndexClient({ baseUrl: 'mainnet-rpc.sign.global' })).toThrow(InvalidParameterError)
  })
})

describe('clean-hands rule on the index rows', () => {
  test('fetched rows feed the rule: a revoked or "0"-valid row does not count, a valid one does', async () => {
    const now = new Date('2025-06-01T00:00:00Z')
    nock(host)
      .get(path)
      .query({ page: '1' })
      .reply(200, { data: { page: 1, size: 10, total: 2, rows: [row(1, { revoked: true }), row(2, { validUntil: '0' })] } })
    const invalidRows = await client().getAttestations({ address })
    expect(cleanHands.hasValidCleanHandsAttestation(invalidRows, { now })).toBe(false)

    nock(host)
      .get(path)
      .query({ page: '1' })
      .reply(200, { data: { page: 1, size: 10, total: 2, rows: [row(1, { revoked: true }), row(2, { attester: attester.toLowerCase() })] } })
    const rows = await getIndexedAttestations(client(), { address })
    expect(cleanHands.isValidCleanHandsAttestation(rows[1] as (typeof rows)[number], { now })).toBe(true)
    expect(cleanHands.hasValidCleanHandsAttestation(rows, { now })).toBe(true)
  })

  test('an address whose pages shift while read (a row repeated, another dropped): an error naming the index, not a missing attestation', async () => {
    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 2, total: 4, rows: [row(1), row(2)] } })
    // Row 3 was pushed out of page 2 by a row inserted before it; row 2 comes again.
    nock(host).get(path).query({ page: '2' }).reply(200, { data: { page: 2, size: 2, total: 4, rows: [row(2), row(4)] } })
    const error = (await failure(getIndexedAttestations(client(), { address }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues).toEqual([
      { path: ['data', 'total'], message: `The index said 4 attestations of ${address} but 2 page(s) held 3 distinct ones: it changed while it was read. Read it again.` },
    ])
  })

  test('the client fits the verifier’s AttestationIndex', () => {
    const index: AttestationIndex = client()
    expect(typeof index.getAttestations).toBe('function')
  })
})

describe('a garbled row', () => {
  test('is kept as malformed (with what is wrong), not fatal: the other rows still come', async () => {
    nock(host)
      .get(path)
      .query({ page: '1' })
      .reply(200, { data: { page: 1, size: 10, total: 2, rows: [{ ...row(1), revoked: 'no' }, row(2)] } })
    const rows = await client().getAttestations({ address: checksummed })
    expect(rows).toEqual([
      { malformed: true, row: { ...row(1), revoked: 'no' }, issues: ['revoked: Invalid input: expected boolean, received string'] },
      row(2),
    ])
    expect(cleanHands.checkCleanHandsAttestation(rows[0]!, { now: 1_700_000_000 })).toBe('malformed')
    expect(cleanHands.hasValidCleanHandsAttestation(rows, { now: 1_700_000_000 })).toBe(true)
  })
})
