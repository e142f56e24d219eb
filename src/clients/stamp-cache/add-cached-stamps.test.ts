import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError, InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { bearer, cachedStamp, client, googleCredential, host, internalScore, stampsWithScore } from '../../../test/fixtures/stamp-cache.js'
import { addCachedStamps, deleteCachedStamps, updateCachedStamps, updateCachedStampSaveStatus } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
  {
    name: 'D1 addStamps',
    host,
    method: 'post',
    path: '/stamp-cache/stamps/bulk',
    requestBody: [{ provider: 'Google', stamp: googleCredential }],
    headers: bearer,
    success: { status: 201, body: stampsWithScore },
    invalidBody: { success: true, stamps: 'none', score: internalScore },
    idempotent: false,
    call: (options) => client(options).addStamps({ stamps: [{ provider: 'Google', stamp: googleCredential }] }),
    expectSuccess: (result) => expect(result).toMatchObject({ success: true, stamps: [cachedStamp], score: { score: '21.72700' } }),
  },
])

describe('bulk writes', () => {
  const stamps = (count: number) => Array.from({ length: count }, (_, i) => ({ provider: `Provider${i}`, stamp: { i } }))

  test('more than 100 stamps are refused before any request; exactly 100 are sent', async () => {
    const cache = client()
    for (const call of [
      () => cache.addStamps({ stamps: stamps(101) }),
      () => cache.updateStamps({ stamps: stamps(101) }),
      () => cache.deleteStamps({ stamps: stamps(101) }),
      () => cache.updateSaveStatus({ items: Array.from({ length: 101 }, (_, id) => ({ id, store_save_status: 'saved' as const })) }),
    ]) {
      const error = (await failure(call())) as InvalidParameterError
      expect(error).toBeInstanceOf(InvalidParameterError)
      expect(error.details).toBe('At most 100 items per call, got 101: split them into several calls.')
    }
    const scope = nock(host, { reqheaders: bearer })
      .post('/stamp-cache/stamps/bulk', (body: unknown[]) => body.length === 100)
      .reply(201, stampsWithScore)
    await cache.addStamps({ stamps: stamps(100) })
    expect(scope.isDone()).toBe(true)
  })

  test('a malformed item is refused before any request, naming it', async () => {
    const error = (await failure(client().addStamps({ stamps: [{ provider: 'Google' }, { stamp: {} } as never] }))) as InvalidParameterError
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe('stamps[1].provider')
    const badAddress = await failure(client().addStamps({ stamps: [{ provider: 'Google', address: '0x12', stamp: {} }] }))
    expect(badAddress).toBeInstanceOf(InvalidAddressError)
    const badStatus = (await failure(client().updateSaveStatus({ items: [{ id: 1, store_save_status: 'done' as never }] }))) as InvalidParameterError
    expect(badStatus.parameter).toBe('items[0].store_save_status')
  })

  test('D1-D4 take one parameters object, like every other action: the items and a signal; a bare array is refused naming the form', async () => {
    const reason = new Error('stopped by the caller')
    const controller = new AbortController()
    controller.abort(reason)
    // Each call would succeed; its aborted signal makes it reject with the signal's reason.
    nock(host).post('/stamp-cache/stamps/bulk').reply(201, stampsWithScore)
    nock(host).patch('/stamp-cache/stamps/bulk').reply(200, stampsWithScore)
    nock(host).delete('/stamp-cache/stamps/bulk').reply(200, { success: true, stamps: [] })
    nock(host).patch('/stamp-cache/stamps/bulk/meta/store-db').reply(200, { updated: [1] })
    for (const call of [
      () => addCachedStamps(client(), { stamps: stamps(1), signal: controller.signal }),
      () => updateCachedStamps(client(), { stamps: stamps(1), signal: controller.signal }),
      () => deleteCachedStamps(client(), { stamps: [{ provider: 'Google' }], signal: controller.signal }),
      () => updateCachedStampSaveStatus(client(), { items: [{ id: 1, store_save_status: 'saved' }], signal: controller.signal }),
    ]) {
      expect(await failure(call())).toBe(reason)
    }
    nock.cleanAll()
    const bare = (await failure(client().addStamps(stamps(1) as never))) as InvalidParameterError
    expect(bare).toBeInstanceOf(InvalidParameterError)
    expect([bare.parameter, bare.details]).toEqual(['stamps', 'Pass the items as { stamps: [...] }.'])
    const none = (await failure(client().updateSaveStatus({} as never))) as InvalidParameterError
    expect([none.parameter, none.details]).toEqual(['items', 'Expected an array.'])
  })
})
