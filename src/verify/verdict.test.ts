import { describe, expect, it } from 'vitest'
import { InvalidAddressError, InvalidParameterError } from '../errors/index.js'
import type { V2Score } from '../schemas/passport.js'
import type { RegistryScore } from '../schemas/registry.js'
import { stringifyJson } from '../utils/json.js'
import type { VerifyCredentialsReturnType } from './credentials/index.js'
import { checkPassportScore, meetsPassportThreshold, passportVerdictValue } from './passport.js'
import {
  applyFallbackPolicy,
  joinVerdicts,
  matchCredentials,
  toVerdictExpiry,
  verdictFromAttestationRows,
  verdictFromScore,
  verdictFromVerification,
  verdictNeverScored,
  verdictsFromVerifier,
  verdictsFromVotingStrategy,
  type HumanIdVerdict,
} from './verdict.js'

const alice = '0x52908400098527886E0F7030069857D2E4169EE7'
const bob = '0x8617E340B3D01FA5F11F306F4090FD50E238070D'
const at = 1_750_000_000

function v2(overrides: Partial<V2Score> = {}): V2Score {
  return {
    address: alice.toLowerCase(),
    score: '20.00000',
    passing_score: true,
    threshold: '20.00000',
    last_score_timestamp: new Date((at - 60) * 1000).toISOString(),
    expiration_timestamp: new Date((at + 86_400) * 1000).toISOString(),
    error: null,
    stamps: {},
    ...overrides,
  }
}

describe('the Passport rule', () => {
  it('passes at exactly the threshold, compared as decimals', () => {
    expect(meetsPassportThreshold('20.00000', '20')).toBe(true)
    expect(meetsPassportThreshold('19.99999', 20)).toBe(false)
    expect(meetsPassportThreshold('20.000000001', '20.00000')).toBe(true)
  })

  it('an expiry at the time judged does not pass; an error never passes', () => {
    expect(checkPassportScore({ score: '25', threshold: '20', expiresAt: at, at })).toBe('expired')
    expect(checkPassportScore({ score: '25', threshold: '20', expiresAt: at + 1, at })).toBe('valid')
    expect(checkPassportScore({ score: '25', threshold: '20', expiresAt: null, at })).toBe('valid')
    expect(checkPassportScore({ score: '25', threshold: '20', expiresAt: null, error: 'boom', at })).toBe('error')
    expect(checkPassportScore({ score: '5', threshold: '20', expiresAt: at, at })).toBe('below-threshold')
  })
})

