import { createHash } from 'node:crypto'
import { getAddress } from 'viem'
import { summarizeAudit } from '../../src/audit/summary.js'
import type { AuditResult, AuditVoter } from '../../src/audit/types.js'

/** A voter with address `n`, not eligible and unlinked unless overridden. */
export function sampleVoter(n: number, overrides: Partial<AuditVoter> = {}): AuditVoter {
  return {
    address: getAddress(`0x${n.toString(16).padStart(40, '0')}`),
    choice: 1,
    votingPower: 1,
    eligible: false,
    method: null,
    score: 0,
    verdicts: [],
    linked: [],
    ...overrides,
  }
}

/**
 * Five voters on a two-choice proposal: three verified (gov-id, passport, phone) holding 20 of 100
 * voting power, two unverified whales linked to each other who carry "Against".
 */
export function sampleAudit(options: { title?: string; choices?: string[] } = {}): AuditResult {
  const choices = options.choices ?? ['For', 'Against']
  const passport = (score: number | null, origin: 'listing' | 'history' | 'absent') => ({ score, passing: score !== null && score >= 20, threshold: 20, origin })
  const voters: AuditVoter[] = [
    sampleVoter(1, {
      choice: 1,
      votingPower: 10,
      eligible: true,
      method: 'gov-id',
      score: 1,
      verdicts: [
        { source: 'human-id', credential: 'gov-id', valid: true, reason: 'valid', expiresAt: 1_760_000_000 },
        { source: 'human-id', credential: 'phone', valid: false, reason: 'none' },
      ],
    }),
    sampleVoter(2, { choice: 1, votingPower: 5, eligible: true, method: 'passport', score: 1, passport: passport(25, 'listing') }),
    sampleVoter(3, { choice: 2, votingPower: 5, eligible: true, method: 'phone', score: 1 }),
    sampleVoter(4, {
      choice: 2,
      votingPower: 40,
      passport: passport(3.5, 'listing'),
      linked: [{ kind: 'dedup-stamp', provider: 'Google', otherAddress: sampleVoter(5).address }],
    }),
    sampleVoter(5, { choice: 2, votingPower: 40, passport: passport(null, 'absent'), linked: [{ kind: 'dedup-stamp', provider: 'Google', otherAddress: sampleVoter(4).address }] }),
  ]
  const run: AuditResult['run'] = {
    packageVersion: '0.0.0-test',
    strategy: 'human-verification',
    options: { credentials: ['gov-id', 'phone'] },
    network: '1',
    snapshot: '21000000',
    blockTimestamp: 1_730_000_000,
    proposal: { id: `0x${'ab'.repeat(32)}`, title: options.title ?? 'Fund the thing', type: 'single-choice', choices, space: 'dao.eth' },
    votesSource: 'votes.csv',
  }
  return {
    run,
    voters,
    summary: summarizeAudit({ voters, choices, type: 'single-choice' }),
    digest: createHash('sha256').update(JSON.stringify(voters)).digest('hex'),
  }
}
