import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { PermissionDeniedError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { testInvalidParameters } from '../../../test/helpers/invalid-parameters.js'
import { address, base, client, headers, other, scoreBody, v2 } from '../../../test/fixtures/passport.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('passport client (A, B)', [
  {
    name: 'A2 getScoreHistory (the public one-object answer)',
    host: base,
    method: 'get',
    path: `/v2/stamps/335/score/${address}/history`,
    query: { created_at: '2024-10-26' },
    headers,
    success: { body: scoreBody },
    invalidBody: { items: [{ ...scoreBody, passing_score: 'yes' }] },
    idempotent: true,
    call: (options) => client(options).getScoreHistory({ scorerId: '335', address, createdAt: '2024-10-26' }),
    expectSuccess: (result) => expect(result).toEqual({ items: [scoreBody] }),
  },
])

describe('tolerance', () => {
  test('A2: the spec answer { items } and the public one-object answer give the same result', async () => {
    nock(base)
      .get(`/v2/stamps/335/score/${address}/history`)
      .query({ created_at: '2024-10-26' })
      .reply(200, { items: [scoreBody] })
      .get(`/v2/stamps/335/score/${address}/history`)
      .query({ created_at: '2024-10-26' })
      .reply(200, scoreBody)
    const passport = client()
    const spec = await passport.getScoreHistory({ scorerId: 335, address, createdAt: '2024-10-26' })
    const publicShape = await passport.getScoreHistory({ scorerId: 335, address, createdAt: '2024-10-26' })
    expect(spec).toEqual({ items: [scoreBody] })
    expect(publicShape).toEqual(spec)
  })
})

describe('requests', () => {
  test('createdAt: a Date is sent as toISOString(), an offset date-time in UTC, a date-only as given', async () => {
    const sent: string[] = []
    nock(base)
      .get(`/v2/stamps/335/score/${address}/history`)
      .query(true)
      .times(3)
      .reply(200, (uri) => {
        sent.push(new URL(uri, base).searchParams.get('created_at') ?? '')
        return scoreBody
      })
    const passport = client()
    await passport.getScoreHistory({ scorerId: 335, address, createdAt: new Date(Date.UTC(2024, 9, 26, 12, 30)) })
    await passport.getScoreHistory({ scorerId: 335, address, createdAt: '2024-10-26T12:30:00+02:00' })
    await passport.getScoreHistory({ scorerId: 335, address, createdAt: '2024-10-26' })
    expect(sent).toEqual(['2024-10-26T12:30:00.000Z', '2024-10-26T10:30:00.000Z', '2024-10-26'])
  })

  test('one whole error message: A2 on a key that is not allowlisted', async () => {
    nock(base)
      .get(`/v2/stamps/335/score/${address}/history`)
      .query({ created_at: '2024-10-26T00:00:00.000Z' })
      .reply(403, { detail: 'You do not have permission to perform this action.' })
    const error = await failure(
      client().getScoreHistory({ scorerId: 335, address, createdAt: new Date('2024-10-26T00:00:00Z') }),
    )
    expect(error).toBeInstanceOf(PermissionDeniedError)
    expect((error as PermissionDeniedError).message).toMatchInlineSnapshot(`
      "The credentials are not allowed to use this endpoint.

      Request: GET https://api.passport.xyz/v2/stamps/335/score/0x52908400098527886e0f7030069857d2e4169ee7/history?created_at=2024-10-26T00%3A00%3A00.000Z
      Status: 403

      Details: You do not have permission to perform this action.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#permission-denied
      Version: personhood@0.1.0"
    `)
  })
})

describe('bad input is refused before any request', () => {
  testInvalidParameters([
    ['createdAt that is not a date', () => client().getScoreHistory({ scorerId: 1, address, createdAt: 'yesterday' }), 'createdAt'],
    ['createdAt on a day that does not exist', () => client().getScoreHistory({ scorerId: 1, address, createdAt: '2024-02-30' }), 'createdAt'],
    ['createdAt as an Invalid Date', () => client().getScoreHistory({ scorerId: 1, address, createdAt: new Date('x') }), 'createdAt'],
  ])
})

describe('answers about another address', () => {
  test('A2 (history)', async () => {
    nock(base).get(`/v2/stamps/1/score/${address}/history`).query(true).reply(200, { items: [v2({ address: other })] })
    const error = await failure(client().getScoreHistory({ scorerId: 1, address, createdAt: '2025-06-01' }))
    expect(error.issues[0].path).toEqual(['items', 0, 'address'])
  })
})
