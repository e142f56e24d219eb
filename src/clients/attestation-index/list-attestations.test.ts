import nock from 'nock'
import type { Address } from 'viem'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError, InvalidParameterError, PaginationLimitError, ResponseValidationError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { address, checksummed, client, host, listed, listing, listingPath, listingQuery, listingReplies, row } from '../../../test/fixtures/attestation-index.js'
import { findCleanHandsRows } from '../../verify/attestation-lookup.js'

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

describe('an index that ignores recipient= (issue #27: the filter is not among the SDK parameters)', () => {
  /** The schema's whole listing, 2,500 attestations of others and one of ours on the last page, whatever recipient= says. */
  const ignoring = (pages: number[]) => {
    const rows = [...Array.from({ length: 2500 }, (_, i) => listed(i + 1)), listed(9999, { recipients: [address] })]
    return nock(host)
      .get(listingPath)
      .query((query) => query['recipient'] === address)
      .times(100)
      .reply((uri) => {
        const page = Number(new URL(host + uri).searchParams.get('page'))
        pages.push(page)
        return [200, { data: { page, size: 100, total: rows.length, rows: rows.slice((page - 1) * 100, page * 100) } }]
      })
  }

  test('listAttestations with a recipient stops at the first page with a ResponseValidationError, instead of reading 26 pages', async () => {
    const pages: number[] = []
    ignoring(pages)
    const error = (await failure(client().listAttestations({ ...listing, recipient: checksummed }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.message).toMatchInlineSnapshot(`
      "The response does not match the expected schema.

      Request: GET https://mainnet-rpc.sign.global/api/index/attestations?schemaId=onchain_evm_10_0x8&attester=0xb1f50c6c34c72346b1229e5c80587d0d659556fd&recipient=0x52908400098527886e0f7030069857d2e4169ee7&page=1
      Issues:
      - data.rows.0.recipients: Asked for the attestations of recipient 0x52908400098527886e0f7030069857d2e4169ee7, got attestation 0x1a2c of 0x0000000000000000000000000000000000000001: the index ignores recipient=. Read one address with getAttestations (/api/scan/addresses/{address}/attestations).

      Details: 1 issue(s)
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#response-validation-failed
      Version: personhood@0.1.0"
    `)
    expect(pages).toEqual([1])
  })

  test('iterateAttestationListing and getAttestationListingPage with a recipient fail on the first page too', async () => {
    const pages: number[] = []
    ignoring(pages)
    const iterate = async () => {
      for await (const page of client().iterateAttestationListing({ ...listing, recipient: address })) void page
    }
    expect(await failure(iterate())).toBeInstanceOf(ResponseValidationError)
    expect(await failure(client().getAttestationListingPage({ ...listing, recipient: address, page: 3 }))).toBeInstanceOf(ResponseValidationError)
    expect(pages).toEqual([1, 3])
  })

  test('a filtering index: rows naming the recipient in any letter case, or among others, pass', async () => {
    nock(host)
      .get(listingPath)
      .query({ ...listingQuery, recipient: address, page: '1' })
      .reply(200, { data: { page: 1, size: 100, total: 2, rows: [listed(7, { recipients: [checksummed] }), listed(8, { recipients: ['0x0000000000000000000000000000000000000001', address] })] } })
    expect((await client().listAttestations({ ...listing, recipient: checksummed })).rows).toHaveLength(2)
  })

  test("the library's single-voter clean-hands read goes through the per-address path (E8), never the listing", async () => {
    ignoring([])
    for (const lookup of ['auto', 'address'] as const) {
      nock(host).get(`/api/scan/addresses/${address}/attestations`).query({ page: '1' }).reply(200, { data: { page: 1, size: 100, total: 1, rows: [row(1)] } })
      const asked: string[] = []
      const counting: typeof fetch = (input, init) => (asked.push(new URL(String(input instanceof Request ? input.url : input)).pathname), fetch(input, init))
      const { rows, summary } = await findCleanHandsRows({ index: client({ fetch: counting }), addresses: [address], schemaId: listing.schemaId, attester: listing.attester as Address, lookup, concurrency: 4 })
      expect(rows).toEqual([[row(1)]])
      expect(summary).toEqual({ path: 'address', addresses: 1 })
      expect(asked).toEqual([`/api/scan/addresses/${address}/attestations`])
    }
  })
})
