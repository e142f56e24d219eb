import nock from 'nock'
import { verifyMessage, type Hex } from 'viem'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { account, address, bearer, client, host, tosText } from '../../../test/fixtures/stamp-cache.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describe('terms of service', () => {
  test('signAndAcceptTos signs the text it was given (EIP-191) and sends nonce and signature', async () => {
    let accepted: { tos_type: string; nonce: string; signature: Hex } | undefined
    nock(host, { reqheaders: bearer })
      .get(`/stamp-cache/tos/message-to-sign/IST/${address}`)
      .reply(200, { text: tosText, nonce: '4f2a9c1e8b7d6a5f' })
    nock(host, { reqheaders: bearer })
      .post(`/stamp-cache/tos/signed-message/IST/${address}`, (body: typeof accepted) => {
        accepted = body
        return true
      })
      .reply(200)
    const result = await client().signAndAcceptTos({ account })
    expect(accepted).toEqual({ tos_type: 'IST', nonce: '4f2a9c1e8b7d6a5f', signature: result.signature })
    expect(await verifyMessage({ address: account.address, message: tosText, signature: result.signature })).toBe(true)
  })
})
