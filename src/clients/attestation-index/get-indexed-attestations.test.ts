import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError, InvalidParameterError, PaginationLimitError, ResponseValidationError } from '../../errors/index.js'
import * as cleanHands from '../../verify/clean-hands.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { address, attester, checksummed, client, host, path, row } from '../../../test/fixtures/attestation-index.js'
import { createAttestationIndexClient, getIndexedAttestations } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

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
})

describe('duplicated rows (issue #27: one rule for duplicates)', () => {
  test('two different rows under one attestation id are an error naming the id, in either order; the same row twice counts once', async () => {
    for (const rows of [[row(2), row(2, { revoked: true }), row(1)], [row(2, { revoked: true }), row(1), row(2)]]) {
      nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 10, total: 2, rows } })
      const error = (await failure(getIndexedAttestations(client(), { address }))) as ResponseValidationError
      expect(error).toBeInstanceOf(ResponseValidationError)
      expect(error.issues[0]?.message).toBe(`The index answered two different rows for attestation 0x1a2d (recipients ${address}): which one is true cannot be told. Read it again.`)
    }
    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 10, total: 2, rows: [row(2), row(1), row(2)] } })
    expect(await getIndexedAttestations(client(), { address })).toEqual([row(2), row(1)])
  })

  test('the same row listed again under its attestation id in capitals is one attestation (src/rules/clean-hands-index.ts), not two different rows', async () => {
    const recased = { ...row(2), attestationId: row(2).attestationId.toUpperCase().replace('0X', '0x') }
    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 10, total: 3, rows: [row(2), row(1), recased] } })
    expect(await getIndexedAttestations(client(), { address })).toEqual([row(2), row(1)])
    // Different all the same: still refused, under the id in lower case.
    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 10, total: 3, rows: [row(2), row(1), { ...recased, revoked: true }] } })
    const error = (await failure(getIndexedAttestations(client(), { address }))) as ResponseValidationError
    expect(error.issues[0]?.message).toBe(`The index answered two different rows for attestation 0x1a2d (recipients ${address}): which one is true cannot be told. Read it again.`)
  })

  test('a row listed again on its own page, counted in the total, counts once: no shift explains it, so it is no loss', async () => {
    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 3, total: 4, rows: [row(2), row(1), { ...row(2), recipients: [checksummed] }] } })
    nock(host).get(path).query({ page: '2' }).reply(200, { data: { page: 2, size: 3, total: 4, rows: [row(3)] } })
    expect(await getIndexedAttestations(client(), { address })).toEqual([row(2), row(1), row(3)])
  })

  test('the listing by schema and attester follows the same rule', async () => {
    const { listed, listing, listingPath } = await import('../../../test/fixtures/attestation-index.js')
    for (const rows of [[listed(2), listed(1), { ...listed(2), revoked: true }], [{ ...listed(2), revoked: true }, listed(1), listed(2)]]) {
      nock(host).get(listingPath).query(true).reply(200, { data: { page: 1, size: 100, total: 2, rows } })
      const error = (await failure(client().listAttestations(listing))) as ResponseValidationError
      expect(error).toBeInstanceOf(ResponseValidationError)
      expect(error.issues[0]?.message).toContain('two different rows for attestation')
    }
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
