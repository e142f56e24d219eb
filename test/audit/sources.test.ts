/**
 * The audit's sources hold what later batches read again, and no more: the Passport score listing's
 * pages are read once and kept without each row's per-stamp scores (which no verdict reads).
 */
import { describe, expect, test } from 'vitest'
import { readOnceScoreListing } from '../../src/audit/sources.js'
import type { RegistryClient } from '../../src/clients/registry/index.js'

const row = (n: number) => ({
  address: `0x${n.toString(16).padStart(40, '0')}`,
  score: '21.50000',
  status: 'DONE',
  last_score_timestamp: '2025-05-01T00:00:00.000Z',
  expiration_date: '2025-09-01T00:00:00.000Z',
  evidence: null,
  error: null,
  stamp_scores: { Google: '0.52500', Ens: '21.99100', Github: '1.00000' },
})

describe('the audit’s score listing', () => {
  test('a page is read once, and kept without its rows’ per-stamp scores; a read of one address goes through whole', async () => {
    const asked: unknown[] = []
    const registry = {
      listScores: async (parameters: { address?: string; offset?: number }) => {
        asked.push(parameters)
        return { count: 2, items: parameters.address !== undefined ? [row(9)] : [row(1), row(2)] }
      },
    } as unknown as RegistryClient
    const listing = readOnceScoreListing(registry)
    const first = await listing.listScores({ scorerId: '1', limit: 1000, offset: 0 })
    const again = await listing.listScores({ scorerId: '1', limit: 1000, offset: 0 })
    expect(asked).toHaveLength(1)
    expect(again).toBe(first)
    const { stamp_scores: _stampScores, ...compact } = row(1)
    expect(first.items[0]).toEqual(compact)
    expect(first.items.some((item) => 'stamp_scores' in item)).toBe(false)
    const one = await listing.listScores({ scorerId: '1', address: row(9).address })
    expect(one.items[0]).toEqual(row(9))
    expect(asked).toHaveLength(2)
  })
})
