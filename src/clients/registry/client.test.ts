import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createPassportClient } from '../passport/index.js'
import { InvalidAddressError, InvalidParameterError } from '../../errors/index.js'
import { countBy, failure, fakeClock, recordingFetch } from '../../../test/helpers/async.js'
import { address, apiKey, badChecksum, base, client, doneRecord } from '../../../test/fixtures/registry.js'
import { createRegistryClient } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describe('bad input is refused before any request', () => {
  test.each([
    ['malformed', '0x1234'],
    ['a bad EIP-55 checksum', badChecksum],
  ])('an address that is %s is an InvalidAddressError for every endpoint', async (_name, bad) => {
    const calls: string[] = []
    const registry = client({
      fetch: async (input) => {
        calls.push(String(input))
        return new Response('{}')
      },
    })
    for (const call of [
      () => registry.submitPassport({ address: bad, scorerId: 1 }),
      () => registry.getScore({ address: bad, scorerId: 1 }),
      () => registry.waitForScore({ address: bad, scorerId: 1 }),
      () => registry.listStamps({ address: bad }),
      () => registry.getTokenStake({ address: bad, roundId: 1 }),
    ]) {
      expect(await failure(call())).toBeInstanceOf(InvalidAddressError)
    }
    expect(() => registry.iterateStamps({ address: bad })).toThrow(InvalidAddressError)
    expect(calls).toEqual([])
  })
  test('creation fails on a missing API key or a tokenStakePath that is not a path', () => {
    expect(() => createRegistryClient({ apiKey: '' })).toThrow(InvalidParameterError)
    expect(() => createRegistryClient({ apiKey, tokenStakePath: 'registry/gtc-stake' })).toThrow(InvalidParameterError)
  })
})

describe('rate pacing', () => {
  const window = 15 * 60 * 1000

  test('200 A1 calls and 100 C3 calls on one tier-1 key share 125 per 15-minute window', async () => {
    const key = 'pk_pacing_shared_a_c'
    const clock = fakeClock()
    const starts: number[] = []
    const aStarts: number[] = []
    const cStarts: number[] = []
    const options = { apiKey: key, now: clock.now, sleep: clock.sleep }
    const passportScope = nock('https://api.passport.xyz').get(`/v2/stamps/335/score/${address}`).times(200).reply(200, {
      address,
      score: '22.51600',
      passing_score: true,
      threshold: '20.00000',
      last_score_timestamp: '2024-10-25T19:16:14.023456+00:00',
      expiration_timestamp: '2025-01-23T19:16:14.023000+00:00',
      error: null,
      stamps: {},
    })
    const registryScope = nock(base).get(`/registry/score/335/${address}`).times(100).reply(200, { items: [doneRecord] })
    const passport = createPassportClient({
      ...options,
      fetch: recordingFetch(clock.now, aStarts),
    })
    const registry = createRegistryClient({ ...options, fetch: recordingFetch(clock.now, cStarts) })
    expect(registry.rateLimiter).toBe(passport.rateLimiters.scoring)

    await Promise.all([
      ...Array.from({ length: 200 }, () => passport.getScore({ scorerId: 335, address })),
      ...Array.from({ length: 100 }, () => registry.getScore({ scorerId: 335, address })),
    ])
    starts.push(...aStarts, ...cStarts)
    expect(passportScope.isDone() && registryScope.isDone()).toBe(true)
    expect(aStarts).toHaveLength(200)
    expect(cStarts).toHaveLength(100)
    expect(countBy(starts)).toEqual({ 0: 125, [window]: 125, [2 * window]: 50 })
    // Both interfaces started requests in the first window: it really is one budget, not two.
    expect(aStarts.filter((start) => start === 0).length + cStarts.filter((start) => start === 0).length).toBe(125)
    expect(cStarts.some((start) => start === 0)).toBe(true)
  })

  test('a different key has a budget of its own', () => {
    const one = createRegistryClient({ apiKey: 'pk_key_one' })
    const two = createRegistryClient({ apiKey: 'pk_key_two' })
    expect(one.rateLimiter).not.toBe(two.rateLimiter)
    expect(createPassportClient({ apiKey: 'pk_key_one' }).rateLimiters.scoring).toBe(one.rateLimiter)
  })
})
