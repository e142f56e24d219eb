import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import type { ResponseValidationError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { client, host, listed, listing, listingPath, listingQuery } from '../../../test/fixtures/attestation-index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('attestation index listing', [
  {
    name: 'listing getAttestationListingPage',
    host,
    method: 'get',
    path: listingPath,
    query: { ...listingQuery, page: '1' },
    success: { body: { success: true, statusCode: 200, data: { page: 1, size: 100, total: '2', rows: [listed(1), listed(2)] } } },
    invalidBody: { data: { page: 1, size: 100, total: 'many', rows: [listed(1)] } },
    idempotent: true,
    call: (options) => client(options).getAttestationListingPage(listing),
    expectSuccess: (result) => expect(result).toEqual({ items: [listed(1), listed(2)], page: 1, size: 100, total: 2, next: null }),
  },
])

describe('the listing by schema and attester', () => {
  test('a page other than the one asked is a ResponseValidationError', async () => {
    nock(host).get(listingPath).query(true).reply(200, { data: { page: 1, size: 100, total: 1, rows: [listed(1)] } })
    const error = (await failure(client().getAttestationListingPage({ ...listing, page: 2 }))) as ResponseValidationError
    expect(error.issues).toEqual([{ path: ['data', 'page'], message: 'Asked for page 2, got page 1' }])
  })
})
