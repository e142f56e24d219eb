import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { PaginationLimitError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { address, base, client, stampItem, token } from '../../../test/fixtures/registry.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describe('iterateStamps (C5)', () => {
  test('follows the token of an absolute link to another host on the configured base URL, until null', async () => {
    const stampsPath = `/registry/stamps/${address}`
    const scope = nock(base)
      .get(stampsPath)
      .reply(200, { next: `https://elsewhere.example${stampsPath}?token=${token}`, prev: null, items: [stampItem] })
      .get(stampsPath)
      .query({ token })
      .reply(200, { next: null, prev: `https://elsewhere.example${stampsPath}?token=prev`, items: [stampItem] })
    const pages = []
    for await (const page of client().iterateStamps({ address })) pages.push(page)
    expect(pages.map((page) => [page.next, page.prev])).toEqual([
      [token, null],
      [null, 'prev'],
    ])
    expect(scope.isDone()).toBe(true)
  })

  test('stops on a repeated token', async () => {
    nock(base).get(`/registry/stamps/${address}`).query(true).times(2).reply(200, { next: 'same', prev: null, items: [] })
    const error = await failure(
      (async () => {
        for await (const _page of client().iterateStamps({ address })) void _page
      })(),
    )
    expect(error).toBeInstanceOf(PaginationLimitError)
    expect((error as PaginationLimitError).kind).toBe('repeated-token')
  })
})
