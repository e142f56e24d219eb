/**
 * E8, the attestation index of the reference server, in-process: an address's rows page by page,
 * newest first, every field of an index row kept as stored.
 */
import type { Hono } from 'hono'
import { getAddress, type Address } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import { createAttestationIndexClient } from '../../src/clients/attestation-index/index.js'
import { isValidCleanHandsAttestation } from '../../src/verify/clean-hands.js'
import { attestationListingPageSchema, attestationPageResponseSchema, attestationPageSchema } from '../../src/schemas/attestation.js'
import { createServer } from '../../src/server/app.js'
import { createEmptyState, type AttestationRow } from '../../src/server/state/index.js'

const base = 'http://personhood.local/attestation-index'
const owner = '0x6b175474e89094c44da98b954eedeac495271d0f' as Address
const other = '0x1f9840a85d5af5bf1d1762f925bdaddc4201f984' as Address
const attester = '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd'

function row(address: Address, index: number, fields: Partial<AttestationRow> = {}): AttestationRow {
  return {
    attestationId: `0x${(0x100 + index).toString(16)}`,
    address,
    fullSchemaId: 'onchain_evm_10_0x8',
    schemaId: '0x8',
    attester,
    isReceiver: true,
    revoked: false,
    validUntil: index % 2 === 0 ? String(1_800_000_000 + index) : 1_800_000_000 + index,
    attestTimestamp: 1_700_000_000_000 + index * 60_000,
    recipients: [address],
    kind: 'valid',
    ...fields,
  }
}

let app: Hono
const rows: AttestationRow[] = []

beforeAll(() => {
  // 23 rows for the owner (shuffled order), 2 for another address, one with validUntil "0".
  for (let i = 0; i < 23; i++) rows.push(row(owner, (i * 7) % 23))
  rows.push(row(other, 100), row(other, 101, { validUntil: '0', kind: 'valid-until-zero' }))
  const state = createEmptyState()
  state.attestations = rows
  app = createServer({ state, now: () => 0 })
})

async function get(path: string) {
  const response = await app.fetch(new Request(`${base}${path}`))
  return { status: response.status, body: (await response.json()) as unknown }
}

const page = async (address: string, query = '') => {
  const { status, body } = await get(`/api/scan/addresses/${address}/attestations${query}`)
  expect(status).toBe(200)
  return attestationPageSchema.parse(body).data
}

describe('E8 attestation index', () => {
  test('pages of 10 by default, newest first, with page, size and total', async () => {
    const first = await page(owner)
    expect(first).toMatchObject({ page: 1, size: 10, total: 23 })
    expect(first.rows.map((r) => r.attestTimestamp)).toEqual(
      Array.from({ length: 10 }, (_, i) => 1_700_000_000_000 + (22 - i) * 60_000),
    )
    const third = await page(owner, '?page=3')
    expect(third.rows.map((r) => r.attestationId)).toEqual(['0x102', '0x101', '0x100'])
    expect((await page(owner, '?page=4')).rows).toEqual([])
  })

  test('walking the pages with ?page=N&size=M lists every row once', async () => {
    const seen: string[] = []
    for (let n = 1; ; n++) {
      const data = await page(owner, `?page=${n}&size=7`)
      seen.push(...data.rows.map((r) => r.attestationId!))
      if (data.total! <= n * data.size!) break
    }
    expect(seen).toHaveLength(23)
    expect(new Set(seen).size).toBe(23)
  })

  test('an address matches in any letter case', async () => {
    expect((await page(getAddress(owner))).total).toBe(23)
    expect((await page(owner.toUpperCase().replace('0X', '0x'))).total).toBe(23)
  })

  test('rows carry every field of an index row, validUntil as stored, and not the world fields', async () => {
    const { rows: listed } = await page(other)
    expect(listed).toEqual([
      {
        attestationId: '0x165',
        fullSchemaId: 'onchain_evm_10_0x8',
        schemaId: '0x8',
        attester,
        isReceiver: true,
        revoked: false,
        validUntil: '0',
        attestTimestamp: 1_700_000_000_000 + 101 * 60_000,
        recipients: [other],
      },
      {
        attestationId: '0x164',
        fullSchemaId: 'onchain_evm_10_0x8',
        schemaId: '0x8',
        attester,
        isReceiver: true,
        revoked: false,
        validUntil: String(1_800_000_100),
        attestTimestamp: 1_700_000_000_000 + 100 * 60_000,
        recipients: [other],
      },
    ])
  })

  test('the answer reads as the public index does', async () => {
    const { body } = await get(`/api/scan/addresses/${owner}/attestations?page=2&size=5`)
    expect(attestationPageResponseSchema.parse(body).data).toMatchObject({ page: 2, size: 5, total: 23 })
  })

  test('an address without rows: total 0, no rows', async () => {
    expect(await page('0x0000000000000000000000000000000000000001')).toEqual({ page: 1, size: 10, total: 0, rows: [] })
  })

  test('400 for a malformed address, page or size', async () => {
    expect((await get('/api/scan/addresses/0x1234/attestations')).status).toBe(400)
    for (const query of ['?page=0', '?page=x', '?size=0', '?size=101']) {
      const { status, body } = await get(`/api/scan/addresses/${owner}/attestations${query}`)
      expect(status, query).toBe(400)
      expect(body).toEqual({ detail: expect.stringMatching(/^query\.(page|size): /) })
    }
  })
})

