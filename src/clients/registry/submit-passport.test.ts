import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidRequestError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { testInvalidParameters } from '../../../test/helpers/invalid-parameters.js'
import { address, base, checksummed, client, doneRecord, headers, nonce, processingRecord } from '../../../test/fixtures/registry.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('registry client (C)', [
  {
    name: 'C2 submitPassport (not idempotent)',
    host: base,
    method: 'post',
    path: '/registry/submit-passport',
    requestBody: { address, scorer_id: '335' },
    headers: { ...headers, 'content-type': 'application/json' },
    success: { body: processingRecord },
    invalidBody: { ...processingRecord, status: 42 },
    idempotent: false,
    call: (options) => client(options).submitPassport({ address: checksummed, scorerId: 335 }),
    expectSuccess: (result) => expect(result).toEqual(processingRecord),
  },
])

describe('tolerance', () => {
  test.each([
    ['detail string', { detail: 'Invalid nonce.' }, 'Invalid nonce.'],
    [
      'detail list',
      { detail: [{ loc: ['body', 'payload', 'scorer_id'], msg: 'field required', type: 'value_error.missing' }] },
      'body.payload.scorer_id: field required',
    ],
    ['error', { error: 'Bad Request' }, 'Bad Request'],
    ['error + message', { error: 'Bad Request', message: 'Signature does not match' }, 'Bad Request: Signature does not match'],
  ])('C2: an error body with %s gives the server message', async (_name, body, message) => {
    nock(base).post('/registry/submit-passport').reply(400, body)
    const error = (await failure(client().submitPassport({ address, scorerId: 335 }))) as InvalidRequestError
    expect(error).toBeInstanceOf(InvalidRequestError)
    expect(error.serverMessage).toBe(message)
  })
})

describe('requests', () => {
  test('C2 sends a signature with its nonce', async () => {
    const signature = `0x${'ab'.repeat(65)}`
    const scope = nock(base)
      .post('/registry/submit-passport', { address, scorer_id: '7', signature, nonce })
      .reply(200, doneRecord)
    expect(await client().submitPassport({ address, scorerId: '7', signature, nonce })).toEqual(doneRecord)
    expect(scope.isDone()).toBe(true)
  })
})

describe('bad input is refused before any request', () => {
  testInvalidParameters([
    ['a signature without nonce', () => client().submitPassport({ address, scorerId: 1, signature: '0xabcd' }), 'nonce'],
    ['a nonce without signature', () => client().submitPassport({ address, scorerId: 1, nonce }), 'signature'],
    ['a signature that is not hex', () => client().submitPassport({ address, scorerId: 1, signature: 'signed!', nonce }), 'signature'],
    ['scorerId -3', () => client().submitPassport({ address, scorerId: -3 }), 'scorerId'],
  ])
})
