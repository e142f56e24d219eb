/**
 * The audit's compact lines: verdicts that read the same are one object, and each voter's evidence
 * is packed apart and comes back exactly as it would have been written (bigints as decimal strings,
 * a missing evidence still missing, a null still null), whatever the order it was packed in.
 */
import { setFlagsFromString } from 'node:v8'
import { getAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { auditVoterLine, createByteSlabs, createEvidencePacker, createVerdictTable } from '../../src/audit/lines.js'
import { runAudit, type AuditJudgment } from '../../src/audit/run.js'
import type { AuditRun, AuditSourceVerdict, AuditVoter } from '../../src/audit/types.js'
import { stringifyJson } from '../../src/utils/json.js'

const at = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`)
const run: AuditRun = { packageVersion: '1.0.0', strategy: 'human-verification', options: {}, network: '10', snapshot: '100', blockTimestamp: 1_700_000_000, votesSource: 'votes.csv' }

/** Evidence like the chain's: the same contract reads for every voter but the subject. */
function chainEvidence(n: number) {
  return {
    kind: 'chain',
    chainId: 10,
    blockNumber: 63_097_708n,
    reads: [
      { kind: 'sbt', circuit: 'gov-id', contract: '0x2AA822e264F8cc31A2b9C22f39e5551241e94DfB', subject: at(n).toLowerCase(), getSBT: { status: 'reverted', returnData: `0x08c379a0${'0'.repeat(200)}` }, reason: 'none' },
      { kind: 'legacy-store', contract: '0xdD748977BAb5782625AF1466F4C5F02Eb92Fce31', user: at(n).toLowerCase(), isUnique: false },
    ],
  }
}

describe('the evidence packer', () => {
  test('gives back each voter’s evidence as JSON, with undefined and null kept apart, in any order of packing', () => {
    const packer = createEvidencePacker(3)
    packer.set(2, [null, { expiry: 1_800_000_000n }])
    packer.set(0, [chainEvidence(1), undefined])
    const evidence = packer.done()
    expect(evidence.size).toBe(3)
    expect(evidence.of(0)).toEqual([JSON.parse(stringifyJson(chainEvidence(1))), undefined])
    expect(evidence.of(2)).toEqual([null, { expiry: '1800000000' }])
    // A voter never packed has no evidence.
    expect(evidence.of(1)).toEqual([])
  })

  test('packs evidence that repeats from voter to voter into a small part of its JSON', () => {
    const voters = 2_000
    const packer = createEvidencePacker(voters)
    let json = 0
    for (let n = 0; n < voters; n++) {
      const evidence = [chainEvidence(n + 1), chainEvidence(n + 1)]
      json += stringifyJson(evidence).length
      packer.set(n, evidence)
    }
    const packed = packer.done()
    expect(packed.bytes).toBeLessThan(json / 8)
    expect(packed.of(1_999)).toEqual(JSON.parse(stringifyJson([chainEvidence(2_000), chainEvidence(2_000)])))
  })
})

describe('the evidence packer’s memory', () => {
  test('keeps byte strings cut from Node’s shared 8 KB pool as copies in slabs of its own, never the pool', () => {
    const slabs = createByteSlabs()
    const kept: [number, Buffer][] = []
    // 6,000 strings of about 350 bytes, each a slice of Node's shared pool (as zlib's answers and small copies are).
    for (let n = 0; n < 6_000; n++) {
      const bytes = Buffer.from(`${n}:${'x'.repeat(340)}`)
      expect(bytes.buffer.byteLength).toBe(Buffer.poolSize)
      kept.push([slabs.keep(bytes), Buffer.from(bytes.toString())])
    }
    // About 2 MB kept: two slabs of 1 MB of their own, no pool among them (the packer held a pool of 8 KB a voter).
    expect(slabs.buffers().length).toBe(2)
    expect(slabs.buffers().every((buffer) => buffer.byteLength === 1 << 20)).toBe(true)
    for (const [ref, bytes] of kept) expect(slabs.read(ref).equals(bytes)).toBe(true)
    // A string larger than a slab gets one of its own.
    const large = Buffer.alloc(3 << 20, 7)
    const ref = slabs.keep(large)
    expect(slabs.read(ref).equals(large)).toBe(true)
    expect(slabs.read(kept[5_999]![0]).equals(kept[5_999]![1])).toBe(true)
  })

  test('the packer keeps each voter’s packed evidence in its slabs, copied out of zlib’s and Node’s shared buffers', () => {
    const slabs = createByteSlabs()
    const voters = 3_000
    const packer = createEvidencePacker(voters, slabs)
    for (let n = 0; n < voters; n++) packer.set(n, [chainEvidence(n + 1)])
    const packed = packer.done()
    // Every entry is in the slabs: what was packed, less the dictionary (at most 32 KB), fills them.
    const held = slabs.buffers()
    expect(held.length).toBeGreaterThan(0)
    expect(held.every((buffer) => buffer.byteLength === 1 << 20)).toBe(true)
    expect(packed.bytes).toBeGreaterThan(voters * 20)
    expect(packed.bytes - 32 * 1024).toBeLessThanOrEqual(held.length << 20)
    expect(packed.of(2_999)).toEqual([JSON.parse(stringifyJson(chainEvidence(3_000)))])
  })
})

describe('compact lines', () => {
  test('verdicts that read the same are one shared object; the whole line comes back with its evidence', async () => {
    const votes = [1, 2, 3].map((n) => ({ voter: at(n), choice: 1, votingPower: n }))
    const none = (n: number): AuditJudgment['verdicts'][number] => ({ source: 'human-id', via: 'chain', credential: 'gov-id', valid: false, reason: 'none', expiresAt: null, evidence: chainEvidence(n) })
    const judgments = new Map(votes.map((vote, index) => [vote.voter.toLowerCase(), { score: 0, eligible: false, method: null, verdicts: [none(index + 1)] } satisfies AuditJudgment]))
    const result = await runAudit({ votes, run, judge: async () => judgments })
    expect(result.voters[0]!.verdicts[0]).toBe(result.voters[2]!.verdicts[0])
    expect(result.voters[0]!.verdicts[0]).toEqual({ source: 'human-id', via: 'chain', credential: 'gov-id', valid: false, reason: 'none', expiresAt: null })
    expect(auditVoterLine(result, 1)).toEqual({ ...result.voters[1], verdicts: [JSON.parse(stringifyJson(none(2)))] })
  })

  test('a voter’s list of verdicts and Passport line are one shared object with every voter’s that reads the same; no links is one empty list', async () => {
    const votes = [1, 2, 3].map((n) => ({ voter: at(n), choice: 1, votingPower: n }))
    const none = (n: number): AuditJudgment['verdicts'][number] => ({ source: 'human-id', via: 'chain', credential: 'gov-id', valid: false, reason: 'none', expiresAt: null, evidence: chainEvidence(n) })
    const phone: AuditJudgment['verdicts'][number] = { source: 'human-id', via: 'chain', credential: 'phone', valid: true, reason: 'valid', expiresAt: 1_800_000_000, evidence: { expiry: 1_800_000_000n } }
    const passport = (score: number | null) => ({ score, passing: score !== null && score >= 20, threshold: 20, origin: score === null ? ('absent' as const) : ('listing' as const) })
    const judgments = new Map<string, AuditJudgment>([
      [votes[0]!.voter.toLowerCase(), { score: 0, eligible: false, method: null, verdicts: [none(1)], passport: passport(null) }],
      [votes[1]!.voter.toLowerCase(), { score: 0, eligible: false, method: null, verdicts: [none(2)], passport: passport(null) }],
      [votes[2]!.voter.toLowerCase(), { score: 1, eligible: true, method: 'phone', verdicts: [none(3), phone], passport: passport(25) }],
    ])
    const result = await runAudit({ votes, run, judge: async () => judgments })
    const [first, second, third] = result.voters as [AuditVoter, AuditVoter, AuditVoter]
    expect(first.verdicts).toBe(second.verdicts)
    expect(third.verdicts).not.toBe(first.verdicts)
    expect(third.verdicts[0]).toBe(first.verdicts[0])
    expect(first.passport).toBe(second.passport)
    expect(third.passport).toEqual(passport(25))
    expect(first.linked).toBe(third.linked)
    expect(first.linked).toEqual([])
    for (const shared of [first.verdicts, first.passport, first.linked]) expect(Object.isFrozen(shared)).toBe(true)
    // Each voter's own evidence still comes back with the shared list.
    expect(auditVoterLine(result, 1).verdicts).toEqual([JSON.parse(stringifyJson(none(2)))])
    expect(auditVoterLine(result, 2).verdicts).toEqual([JSON.parse(stringifyJson(none(3))), { ...phone, evidence: { expiry: '1800000000' } }])
  })

  test('a table shares a list of verdicts only with a list of the same verdicts in the same order', () => {
    const table = createVerdictTable()
    const a = { source: 'human-id', credential: 'gov-id', valid: false, reason: 'none' } as const
    const b = { source: 'passport', credential: 'passport', valid: true, reason: 'valid', expiresAt: 1 } as const
    const list = table.list([a, b])
    expect(table.list([{ ...a }, { ...b }])).toBe(list)
    expect(table.list([b, a])).not.toBe(list)
    expect(table.list([a])).not.toBe(list)
    expect(table.list([a, { ...b, expiresAt: 2 }])).not.toBe(list)
    expect(list).toEqual([a, b])
    expect(table.passport({ score: 1.5, passing: false, threshold: 20, origin: 'listing' })).toBe(table.passport({ score: 1.5, passing: false, threshold: 20, origin: 'listing' }))
    expect(table.passport({ score: 1.5, passing: false, threshold: 20, origin: 'history' })).not.toBe(table.passport({ score: 1.5, passing: false, threshold: 20, origin: 'listing' }))
  })

  test('shared verdicts and Passport lines of one set of fields share one V8 shape, whatever shapes they were copied from', () => {
    // V8's own check of two objects' hidden classes (maps); a frozen copy with a map of its own cost
    // about 280 bytes a distinct verdict.
    setFlagsFromString('--allow-natives-syntax')
    const sameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean
    const table = createVerdictTable()
    // Verdicts as the sources make them, of several shapes, each with its evidence taken off.
    const made = [
      (n: number) => ({ source: 'passport', via: 'passport-listing', credential: 'passport', valid: false, reason: 'below-threshold', expiresAt: 1_750_000_000 + n, evidence: { n } }),
      (n: number) => ({ source: 'human-id', via: 'chain', credential: 'gov-id', valid: true, reason: 'valid', expiresAt: 1_760_000_000 + n, evidence: { n } }),
      (n: number) => ({ source: 'human-id', credential: 'phone', valid: false, reason: 'none', evidence: { n } }),
      (n: number) => ({ credential: 'biometrics', source: 'human-id', valid: false, reason: 'expired', expiresAt: n, evidence: { n } }),
      (n: number) => ({ source: 'passport', via: 'passport-history', credential: 'passport', valid: true, reason: 'valid', expiresAt: n, evidence: { n }, extra: true }),
    ] as ((n: number) => AuditJudgment['verdicts'][number])[]
    const first: AuditSourceVerdict[] = []
    const later: AuditSourceVerdict[] = []
    for (let n = 0; n < 2_000; n++) {
      const { evidence: _evidence, ...verdict } = made[n % 2]!(n)
      const interned = table.intern(verdict)
      if (n < 2) first.push(interned)
      else later.push(interned)
      const { evidence: _other, ...other } = made[2 + (n % 3)]!(n)
      table.intern(other)
    }
    expect(later.filter((verdict, index) => !sameShape(verdict, first[index % 2]!))).toEqual([])
    const passports = Array.from({ length: 500 }, (_, n) => table.passport({ score: n + 0.5, passing: n >= 20, threshold: 20, origin: 'listing' }))
    table.passport({ score: null, passing: false, threshold: 20, origin: 'absent' })
    expect(passports.filter((line) => !sameShape(line, passports[0]!))).toEqual([])
    expect(later.every((verdict) => Object.isFrozen(verdict))).toBe(true)
  })

  test('a table of verdicts shares what reads the same, and only that', () => {
    const table = createVerdictTable()
    const a = table.intern({ source: 'passport', credential: 'passport', valid: true, reason: 'valid', expiresAt: 1 })
    expect(table.intern({ source: 'passport', credential: 'passport', valid: true, reason: 'valid', expiresAt: 1 })).toBe(a)
    expect(table.intern({ source: 'passport', credential: 'passport', valid: true, reason: 'valid', expiresAt: 2 })).not.toBe(a)
    expect(Object.isFrozen(a)).toBe(true)
  })
})
