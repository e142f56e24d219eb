import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { address, client, host, path, row } from '../../../test/fixtures/attestation-index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describe('getAttestations paging', () => {
  test('the iterator yields each page with its number and total', async () => {
    nock(host).get(path).query({ page: '1' }).reply(200, { data: { page: 1, size: 2, total: 3, rows: [row(1), row(2)] } })
    nock(host).get(path).query({ page: '2' }).reply(200, { data: { page: 2, size: 2, total: 3, rows: [row(3)] } })
    const seen: [number, number | undefined, number][] = []
    for await (const page of client().iterateAttestationPages({ address })) seen.push([page.page, page.total, page.items.length])
    expect(seen).toEqual([
      [1, 3, 2],
      [2, 3, 1],
    ])
  })
})
