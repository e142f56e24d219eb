import nock from 'nock'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createSnapshotHubClient } from '../../src/clients/snapshot-hub.js'
import { failure } from '../helpers/async.js'
import { fastTransport } from '../helpers/endpoint-matrix.js'

const hub = 'https://hub.snapshot.org'
const proposalId = `0x${'ab'.repeat(32)}`

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())

function voter(n: number): string {
  return `0x${n.toString(16).padStart(40, '0')}`
}

function proposal(overrides: Record<string, unknown> = {}) {
  return {
    id: proposalId,
    title: 'Fund the thing',
    choices: ['For', 'Against', 'Abstain'],
    type: 'single-choice',
    state: 'closed',
    snapshot: '21000000',
    network: '1',
    start: 1700000000,
    end: 1700600000,
    votes: 2500,
    space: { id: 'dao.eth', name: 'The DAO' },
    strategies: [{ name: 'erc20-balance-of', network: '1', params: { symbol: 'X' } }],
    ...overrides,
  }
}

type GraphQlBody = { query: string; variables: { proposal: string; first: number; skip: number; createdGte: number } }

/** A hub holding `count` votes, `perSecond` of them created in each second, that answers the votes query like the real hub. */
function serveVotes(count: number, perSecond: number, requests: GraphQlBody['variables'][]) {
  const all = Array.from({ length: count }, (_, index) => ({
    id: `vote-${index}`,
    voter: voter(index + 1),
    choice: (index % 3) + 1,
    vp: index + 0.5,
    created: 1700000000 + Math.floor(index / perSecond),
    reason: '',
  }))
  return nock(hub)
    .post('/graphql', (body: GraphQlBody) => body.query.includes('votes('))
    .times(100)
    .reply(200, (_uri, body) => {
      const { variables } = body as GraphQlBody
      requests.push(variables)
      const matching = all.filter((vote) => vote.created >= variables.createdGte)
      return { data: { votes: matching.slice(variables.skip, variables.skip + variables.first) } }
    })
}

