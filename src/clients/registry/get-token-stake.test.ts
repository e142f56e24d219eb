import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { testInvalidParameters } from '../../../test/helpers/invalid-parameters.js'
import { address, base, client, headers, stakeBody } from '../../../test/fixtures/registry.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

describeEndpointMatrix('registry client (C)', [
  {
    name: 'C7 getTokenStake',
    host: base,
    method: 'get',
    path: `/registry/token-stake/${address}/1`,
    headers,
    success: { body: stakeBody },
    invalidBody: { users: [{ stakes: [{ stake: 'ten', round: { id: '1' } }], xstakeAggregates: [] }] },
    idempotent: true,
    call: (options) => client(options).getTokenStake({ address, roundId: 1 }),
    expectSuccess: (result) => expect(result).toEqual(stakeBody),
  },
])

describe('requests', () => {
  test('C7 on the public path, with the round id encoded as one path segment', async () => {
    const scope = nock(base).get(`/registry/gtc-stake/${address}/round%2F7`).reply(200, { users: [] })
    const registry = client({ tokenStakePath: '/registry/gtc-stake/' })
    expect(registry.tokenStakePath).toBe('/registry/gtc-stake')
    expect(await registry.getTokenStake({ address, roundId: 'round/7' })).toEqual({ users: [] })
    expect(scope.isDone()).toBe(true)
  })
})

describe('bad input is refused before any request', () => {
  testInvalidParameters([
    ['an empty roundId', () => client().getTokenStake({ address, roundId: ' ' }), 'roundId'],
  ])
})
