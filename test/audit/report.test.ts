import { parse as parseCsv } from 'csv-parse/sync'
import { describe, expect, test } from 'vitest'
import { auditHtmlChunks, renderAuditCsv, renderAuditHtml, renderAuditMarkdown, renderAuditSummaryTable } from '../../src/audit/report/render.js'
import { auditJsonChunks } from '../../src/audit/report/write.js'
import { summarizeAudit } from '../../src/audit/summary.js'
import type { AuditResult, AuditVoter } from '../../src/audit/types.js'
import { sampleAudit, sampleVoter } from './fixtures.js'

describe('summarizeAudit', () => {
  test('counts voters and voting power by the method that made them eligible', () => {
    const voters: AuditVoter[] = [
      sampleVoter(1, { eligible: true, method: 'gov-id', votingPower: 10 }),
      sampleVoter(2, { eligible: true, method: 'passport', votingPower: 5 }),
      sampleVoter(3, { eligible: false, method: null, votingPower: 85 }),
    ]
    const summary = summarizeAudit({ voters })
    expect(summary).toMatchObject({ voters: 3, votingPower: 100, eligibleVoters: 2, eligibleVotingPower: 15 })
    expect(summary.unverifiedShare).toBeCloseTo(100 / 3)
    expect(summary.unverifiedPowerShare).toBeCloseTo(85)
    expect(summary.byMethod.find((row) => row.method === 'gov-id')).toEqual({ method: 'gov-id', voters: 1, votingPower: 10 })
    expect(summary.byMethod.find((row) => row.method === 'unverified')).toEqual({ method: 'unverified', voters: 1, votingPower: 85 })
  })

  test('the outcome counting only verified power can differ from the outcome counting all', () => {
    const voters = [
      sampleVoter(1, { eligible: true, method: 'phone', choice: 1, votingPower: 10 }),
      sampleVoter(2, { eligible: false, method: null, choice: 2, votingPower: 50 }),
      sampleVoter(3, { eligible: true, method: 'gov-id', choice: 2, votingPower: 5 }),
    ]
    const { outcome } = summarizeAudit({ voters, choices: ['For', 'Against'], type: 'single-choice' })
    expect(outcome.choices).toEqual([
      { choice: 'For', all: 10, verified: 10 },
      { choice: 'Against', all: 55, verified: 5 },
    ])
    expect(outcome.leaderAll).toBe(1)
    expect(outcome.leaderVerified).toBe(0)
  })

  test('approval gives full power to each approved choice; weighted splits it', () => {
    const approval = summarizeAudit({ voters: [sampleVoter(1, { choice: [1, 2], votingPower: 4 })], choices: ['A', 'B', 'C'], type: 'approval' })
    expect(approval.outcome.choices.map((choice) => choice.all)).toEqual([4, 4, 0])
    const weighted = summarizeAudit({ voters: [sampleVoter(1, { choice: { 1: 1, 3: 3 }, votingPower: 8 })], choices: ['A', 'B', 'C'], type: 'weighted' })
    expect(weighted.outcome.choices.map((choice) => choice.all)).toEqual([2, 0, 6])
    expect(weighted.outcome.note).toMatch(/proportion/)
  })

  test('ranked choice runs an instant runoff', () => {
    // First preferences A 4, B 3, C 2: no majority; C drops and its votes go to B (5 of 9).
    const voters = [
      sampleVoter(1, { choice: [1, 2, 3], votingPower: 4 }),
      sampleVoter(2, { choice: [2, 1, 3], votingPower: 3 }),
      sampleVoter(3, { choice: [3, 2, 1], votingPower: 2 }),
    ]
    const { outcome } = summarizeAudit({ voters, choices: ['A', 'B', 'C'], type: 'ranked-choice' })
    expect(outcome.choices.map((choice) => choice.all)).toEqual([4, 5, 0])
    expect(outcome.leaderAll).toBe(1)
  })

  test('a tie has no leader', () => {
    const voters = [sampleVoter(1, { choice: 1, votingPower: 3 }), sampleVoter(2, { choice: 2, votingPower: 3 })]
    expect(summarizeAudit({ voters }).outcome.leaderAll).toBe(null)
  })

  test('bins Passport scores around the threshold and counts the never-scored apart', () => {
    const voters = [
      sampleVoter(1, { passport: { score: 0, passing: false, threshold: 20, origin: 'listing' } }),
      sampleVoter(2, { passport: { score: 19.99, passing: false, threshold: 20, origin: 'listing' } }),
      sampleVoter(3, { passport: { score: 20, passing: true, threshold: 20, origin: 'history' } }),
      sampleVoter(4, { passport: { score: 300, passing: true, threshold: 20, origin: 'live' } }),
      sampleVoter(5, { passport: { score: null, passing: false, threshold: 20, origin: 'absent' } }),
      sampleVoter(6, { passport: undefined }),
    ]
    const { passport } = summarizeAudit({ voters })
    expect(passport).toMatchObject({ threshold: 20, scored: 4, neverScored: 1, notAsked: 1 })
    const count = (from: number) => passport.bins.find((bin) => bin.from === from)?.count
    expect([count(0), count(15), count(20), count(50)]).toEqual([1, 1, 1, 1])
    expect(passport.bins.at(-1)).toEqual({ from: 50, to: null, count: 1 })
  })

  test('groups voters that share deduplicated stamps, directly or through a stamp owner who did not vote', () => {
    const owner = '0x00000000000000000000000000000000000000ff'
    const voters = [
      sampleVoter(1, { linked: [{ kind: 'dedup-stamp', provider: 'Google', otherAddress: owner }] }),
      sampleVoter(2, { linked: [{ kind: 'dedup-stamp', provider: 'Github', otherAddress: owner }] }),
      sampleVoter(3, { linked: [{ kind: 'dedup-stamp', provider: 'Discord', otherAddress: sampleVoter(4).address }] }),
      sampleVoter(4),
      sampleVoter(5),
      sampleVoter(6, { linked: [{ kind: 'dedup-stamp', provider: 'X' }] }),
    ]
    const { clusters } = summarizeAudit({ voters })
    expect(clusters.map((cluster) => cluster.addresses)).toEqual([
      [voters[0]!.address, voters[1]!.address],
      [voters[2]!.address, voters[3]!.address],
    ])
  })
})

