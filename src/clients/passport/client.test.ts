import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError, InvalidParameterError } from '../../errors/index.js'
import { createRateLimiter } from '../../http/index.js'
import { countBy, failure, fakeClock, maxInAnyWindow, recordingFetch } from '../../../test/helpers/async.js'
import { address, apiKey, badChecksum, base, countingClient, metadataBody, modelBody, scoreBody } from '../../../test/fixtures/passport.js'
import { createPassportClient, type CreatePassportClientParameters } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describe('bad input is refused before any request', () => {
  test.each([
    ['too short', '0x5290840009852788'],
    ['not hex', '0x52908400098527886e0f7030069857d2e4169eeZ'],
    ['no 0x', '52908400098527886e0f7030069857d2e4169ee7'],
    ['a bad EIP-55 checksum', badChecksum],
  ])('an address that is %s is an InvalidAddressError', async (_name, bad) => {
    const { passport, calls } = countingClient()
    for (const call of [
      () => passport.getScore({ scorerId: 1, address: bad }),
      () => passport.getScoreHistory({ scorerId: 1, address: bad, createdAt: '2024-10-26' }),
      () => passport.listStamps({ address: bad }),
      () => passport.getModelScore({ address: bad }),
    ]) {
      expect(await failure(call())).toBeInstanceOf(InvalidAddressError)
    }
    expect(() => passport.iterateStamps({ address: bad })).toThrow(InvalidAddressError)
    expect(calls).toEqual([])
  })

  test('a missing or empty API key, a bad base URL or tier fail at creation', () => {
    expect(() => createPassportClient({ apiKey: '' })).toThrow(InvalidParameterError)
    expect(() => createPassportClient({} as CreatePassportClientParameters)).toThrow(InvalidParameterError)
    expect(() => createPassportClient({ apiKey: ' key-with-spaces ' })).toThrow(InvalidParameterError)
    expect(() => createPassportClient({ apiKey, baseUrl: 'api.passport.xyz' })).toThrow(InvalidParameterError)
    expect(() => createPassportClient({ apiKey, tier: 7 as 1 })).toThrow(InvalidParameterError)
    expect(() => createPassportClient({ apiKey, modelTier: { limit: 0 } })).toThrow(InvalidParameterError)
  })
})

describe('rate pacing', () => {
  const window = 15 * 60 * 1000

  test('a burst of 300 A1 calls on one tier-1 key, over two clients, never puts more than 125 in any 15-minute window', async () => {
    const key = 'pk_pacing_burst_300'
    const clock = fakeClock()
    const starts: number[] = []
    const scope = nock(base).get(`/v2/stamps/335/score/${address}`).times(300).reply(200, scoreBody)
    const options = { apiKey: key, now: clock.now, sleep: clock.sleep, fetch: recordingFetch(clock.now, starts) }
    const first = createPassportClient(options)
    const second = createPassportClient(options)
    expect(second.rateLimiters.scoring).toBe(first.rateLimiters.scoring)
    await Promise.all(
      Array.from({ length: 300 }, (_, i) => (i % 2 ? first : second).getScore({ scorerId: 335, address })),
    )
    expect(scope.isDone()).toBe(true)
    expect(starts).toHaveLength(300)
    expect(maxInAnyWindow(starts, window)).toBe(125)
    expect(countBy(starts)).toEqual({ 0: 125, [window]: 125, [2 * window]: 50 })
  })

  test('B draws on its own budget of 15 per window, apart from A', async () => {
    const key = 'pk_pacing_model_budget'
    const clock = fakeClock()
    const starts: number[] = []
    nock(base).get(`/v2/models/score/${address}`).query(true).times(16).reply(200, modelBody)
    nock(base).get(`/v2/stamps/335/score/${address}`).times(125).reply(200, scoreBody)
    const passport = createPassportClient({ apiKey: key, now: clock.now, sleep: clock.sleep, fetch: recordingFetch(clock.now, starts) })

    await Promise.all(Array.from({ length: 15 }, () => passport.getModelScore({ address })))
    await Promise.all(Array.from({ length: 125 }, () => passport.getScore({ scorerId: 335, address })))
    expect(starts.every((start) => start === 0)).toBe(true) // the 15 B calls took nothing from A
    await passport.getModelScore({ address }) // the 16th B call waits for the next window
    expect(starts.at(-1)).toBe(window)
    expect(clock.sleeps).toEqual([window])
  })

  test('a higher tier paces at its own limit', async () => {
    const clock = fakeClock()
    const starts: number[] = []
    nock(base).get('/v2/stamps/metadata').times(351).reply(200, metadataBody)
    const passport = createPassportClient({
      apiKey: 'pk_pacing_tier_2',
      tier: 2,
      now: clock.now,
      sleep: clock.sleep,
      fetch: recordingFetch(clock.now, starts),
    })
    await Promise.all(Array.from({ length: 351 }, () => passport.getStampMetadata()))
    expect(countBy(starts)).toEqual({ 0: 350, [window]: 1 })
  })

  test('injected limiters are used; false sends without pacing', async () => {
    const clock = fakeClock()
    const scoring = createRateLimiter({ limit: 2, windowMs: 1000, now: clock.now, sleep: clock.sleep })
    nock(base).get('/v2/stamps/metadata').times(133).reply(200, metadataBody)
    const starts: number[] = []
    const paced = createPassportClient({ apiKey, rateLimiters: { scoring }, fetch: recordingFetch(clock.now, starts) })
    await Promise.all(Array.from({ length: 3 }, () => paced.getStampMetadata()))
    expect(starts).toEqual([0, 0, 1000])

    starts.length = 0
    const unpaced = createPassportClient({ apiKey: 'pk_unpaced', rateLimiters: false, now: clock.now, sleep: clock.sleep, fetch: recordingFetch(clock.now, starts) })
    expect(unpaced.rateLimiters).toEqual({ scoring: undefined, model: undefined })
    await Promise.all(Array.from({ length: 130 }, () => unpaced.getStampMetadata()))
    expect(new Set(starts)).toEqual(new Set([1000]))
  })
})
