import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { AuthenticationError } from '../../errors/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { apiKey, base, client, headers, metadataBody } from '../../../test/fixtures/passport.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('passport client (A, B)', [
  {
    name: 'A4 getStampMetadata',
    host: base,
    method: 'get',
    path: '/v2/stamps/metadata',
    headers,
    success: { body: metadataBody },
    invalidBody: [{ ...metadataBody[0], groups: undefined }],
    idempotent: true,
    call: (options) => client(options).getStampMetadata(),
    expectSuccess: (result) => expect(result).toEqual(metadataBody),
  },
])

describe('requests', () => {
  test('the API key never appears in an error, even when the server echoes it', async () => {
    nock(base).get('/v2/stamps/metadata').reply(401, { detail: `Invalid API Key: ${apiKey}` })
    const error = (await failure(client().getStampMetadata())) as AuthenticationError
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.message).toContain('Invalid API Key: [redacted]')
    expect(`${error.message}${error.body ?? ''}${error.serverMessage ?? ''}`).not.toContain(apiKey)
  })
})
