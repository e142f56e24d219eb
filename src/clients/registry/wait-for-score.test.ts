import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidParameterError, ScoreTimeoutError, ScoringError } from '../../errors/index.js'
import { failure, fakeClock } from '../../../test/helpers/async.js'
import { address, base, client, doneRecord, processingRecord } from '../../../test/fixtures/registry.js'
import { waitForScore } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describe('waitForScore', () => {
  const scorePath = `/registry/score/335/${address}`

  function polled(statuses: readonly object[]) {
    let requests = 0
    nock(base)
      .get(scorePath)
      .times(statuses.length)
      .reply(200, () => ({ items: [statuses[requests++]] }))
    return () => requests
  }

  test('polls PROCESSING and BULK_PROCESSING until DONE, with doubling delays through the injected sleep', async () => {
    const requests = polled([processingRecord, processingRecord, { ...processingRecord, status: 'BULK_PROCESSING' }, doneRecord])
    const clock = fakeClock()
    const registry = client({ now: clock.now, sleep: clock.sleep })
    expect(await registry.waitForScore({ scorerId: 335, address })).toEqual(doneRecord)
    expect(clock.sleeps).toEqual([1000, 2000, 4000])
    expect(requests()).toBe(4)
  })

  test('caps the delay at maxIntervalMs and throws ScoreTimeoutError when never done', async () => {
    const requests = polled(Array.from({ length: 5 }, () => processingRecord))
    const clock = fakeClock()
    const error = (await failure(
      waitForScore(
        { transport: client().transport, now: clock.now, sleep: clock.sleep },
        { scorerId: 335, address, maxAttempts: 5, intervalMs: 1000, maxIntervalMs: 3000 },
      ),
    )) as ScoreTimeoutError
    expect(error).toBeInstanceOf(ScoreTimeoutError)
    expect(clock.sleeps).toEqual([1000, 2000, 3000, 3000])
    expect(requests()).toBe(5)
    expect(error).toMatchObject({ attempts: 5, lastStatus: 'PROCESSING', address, scorerId: '335' })
    expect(error.shortMessage).toBe('The score was not ready after 5 attempts (9 s).')
  })

  test('status ERROR is a ScoringError carrying the error text', async () => {
    polled([processingRecord, { ...processingRecord, status: 'ERROR', error: 'Unable to calculate score' }])
    const clock = fakeClock()
    const error = (await failure(client({ now: clock.now, sleep: clock.sleep }).waitForScore({ scorerId: 335, address }))) as ScoringError
    expect(error).toBeInstanceOf(ScoringError)
    expect(error.error).toBe('Unable to calculate score')
    expect(error.details).toBe('Unable to calculate score')
    expect(clock.sleeps).toEqual([1000])
  })

  test('an unknown status keeps it polling, and the timeout names it', async () => {
    polled([{ ...processingRecord, status: 'QUEUED' }, doneRecord])
    const clock = fakeClock()
    expect(await client({ now: clock.now, sleep: clock.sleep }).waitForScore({ scorerId: 335, address })).toEqual(doneRecord)

    polled([{ ...processingRecord, status: 'QUEUED' }])
    const error = await failure(client({ sleep: clock.sleep }).waitForScore({ scorerId: 335, address, maxAttempts: 1 }))
    expect(error).toMatchObject({ name: 'ScoreTimeoutError', lastStatus: 'QUEUED' })
  })

  test('an abort during a wait rejects with the signal reason and stops polling', async () => {
    const requests = polled([processingRecord])
    const controller = new AbortController()
    const reason = new Error('user cancelled')
    const registry = client({
      sleep: async (_ms, signal) => {
        controller.abort(reason)
        signal?.throwIfAborted()
      },
    })
    expect(await failure(registry.waitForScore({ scorerId: 335, address, signal: controller.signal }))).toBe(reason)
    expect(requests()).toBe(1)
  })

  test('bad options are refused before any request', async () => {
    const registry = client()
    for (const options of [{ maxAttempts: 0 }, { intervalMs: -1 }, { maxIntervalMs: Number.NaN }]) {
      expect(await failure(registry.waitForScore({ scorerId: 335, address, ...options }))).toBeInstanceOf(InvalidParameterError)
    }
  })
})
