import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidParameterError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { base, client, plainRecord } from '../../../test/fixtures/registry.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describe('iterateScores', () => {
  const record = (n: number) => ({ ...plainRecord, address: `0x${n.toString(16).padStart(40, '0')}` })

  test('walks offsets until offset reaches count, sending the filters on every page', async () => {
    const offsets: string[] = []
    nock(base)
      .get('/registry/score/335')
      .query(true)
      .times(3)
      .reply(200, (uri) => {
        const query = new URL(uri, base).searchParams
        expect(query.get('limit')).toBe('2')
        expect(query.get('last_score_timestamp__gte')).toBe('2024-10-01')
        const offset = Number(query.get('offset'))
        offsets.push(String(offset))
        return { items: [1, 2, 3, 4, 5].slice(offset, offset + 2).map(record), count: 5 }
      })
    const seen: [number, number][] = []
    for await (const page of client().iterateScores({ scorerId: 335, limit: 2, lastScoreTimestampGte: '2024-10-01' })) {
      seen.push([page.offset, page.items.length])
    }
    expect(offsets).toEqual(['0', '2', '4'])
    expect(seen).toEqual([
      [0, 2],
      [2, 2],
      [4, 1],
    ])
  })

  test('stops at an empty page even when count says more', async () => {
    nock(base)
      .get('/registry/score/335')
      .query({ offset: '0' })
      .reply(200, { items: [record(1)], count: 10 })
      .get('/registry/score/335')
      .query({ offset: '1' })
      .reply(200, { items: [], count: 10 })
    const sizes: number[] = []
    for await (const page of client().iterateScores({ scorerId: 335 })) sizes.push(page.items.length)
    expect(sizes).toEqual([1, 0])
  })

  test('stops with PaginationLimitError at maxPages', async () => {
    let requests = 0
    nock(base)
      .get('/registry/score/335')
      .query(true)
      .times(5)
      .reply(200, () => {
        requests++
        return { items: [record(requests)], count: 1000 }
      })
    const error = await failure(
      (async () => {
        for await (const _page of client().iterateScores({ scorerId: 335, maxPages: 2 })) void _page
      })(),
    )
    expect(error).toMatchObject({ name: 'PaginationLimitError', kind: 'pages' })
    expect(requests).toBe(2)
  })
})

describe('bad input is refused before any request', () => {
  test('iterateScores checks its arguments when called', () => {
    expect(() => client().iterateScores({ scorerId: 'x' })).toThrow(InvalidParameterError)
    expect(() => client().iterateScores({ scorerId: 1, lastScoreTimestampGte: '2024-13-01' })).toThrow(InvalidParameterError)
    expect(() => client().iterateScores({ scorerId: 1, maxItems: 0 })).toThrow(InvalidParameterError)
  })
})
