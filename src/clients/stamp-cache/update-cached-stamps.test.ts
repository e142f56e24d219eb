import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { account, address, bearer, cachedStamp, client, googleCredential, host, stampsWithScore } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('stamp cache (D)', [
  {
    name: 'D2 updateStamps',
    host,
    method: 'patch',
    path: '/stamp-cache/stamps/bulk',
    requestBody: [{ provider: 'Google', stamp: googleCredential }, { provider: 'Discord' }],
    headers: bearer,
    success: { body: stampsWithScore },
    invalidBody: { success: true, stamps: [cachedStamp] },
    idempotent: false,
    call: (options) => client(options).updateStamps({ stamps: [{ provider: 'Google', stamp: googleCredential }, { provider: 'Discord' }] }),
    expectSuccess: (result) => expect(result).toMatchObject({ success: true, score: { passing_score: true } }),
  },
])

describe('bulk writes', () => {
  test('a PATCH item without stamp is sent as a deletion; DELETE drops keys other than provider and address', async () => {
    nock(host).patch('/stamp-cache/stamps/bulk', [{ provider: 'Discord', address }]).reply(200, stampsWithScore)
    await client().updateStamps({ stamps: [{ provider: 'Discord', address: account.address }] })
    nock(host).delete('/stamp-cache/stamps/bulk', [{ provider: 'Google' }]).reply(200, { success: true, stamps: [] })
    await client().deleteStamps({ stamps: [{ provider: 'Google', stamp: googleCredential } as never] })
    expect(nock.isDone()).toBe(true)
  })
})
