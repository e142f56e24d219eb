import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { ResponseValidationError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { testInvalidParameters } from '../../../test/helpers/invalid-parameters.js'
import { address, base, checksummed, client, countingClient, headers, modelBody, other } from '../../../test/fixtures/passport.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('passport client (A, B)', [
  {
    name: 'B1 getModelScore',
    host: base,
    method: 'get',
    path: `/v2/models/score/${address}`,
    query: { model: 'aggregate' },
    headers,
    success: { body: modelBody },
    invalidBody: { address, details: { models: { aggregate: { score: 'high' } } } },
    idempotent: true,
    call: (options) => client(options).getModelScore({ address }),
    expectSuccess: (result) => expect(result).toEqual({ address, model: 'aggregate', score: 87 }),
  },
])

describe('tolerance', () => {
  test('B1: a score sent as a numeric string becomes a number; other models are ignored', async () => {
    nock(base)
      .get(`/v2/models/score/${address}`)
      .query({ model: 'nft' })
      .reply(200, { address, details: { models: { nft: { score: '-1' }, aggregate: { score: 3 } } } })
    expect(await client().getModelScore({ address, model: 'nft' })).toEqual({ address, model: 'nft', score: -1 })
  })
})

describe('requests', () => {
  test('B1 sends the requested model and reads its key', async () => {
    nock(base)
      .get(`/v2/models/score/${address}`)
      .query({ model: 'ethereum_activity' })
      .reply(200, { address, details: { models: { ethereum_activity: { score: 42.5 } } } })
    expect(await client().getModelScore({ address: checksummed, model: 'ethereum_activity' })).toEqual({
      address,
      model: 'ethereum_activity',
      score: 42.5,
    })
  })

  test('B1: an answer without the requested model is a ResponseValidationError naming the key', async () => {
    nock(base).get(`/v2/models/score/${address}`).query({ model: 'base' }).reply(200, modelBody)
    const error = (await failure(client().getModelScore({ address, model: 'base' }))) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues).toEqual([
      { path: ['details', 'models', 'base'], message: 'Expected a score for model "base", received only aggregate' },
    ])
    expect(error.url).toBe(`${base}/v2/models/score/${address}?model=base`)
  })
})

describe('bad input is refused before any request', () => {
  testInvalidParameters([
    ['an unknown model', () => countingClient().passport.getModelScore({ address, model: 'gpt' as 'nft' }), 'model'],
  ])
})

describe('answers about another address', () => {
  test('B1 (model score)', async () => {
    nock(base).get(`/v2/models/score/${address}`).query(true).reply(200, { address: other, details: { models: { aggregate: { score: 80 } } } })
    const error = await failure(client().getModelScore({ address }))
    expect(error).toMatchObject({ name: 'ResponseValidationError' })
  })
})