describe('verdictFromScore (A1, A2, C4)', () => {
  it('normalizes a v2 record: EIP-55 address, exact score and its number, Unix seconds', () => {
    const verdict = verdictFromScore({ record: v2({ score: '23.41700' }), origin: 'history', at })
    expect(verdict).toEqual({
      address: alice,
      credential: 'passport',
      source: 'passport-history',
      valid: true,
      reason: 'valid',
      expiresAt: at + 86_400,
      evidence: {
        kind: 'passport-score',
        origin: 'history',
        api: 'v2',
        score: '23.41700',
        scoreValue: 23.417,
        threshold: '20.00000',
        servicePassing: true,
        lastScoreTimestamp: at - 60,
        expirationTimestamp: at + 86_400,
        error: null,
        at,
      },
    })
  })

  it('judges by the rule, not by the service flag, and takes a threshold override', () => {
    const record = v2({ score: '19.99999', passing_score: true })
    expect(verdictFromScore({ record, origin: 'live', at }).reason).toBe('below-threshold')
    expect(verdictFromScore({ record, origin: 'live', at, threshold: '15' }).valid).toBe(true)
    expect(() => verdictFromScore({ record, origin: 'live', at, threshold: 'lots' })).toThrow(InvalidParameterError)
  })

  it('an expiry equal to the time judged is expired', () => {
    const record = v2({ score: '30.00000', expiration_timestamp: new Date(at * 1000).toISOString() })
    expect(verdictFromScore({ record, origin: 'listing', at })).toMatchObject({ valid: false, reason: 'expired', expiresAt: at })
  })

  it('refuses a listing or history record scored after the time judged (the score then is unknown), not a live one', () => {
    const record = v2({ last_score_timestamp: new Date((at + 1) * 1000).toISOString() })
    expect(() => verdictFromScore({ record, origin: 'listing', at })).toThrow(/read its history at that time/)
    expect(() => verdictFromScore({ record, origin: 'history', at })).toThrow(InvalidParameterError)
    expect(verdictFromScore({ record, origin: 'live', at }).source).toBe('passport-live')
  })

  it('reads a v1 (C4) record through its binary evidence, and refuses one still processing', () => {
    const record: RegistryScore = {
      address: alice.toLowerCase(),
      score: '1.000000000',
      status: 'DONE',
      last_score_timestamp: '2025-06-01T00:00:00Z',
      expiration_date: null,
      evidence: { type: 'ThresholdScoreCheck', success: true, rawScore: '21.5', threshold: '20' },
      error: null,
    }
    const verdict = verdictFromScore({ record, origin: 'listing', at: '2025-06-02' })
    expect(verdict).toMatchObject({ valid: true, source: 'passport-listing', expiresAt: null })
    expect(verdict.evidence).toMatchObject({ api: 'v1', score: '21.5', scoreValue: 21.5, threshold: '20', servicePassing: true })
    expect(() => verdictFromScore({ record: { ...record, status: 'PROCESSING' }, origin: 'listing', at: '2025-06-02' })).toThrow(/not scored yet/)
    expect(verdictFromScore({ record: { ...record, status: 'ERROR', score: null, evidence: null, error: 'failed' }, origin: 'listing', at: '2025-06-02' }).reason).toBe('error')
  })

  it('an address the scorer never scored is not valid, and says so', () => {
    expect(verdictNeverScored({ address: alice.toLowerCase(), origin: 'listing', at })).toMatchObject({ address: alice, valid: false, reason: 'never-scored' })
  })
})

describe('passportVerdictValue (voting power)', () => {
  const judged = (overrides: Partial<V2Score> = {}, threshold?: string) => verdictFromScore({ record: v2(overrides), origin: 'history', at, threshold })

  it('gated: the score of a pass, else 0', () => {
    expect(passportVerdictValue(judged({ score: '20.00000' }), { mode: 'gated', score: 3 })).toBe(3)
    expect(passportVerdictValue(judged({ score: '19.99999' }), { mode: 'gated', score: 3 })).toBe(0)
  })

  it('weighted: the score, capped; 0 when expired, scored with an error or never scored; with gate, 0 below the threshold', () => {
    expect(passportVerdictValue(judged({ score: '12.50000' }), { mode: 'weighted' })).toBe(12.5)
    expect(passportVerdictValue(judged({ score: '42.00000' }), { mode: 'weighted', cap: 30 })).toBe(30)
    expect(passportVerdictValue(judged({ score: '42.00000', expiration_timestamp: new Date(at * 1000).toISOString() }), { mode: 'weighted' })).toBe(0)
    expect(passportVerdictValue(judged({ score: '42.00000', error: 'boom' }), { mode: 'weighted' })).toBe(0)
    expect(passportVerdictValue(verdictNeverScored({ address: alice, origin: 'listing', at }), { mode: 'weighted' })).toBe(0)
    expect(passportVerdictValue(judged({ score: '12.50000' }), { mode: 'weighted', gate: true })).toBe(0)
    expect(passportVerdictValue(judged({ score: '12.50000' }, '10'), { mode: 'weighted', gate: true })).toBe(12.5)
  })

  it('weighted: a v1 record (9 decimals) and a v2 one (5) of the same score weigh the same', () => {
    const v1: RegistryScore = {
      address: alice.toLowerCase(),
      score: '23.123456789',
      status: 'DONE',
      last_score_timestamp: new Date((at - 60) * 1000).toISOString(),
      expiration_date: null,
      evidence: null,
      error: null,
    }
    const fromListing = passportVerdictValue(verdictFromScore({ record: v1, origin: 'listing', at }), { mode: 'weighted' })
    expect(fromListing).toBe(23.12346)
    expect(passportVerdictValue(judged({ score: '23.12346' }), { mode: 'weighted' })).toBe(fromListing)
  })
})

