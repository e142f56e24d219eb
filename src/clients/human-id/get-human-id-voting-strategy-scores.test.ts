import nock from 'nock'
import { getAddress, keccak256, toHex } from 'viem'
import { afterEach, beforeAll, describe, expect, test } from 'vitest'
import { InvalidAddressError, InvalidParameterError, ResponseValidationError } from '../../errors/index.js'
import type { TransportOptions } from '../../http/index.js'
import { failure } from '../../../test/helpers/async.js'
import { describeEndpointMatrix } from '../../../test/helpers/endpoint-matrix.js'
import { client, host, other, user, userChecksummed } from '../../../test/fixtures/human-id.js'
import { publicVotingStrategyPath } from './context.js'
import { getHumanIdVotingStrategyScores, type HumanIdClient } from './index.js'

beforeAll(() => nock.disableNetConnect())
afterEach(() => {
  nock.cleanAll()
})

/** `count` distinct checksummed addresses, the same on every run. */
function addresses(count: number, salt = 0): `0x${string}`[] {
  return Array.from({ length: count }, (_, i) => getAddress(keccak256(toHex(`${salt}:${i}`)).slice(0, 42)))
}

/** Replies to E4-E6 like a server: 1 for the addresses in `verified`, 0 for the others, in the order asked. */
function strategyReply(verified: ReadonlySet<string>, seen?: { urls: string[]; asked: string[][] }) {
  return (uri: string) => {
    const url = new URL(host + uri)
    const asked = (url.searchParams.get('addresses') ?? '').split(',')
    seen?.urls.push(url.toString())
    seen?.asked.push(asked)
    return [200, { score: asked.map((address) => ({ address, score: verified.has(address.toLowerCase()) ? 1 : 0 })) }] as const
  }
}

const strategyCase = (credential: 'gov-id' | 'phone' | 'biometrics', name: string) => ({
  name,
  host,
  method: 'get' as const,
  path: `/snapshot-strategies/sybil-resistance/${credential}`,
  query: { network: '10', snapshot: '128990123', addresses: `${user},${other}`, 'action-id': '123456789' },
  success: { body: { score: [{ address: userChecksummed, score: 1 }, { address: other, score: 0 }] } },
  invalidBody: { score: [{ address: user, score: 'yes' }] },
  idempotent: true,
  call: (options: TransportOptions) =>
    client(options).getVotingStrategyScores({ credential, snapshot: 128990123n, addresses: [userChecksummed, other] }),
  expectSuccess: (result: unknown) => expect(result).toEqual({ [userChecksummed]: 1, [other]: 0 }),
})

describeEndpointMatrix('Human ID (E1-E7)', [
  strategyCase('gov-id', 'E4 getVotingStrategyScores gov-id'),
  strategyCase('phone', 'E5 getVotingStrategyScores phone'),
  strategyCase('biometrics', 'E6 getVotingStrategyScores biometrics'),
])

