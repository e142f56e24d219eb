/**
 * The attestation index at scale: 30,000 rows (shared timestamps, ids of every length, attesters
 * in mixed case, attestations shown on several address pages, two schemas), read through the
 * reference server by address and by schema, attester and recipient, page by page at the page
 * boundaries, and again after admin writes. Each answer is compared with the same page computed
 * the slow way (every row filtered and sorted: pageAttestations and pageAttestationListing).
 */
import { describe, expect, test } from 'vitest'
import type { Address } from 'viem'
import { createServer } from '../../src/server/app.js'
import { listedAttestations, pageAttestationListing, pageAttestations } from '../../src/server/routes/attestation-index.js'
import { createEmptyState, type AttestationRow } from '../../src/server/state/index.js'

const rowCount = 30_000
const base = 'http://personhood.local/attestation-index'
const adminToken = 'scale-admin-token-0123456789'
const attesters = ['0xB1f50c6C34C72346b1229e5C80587D0D659556Fd', '0x00000000000000000000000000000000000000aa']
const schemas = ['onchain_evm_10_0x8', 'onchain_evm_10_0x9']
const addressOf = (i: number) => `0x${(0xc0000 + i).toString(16).padStart(40, '0')}` as Address
const people = 2_000

/** Row `i`: 15 rows per address; every 7th attestation also listed on the next address's page. */
function rows(): AttestationRow[] {
  const list: AttestationRow[] = []
  for (let i = 0; list.length < rowCount; i++) {
    const address = addressOf(i % people)
    const id = `0x${(i * 37).toString(16)}` as `0x${string}`
    const shared = i % 7 === 0
    const recipients = shared ? [address, addressOf((i + 1) % people)] : [address]
    const fields = {
      attestationId: id,
      fullSchemaId: schemas[i % 5 === 0 ? 1 : 0]!,
      schemaId: i % 5 === 0 ? '0x9' : '0x8',
      attester: i % 3 === 0 ? attesters[1]! : i % 2 === 0 ? attesters[0]!.toLowerCase() : attesters[0]!,
      revoked: i % 11 === 0,
      validUntil: 1_800_000_000 + i,
      // Runs of equal timestamps: ties are broken by the attestation id.
      attestTimestamp: 1_700_000_000_000 + Math.floor(i / 4) * 1000,
      recipients,
      kind: 'valid' as const,
    }
    list.push({ ...fields, address, isReceiver: true })
    if (shared) list.push({ ...fields, address: addressOf((i + 1) % people), isReceiver: false })
  }
  return list.slice(0, rowCount)
}

async function get(server: ReturnType<typeof createServer>, path: string) {
  const response = await server.fetch(new Request(`${base}${path}`))
  expect(response.status).toBe(200)
  return response.json()
}

describe(`the attestation index over ${rowCount.toLocaleString('en-US')} rows`, () => {
  test('E8 by address and the listing by schema, attester and recipient: every page at and past the boundaries, as the slow way pages them', async () => {
    const state = { ...createEmptyState({ adminToken }), attestations: rows() }
    const server = createServer({ state, now: () => 1_750_000_000_000 })
    const all = state.attestations
    for (const address of [addressOf(0), addressOf(1), addressOf(people - 1), addressOf(7).toUpperCase().replace('0X', '0x')]) {
      for (const [page, size] of [[1, 10], [2, 10], [1, 100], [2, 7], [3, 7], [4, 5], [99, 10]] as const) {
        expect(await get(server, `/api/scan/addresses/${address}/attestations?page=${page}&size=${size}`)).toEqual(pageAttestations(all, { address, page, size }))
      }
    }
    const listed = listedAttestations(all)
    for (const schemaId of schemas) {
      for (const attester of [...attesters, attesters[0]!.toLowerCase()]) {
        const first = await get(server, `/api/index/attestations?schemaId=${schemaId}&attester=${attester}&size=100`)
        expect(first).toEqual(pageAttestationListing(listed, { schemaId, attester, page: 1, size: 100 }))
        const pages = Math.ceil(first.data.total / 100)
        expect(pages).toBeGreaterThan(10)
        for (const page of [2, pages - 1, pages, pages + 1]) {
          expect(await get(server, `/api/index/attestations?schemaId=${schemaId}&attester=${attester}&page=${page}&size=100`)).toEqual(
            pageAttestationListing(listed, { schemaId, attester, page, size: 100 }),
          )
        }
        for (const recipient of [addressOf(1), addressOf(1).toUpperCase().replace('0X', '0x'), addressOf(people + 5)]) {
          expect(await get(server, `/api/index/attestations?schemaId=${schemaId}&attester=${attester}&recipient=${recipient}&size=3&page=2`)).toEqual(
            pageAttestationListing(listed, { schemaId, attester, recipient, page: 2, size: 3 }),
          )
        }
      }
    }
  })

  test('admin writes are seen at the next read: a new newest row heads its address and the listing; a deletion leaves both', async () => {
    const state = { ...createEmptyState({ adminToken }), attestations: rows() }
    const server = createServer({ state, now: () => 1_750_000_000_000 })
    const address = addressOf(3)
    const path = `/api/index/attestations?schemaId=${schemas[0]}&attester=${attesters[0]}&size=100`
    await get(server, `/api/scan/addresses/${address}/attestations`)
    await get(server, path)
    const admin = (method: string, url: string, body?: unknown) =>
      server.fetch(
        new Request(`http://personhood.local/admin${url}`, {
          method,
          headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      )
    const added = await admin('POST', '/attestations', { address, attestationId: '0xffffffff', attester: attesters[0], attestTimestamp: 1_800_000_000_000, fullSchemaId: schemas[0], schemaId: '0x8' })
    expect(added.status).toBe(201)
    const page = await get(server, `/api/scan/addresses/${address}/attestations`)
    expect(page.data.rows[0].attestationId).toBe('0xffffffff')
    expect(page).toEqual(pageAttestations(server.context.store.state.attestations, { address, page: 1, size: 10 }))
    expect((await get(server, path)).data.rows[0].attestationId).toBe('0xffffffff')
    expect((await admin('DELETE', `/attestations?attestationId=0xffffffff`)).status).toBe(200)
    expect((await get(server, `/api/scan/addresses/${address}/attestations`)).data.rows[0].attestationId).not.toBe('0xffffffff')
    expect(await get(server, path)).toEqual(pageAttestationListing(listedAttestations(server.context.store.state.attestations), { schemaId: schemas[0]!, attester: attesters[0]!, page: 1, size: 100 }))
  })
})
