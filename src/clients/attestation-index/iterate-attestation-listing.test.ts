import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { client, listed, listing, listingReplies } from '../../../test/fixtures/attestation-index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describe('the listing by schema and attester', () => {
  test('the iterator yields the pages in order, with size and total', async () => {
    listingReplies(Array.from({ length: 5 }, (_, i) => listed(i + 1)), 2)
    const seen: [number, number, number | undefined, number | undefined][] = []
    for await (const page of client().iterateAttestationListing(listing)) seen.push([page.page, page.items.length, page.size, page.total])
    expect(seen).toEqual([
      [1, 2, 2, 5],
      [2, 2, 2, 5],
      [3, 1, 2, 5],
    ])
  })
})