describe('Human ID adapters', () => {
  it('E1-E3: an answer with its expiry; a false one is not-verified', () => {
    const yes = verdictFromVerification({ address: alice.toLowerCase(), credential: 'phone', network: 'optimism', result: { result: true, expirationDate: at } })
    expect(yes).toMatchObject({ address: alice, credential: 'phone', source: 'human-id-api', valid: true, reason: 'valid', expiresAt: at })
    expect(yes.evidence).toMatchObject({ endpoint: 'E2', actionId: 123456789n })
    const no = verdictFromVerification({ address: alice, credential: 'gov-id', network: 'optimism', actionId: '0x2a', result: { result: false } })
    expect(no).toMatchObject({ valid: false, reason: 'not-verified', expiresAt: null, evidence: { endpoint: 'E1', actionId: 42n } })
  })

  it('E4-E6: keyed by EIP-55 whatever case the caller used; one address twice with two answers is an error', () => {
    const verdicts = verdictsFromVotingStrategy({ credential: 'biometrics', scores: { [alice.toLowerCase()]: 1, [bob]: 0 }, chainId: 10, snapshot: 5n })
    expect(verdicts.map((verdict) => [verdict.address, verdict.valid, verdict.reason])).toEqual([
      [alice, true, 'valid'],
      [bob, false, 'not-verified'],
    ])
    expect(verdictsFromVotingStrategy({ credential: 'gov-id', scores: { [alice]: 1, [alice.toLowerCase()]: 1 }, chainId: 10, snapshot: 'latest' })).toHaveLength(1)
    expect(() => verdictsFromVotingStrategy({ credential: 'gov-id', scores: { [alice]: 1, [alice.toLowerCase()]: 0 }, chainId: 10, snapshot: 'latest' })).toThrow(/both 0 and 1/)
    expect(() => verdictsFromVotingStrategy({ credential: 'gov-id', scores: { nope: 1 }, chainId: 10, snapshot: 'latest' })).toThrow(InvalidAddressError)
  })

  it('E8: rule 6 over the rows, the latest valid expiry, the most telling failure', () => {
    const row = { fullSchemaId: 'onchain_evm_10_0x8', attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd', isReceiver: true, revoked: false, validUntil: String(at + 10) }
    const valid = verdictFromAttestationRows({ address: alice, rows: [row, { ...row, validUntil: at + 20 }, { ...row, revoked: true }], now: at })
    expect(valid).toMatchObject({ credential: 'clean-hands', source: 'attestation-index', valid: true, reason: 'valid', expiresAt: at + 20 })
    expect(verdictFromAttestationRows({ address: alice, rows: [{ ...row, isReceiver: false }, { ...row, validUntil: at }], now: at })).toMatchObject({ valid: false, reason: 'expired', expiresAt: null })
    expect(verdictFromAttestationRows({ address: alice, rows: [], now: at })).toMatchObject({ valid: false, reason: 'none' })
  })

  it('the verifier: one verdict per address and credential, evidence with the block, bigints kept exact', () => {
    const result: VerifyCredentialsReturnType<'gov-id' | 'phone'> = {
      blockNumber: 100n,
      blockTimestamp: BigInt(at),
      chainId: 10,
      network: 'optimism',
      sandbox: false,
      actionId: 123456789n,
      results: {
        [alice.toLowerCase() as `0x${string}`]: {
          'gov-id': { valid: true, reason: 'valid', expiresAt: 2n ** 256n - 1n, evidence: [] },
          phone: { valid: true, reason: 'legacy', evidence: [] },
        },
      },
    }
    const verdicts = verdictsFromVerifier(result)
    expect(verdicts.map((verdict) => [verdict.address, verdict.credential, verdict.reason, verdict.expiresAt])).toEqual([
      [alice, 'gov-id', 'valid', null],
      [alice, 'phone', 'legacy', null],
    ])
    expect(verdicts[0]?.evidence).toMatchObject({ kind: 'chain', blockNumber: 100n, blockTimestamp: BigInt(at) })
    expect(JSON.parse(stringifyJson(verdicts[0]))).toMatchObject({ evidence: { blockNumber: '100', actionId: '123456789' } })
  })

  it('toVerdictExpiry: whole seconds, null beyond a Date', () => {
    expect(toVerdictExpiry(1_800_000_000n)).toBe(1_800_000_000)
    expect(toVerdictExpiry(8_640_000_000_001)).toBeNull()
    expect(toVerdictExpiry(undefined)).toBeNull()
  })
})

describe('joining verdicts', () => {
  const yes = (credential: 'gov-id' | 'phone' | 'clean-hands', expiresAt: number | null = at + 100, address = alice): HumanIdVerdict => ({
    ...verdictFromVerification({ address, credential: 'gov-id', network: 'optimism', result: { result: true, expirationDate: at } }),
    credential,
    expiresAt,
  })
  const no = (credential: 'gov-id' | 'phone' | 'clean-hands', address = alice): HumanIdVerdict => ({ ...yes(credential, null, address), valid: false, reason: 'not-verified' })
  const passing = verdictFromScore({ record: v2({ score: '25.00000' }), origin: 'listing', at })
  const failing = verdictFromScore({ record: v2({ score: '5.00000' }), origin: 'listing', at })

  it('joinVerdicts groups by EIP-55 address in order of appearance', () => {
    const joined = joinVerdicts([yes('gov-id'), no('phone', bob), passing, no('gov-id', bob)])
    expect([...joined.keys()]).toEqual([alice, bob])
    expect(joined.get(bob)?.map((verdict) => verdict.credential)).toEqual(['phone', 'gov-id'])
  })

  it('any: one valid credential; all: every credential; a source that says yes wins over one that says no', () => {
    expect(matchCredentials({ verdicts: [no('gov-id'), yes('phone', at + 5)], credentials: ['gov-id', 'phone'], match: 'any' })).toMatchObject({ valid: true, expiresAt: at + 5 })
    expect(matchCredentials({ verdicts: [no('gov-id'), yes('phone')], credentials: ['gov-id', 'phone'], match: 'all' })).toMatchObject({ valid: false, expiresAt: null })
    expect(matchCredentials({ verdicts: [yes('gov-id', at + 9), yes('phone', at + 5)], credentials: ['gov-id', 'phone'], match: 'all' })).toMatchObject({ valid: true, expiresAt: at + 5 })
    expect(matchCredentials({ verdicts: [no('gov-id'), yes('gov-id')], credentials: ['gov-id'], match: 'all' }).valid).toBe(true)
  })

  it('a credential nobody checked is an error, never a no; so are verdicts about two addresses', () => {
    expect(() => matchCredentials({ verdicts: [yes('gov-id')], credentials: ['gov-id', 'phone'], match: 'any' })).toThrow(/No verdict on phone/)
    expect(() => matchCredentials({ verdicts: [yes('gov-id'), yes('phone', at, bob)], credentials: ['gov-id'], match: 'any' })).toThrow(/verdicts of one address/)
  })

  it('the fallback policy: Human ID first, then a passing Passport score; Passport needed only when Human ID fails', () => {
    expect(applyFallbackPolicy({ verdicts: [no('gov-id'), yes('phone')], credentials: ['gov-id', 'phone'], match: 'any' })).toMatchObject({ eligible: true, method: 'phone' })
    expect(applyFallbackPolicy({ verdicts: [no('gov-id'), passing], credentials: ['gov-id'], match: 'any' })).toMatchObject({ eligible: true, method: 'passport', passport: passing })
    expect(applyFallbackPolicy({ verdicts: [no('gov-id'), failing], credentials: ['gov-id'], match: 'any' })).toMatchObject({ eligible: false, method: null })
    expect(applyFallbackPolicy({ verdicts: [no('gov-id')], credentials: ['gov-id'], match: 'any', passport: false })).toMatchObject({ eligible: false, method: null })
    expect(() => applyFallbackPolicy({ verdicts: [no('gov-id')], credentials: ['gov-id'], match: 'any' })).toThrow(/No Passport verdict/)
  })
})
