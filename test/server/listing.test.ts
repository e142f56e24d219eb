/**
 * C4 at scale: a scorer with tens of thousands of rows, written through A1 and C2 (rescores, a
 * clock that goes back, rows still processing), read page by page at the page boundaries, with each
 * filter, and again after every kind of write. Each answer is compared with the listing computed
 * the slow way from the state (every submission converted, filtered, sorted by first submission).
 */
import { describe, expect, test } from 'vitest'
import type { RegistryScore } from '../../src/schemas/registry.js'
import { maxScorePageLimit, toRegistryScore } from '../../src/server/routes/registry.js'
import type { Store } from '../../src/server/state/store.js'
import { keys, setup, testWorld, worldNowMs, type Harness } from './harness.js'

const rowCount = 25_000
const scorerId = 1

/** A deterministic address for row `i`. */
const addressOf = (i: number) => `0x${(0xa000000 + i).toString(16).padStart(40, '0')}` as const

type ListingQuery = { offset?: number; limit?: number; gt?: number; gte?: number; address?: string; doubleUnderscore?: boolean }

/** The listing as C4 must answer it, computed from every submission of the state. */
function expected(store: Store, now: number, query: ListingQuery): { items: RegistryScore[]; count: number } {
  const scorer = store.scorer(scorerId)
  const records = Object.values(store.state.submissions[scorerId] ?? {})
    .sort((a, b) => a.seq - b.seq)
    .filter((submission) => query.address === undefined || submission.address === query.address.toLowerCase())
    .map((submission) => toRegistryScore(submission, scorer, now))
    .filter((record) => {
      if (query.gt === undefined && query.gte === undefined) return true
      if (record.last_score_timestamp === null) return false
      const at = Date.parse(record.last_score_timestamp)
      return (query.gt === undefined || at > query.gt) && (query.gte === undefined || at >= query.gte)
    })
  const offset = query.offset ?? 0
  return { items: records.slice(offset, offset + (query.limit ?? maxScorePageLimit)), count: records.length }
}

async function listing(h: Harness, query: ListingQuery) {
  const parameters = new URLSearchParams()
  if (query.offset !== undefined) parameters.set('offset', String(query.offset))
  if (query.limit !== undefined) parameters.set('limit', String(query.limit))
  const sep = query.doubleUnderscore ? '__' : '_'
  if (query.gt !== undefined) parameters.set(`last_score_timestamp${sep}gt`, new Date(query.gt).toISOString())
  if (query.gte !== undefined) parameters.set(`last_score_timestamp${sep}gte`, new Date(query.gte).toISOString())
  if (query.address !== undefined) parameters.set('address', query.address)
  const { status, body } = await h.call(`/registry/score/${scorerId}?${parameters}`)
  expect(status).toBe(200)
  return body as { items: RegistryScore[]; count: number }
}

async function expectListing(h: Harness, query: ListingQuery) {
  const answer = await listing(h, query)
  expect(answer).toEqual(expected(h.store, h.clock.now(), query))
  return answer
}

/**
 * An empty server with one scorer and `rowCount` rows: C2 submits and A1 reads alternate, one
 * second apart, so row i is scored at `worldNowMs + i` seconds (in order of first submission).
 */
async function largeState(): Promise<Harness> {
  const indexer = { key: keys(testWorld().world).indexer, name: 'indexer', tier: 4 as const, historyAllowlisted: true }
  const h = setup({ empty: true, apiKeys: [indexer], rateLimits: { stamps: { 4: 1_000_000 } } })
  const created = await h.call(`/admin/scorers/${scorerId}`, { method: 'PUT', admin: true, json: { name: 'Large', weights: { Google: '0.525' } } })
  expect(created.status).toBe(200)
  for (let i = 0; i < rowCount; i++) {
    const at = worldNowMs + i * 1000
    if (i % 2 === 0) h.store.submit(scorerId, addressOf(i), { at })
    else h.store.score(addressOf(i), { scorerId, at, recordHistory: true })
  }
  h.clock.ms = worldNowMs + rowCount * 1000
  return h
}

