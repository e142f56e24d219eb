import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import {
  createAttestationIndexClient,
  getIndexedAttestations,
  type AttestationIndexClient,
  type CreateAttestationIndexClientParameters,
} from '../../src/clients/index.js'
import * as attestationIndex from '../../src/clients/attestation-index.js'
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

  test('stops at an empty page, and at a short page when no total is sent', async () => {
    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 2, total: 50, rows: [row(1), row(2)] } })
    nock(host).get(path).query({ page: '2' }).reply(200, { data: { page: 2, size: 2, total: 50, rows: null } })
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
  test('the predicates are re-exported, not reimplemented', () => {
    expect(attestationIndex.isValidCleanHandsAttestation).toBe(cleanHands.isValidCleanHandsAttestation)
    expect(attestationIndex.hasValidCleanHandsAttestation).toBe(cleanHands.hasValidCleanHandsAttestation)
  })

  test('fetched rows feed the rule: a revoked or "0"-valid row does not count, a valid one does', async () => {
    const now = new Date('2025-06-01T00:00:00Z')
    nock(host)
      .get(path)
      .query({ page: '1' })
      .reply(200, { data: { page: 1, size: 10, total: 2, rows: [row(1, { revoked: true }), row(2, { validUntil: '0' })] } })
    const invalidRows = await client().getAttestations({ address })
    expect(attestationIndex.hasValidCleanHandsAttestation(invalidRows, { now })).toBe(false)

    nock(host)
      .get(path)
      .query({ page: '1' })
      .reply(200, { data: { page: 1, size: 10, total: 2, rows: [row(1, { revoked: true }), row(2, { attester: attester.toLowerCase() })] } })
    const rows = await getIndexedAttestations(client(), { address })
    expect(attestationIndex.isValidCleanHandsAttestation(rows[1] as (typeof rows)[number], { now })).toBe(true)
    expect(attestationIndex.hasValidCleanHandsAttestation(rows, { now })).toBe(true)
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
