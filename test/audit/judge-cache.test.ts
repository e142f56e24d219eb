/**
 * The audit's strategy cache across batches (src/audit/judge.ts): what every batch reads again (a
 * listing) stays from the first batch to the last, and a voter's own answer, never asked again in an
 * audit, does not stay to the end: the cache holds two batches' entries, not every voter's.
 */
import { getAddress, type Address } from 'viem'
import { z } from 'zod'
import { describe, expect, test } from 'vitest'
import { recordingBlockProvider } from '../helpers/block-provider.js'
import { createStrategyJudge } from '../../src/audit/judge.js'
import { defineStrategy } from '../../src/strategy/define.js'
import { parseStrategyCall } from '../../src/strategy/call.js'
import type { StrategyCache } from '../../src/strategy/cache.js'

const at = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`) as Address
const provider = recordingBlockProvider()

describe('the audit’s strategy cache', () => {
  test('keeps the listing every batch reads from the first batch to the last, and at most two batches of voters’ answers', async () => {
    const listingReads: number[] = []
    let cache: StrategyCache | undefined
    // Like passport-v2: a listing read once and kept, then each voter's answer kept for good.
    const listed = defineStrategy({
      name: 'listed',
      title: 'Listed',
      optionsSchema: z.object({}).strict(),
      async score({ addresses, runtime }) {
        cache = runtime.cache
        if (runtime.cache?.get('listing') === undefined) {
          listingReads.push(addresses.length)
          runtime.cache?.set('listing', { rows: addresses.length })
        }
        for (const address of addresses) runtime.cache?.set(`answer ${address}`, { score: 1 })
        return new Map(addresses.map((address) => [address, { score: 1, detail: [] as unknown[] }]))
      },
    })
    const batchSize = 1_000
    const addresses = Array.from({ length: 20_000 }, (_, index) => at(index + 1))
    const call = parseStrategyCall(listed, { network: '1', snapshot: 100n, addresses, options: {} })
    const judge = createStrategyJudge({ call, provider, context: {}, batchSize })
    let judged = 0
    for await (const batch of judge({ addresses }) as AsyncIterable<ReadonlyMap<string, unknown>>) judged += batch.size
    expect(judged).toBe(20_000)
    expect(listingReads).toEqual([1_000])
    expect(cache!.size).toBeLessThanOrEqual(2 * batchSize + 1_000)
  })
})

describe('the audit’s strategy call', () => {
  test('is prepared once for every batch of voters', async () => {
    const preparedWith: unknown[] = []
    const seen: unknown[] = []
    const keyed = defineStrategy({
      name: 'keyed',
      title: 'Keyed',
      optionsSchema: z.object({ score: z.number() }).strict(),
      // Like passport-v2's: clients built from the context, once per call.
      prepare({ options }) {
        const prepared = { ...options, client: { id: preparedWith.length } }
        preparedWith.push(prepared)
        return prepared
      },
      async score({ addresses, options }) {
        seen.push(options)
        return new Map(addresses.map((address) => [address, { score: options.score, detail: [] as unknown[] }]))
      },
    })
    const addresses = Array.from({ length: 12 }, (_, index) => at(index + 1))
    const call = parseStrategyCall(keyed, { network: '1', snapshot: 100n, addresses, options: { score: 2 } })
    const judge = createStrategyJudge({ call, provider, context: {}, batchSize: 5 })
    const batches: number[] = []
    for await (const batch of judge({ addresses }) as AsyncIterable<ReadonlyMap<string, unknown>>) batches.push(batch.size)
    expect(batches).toEqual([5, 5, 2])
    expect(preparedWith).toHaveLength(1)
    // Every batch ran with the one prepared value.
    expect(seen).toEqual([preparedWith[0], preparedWith[0], preparedWith[0]])
    expect(seen.every((options) => options === preparedWith[0])).toBe(true)
  })
})