describe('Snapshot hub client', () => {
  test('reads a proposal', async () => {
    nock(hub)
      .post('/graphql', (body: { variables: { id: string } }) => body.variables.id === proposalId)
      .reply(200, { data: { proposal: proposal() } })
    const result = await createSnapshotHubClient({ ...fastTransport }).getProposal({ id: proposalId })
    expect(result).toMatchObject({ id: proposalId, snapshot: 21000000n, network: '1', choices: ['For', 'Against', 'Abstain'], space: { id: 'dao.eth' } })
  })

  test('reads every vote over several pages, each once, with the creation time as cursor', async () => {
    const requests: GraphQlBody['variables'][] = []
    serveVotes(2500, 7, requests)
    const votes = await createSnapshotHubClient({ ...fastTransport }).getVotes({ proposal: proposalId })
    expect(votes).toHaveLength(2500)
    expect(new Set(votes.map((vote) => vote.id)).size).toBe(2500)
    expect(votes[0]).toEqual({ voter: '0x0000000000000000000000000000000000000001', choice: 1, votingPower: 0.5, created: 1700000000, id: 'vote-0', reason: undefined })
    expect(requests.length).toBe(3)
    expect(requests.every((variables) => variables.skip <= 5000 && variables.first === 1000)).toBe(true)
  })

  test('pages through more votes in one second than a page holds', async () => {
    const requests: GraphQlBody['variables'][] = []
    serveVotes(2300, 1500, requests)
    const votes = await createSnapshotHubClient({ ...fastTransport }).getVotes({ proposal: proposalId })
    expect(new Set(votes.map((vote) => vote.id)).size).toBe(2300)
    expect(votes).toHaveLength(2300)
  })

  test('a proposal the hub does not know is a ProposalNotFoundError', async () => {
    nock(hub).post('/graphql').reply(200, { data: { proposal: null } })
    const error = await failure(createSnapshotHubClient({ ...fastTransport }).getProposal({ id: proposalId }))
    expect(error).toMatchObject({ name: 'ProposalNotFoundError', code: 'PROPOSAL_NOT_FOUND', proposal: proposalId })
  })

  test('GraphQL errors are a SnapshotHubError naming them', async () => {
    nock(hub).post('/graphql').reply(200, { errors: [{ message: 'Query complexity too high' }] })
    const error = await failure(createSnapshotHubClient({ ...fastTransport }).getVotes({ proposal: proposalId }))
    expect(error).toMatchObject({ name: 'SnapshotHubError', code: 'SNAPSHOT_HUB_ERROR' })
    expect(error.shortMessage).toBe('The Snapshot hub could not answer: Query complexity too high')
  })

  test('a hub that fails is an HTTP error after retries (a query is safe to repeat)', async () => {
    const scope = nock(hub).post('/graphql').times(4).reply(502, '<html>Bad gateway</html>')
    const error = await failure(createSnapshotHubClient({ ...fastTransport }).getProposal({ id: proposalId }))
    expect(error).toMatchObject({ name: 'HttpRequestError', status: 502 })
    expect(scope.isDone()).toBe(true)
  })

  test('an unreachable hub is a NetworkError', async () => {
    nock(hub).post('/graphql').times(4).replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' })
    const error = await failure(createSnapshotHubClient({ ...fastTransport }).getProposal({ id: proposalId }))
    expect(error).toMatchObject({ name: 'NetworkError' })
  })

  test('a malformed vote is a ResponseValidationError, not a wrong tally', async () => {
    nock(hub)
      .post('/graphql')
      .reply(200, { data: { votes: [{ id: 'v', voter: 'nobody', choice: 1, vp: 1, created: 1 }] } })
    const error = await failure(createSnapshotHubClient({ ...fastTransport }).getVotes({ proposal: proposalId }))
    expect(error).toMatchObject({ name: 'ResponseValidationError' })
  })

  test('one vote id read twice with different contents is a SnapshotHubError; read twice the same (any casing), it counts once', async () => {
    const vote = { id: 'vote-1', voter: voter(1), choice: 1, vp: 10, created: 1700000000, reason: '' }
    const answer = (votes: unknown[]) => nock(hub).post('/graphql').reply(200, { data: { votes } })
    const client = createSnapshotHubClient({ ...fastTransport })
    answer([vote, { ...vote, vp: 0 }])
    const error = await failure(client.getVotes({ proposal: proposalId }))
    expect(error.name).toBe('SnapshotHubError')
    expect(error.shortMessage).toBe(
      `The Snapshot hub could not answer: vote vote-1 of 0x0000000000000000000000000000000000000001 was read twice with different contents (page 1): which one the hub holds cannot be told.`,
    )
    answer([{ ...vote, voter: voter(1).toUpperCase().replace('0X', '0x') }, { ...vote, voter: voter(1) }])
    expect(await client.getVotes({ proposal: proposalId })).toHaveLength(1)
  })

  test('a malformed proposal id or hub URL is refused before any request', async () => {
    const error = await failure(createSnapshotHubClient({ ...fastTransport }).getProposal({ id: 'not-an-id!' }))
    expect(error).toMatchObject({ name: 'InvalidParameterError', parameter: 'proposal' })
    expect(() => createSnapshotHubClient({ url: 'ftp://hub' })).toThrow(/Parameter "hub" is invalid/)
  })

  test('takes the hub as an origin or as its /graphql URL', async () => {
    for (const url of ['http://127.0.0.1:9/', 'http://127.0.0.1:9/graphql']) {
      nock('http://127.0.0.1:9').post('/graphql').reply(200, { data: { proposal: proposal() } })
      await createSnapshotHubClient({ ...fastTransport, url }).getProposal({ id: proposalId })
    }
  })

  test('a hub whose cursor goes back is a SnapshotHubError at once, not an endless walk', async () => {
    const requests: GraphQlBody['variables'][] = []
    let next = 0
    nock(hub)
      .post('/graphql')
      .times(50)
      .reply(200, (_uri, body) => {
        const { variables } = body as GraphQlBody
        requests.push(variables)
        // Fresh votes every time, dated before the cursor it was asked for.
        const votes = Array.from({ length: 1000 }, (_, index) => ({ id: `v-${next++}`, voter: voter(next), choice: 1, vp: 1, created: Math.max(0, variables.createdGte - 1) + (index === 999 ? 5 : 0), reason: '' }))
        return { data: { votes } }
      })
    const error = await failure(createSnapshotHubClient({ ...fastTransport }).getVotes({ proposal: proposalId }))
    expect(error).toMatchObject({ name: 'SnapshotHubError', url: 'https://hub.snapshot.org/graphql' })
    expect(error.shortMessage).toBe(
      'The Snapshot hub could not answer: page 2 of the votes is not in order from the cursor (created 4 after asking for created >= 5, oldest first): the hub cannot be paged reliably.',
    )
    expect(requests).toHaveLength(2)
  })

  test('a page of votes already read is a SnapshotHubError (the cursor does not advance)', async () => {
    const page = Array.from({ length: 1000 }, (_, index) => ({ id: `v-${index}`, voter: voter(index + 1), choice: 1, vp: 1, created: 1700000000, reason: '' }))
    nock(hub).post('/graphql').times(3).reply(200, { data: { votes: page } })
    const error = await failure(createSnapshotHubClient({ ...fastTransport }).getVotes({ proposal: proposalId }))
    expect(error.shortMessage).toBe('The Snapshot hub could not answer: page 2 of the votes holds only votes already read: the cursor does not advance.')
  })

  test('every walk is bounded by a page limit', async () => {
    let created = 1700000000
    nock(hub)
      .post('/graphql')
      .times(10)
      .reply(200, () => ({ data: { votes: Array.from({ length: 1000 }, (_, index) => ({ id: `v-${created}-${index}`, voter: voter(index + 1), choice: 1, vp: 1, created: created++, reason: '' })) } }))
    const error = await failure(createSnapshotHubClient({ ...fastTransport }).getVotes({ proposal: proposalId, maxPages: 3 }))
    expect(error).toMatchObject({ name: 'PaginationLimitError', kind: 'pages', limit: 3 })
  })
})