describe('rendering', () => {
  const result: AuditResult = sampleAudit()

  test('every file says what was audited, the same way: the proposal, else how many votes on which network at which block', () => {
    const { proposal: _proposal, ...fromFile } = result.run
    const titles = (audit: AuditResult) => {
      const html = renderAuditHtml(audit)
      return {
        html: [/<title>([^<]*)<\/title>/.exec(html)![1], /<h1>([^<]*)<\/h1>/.exec(html)![1]],
        markdown: renderAuditMarkdown(audit).split('\n')[0],
        json: JSON.parse([...auditJsonChunks(audit)].join('')).title,
      }
    }
    expect(titles(result)).toEqual({ html: ['Voter audit: Fund the thing', 'Fund the thing'], markdown: '# Voter audit: Fund the thing', json: 'Fund the thing' })
    expect(titles({ ...result, run: { ...fromFile, network: '10' } })).toEqual({
      html: ['Voter audit: 5 votes on OP Mainnet at block 21,000,000', '5 votes on OP Mainnet at block 21,000,000'],
      markdown: '# Voter audit: 5 votes on OP Mainnet at block 21,000,000',
      json: '5 votes on OP Mainnet at block 21,000,000',
    })
    expect(titles({ ...result, voters: result.voters.slice(0, 1), run: { ...fromFile, network: '777' } }).json).toBe('1 vote on chain 777 at block 21,000,000')
  })

  test('the HTML report is self-contained: inline scripts only, and no URL it would load', () => {
    const html = renderAuditHtml(result)
    expect(html).not.toMatch(/<link|<img|<iframe|@import|url\(/i)
    // Two scripts, both inline: the voters' data (JSON) and the table's behaviour.
    expect([...html.matchAll(/<script[^>]*>/gi)].map((match) => match[0])).toEqual(['<script type="application/json" id="voter-data">', '<script>'])
    // Nothing is loaded: no src; the only URLs are links a voter follows to get counted (Human ID's app, Passport's).
    expect(html).not.toMatch(/\bsrc\s*=/i)
    const links = [...html.matchAll(/<a href="([^"]*)">/g)].map((match) => match[1])
    expect(links).toEqual(['https://id.human.tech/gov-id', 'https://id.human.tech/phone', 'https://app.passport.xyz'])
    expect([...html.matchAll(/https?:\/\/[^\s"'<]+/gi)].map((match) => match[0]).filter((url) => !links.includes(url))).toEqual([])
    for (const id of ['chart-methods', 'chart-scores', 'chart-outcome']) expect(html).toContain(`id="${id}"`)
    expect(html).toContain('threshold 20')
  })

  test('the HTML report embeds each voter once, as columns, and renders only the first page of rows', () => {
    const voters = Array.from({ length: 120 }, (_, index) => sampleVoter(index + 1, { votingPower: index + 1 }))
    const big = { ...result, voters, summary: summarizeAudit({ voters, choices: ['For', 'Against'], type: 'single-choice' }) }
    const html = renderAuditHtml(big)
    const data = JSON.parse(/<script type="application\/json" id="voter-data">(.*?)<\/script>/s.exec(html)![1]!) as { address: string[]; power: number[] }
    expect(data.address).toEqual(voters.map((voter) => voter.address))
    expect(data.power).toEqual(voters.map((voter) => voter.votingPower))
    const rows = /<tbody id="voter-rows">(.*?)<\/tbody>/s.exec(html)![1]!.match(/<tr>/g)!
    expect(rows).toHaveLength(50)
    // Written in chunks, the voter data a column at a time (the page above is one chunk, each column another).
    const chunks = [...auditHtmlChunks(big)]
    expect(chunks).toContain(`,"address":${JSON.stringify(voters.map((voter) => voter.address))}`)
  })

  test('the HTML report escapes what voters and proposals wrote', () => {
    const hostile = sampleAudit({ title: '<script>alert(1)</script>', choices: ['<b>For</b>', 'Against'] })
    const html = renderAuditHtml(hostile)
    expect(html).not.toContain('<script>alert')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toContain('<b>For</b>')
    // In the embedded data too: no tag can close the data's script.
    const closing = sampleAudit({ choices: ['</script><script>alert(1)</script>', 'Against'] })
    expect(renderAuditHtml(closing)).not.toContain('</script><script>alert')
  })

  test('the headline says how many were verified and whether the outcome changes', () => {
    const table = renderAuditSummaryTable(result)
    expect(table.split('\n')[0]).toBe('3 of 5 voters (60.0%) were verified unique humans at block 21000000, holding 20.0% of the voting power.')
    expect(table).toContain('Counting only verified humans changes the outcome: "Against" leads with all voting power, "For" with verified voting power only.')
    expect(table).toContain('2 voters fall into 1 group of wallets that share stamps')
  })

  test('audit.csv has one row per voter with each credential’s verdict', () => {
    const rows = parseCsv(renderAuditCsv(result), { columns: true }) as Record<string, string>[]
    expect(rows).toHaveLength(result.voters.length)
    expect(rows[0]).toMatchObject({ address: result.voters[0]!.address, eligible: 'true', method: 'gov-id', gov_id: 'valid', phone: 'none' })
    expect(rows[3]).toMatchObject({ eligible: 'false', method: '', passport_score: '3.5', passport_origin: 'listing' })
  })

  test('audit.md carries the summary tables and the digest', () => {
    const markdown = renderAuditMarkdown(result)
    expect(markdown).toContain('| Government ID | 1 | 20.0% |')
    expect(markdown).toContain(result.digest)
  })

  test('audit.md escapes every text from outside: no raw HTML, no link, no heading from a title, a choice or a space', () => {
    const hostile = sampleAudit({ title: 'Fund <img src=x onerror=alert(1)>\n# Injected heading', choices: ['[x](javascript:alert(1))', 'Against\n| forged | row |'] })
    hostile.run.proposal!.space = 'dao.eth)<script>'
    const markdown = renderAuditMarkdown(hostile)
    expect(markdown.split('\n')[0]).toBe('# Voter audit: Fund &lt;img src=x onerror=alert\\(1\\)&gt; \\# Injected heading')
    expect(markdown).not.toMatch(/<img|<script|\]\(javascript:|^# Injected/m)
    expect(markdown.split('\n').filter((line) => line.startsWith('#'))).toHaveLength(7)
    expect(markdown).toContain('| \\[x\\]\\(javascript:alert\\(1\\)\\) |')
    expect(markdown).toContain('| Against \\| forged \\| row \\| |')
  })

  test('the terminal summary carries no escape sequence from a choice label', () => {
    const hostile = sampleAudit({ choices: ['For\u001b]8;;https://evil.example\u0007', 'Against\u001b[2J\u001b]0;title\u0007'] })
    const table = renderAuditSummaryTable(hostile)
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(table).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    expect(table).toContain('"Against" leads with all voting power, "For" with verified voting power only.')
  })
})
