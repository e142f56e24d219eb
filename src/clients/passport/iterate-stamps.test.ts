import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidParameterError, PaginationLimitError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { address, base, client, cursor, nextLink, stampItem } from '../../../test/fixtures/passport.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describe('iterateStamps', () => {
  const page = (next: string | null, n: number) => ({ next, prev: null, items: Array.from({ length: n }, () => stampItem) })

  test('follows bare tokens and tokens inside links to another host, always on the configured base URL', async () => {
    const stampsPath = `/v2/stamps/${address}`
    const scope = nock(base)
      .get(stampsPath)
      .query({ limit: '2' })
      .reply(200, page(cursor(2), 2))
      .get(stampsPath)
      .query({ limit: '2', token: cursor(2) })
      .reply(200, page(nextLink('https://attacker.example', cursor(3)), 2))
      .get(stampsPath)
      .query({ limit: '2', token: cursor(3) })
      .reply(200, page(null, 1))
    const pages = []
    for await (const p of client().iterateStamps({ address, limit: 2 })) pages.push(p)
    expect(pages.map((p) => [p.items.length, p.next])).toEqual([
      [2, cursor(2)],
      [2, cursor(3)],
      [1, null],
    ])
    expect(scope.isDone()).toBe(true)
  })

  test('stops with PaginationLimitError when the server repeats a token', async () => {
    const stampsPath = `/v2/stamps/${address}`
    nock(base)
      .get(stampsPath)
      .reply(200, page('tok-a', 1))
      .get(stampsPath)
      .query({ token: 'tok-a' })
      .reply(200, page(`${base}${stampsPath}?token=tok-a`, 1))
    const seen: number[] = []
    const error = await failure(
      (async () => {
        for await (const p of client().iterateStamps({ address })) seen.push(p.items.length)
      })(),
    )
    expect(error).toBeInstanceOf(PaginationLimitError)
    expect((error as PaginationLimitError).kind).toBe('repeated-token')
    expect(seen).toEqual([1, 1])
  })

  test('stops at maxPages without fetching another page', async () => {
    let requests = 0
    nock(base)
      .get(`/v2/stamps/${address}`)
      .query(true)
      .times(10)
      .reply(200, () => page(`fresh-${++requests}`, 1))
    const seen: (string | null)[] = []
    const error = await failure(
      (async () => {
        for await (const p of client().iterateStamps({ address, maxPages: 3 })) seen.push(p.next)
      })(),
    )
    expect(error).toBeInstanceOf(PaginationLimitError)
    expect((error as PaginationLimitError).kind).toBe('pages')
    expect(seen).toEqual(['fresh-1', 'fresh-2', 'fresh-3'])
    expect(requests).toBe(3)
  })

  test('stops at maxItems', async () => {
    nock(base).get(`/v2/stamps/${address}`).query(true).times(2).reply(200, page('more', 3))
    const error = await failure(
      (async () => {
        for await (const _page of client().iterateStamps({ address, maxItems: 2 })) void _page
      })(),
    )
    expect((error as PaginationLimitError).kind).toBe('items')
  })
})

describe('bad input is refused before any request', () => {
  test('iterateStamps checks its guards when called', () => {
    expect(() => client().iterateStamps({ address, maxPages: 0 })).toThrow(InvalidParameterError)
    expect(() => client().iterateStamps({ address, limit: 5000 })).toThrow(InvalidParameterError)
  })
})
