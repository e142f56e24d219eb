import { describe, expect, test } from 'vitest'
import { describeRule, describeVerdict, describeVoter, verdictWordsInput } from './verdict-words.js'

const at = 1_767_225_600 // 2026-01-01 00:00 UTC

describe('describeVerdict', () => {
  test('each Human ID reason in words, with its date where the verdict has one', () => {
    const sentence = (reason: string, valid = false, expiresAt: number | null = null) => describeVerdict({ credential: 'gov-id', valid, reason, expiresAt }).sentence
    expect(sentence('valid', true, at)).toBe('Government ID: held at the snapshot until 2026-01-01 00:00 UTC.')
    expect(sentence('expired', false, at)).toBe('Government ID: expired on 2026-01-01 00:00 UTC, before the snapshot.')
    expect(sentence('expired')).toBe('Government ID: expired before the snapshot.')
    expect(sentence('revoked')).toBe('Government ID: revoked: Human ID withdrew it before the snapshot.')
    expect(sentence('wrong-issuer')).toBe("Government ID: wrong issuer: the credential was not issued by Human ID's issuer for it, so it never counts.")
    expect(sentence('none')).toBe('Government ID: not found: this address held no such credential at the snapshot.')
  })

  test('a Passport score that expired is expired, whatever its number; one below the threshold says both numbers', () => {
    const expired = describeVerdict({ credential: 'passport', valid: false, reason: 'expired', expiresAt: at, score: '28.99100', threshold: '20' })
    expect(expired.label).toBe('Passport score expired')
    expect(expired.short).toBe('Passport expired')
    expect(expired.sentence).toBe('Passport score: 28.991 (threshold 20), but it had expired on 2026-01-01 00:00 UTC, before the snapshot: an expired score does not count, whatever its number.')
    const below = describeVerdict({ credential: 'passport', valid: false, reason: 'below-threshold', score: '12.50000', threshold: '20' })
    expect(below.sentence).toBe('Passport score: 12.5 at the snapshot, below the threshold 20.')
    expect(below.short).toBe('Passport below 20')
  })

  test("an expired credential's date is read from the chain's evidence when the verdict carries none", () => {
    const input = verdictWordsInput({ credential: 'phone', valid: false, reason: 'expired', expiresAt: null, source: 'chain', evidence: { kind: 'chain', reads: [{ kind: 'reader-sbt', reason: 'expired', expiry: String(at) }] } })
    expect(input.expiresAt).toBe(at)
  })
})

describe('describeVoter', () => {
  test('a voter who does not count reads every reason that applies and a step for each', () => {
    const words = describeVoter({
      verdicts: [
        { credential: 'gov-id', valid: false, reason: 'expired', expiresAt: at },
        { credential: 'phone', valid: false, reason: 'none' },
        { credential: 'passport', valid: false, reason: 'expired', expiresAt: at, score: '21.349', threshold: '20' },
      ],
      eligible: false,
      credentials: ['gov-id', 'phone'],
    })
    expect(words.counted).toBe(false)
    expect(words.headline).toBe('Not counted: Government ID expired and Passport score expired.')
    expect(words.label).toBe('Government ID expired · Passport expired')
    expect(words.reasons).toHaveLength(3)
    expect(words.nextSteps.map((step) => step.url)).toEqual(['https://id.human.tech/gov-id', 'https://app.passport.xyz', undefined])
  })

  test('a source that did not answer makes the answer unknown, names the source, and asks to check again', () => {
    const words = describeVoter({ verdicts: [{ credential: 'gov-id', valid: false, reason: 'none' }], eligible: null, passport: true, unanswered: [{ source: 'Passport score listing (C4)', cause: 'fetch failed.' }] })
    expect(words.counted).toBeNull()
    expect(words.headline).toBe('Not known: Passport score listing (C4) could not answer; what the others say is below.')
    expect(words.reasons).toContain('Passport score listing (C4) could not answer: fetch failed.')
    expect(words.nextSteps.at(-1)!.text).toBe('Check again later: Passport score listing (C4) could not answer, which says nothing about this address.')
    expect(words.nextSteps.some((step) => step.url === 'https://app.passport.xyz')).toBe(false)
  })

  test('one verdict per credential: a held one wins, then a reason that says why over "none" or "not-verified"', () => {
    const words = describeVoter({
      verdicts: [
        { credential: 'gov-id', valid: false, reason: 'none' },
        { credential: 'gov-id', valid: false, reason: 'not-verified', via: 'human-id-api' },
        { credential: 'gov-id', valid: false, reason: 'revoked' },
      ],
      eligible: false,
    })
    expect(words.reasons).toEqual(['Government ID: revoked: Human ID withdrew it before the snapshot.'])
  })
})

test('describeRule says the rule in one sentence', () => {
  expect(describeRule({ strategy: 'human-id', credentials: ['gov-id', 'phone'], match: 'all', actionId: '42' })).toBe(
    'human-id: an address counts when all of Government ID and Phone held at the snapshot (Human ID credentials on Optimism, for action id 42, unexpired and not revoked).',
  )
  expect(describeRule({ strategy: 'passport-v2', passport: { threshold: 25 } })).toBe('passport-v2: an address counts with a Passport score at the snapshot of at least 25, not expired.')
})
