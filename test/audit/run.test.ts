import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAddress, type Address } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { auditVoterLine } from '../../src/audit/lines.js'
import { runAudit, type AuditJudge, type AuditJudgment } from '../../src/audit/run.js'
import { auditFiles, auditJsonChunks, writeAuditOutputs } from '../../src/audit/report/write.js'
import { renderAuditCsv } from '../../src/audit/report/render.js'
import type { AuditRun } from '../../src/audit/types.js'
import { stringifyJson } from '../../src/utils/json.js'
import type { AuditVote } from '../../src/audit/votes.js'
import { failure } from '../helpers/async.js'

const at = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`) as Address
const run: AuditRun = { packageVersion: '1.0.0', strategy: 'human-verification', options: {}, network: '1', snapshot: '100', blockTimestamp: 1_700_000_000, votesSource: 'votes.csv' }
const votes: AuditVote[] = [1, 2, 3].map((n) => ({ voter: at(n), choice: 1 + (n % 2), votingPower: n }))
const expiry = '2026-12-01T00:00:00Z'

const judgments = new Map<string, AuditJudgment>([
  [at(1).toLowerCase(), { score: 1, eligible: true, method: 'gov-id', verdicts: [{ source: 'human-id', credential: 'gov-id', valid: true, reason: 'valid' }], stamps: { Google: { dedup: false, expiration_date: expiry } } }],
  [at(2).toLowerCase(), { score: 0, eligible: false, method: null, verdicts: [], stamps: { Google: { dedup: true, expiration_date: expiry } } }],
  [at(3).toLowerCase(), { score: 0, eligible: false, method: null, verdicts: [] }],
])
const judge: AuditJudge = async () => judgments

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

describe('runAudit', () => {
  test('joins votes and judgments, links wallets, and seals the result', async () => {
    const result = await runAudit({ votes, run, judge })
    expect(result.voters.map((voter) => [voter.address, voter.eligible, voter.method])).toEqual([
      [at(1), true, 'gov-id'],
      [at(2), false, null],
      [at(3), false, null],
    ])
    expect(result.voters[1]!.linked).toEqual([{ kind: 'dedup-stamp', provider: 'Google', otherAddress: at(1), basis: 'same-credential' }])
    expect(result.digest).toMatch(/^[0-9a-f]{64}$/)
  })

  test('the digest is the same on a re-run, from another file, by another version; it changes with any verdict', async () => {
    const first = await runAudit({ votes, run, judge })
    const again = await runAudit({ votes, run: { ...run, votesSource: 'elsewhere.json', packageVersion: '9.9.9' }, judge })
    expect(again.digest).toBe(first.digest)
    const flipped = new Map(judgments)
    flipped.set(at(3).toLowerCase(), { ...judgments.get(at(3).toLowerCase())!, eligible: true, method: 'passport' })
    expect((await runAudit({ votes, run, judge: async () => flipped })).digest).not.toBe(first.digest)
    expect((await runAudit({ votes, run: { ...run, snapshot: '101' }, judge })).digest).not.toBe(first.digest)
  })

  test('the digest, hashed voter by voter, is the SHA-256 of the canonical JSON of what was asked and found', async () => {
    const evidenced = new Map([...judgments].map(([key, judgment]) => [key, { ...judgment, verdicts: judgment.verdicts.map((verdict) => ({ ...verdict, evidence: { blockNumber: 100n, key } })) }]))
    const result = await runAudit({ votes, run, judge: async () => evidenced })
    const { packageVersion: _version, votesSource: _source, ...asked } = run
    // Every voter's whole line: its verdicts with their evidence (packed apart in the result).
    const lines = result.voters.map((_, index) => auditVoterLine(result, index))
    expect(lines[0]!.verdicts[0]!.evidence).toEqual({ blockNumber: '100', key: at(1).toLowerCase() })
    const whole = stringifyJson({ asked, voters: lines }, { sortKeys: true })
    expect(result.digest).toBe(createHash('sha256').update(whole).digest('hex'))
  })

  test('a voter the judge left out fails the audit instead of counting as unverified', async () => {
    const partial = new Map(judgments)
    partial.delete(at(2).toLowerCase())
    const error = await failure(runAudit({ votes, run, judge: async () => partial }))
    expect(error).toMatchObject({ name: 'AuditIncompleteError', addresses: [at(2)] })
  })

  test('writes the four files', async () => {
    dir = mkdtempSync(join(tmpdir(), 'personhood-audit-'))
    const result = await runAudit({ votes, run, judge })
    const written = writeAuditOutputs(dir, result)
    expect(written.map((path) => path.slice(dir!.length + 1))).toEqual([...auditFiles])
    expect(JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8')).digest).toBe(result.digest)
  })

  test('audit.json and audit.csv are written voter by voter, as the same text as written whole', async () => {
    dir = mkdtempSync(join(tmpdir(), 'personhood-audit-'))
    // 2,600 voters: more than one CSV chunk (250 rows) and more than one 1 MB write of the JSON.
    const many: AuditVote[] = Array.from({ length: 2600 }, (_, index) => ({ voter: at(index + 1), choice: 1 + (index % 2), votingPower: index + 0.5 }))
    const verdicts: AuditJudgment['verdicts'] = [{ source: 'human-id', credential: 'gov-id', valid: false, reason: 'none', evidence: { blockNumber: 100n, note: 'x'.repeat(400) } }]
    const all = new Map(many.map((vote, index) => [vote.voter.toLowerCase(), { score: 0, eligible: index % 5 === 0, method: index % 5 === 0 ? ('phone' as const) : null, verdicts }]))
    const result = await runAudit({ votes: many, run, judge: async () => all })
    // In memory, each line without its evidence; written, each with it.
    expect(result.voters[0]!.verdicts[0]).not.toHaveProperty('evidence')
    writeAuditOutputs(dir, result)
    const json = readFileSync(join(dir, 'audit.json'), 'utf8')
    const whole = { title: '2,600 votes on Ethereum at block 100', run: result.run, voters: result.voters.map((_, index) => auditVoterLine(result, index)), summary: result.summary, digest: result.digest }
    expect(whole.voters[2599]!.verdicts[0]!.evidence).toEqual({ blockNumber: '100', note: 'x'.repeat(400) })
    expect(json).toBe(`${stringifyJson(whole, { indent: 2 })}\n`)
    expect(json.length).toBeGreaterThan(2 << 20)
    const csv = readFileSync(join(dir, 'audit.csv'), 'utf8')
    expect(csv.split('\n').filter(Boolean)).toHaveLength(2601)
    expect(csv).toBe(renderAuditCsv(result))
    // Without voters, the JSON is still the same text.
    const empty = { ...whole, title: '0 votes on Ethereum at block 100', voters: [] }
    expect([...auditJsonChunks({ ...empty, evidence: undefined })].join('')).toBe(`${stringifyJson(empty, { indent: 2 })}\n`)
  })
})

describe('writeAuditOutputs never writes through a planted link', () => {
  test('a symlink at the old fixed temporary name, or at a report file, leaves its target untouched', async () => {
    const { existsSync, readdirSync, symlinkSync, writeFileSync } = await import('node:fs')
    const root = mkdtempSync(join(tmpdir(), 'personhood-links-'))
    try {
      const out = join(root, 'out')
      const victim = join(root, 'victim.txt')
      writeFileSync(victim, 'precious')
      const { mkdirSync } = await import('node:fs')
      mkdirSync(out)
      for (const name of auditFiles) symlinkSync(victim, join(out, `${name}.tmp`))
      symlinkSync(victim, join(out, 'audit.md'))
      const result = await runAudit({ votes, run, judge: async () => judgments })
      writeAuditOutputs(out, result)
      expect(readFileSync(victim, 'utf8')).toBe('precious')
      expect(readFileSync(join(out, 'audit.md'), 'utf8')).toMatch(/^# Voter audit: 3 votes on Ethereum at block 100\n/)
      // No temporary file is left behind.
      expect(readdirSync(out).filter((name) => name.endsWith('.tmp') && !auditFiles.some((file) => name === `${file}.tmp`))).toEqual([])
      expect(existsSync(join(out, 'audit.json'))).toBe(true)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  test('an --out that is a file is an input error naming it, and the file is kept', async () => {
    const root = mkdtempSync(join(tmpdir(), 'personhood-out-file-'))
    try {
      const { writeFileSync } = await import('node:fs')
      const file = join(root, 'report')
      writeFileSync(file, 'mine')
      const result = await runAudit({ votes, run, judge: async () => judgments })
      expect(() => writeAuditOutputs(file, result)).toThrow(`${file} exists and is not a folder`)
      expect(readFileSync(file, 'utf8')).toBe('mine')
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('auditDigest', () => {
  test('covers votes, verdicts and evidence, not block hashes, the votes file name or the package version', async () => {
    const { auditDigest } = await import('../../src/audit/run.js')
    const result = await runAudit({ votes, run, judge: async () => judgments })
    const withHash = (hash: string) => result.voters.map((voter) => ({ ...voter, verdicts: voter.verdicts.map((verdict) => ({ ...verdict, evidence: { blockNumber: '100', blockHash: hash } })) }))
    const base = auditDigest({ run, voters: withHash(`0x${'1'.repeat(64)}`) })
    expect(auditDigest({ run: { ...run, packageVersion: '9.9.9', votesSource: 'other.csv' }, voters: withHash(`0x${'2'.repeat(64)}`) })).toBe(base)
    const flipped = withHash(`0x${'1'.repeat(64)}`).map((voter, index) => (index === 0 ? { ...voter, eligible: !voter.eligible } : voter))
    expect(auditDigest({ run, voters: flipped })).not.toBe(base)
    const otherEvidence = withHash(`0x${'1'.repeat(64)}`).map((voter) => ({ ...voter, verdicts: voter.verdicts.map((verdict) => ({ ...verdict, evidence: { blockNumber: '101', blockHash: 'x' } })) }))
    expect(auditDigest({ run, voters: otherEvidence })).not.toBe(base)
    expect(auditDigest({ run: { ...run, type: 'approval' }, voters: withHash(`0x${'1'.repeat(64)}`) })).not.toBe(base)
  })
})