describe(`C4 over ${rowCount.toLocaleString('en-US')} rows`, () => {
  test('pages in order of first submission, at and around every page boundary, with the whole count', async () => {
    const h = await largeState()
    let listed = 0
    for (let offset = 0; offset < rowCount; offset += maxScorePageLimit) {
      const page = await expectListing(h, { offset })
      expect(page.count).toBe(rowCount)
      expect(page.items[0]!.address).toBe(addressOf(offset))
      listed += page.items.length
    }
    expect(listed).toBe(rowCount)
    for (const offset of [999, 1000, 1001, rowCount - 1000, rowCount - 1, rowCount, rowCount + 5]) {
      for (const limit of [1, 7, 1000]) await expectListing(h, { offset, limit })
    }
    expect((await listing(h, { offset: rowCount - 1, limit: 5 })).items.map((item) => item.address)).toEqual([addressOf(rowCount - 1)])
    expect((await listing(h, { offset: rowCount })).items).toEqual([])
  })

  test('timestamp filters: strict and inclusive at a row\'s own time, both spellings, combined, paged across a boundary', async () => {
    const h = await largeState()
    const at = (i: number) => worldNowMs + i * 1000
    const boundary = rowCount - 2500
    const gt = await expectListing(h, { gt: at(boundary) })
    expect(gt.count).toBe(rowCount - boundary - 1)
    expect(gt.items[0]!.address).toBe(addressOf(boundary + 1))
    const gte = await expectListing(h, { gte: at(boundary), doubleUnderscore: true })
    expect(gte.count).toBe(rowCount - boundary)
    expect(gte.items[0]!.address).toBe(addressOf(boundary))
    for (const offset of [0, 999, 1000, 1001, 2499, 2500]) await expectListing(h, { gte: at(boundary), offset })
    await expectListing(h, { gt: at(boundary), gte: at(boundary + 10), offset: 5, limit: 3 })
    await expectListing(h, { gt: at(-1) })
    expect((await expectListing(h, { gt: at(rowCount) })).count).toBe(0)
  })

  test('the address filter: one row in any letter case, none for an unlisted address, none when a timestamp filter leaves it out', async () => {
    const h = await largeState()
    const address = addressOf(12_345)
    const one = await expectListing(h, { address: address.toUpperCase().replace('0X', '0x') })
    expect(one).toEqual({ items: [expect.objectContaining({ address })], count: 1 })
    expect(await expectListing(h, { address: addressOf(rowCount + 1) })).toEqual({ items: [], count: 0 })
    expect((await expectListing(h, { address, gt: worldNowMs + 12_345 * 1000 })).count).toBe(0)
    expect((await expectListing(h, { address, gte: worldNowMs + 12_345 * 1000 })).count).toBe(1)
    expect((await expectListing(h, { address, offset: 1 })).items).toEqual([])
  })

  test('writes keep the listing current: a rescore moves a row in time, not in order; a new row comes last; a clock that went back; a row processing until done', async () => {
    const h = await largeState()
    const recent = { gte: worldNowMs + (rowCount - 10) * 1000 }
    await expectListing(h, recent)
    await expectListing(h, { offset: 24_000 })

    // A rescore of row 3 (A1) and of row 8 (C2) now: same place in the order, newest time.
    h.clock.advance(1000)
    h.store.score(addressOf(3), { scorerId, recordHistory: true })
    h.store.submit(scorerId, addressOf(8))
    const rescored = await expectListing(h, recent)
    expect(rescored.items.slice(0, 2).map((item) => item.address)).toEqual([addressOf(3), addressOf(8)])
    expect((await expectListing(h, { limit: 10 })).items.map((item) => item.address)).toEqual(Array.from({ length: 10 }, (_, i) => addressOf(i)))

    // A new address is listed last.
    h.store.submit(scorerId, addressOf(rowCount))
    const last = await expectListing(h, { offset: rowCount, limit: 10 })
    expect(last.items.map((item) => item.address)).toEqual([addressOf(rowCount)])
    expect(last.count).toBe(rowCount + 1)

    // A write earlier than the latest (the clock went back): filters still see it at its own time.
    h.store.score(addressOf(20), { scorerId, at: worldNowMs + 100, recordHistory: true })
    await expectListing(h, { gte: worldNowMs + 50, limit: 5 })
    await expectListing(h, recent)

    // A submit processing for a minute reads PROCESSING and no filter keeps it until it is done.
    const delayed = h.store.submit(scorerId, addressOf(rowCount + 1), { at: h.clock.now(), delayMs: 60_000 })
    expect(delayed.doneAt).toBe(h.clock.now() + 60_000)
    const pending = await expectListing(h, recent)
    expect(pending.items.some((item) => item.address === addressOf(rowCount + 1))).toBe(false)
    expect((await expectListing(h, { offset: rowCount + 1 })).items).toEqual([expect.objectContaining({ status: 'PROCESSING', last_score_timestamp: null })])
    h.clock.advance(60_000)
    const done = await expectListing(h, recent)
    expect(done.items.at(-1)).toMatchObject({ address: addressOf(rowCount + 1), status: 'DONE' })
  })

  test('a change the index was not told of (an admin write, a whole new state) is seen at the next read', async () => {
    const h = await largeState()
    await expectListing(h, { offset: 1000 })
    await expectListing(h, { gte: worldNowMs })
    // The scorer becomes binary: the same rows now read 1 or 0 with evidence.
    expect((await h.call(`/admin/scorers/${scorerId}`, { method: 'PUT', admin: true, json: { type: 'binary' } })).status).toBe(200)
    const binary = await expectListing(h, { offset: 1000, limit: 3 })
    expect(binary.items[0]).toMatchObject({ score: '0.000000000', evidence: { type: 'ThresholdScoreCheck', success: false } })
    // The admin API replaces the whole state with one of two rows.
    const state = structuredClone(h.store.state)
    const kept = Object.fromEntries(Object.entries(state.submissions[scorerId]!).filter(([, row]) => row.seq % 10_000 === 1))
    state.submissions[scorerId] = kept
    const replaced = await h.call('/admin/state', { method: 'PUT', admin: true, json: state })
    expect(replaced.status).toBe(200)
    const after = await expectListing(h, {})
    expect(after.count).toBe(Object.keys(kept).length)
    await expectListing(h, { gte: worldNowMs })
    // Deleting the scorer's rows with it, then scoring again: a listing of one.
    expect((await h.call(`/admin/scorers/${scorerId}`, { method: 'DELETE', admin: true })).status).toBe(204)
    await h.call(`/admin/scorers/${scorerId}`, { method: 'PUT', admin: true, json: { name: 'Again' } })
    expect(await expectListing(h, {})).toEqual({ items: [], count: 0 })
    h.store.submit(scorerId, addressOf(7))
    expect((await expectListing(h, {})).count).toBe(1)
  })
})
