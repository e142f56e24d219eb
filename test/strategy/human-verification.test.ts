/**
 * human-verification on the demo world's local chain and reference server: the fallback decides
 * voter by voter exactly as human-id and passport-v2 decide apart, Passport is asked only about
 * the voters Human ID did not verify, and a Passport failure names those voters and no others.
 */
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StrategySourceError } from '../../src/errors/strategy.js'
import type { StrategyContext } from '../../src/strategy/context.js'
import { runStrategy } from '../../src/strategy/define.js'
import { humanIdStrategy } from '../../src/strategy/human-id.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import { passportV2Strategy } from '../../src/strategy/passport-v2.js'
import { humanVerificationServing } from '../strategies/human-id-serving.js'
import type { ExampleServer } from '../strategies/conformance.js'

let server: ExampleServer
let voters: string[]
const snapshot = 136_566_811

beforeAll(async () => {
  server = await humanVerificationServing.start()
  voters = server.voters(300)
}, 120_000)
afterAll(() => server?.close())

/** The server's context, with every Passport request (A or C) recorded by the address it names. */
function recording(context: StrategyContext): { context: StrategyContext; passportPaths: string[] } {
  const passportPaths: string[] = []
  const base = context.fetch ?? fetch
  return {
    passportPaths,
    context: {
      ...context,
      fetch: (input, init) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
        if (/^\/(registry|v2)\//.test(url.pathname)) passportPaths.push(`${url.pathname}${url.search}`)
        return base(input, init)
      },
    },
  }
}

function run(definition: typeof humanVerificationStrategy | typeof humanIdStrategy | typeof passportV2Strategy, options: Record<string, unknown>, context = server.context(), addresses = voters) {
  return runStrategy(definition as typeof humanVerificationStrategy, { network: '10', provider: server.provider('10'), addresses, options, snapshot, context })
}

describe('human-verification', () => {
  it('scores each voter as human-id, else passport-v2 (gated), would', async () => {
    const credentials = ['gov-id', 'phone', 'biometrics']
    const [combined, humanId, passport] = await Promise.all([
      run(humanVerificationStrategy, { credentials, verifiedScore: 3, passportScore: 2, scorerId: 1 }),
      run(humanIdStrategy, { credentials }),
      run(passportV2Strategy, { scorerId: 1, mode: 'gated' }),
    ])
    const expected = Object.fromEntries(
      Object.keys(combined.scores).map((address) => {
        const key = address as Address
        return [address, humanId.scores[key]! > 0 ? 3 : passport.scores[key]! > 0 ? 2 : 0]
      }),
    )
    expect(combined.scores).toEqual(expected)
    const counts = Object.values(combined.scores).reduce<Record<number, number>>((tally, score) => ({ ...tally, [score]: (tally[score] ?? 0) + 1 }), {})
    expect(counts[3]).toBeGreaterThan(0)
    expect(counts[2]).toBeGreaterThan(0)
    expect(counts[0]).toBeGreaterThan(0)
    for (const { detail } of combined.results.values()) {
      // Passport is judged only when Human ID did not hold.
      expect(detail.verdicts.some((verdict) => verdict.credential === 'passport')).toBe(!detail.decision.humanId.valid)
    }
  }, 120_000)

  it('asks Passport only about the voters Human ID did not verify', async () => {
    const verified = Object.entries((await run(humanIdStrategy, { credentials: ['gov-id'] })).scores)
      .filter(([, score]) => score > 0)
      .map(([address]) => address)
    expect(verified.length).toBeGreaterThan(3)
    const { context, passportPaths } = recording(server.context())
    const allVerified = await run(humanVerificationStrategy, { credentials: ['gov-id'], scorerId: 1 }, context, verified)
    expect(Object.values(allVerified.scores).every((score) => score === 1)).toBe(true)
    expect(passportPaths).toEqual([])
    // One voter Human ID does not verify: Passport is read for that voter (one listing read), not the others.
    const outsider = voters.find((address) => !verified.includes(address))!
    await run(humanVerificationStrategy, { credentials: ['gov-id'], scorerId: 1 }, context, [...verified, outsider])
    expect(passportPaths.length).toBeGreaterThan(0)
    expect(passportPaths.every((path) => !verified.some((address) => path.toLowerCase().includes(address.toLowerCase().slice(2))))).toBe(true)
  }, 120_000)

  it('passportScore 0 turns the fallback off: no key needed, no Passport request', async () => {
    const { passport: _noKey, ...withoutPassport } = server.context()
    const { context, passportPaths } = recording(withoutPassport)
    const result = await run(humanVerificationStrategy, { credentials: ['gov-id'], passportScore: 0 }, context)
    const humanId = await run(humanIdStrategy, { credentials: ['gov-id'] })
    expect(result.scores).toEqual(humanId.scores)
    expect(passportPaths).toEqual([])
  }, 120_000)

  it('a Passport host that fails is an error naming the unverified voters only', async () => {
    const context = server.context()
    const broken = { ...context, passport: { ...context.passport, baseUrl: 'http://127.0.0.1:9', registryBaseUrl: 'http://127.0.0.1:9' } }
    const humanId = await run(humanIdStrategy, { credentials: ['gov-id'] }, server.context(), voters.slice(0, 40))
    const unverified = Object.entries(humanId.scores).filter(([, score]) => score === 0).map(([address]) => address)
    const error = await run(humanVerificationStrategy, { credentials: ['gov-id'], scorerId: 1 }, broken, voters.slice(0, 40)).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StrategySourceError)
    expect([...(error as StrategySourceError).addresses].sort()).toEqual(unverified.sort())
  }, 120_000)
})
