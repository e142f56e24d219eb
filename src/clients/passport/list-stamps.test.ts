import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidRequestError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { testInvalidParameters } from '../../../test/helpers/invalid-parameters.js'
import { address, base, client, credential, cursor, headers, nextLink, stampItem } from '../../../test/fixtures/passport.js'
import { listStamps } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('passport client (A, B)', [
  {
    name: 'A3 listStamps',
    host: base,
    method: 'get',
    path: `/v2/stamps/${address}`,
    query: { include_metadata: 'true', limit: '2' },
    headers,
    success: { body: { next: nextLink(base, cursor(2)), prev: null, items: [stampItem] } },
    invalidBody: { next: null, prev: null, items: [{ version: '1.0.0', credential: { ...credential, issuer: 7 } }] },
    idempotent: true,
    call: (options) => client(options).listStamps({ address, includeMetadata: true, limit: 2 }),
    expectSuccess: (result) => expect(result).toEqual({ next: cursor(2), prev: null, items: [stampItem] }),
  },
])

describe('tolerance', () => {
  test.each([
    ['detail string', { detail: 'Invalid address' }, 'Invalid address'],
    [
      'detail list',
      { detail: [{ loc: ['query', 'limit'], msg: 'ensure this value is less than or equal to 1000', type: 'value_error' }] },
      'query.limit: ensure this value is less than or equal to 1000',
    ],
    ['error', { error: 'Bad Request' }, 'Bad Request'],
    ['error + message', { error: 'Bad Request', message: 'Invalid limit' }, 'Bad Request: Invalid limit'],
  ])('an error body with %s gives the server message', async (_name, body, message) => {
    nock(base).get(`/v2/stamps/${address}`).query({ limit: '10' }).reply(400, body)
    const error = (await failure(client().listStamps({ address, limit: 10 }))) as InvalidRequestError
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.serverMessage).toBe(message)
    expect(error.message).toContain(`Details: ${message}`)
  })
})

describe('requests', () => {
  test('the client object is itself a context', async () => {
    nock(base).get(`/v2/stamps/${address}`).reply(200, { next: null, prev: null, items: [] })
    expect(await listStamps(client(), { address })).toEqual({ next: null, prev: null, items: [] })
  })

  test('a token given as a link to another host is read for its token only; a bare token is sent as given', async () => {
    const scope = nock(base)
      .get(`/v2/stamps/${address}`)
      .query({ token: cursor(9) })
      .reply(200, { next: null, prev: null, items: [] })
      .get(`/v2/stamps/${address}`)
      .query({ token: '/8Jv+q==' })
      .reply(200, { next: null, prev: null, items: [] })
    const passport = client()
    await passport.listStamps({ address, token: nextLink('https://attacker.example', cursor(9)) })
    await passport.listStamps({ address, token: '/8Jv+q==' })
    expect(scope.isDone()).toBe(true)
  })
})

describe('bad input is refused before any request', () => {
  testInvalidParameters([
    ['limit 0', () => client().listStamps({ address, limit: 0 }), 'limit'],
    ['limit 1001', () => client().listStamps({ address, limit: 1001 }), 'limit'],
    ['limit 2.5', () => client().listStamps({ address, limit: 2.5 }), 'limit'],
    ['an empty token', () => client().listStamps({ address, token: '' }), 'token'],
  ])
})
