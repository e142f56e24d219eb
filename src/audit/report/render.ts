/**
 * The audit's outputs: a self-contained HTML report (in html.ts), the same summary in
 * Markdown, one CSV row per voter, and a summary table for the terminal.
 */
import { stringify as stringifyCsv } from 'csv-stringify/sync'
import { methodLabel, passportGap } from './charts.js'
import { auditVoterWords, formatChoice, voterHelp } from './voter.js'
import { renderGatedOutcomeLines, renderGatedOutcomeMarkdown } from './gated.js'
export { auditHtmlChunks, renderAuditHtml } from './html.js'
import { escapeMarkdown, sanitizeTerminal } from '../../utils/sanitize.js'
import type { Colours } from '../../utils/colour.js'
import { auditTitle, describeNetwork } from '../title.js'
import type { AuditResult, AuditSummary, AuditVoter } from '../types.js'

function formatPower(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 })
}

function formatPercent(value: number): string {
  return `${value.toFixed(1)}%`
}

function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')
}

/** The few sentences a reader needs first: how many voters were verified humans, and whether it mattered. */
export function headline(result: AuditResult, shown: (text: string) => string = (text) => text): string[] {
  const { summary } = result
  const choices = summary.outcome.choices
  const lines = [
    `${summary.eligibleVoters} of ${summary.voters} voters (${formatPercent(100 - summary.unverifiedShare)}) were verified unique humans at block ${result.run.snapshot}, holding ${formatPercent(100 - summary.unverifiedPowerShare)} of the voting power.`,
  ]
  const { leaderAll, leaderVerified } = summary.outcome
  const nameOf = (index: number | null) => (index === null ? 'no single choice (a tie or no votes)' : `"${shown(choices[index]!.choice)}"`)
  lines.push(
    leaderAll === leaderVerified
      ? `Counting only verified humans does not change the outcome: ${nameOf(leaderAll)} leads either way.`
      : `Counting only verified humans changes the outcome: ${nameOf(leaderAll)} leads with all voting power, ${nameOf(leaderVerified)} with verified voting power only.`,
  )
  if (summary.clusters.length) {
    const linked = summary.clusters.reduce((total, cluster) => total + cluster.voters, 0)
    lines.push(`${linked} voters fall into ${summary.clusters.length} ${summary.clusters.length === 1 ? "group" : "groups"} of wallets that share stamps (likely one person each).`)
  }
  return lines
}

function methodRows(summary: AuditSummary): string[][] {
  return summary.byMethod
    .filter((row) => row.voters > 0 || row.method === 'unverified')
    .map((row) => [
      methodLabel(row.method),
      String(row.voters),
      formatPercent(summary.voters ? (row.voters / summary.voters) * 100 : 0),
      formatPower(row.votingPower),
      formatPercent(summary.votingPower ? (row.votingPower / summary.votingPower) * 100 : 0),
    ])
}

function outcomeRows(summary: AuditSummary, shown: (text: string) => string = (text) => text): string[][] {
  const totalAll = summary.outcome.choices.reduce((total, choice) => total + choice.all, 0)
  const totalVerified = summary.outcome.choices.reduce((total, choice) => total + choice.verified, 0)
  return summary.outcome.choices.map((choice) => [
    shown(choice.choice),
    formatPower(choice.all),
    formatPercent(totalAll ? (choice.all / totalAll) * 100 : 0),
    formatPower(choice.verified),
    formatPercent(totalVerified ? (choice.verified / totalVerified) * 100 : 0),
  ])
}

function runRows(result: AuditResult, shown: (text: string) => string = (text) => text): [string, string][] {
  const { run } = result
  return [
    ...(run.proposal ? ([['Proposal', `${shown(run.proposal.title)} (${shown(run.proposal.id)}, space ${shown(run.proposal.space)})`]] as [string, string][]) : []),
    ['Votes from', shown(run.votesSource)],
    ['Network', shown(describeNetwork(run.network))],
    ['Snapshot block', `${run.snapshot} (${isoTime(run.blockTimestamp)})`],
    ['Strategy', `${shown(run.strategy)} ${shown(JSON.stringify(run.options))}`],
    ['personhood', run.packageVersion],
    ['Digest (SHA-256)', result.digest],
  ]
}

