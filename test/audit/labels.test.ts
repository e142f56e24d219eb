/**
 * The report's explanations, checked for every voter of the demo world (its 400 wallets all vote):
 * each "why" label names every reason that applies, read from the voter's verdicts in audit.json
 * (an expired Passport score is "expired", never "below 20"; an expired, revoked or wrong-issuer
 * Human ID credential shows beside the Passport reason); the CSV carries the choice labels and the
 * same labels; the histogram says why its bars at 20 or more hold more voters than the method
 * chart's Passport row; the report says where a voter checks and how to get counted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { runAuditDemo } from '../../src/cli/audit-demo.js'
import type { AuditResult, AuditVoter } from '../../src/audit/types.js'

const worldNow = '2026-11-28T00:00:00.000Z'
const names: Record<string, string> = { 'gov-id': 'Government ID', phone: 'Phone', biometrics: 'Biometrics', 'clean-hands': 'Clean hands', passport: 'Passport score' }
const statusWords: Record<string, string> = { expired: 'expired', revoked: 'revoked', 'wrong-issuer': 'wrong issuer', 'wrong-action': 'another action', 'wrong-recipient': 'another address' }

let dir: string
let audit: AuditResult
let html: string
let labels: Map<string, string>
let csv: Record<string, string>[]

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'personhood-labels-'))
  await runAuditDemo({ out: dir, voters: 400, wallets: 400, worldNow, now: () => Date.parse(worldNow) + 3_600_000, log: () => {} })
  audit = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8')) as AuditResult
  html = readFileSync(join(dir, 'audit.html'), 'utf8')
  // The voter table's data as the page embeds it: each voter's label by address.
  const data = JSON.parse(/<script type="application\/json" id="voter-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as { strings: string[]; address: string[]; label: number[] }
  labels = new Map(data.address.map((address, index) => [address.toLowerCase(), data.strings[data.label[index]!]!]))
  csv = parse(readFileSync(join(dir, 'audit.csv'), 'utf8'), { columns: true }) as Record<string, string>[]
}, 300_000)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Every part a voter's label must hold, from its verdicts alone. */
function expectedParts(voter: AuditVoter): { must: string[]; mustNot: RegExp[] } {
  if (voter.eligible) return { must: [names[voter.method!]!], mustNot: [] }
  const must: string[] = []
  const mustNot: RegExp[] = []
  const human = voter.verdicts.filter((verdict) => verdict.credential !== 'passport')
  for (const verdict of human) if (statusWords[verdict.reason]) must.push(`${names[verdict.credential]}`, statusWords[verdict.reason]!)
  if (human.length && human.every((verdict) => verdict.reason === 'none')) must.push('No Human ID')
  const passport = voter.verdicts.find((verdict) => verdict.credential === 'passport')
  if (passport?.reason === 'expired') {
    must.push('Passport expired')
    mustNot.push(/below/)
  }
  if (passport?.reason === 'below-threshold') {
    expect(voter.passport!.score!, voter.address).toBeLessThan(voter.passport!.threshold)
    must.push(`Passport below ${voter.passport!.threshold}`)
  }
  if (passport?.reason === 'never-scored') must.push('No Passport')
  return { must, mustNot }
}

describe('the report of the demo world, every voter', () => {
  test('every wallet of the world voted, with every kind of reason among them', () => {
    expect(audit.voters).toHaveLength(400)
    const reasons = new Set(audit.voters.flatMap((voter) => voter.verdicts.map((verdict) => `${verdict.credential === 'passport' ? 'passport' : 'human'}:${verdict.reason}`)))
    for (const reason of ['human:expired', 'human:revoked', 'human:wrong-issuer', 'passport:expired', 'passport:below-threshold', 'passport:never-scored']) expect(reasons).toContain(reason)
  })

  test("each voter's label names every reason that applies, and nothing that does not", () => {
    const wrong: string[] = []
    for (const voter of audit.voters) {
      const label = labels.get(voter.address.toLowerCase())!
      const { must, mustNot } = expectedParts(voter)
      for (const part of must) if (!label.includes(part)) wrong.push(`${voter.address}: "${label}" lacks "${part}"`)
      for (const pattern of mustNot) if (pattern.test(label)) wrong.push(`${voter.address}: "${label}" says ${pattern}`)
      if (voter.eligible) expect(label).toBe(names[voter.method!])
    }
    expect(wrong).toEqual([])
  })

  test('audit.csv carries the choice labels and the same why as the page', () => {
    const choices = audit.run.choices!
    expect(csv).toHaveLength(audit.voters.length)
    for (const row of csv) {
      expect(row.choice_label).toBe(choices[Number(row.choice) - 1])
      expect(row.why).toBe(labels.get(row.address!.toLowerCase()))
    }
  })

  test('the histogram says why more voters are drawn at 20 or more than are verified by Passport', () => {
    const { summary } = audit
    const notPassing = audit.voters.filter((voter) => voter.passport && voter.passport.score !== null && voter.passport.score >= voter.passport.threshold && !voter.passport.passing)
    expect(notPassing.length).toBeGreaterThan(0)
    expect(summary.passport.notPassingAtThreshold).toBe(notPassing.length)
    const drawn = summary.passport.bins.filter((bin) => bin.from >= summary.passport.threshold).reduce((total, bin) => total + bin.count, 0)
    const byPassport = summary.byMethod.find((row) => row.method === 'passport')!.voters
    expect(drawn).toBe(byPassport + notPassing.length)
    const caption = /<figcaption id="chart-scores-desc">([^<]*)<\/figcaption>/.exec(html)![1]!
    expect(caption).toContain(`${notPassing.length} ${notPassing.length === 1 ? 'voter' : 'voters'} scored at or above the threshold ${notPassing.length === 1 ? 'does' : 'do'} not count: the score had expired at the snapshot (or was scored with an error). So ${drawn} voters are drawn at 20 or more and ${byPassport} are verified by Passport score.`)
    expect(readFileSync(join(dir, 'audit.md'), 'utf8')).toContain(`So ${drawn} voters are drawn at 20 or more`)
  })

  test('the report says where a voter checks an address and how to get counted', () => {
    expect(html).toContain(`npx personhood verify &lt;address&gt; --snapshot ${audit.run.snapshot} --network 10`)
    expect(html).toContain('/voters')
    for (const link of ['https://id.human.tech/gov-id', 'https://id.human.tech/phone', 'https://id.human.tech/biometrics', 'https://id.human.tech/clean-hands', 'https://app.passport.xyz']) expect(html).toContain(`<a href="${link}">`)
  })
})