describe('getVotingStrategyScores', () => {
  test('2,000 addresses: as few requests as keep every URL within maxUrlLength, every address mapped', async () => {
    const inputs = addresses(2000)
    const verified = new Set(inputs.filter((_, i) => i % 3 === 0).map((a) => a.toLowerCase()))
    const seen = { urls: [] as string[], asked: [] as string[][] }

    // Independent arithmetic: the URL with one address, then 45 characters per further address
    // (`%2C`, the encoded comma, plus 42 characters of lower-case address).
    const oneAddressUrl = `${host}/snapshot-strategies/sybil-resistance/gov-id?network=10&snapshot=128990123&addresses=0x${'0'.repeat(40)}&action-id=123456789`
    const perRequest = Math.floor((8000 - oneAddressUrl.length) / 45) + 1
    const expectedRequests = Math.ceil(2000 / perRequest)
    expect(expectedRequests).toBe(12)

    nock(host).get('/snapshot-strategies/sybil-resistance/gov-id').query(true).times(expectedRequests).reply(strategyReply(verified, seen))
    const scores = await client().getVotingStrategyScores({ credential: 'gov-id', snapshot: 128990123, addresses: inputs })

    expect(seen.urls).toHaveLength(expectedRequests)
    for (const url of seen.urls) expect(url.length).toBeLessThanOrEqual(8000)
    expect(Math.max(...seen.asked.map((asked) => asked.length))).toBe(perRequest)
    expect(seen.asked.flat().sort()).toEqual(inputs.map((a) => a.toLowerCase()).sort())
    expect(Object.keys(scores)).toEqual(inputs)
    inputs.forEach((address, i) => expect(scores[address]).toBe(i % 3 === 0 ? 1 : 0))
  })

  test('a smaller maxUrlLength gives more requests; URLs stay within it', async () => {
    const inputs = addresses(50, 1)
    const seen = { urls: [] as string[], asked: [] as string[][] }
    nock(host).get('/snapshot-strategies/sybil-resistance/phone').query(true).times(50).reply(strategyReply(new Set(), seen))
    const scores = await client({ maxUrlLength: 600 }).getVotingStrategyScores({ credential: 'phone', snapshot: 'latest', addresses: inputs })
    const oneAddressUrl = `${host}/snapshot-strategies/sybil-resistance/phone?network=10&snapshot=latest&addresses=0x${'0'.repeat(40)}&action-id=123456789`
    const perRequest = Math.floor((600 - oneAddressUrl.length) / 45) + 1
    expect(seen.urls).toHaveLength(Math.ceil(50 / perRequest))
    for (const url of seen.urls) expect(url.length).toBeLessThanOrEqual(600)
    expect(Object.values(scores).every((score) => score === 0)).toBe(true)
    expect(Object.keys(scores)).toHaveLength(50)
  })

  test('requests run with bounded concurrency', async () => {
    let inFlight = 0
    let maxInFlight = 0
    const countingFetch: typeof fetch = async (input, init) => {
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      try {
        await new Promise((resolve) => setImmediate(resolve))
        return await globalThis.fetch(input, init)
      } finally {
        inFlight--
      }
    }
    const seen = { urls: [] as string[], asked: [] as string[][] }
    nock(host).get('/snapshot-strategies/sybil-resistance/gov-id').query(true).times(100).reply(strategyReply(new Set(), seen))
    await client({ maxUrlLength: 400, concurrency: 2, fetch: countingFetch }).getVotingStrategyScores({
      credential: 'gov-id',
      snapshot: 1n,
      addresses: addresses(40, 2),
    })
    expect(seen.urls.length).toBeGreaterThan(4)
    expect(maxInFlight).toBe(2)
  })

  test('keys are the input addresses as spelled; answers match case-insensitively; duplicates are asked once', async () => {
    const [a, b, c] = addresses(3, 3) as [`0x${string}`, `0x${string}`, `0x${string}`]
    const upper = `0x${c.slice(2).toUpperCase()}`
    const inputs = [a, b.toLowerCase(), upper, a.toLowerCase()]
    let asked: string | null = null
    nock(host)
      .get('/snapshot-strategies/sybil-resistance/gov-id')
      .query((query) => {
        asked = String(query.addresses)
        return true
      })
      // The server answers in its own spelling (checksummed) and order.
      .reply(200, { score: [{ address: getAddress(c), score: 1 }, { address: getAddress(b), score: '0' }, { address: a.toUpperCase().replace('0X', '0x'), score: 1 }] })
    const scores = await client().getVotingStrategyScores({ credential: 'gov-id', snapshot: 5n, addresses: inputs })
    expect(asked).toBe([a, b, c].map((x) => x.toLowerCase()).join(','))
    expect(scores).toEqual({ [a]: 1, [b.toLowerCase()]: 0, [upper]: 1, [a.toLowerCase()]: 1 })
    expect(Object.keys(scores)).toEqual(inputs)
  })

  test('an address missing from the answer is a ResponseValidationError, never a 0', async () => {
    nock(host).get('/snapshot-strategies/sybil-resistance/gov-id').query(true).reply(200, { score: [{ address: user, score: 1 }] })
    const error = (await failure(
      client().getVotingStrategyScores({ credential: 'gov-id', snapshot: 7n, addresses: [user, other] }),
    )) as ResponseValidationError
    expect(error).toBeInstanceOf(ResponseValidationError)
    expect(error.issues).toEqual([{ path: ['score'], message: `No score for ${other}` }])
    expect(error.message).toMatchInlineSnapshot(`
      "The response does not match the expected schema.

      Request: GET https://api.holonym.io/snapshot-strategies/sybil-resistance/gov-id?network=10&snapshot=7&addresses=0x52908400098527886e0f7030069857d2e4169ee7,...(2 addresses)&action-id=123456789
      Issues:
      - score: No score for 0x70997970c51812dc3a010c7d01b50e0d17dc79c8

      Details: 1 issue(s)
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#response-validation-failed
      Version: personhood@0.1.0"
    `)
  })

  test('an answer for an address not asked, a score other than 0/1, or two different scores are errors', async () => {
    const bodies = [
      { score: [{ address: user, score: 1 }, { address: other, score: 0 }, { address: getAddress(addresses(1, 9)[0] as string), score: 1 }] },
      { score: [{ address: user, score: 2 }, { address: other, score: 0 }] },
      { score: [{ address: user, score: 1 }, { address: other, score: 0 }, { address: userChecksummed, score: 0 }] },
    ]
    const expected = [/which was not asked/, /Expected 0 or 1 for 0x5290.*, got 2/, /answered twice, with 1 and 0/]
    for (const [index, body] of bodies.entries()) {
      nock(host).get('/snapshot-strategies/sybil-resistance/gov-id').query(true).reply(200, body)
      const error = (await failure(
        client().getVotingStrategyScores({ credential: 'gov-id', snapshot: 7n, addresses: [user, other] }),
      )) as ResponseValidationError
      expect(error).toBeInstanceOf(ResponseValidationError)
      expect(error.issues.map((issue) => issue.message).join('\n')).toMatch(expected[index] as RegExp)
    }
  })

  test('one bad batch fails the whole call (no partial result)', async () => {
    const inputs = addresses(20, 4)
    let call = 0
    nock(host)
      .get('/snapshot-strategies/sybil-resistance/gov-id')
      .query(true)
      .times(20)
      .reply((uri) => {
        const asked = (new URL(host + uri).searchParams.get('addresses') ?? '').split(',')
        // The second batch leaves its last address out.
        const answered = ++call === 2 ? asked.slice(0, -1) : asked
        return [200, { score: answered.map((address) => ({ address, score: 1 })) }]
      })
    const error = await failure(client({ maxUrlLength: 400 }).getVotingStrategyScores({ credential: 'gov-id', snapshot: 7n, addresses: inputs }))
    expect(error).toBeInstanceOf(ResponseValidationError)
  })

  test('the public host is called at the public path; any other host at the spec path; an explicit path wins', async () => {
    const reply = { score: [{ address: user, score: 1 }] }
    const query = { network: '10', snapshot: '42', addresses: user, 'action-id': '123456789' }
    const ask = (humanId: HumanIdClient) => humanId.getVotingStrategyScores({ credential: 'phone', snapshot: 42, addresses: [user] })
    // The public host, however it is written: the public service's path, never the spec's (which it does not serve).
    for (const baseUrl of [undefined, 'https://api.holonym.io', 'https://api.holonym.io/', 'https://API.holonym.io:443']) {
      const scope = nock(host).get('/snapshot-strategies/sybil-resistance/phone').query(query).reply(200, reply)
      await expect(ask(client(baseUrl === undefined ? {} : { baseUrl })), String(baseUrl)).resolves.toEqual({ [user]: 1 })
      expect(scope.isDone(), String(baseUrl)).toBe(true)
    }
    // Another host (the reference server, a mirror): the spec's path.
    const reference = nock('http://127.0.0.1:8787').get('/human-id/voting-strategies/sybil-resistance/phone').query(query).reply(200, reply)
    await expect(ask(client({ baseUrl: 'http://127.0.0.1:8787/human-id' }))).resolves.toEqual({ [user]: 1 })
    expect(reference.isDone()).toBe(true)
    const mirror = nock('https://holonym.example').get('/voting-strategies/sybil-resistance/phone').query(query).reply(200, reply)
    await expect(ask(client({ baseUrl: 'https://holonym.example' }))).resolves.toEqual({ [user]: 1 })
    expect(mirror.isDone()).toBe(true)
    // An explicit path is taken as given, on any host.
    const explicit = nock('http://127.0.0.1:8787').get('/snapshot-strategies/sybil-resistance/phone').query(query).reply(200, reply)
    await expect(ask(client({ baseUrl: 'http://127.0.0.1:8787', votingStrategyPath: publicVotingStrategyPath }))).resolves.toEqual({ [user]: 1 })
    expect(explicit.isDone()).toBe(true)
    expect(client().votingStrategyPath).toBe('/snapshot-strategies/sybil-resistance')
    expect(client({ baseUrl: 'http://127.0.0.1:8787/human-id' }).votingStrategyPath).toBe('/voting-strategies/sybil-resistance')
    expect(() => client({ votingStrategyPath: 'snapshot-strategies' })).toThrow(InvalidParameterError)
  })

  test('a malformed address is an InvalidAddressError naming it, before any request', async () => {
    const error = (await failure(
      client().getVotingStrategyScores({ credential: 'gov-id', snapshot: 7n, addresses: [user, '0x52908400098527886e0F7030069857D2E4169EE7', 'nope'] }),
    )) as InvalidAddressError
    expect(error).toBeInstanceOf(InvalidAddressError)
    expect(error.address).toBe('0x52908400098527886e0F7030069857D2E4169EE7')
    expect(error.details).toBe('The addresses[1] has mixed case that is not a valid EIP-55 checksum.')
    // Net connect is disabled and nothing is intercepted: a request would have been a NetworkError.
    expect(nock.pendingMocks()).toEqual([])
  })

  test('network, snapshot and action id are checked and sent as decimal strings', async () => {
    const big = 2n ** 255n + 7n
    nock(host)
      .get('/snapshot-strategies/sybil-resistance/biometrics')
      .query({ network: '84532', snapshot: 'latest', addresses: user, 'action-id': big.toString() })
      .reply(200, { score: [{ address: user, score: 0 }] })
    await expect(
      client().getVotingStrategyScores({ credential: 'biometrics', network: '84532', snapshot: 'latest', addresses: [user], actionId: big }),
    ).resolves.toEqual({ [user]: 0 })

    const bad: [Record<string, unknown>, string][] = [
      [{ network: 0 }, 'network'],
      [{ network: 'optimism' }, 'network'],
      [{ snapshot: -1 }, 'snapshot'],
      [{ snapshot: 1.5 }, 'snapshot'],
      [{ snapshot: '0x10' }, 'snapshot'],
      [{ snapshot: undefined }, 'snapshot'],
      [{ actionId: -1 }, 'actionId'],
      [{ actionId: 2 ** 60 }, 'actionId'],
      [{ actionId: 2n ** 256n }, 'actionId'],
      [{ actionId: '12a' }, 'actionId'],
      [{ credential: 'passport' }, 'credential'],
    ]
    for (const [override, parameter] of bad) {
      const error = (await failure(
        client().getVotingStrategyScores({ credential: 'gov-id', snapshot: 1n, addresses: [user], ...override } as never),
      )) as InvalidParameterError
      expect(error).toBeInstanceOf(InvalidParameterError)
      expect(error.parameter).toBe(parameter)
    }
  })

  test('no addresses: no request, an empty record; the standalone action works alike', async () => {
    await expect(getHumanIdVotingStrategyScores(client(), { credential: 'gov-id', snapshot: 1n, addresses: [] })).resolves.toEqual({})
  })

  test('a maxUrlLength too small for one address is refused', async () => {
    expect(() => client({ maxUrlLength: 100 })).toThrow(InvalidParameterError)
    const error = (await failure(
      // With a 77-digit action id, the URL for one address is about 240 characters.
      client({ maxUrlLength: 200 }).getVotingStrategyScores({ credential: 'gov-id', snapshot: 1n, addresses: [user], actionId: 2n ** 255n }),
    )) as InvalidParameterError
    expect(error.parameter).toBe('maxUrlLength')
  })
})