/** The audit's summary and tallies in Markdown (the charts' data as tables). */
export function renderAuditMarkdown(result: AuditResult): string {
  const { summary } = result
  const table = (head: string[], rows: string[][]) =>
    [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n')
  // Every text from outside (title, choices, space, file name, options) is escaped: no raw HTML,
  // no link, no new heading or table cell can come from a proposal.
  const title = `Voter audit: ${escapeMarkdown(auditTitle(result))}`
  const help = voterHelp(result)
  return [
    `# ${title}`,
    '',
    ...headline(result, escapeMarkdown).map((line) => `> ${line}`),
    '',
    '## Who was verified, and by what',
    '',
    table(['Method', 'Voters', 'Share', 'Voting power', 'Share'], methodRows(summary)),
    '',
    '## Passport scores',
    '',
    `Threshold ${summary.passport.threshold}; ${summary.passport.scored} scored, ${summary.passport.neverScored} never scored, ${summary.passport.notAsked} not asked (verified otherwise).${passportGap(summary)}`,
    '',
    table(
      ['Score', 'Voters'],
      summary.passport.bins.map((bin) => [bin.to === null ? `${bin.from} or more` : `${bin.from} to ${bin.to}`, String(bin.count)]),
    ),
    '',
    '## Outcome: all voting power against verified humans only',
    '',
    table(['Choice', 'All voting power', 'Share', 'Verified voting power', 'Share'], outcomeRows(summary, escapeMarkdown)),
    ...(summary.outcome.note ? ['', escapeMarkdown(summary.outcome.note)] : []),
    '',
    ...(result.gated ? renderGatedOutcomeMarkdown(result.gated) : []),
    '## Linked wallets',
    '',
    summary.clusters.length
      ? table(['Voters', 'Voting power', 'Addresses'], summary.clusters.map((cluster) => [String(cluster.voters), formatPower(cluster.votingPower), cluster.addresses.join('<br>')]))
      : 'No two voters share a deduplicated stamp.',
    '',
    '## For voters: check an address, get counted',
    '',
    help.check,
    '',
    '```',
    help.command,
    '```',
    '',
    ...help.steps.map((step) => `- ${step.text} <${step.url}>`),
    '',
    help.timing,
    '',
    '## How to reproduce',
    '',
    table(['', ''], runRows(result, escapeMarkdown)),
    '',
    'Every voter, with the evidence for each verdict, is in `audit.json`; one row per voter in `audit.csv`.',
    '',
  ].join('\n')
}

/** Column names of `audit.csv`. */
export const auditCsvColumns = [
  'address',
  'choice',
  'choice_label',
  'voting_power',
  'eligible',
  'method',
  'score',
  'passport_score',
  'passport_passing',
  'passport_origin',
  'gov_id',
  'phone',
  'biometrics',
  'clean_hands',
  'linked_addresses',
  'why',
] as const

function csvRow(voter: AuditVoter, run: AuditResult['run']): string[] {
  const reasonOf = (credential: string) => voter.verdicts.find((verdict) => verdict.credential === credential)?.reason ?? ''
  return [
    voter.address,
    typeof voter.choice === 'number' ? String(voter.choice) : JSON.stringify(voter.choice),
    formatChoice(voter.choice, run.proposal?.choices ?? run.choices),
    String(voter.votingPower),
    voter.eligible ? 'true' : 'false',
    voter.method ?? '',
    String(voter.score),
    voter.passport?.score === null || voter.passport === undefined ? '' : String(voter.passport.score),
    voter.passport ? String(voter.passport.passing) : '',
    voter.passport?.origin ?? '',
    reasonOf('gov-id'),
    reasonOf('phone'),
    reasonOf('biometrics'),
    reasonOf('clean-hands'),
    voter.linked.flatMap((signal) => (signal.otherAddress ? [signal.otherAddress] : [])).join(' '),
    auditVoterWords(voter, run).label,
  ]
}

/**
 * `audit.csv` in chunks of 250 rows (the header first; a chunk stays under the 128 KB above which V8
 * keeps a string with the long-lived ones until a full collection): one row per voter; `choice` as the hub
 * records it (a 1-based index, or JSON) and `choice_label` by the proposal's labels; a credential
 * column holds `valid` or the reason it is not; `why` is the report's label (the method, or every
 * reason that applies). A cell starting with = + - @ (a formula in a spreadsheet)
 * is escaped, whatever it holds.
 */
export function* auditCsvChunks(result: AuditResult): Generator<string> {
  yield stringifyCsv([], { header: true, columns: [...auditCsvColumns] })
  for (let start = 0; start < result.voters.length; start += 250) {
    yield stringifyCsv(result.voters.slice(start, start + 250).map((voter) => csvRow(voter, result.run)), { escape_formulas: true })
  }
}

/** One CSV row per voter; a credential column holds `valid` or the reason it is not. */
export function renderAuditCsv(result: AuditResult): string {
  return [...auditCsvChunks(result)].join('')
}

/** The summary as plain-text tables for a terminal. */
export function renderAuditSummaryTable(result: AuditResult, options: { colours?: Pick<Colours, 'good' | 'bad' | 'warn'> | undefined } = {}): string {
  const { summary } = result
  const table = (head: string[], rows: string[][]) => {
    const widths = head.map((cell, index) => Math.max(cell.length, ...rows.map((row) => row[index]!.length)))
    const line = (row: string[]) => row.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ')
    return [line(head), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n')
  }
  // Choice labels come from the proposal: no escape sequence of theirs reaches the terminal.
  const shown = (text: string) => sanitizeTerminal(text, { multiline: false })
  // Colour after sanitizing (the escapes are ours): the outcome line says whether it flips.
  const colours = options.colours
  const lines = headline(result, shown).map((line) =>
    !colours ? line : line.startsWith('Counting only verified humans changes') ? colours.warn(line) : line.startsWith('Counting only verified humans does not') ? colours.good(line) : line,
  )
  return [
    ...lines,
    '',
    table(['Verified by', 'Voters', 'Share', 'Voting power', 'Share'], methodRows(summary)),
    '',
    table(['Choice', 'All power', 'Share', 'Verified power', 'Share'], outcomeRows(summary, shown)),
    '',
    ...(result.gated ? [...renderGatedOutcomeLines(result.gated), ''] : []),
  ].join('\n')
}
