import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError, InvalidParameterError, PaginationLimitError, ResponseValidationError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { address, checksummed, client, host, listed, listing, listingPath, listingQuery, listingReplies } from '../../../test/fixtures/attestation-index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

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

  test('bad parameters are refused before any request', async () => {
    expect(await failure(client().listAttestations({ ...listing, attester: '0x1234' }))).toBeInstanceOf(InvalidAddressError)
    expect(await failure(client().listAttestations({ ...listing, recipient: 'alice.near' }))).toBeInstanceOf(InvalidAddressError)
    expect(await failure(client().listAttestations({ ...listing, schemaId: '' }))).toBeInstanceOf(InvalidParameterError)
    expect(await failure(client().getAttestationListingPage({ ...listing, page: 0 }))).toBeInstanceOf(InvalidParameterError)
    expect(await failure(client().listAttestations({ ...listing, maxPages: 0 }))).toBeInstanceOf(InvalidParameterError)
  })
})