describe('contract: the attestation-index client against the server', () => {
  const client = () =>
    createAttestationIndexClient({
      baseUrl: base,
      fetch: async (input, init) => app.fetch(new Request(input, init)),
      retry: false,
    })

  test('the client follows every page and gets each row once, newest first', async () => {
    const pages = []
    for await (const one of client().iterateAttestationPages({ address: owner })) pages.push(one)
    expect(pages.map((one) => [one.page, one.items.length, one.total])).toEqual([
      [1, 10, 23],
      [2, 10, 23],
      [3, 3, 23],
    ])
    const listed = await client().getAttestations({ address: getAddress(owner) })
    expect(listed.map((r) => ('attestationId' in r ? r.attestationId : undefined))).toEqual(
      Array.from({ length: 23 }, (_, i) => `0x${(0x100 + 22 - i).toString(16)}`),
    )
  })

  test('the rows feed the clean-hands rule: validUntil "0" never passes', async () => {
    const now = new Date('2025-06-01T00:00:00Z')
    const rows = await client().getAttestations({ address: other })
    expect(rows.map((r) => isValidCleanHandsAttestation(r, { now }))).toEqual([false, true])
  })
})

describe('the listing by schema and attester', () => {
  const listingPath = '/api/index/attestations'
  const query = (fields: Record<string, string | number>) =>
    `${listingPath}?${new URLSearchParams(Object.entries(fields).map(([key, value]) => [key, String(value)])).toString()}`
  const listing = async (fields: Record<string, string | number>) => {
    const { status, body } = await get(query(fields))
    expect(status).toBe(200)
    return attestationListingPageSchema.parse(body).data
  }
  const clean = { schemaId: 'onchain_evm_10_0x8', attester }

  test('lists every attestation of the schema and attester once, 100 a page, newest first, without isReceiver', async () => {
    const first = await listing(clean)
    expect(first).toMatchObject({ page: 1, size: 100, total: 25 })
    expect(first.rows).toHaveLength(25)
    expect(first.rows[0]).toEqual({
      attestationId: '0x165',
      fullSchemaId: 'onchain_evm_10_0x8',
      schemaId: '0x8',
      attester,
      revoked: false,
      validUntil: '0',
      attestTimestamp: 1_700_000_000_000 + 101 * 60_000,
      recipients: [other],
    })
    const timestamps = first.rows.map((entry) => Number(entry.attestTimestamp))
    expect(timestamps).toEqual([...timestamps].sort((a, b) => b - a))
    expect((await listing({ ...clean, page: 2 })).rows).toEqual([])
  })

  test('the attester matches in any letter case; the schema id exactly', async () => {
    expect((await listing({ ...clean, attester: attester.toLowerCase() })).total).toBe(25)
    expect((await listing({ ...clean, schemaId: 'onchain_evm_10_0x80' })).total).toBe(0)
    expect((await listing({ ...clean, attester: other })).total).toBe(0)
  })

  test('recipient narrows the listing to the attestations naming it', async () => {
    const { total, rows: listed } = await listing({ ...clean, recipient: getAddress(other) })
    expect(total).toBe(2)
    expect(listed.map((entry) => entry.attestationId)).toEqual(['0x165', '0x164'])
  })

  test('walking ?page=N&size=M lists every attestation once, as the per-address pages hold them', async () => {
    const seen: string[] = []
    for (let n = 1; n < 10; n++) {
      const data = await listing({ ...clean, page: n, size: 7 })
      seen.push(...data.rows.map((entry) => entry.attestationId!))
      if (data.total <= n * data.size) break
    }
    expect(seen.sort()).toEqual([...new Set(rows.map((entry) => entry.attestationId))].sort())
  })

  test('one attestation listed on two address pages is listed once, as its receiver sees it', async () => {
    const state = createEmptyState()
    const shared = row(owner, 1, { isReceiver: true })
    state.attestations = [{ ...shared, address: other, isReceiver: false, kind: 'not-receiver' }, shared]
    const server = createServer({ state, now: () => 0 })
    const response = await server.fetch(new Request(`${base}${query(clean)}`))
    const { data } = attestationListingPageSchema.parse(await response.json())
    expect(data.total).toBe(1)
    expect(data.rows[0]?.recipients).toEqual([owner])
  })

  test('400 without schemaId or attester, or for a malformed attester, recipient, page or size', async () => {
    for (const fields of [
      { attester } as Record<string, string | number>,
      { schemaId: 'onchain_evm_10_0x8' },
      { ...clean, attester: '0x1234' },
      { ...clean, recipient: 'alice.near' },
      { ...clean, page: 0 },
      { ...clean, size: 101 },
    ]) {
      const { status, body } = await get(query(fields))
      expect(status, JSON.stringify(fields)).toBe(400)
      expect(body).toEqual({ detail: expect.stringMatching(/^query\.(schemaId|attester|recipient|page|size): /) })
    }
  })

  test('the client lists through the server: same attestations as the per-address reads', async () => {
    const client = createAttestationIndexClient({ baseUrl: base, fetch: async (input, init) => app.fetch(new Request(input, init)), retry: false })
    const { rows: listed, pages } = await client.listAttestations({ ...clean, attester: getAddress(attester) })
    expect(pages).toBe(1)
    const perAddress = [...(await client.getAttestations({ address: owner })), ...(await client.getAttestations({ address: other }))]
    const ids = (entries: readonly object[]) => entries.map((entry) => (entry as { attestationId?: string }).attestationId).sort()
    expect(ids(listed)).toEqual(ids(perAddress))
    expect(ids(listed)).toHaveLength(25)
  })
})
