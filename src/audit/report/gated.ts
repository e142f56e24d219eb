/**
 * The `human-gated` section of the report: the recorded power under each mode, as a table for the
 * HTML and Markdown reports and as lines for the terminal.
 */
import { escapeMarkdown, sanitizeTerminal } from '../../utils/sanitize.js'
import type { GatedOutcome, GatedTally } from '../types.js'

const label = (counting: GatedTally['counting'], cap: number | null) =>
  counting === 'recorded' ? 'Recorded' : counting === 'cap' ? `Cap ${cap}` : counting === 'gate' ? 'Gate' : 'Quadratic'

function power(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { maximumFractionDigits: 4 })
}

/** The `human-gated` section of the report: its title, what it shows, and the table (one row per way of counting). */
export function gatedOutcomeTable(gated: GatedOutcome): { title: string; intro: string; head: string[]; rows: string[][] } {
  const choices = gated.tallies[0]?.choices.map((entry) => entry.choice) ?? []
  return {
    title: 'human-gated: the recorded power under each mode',
    intro:
      `The recorded voting power is taken as the inner strategies' (${gated.inner.map((inner) => inner.name + (inner.network ? ` on ${inner.network}` : '')).join(', ')}; not called). ` +
      'Each voter is judged by the human test; a human keeps the power (gate), its square root (quadratic) or at most the cap, times the weight ' +
      '(1 for Human ID, passportScore for a passing Passport only); anyone else counts 0.',
    head: ['Counting', ...choices, 'Total', 'Leader'],
    rows: gated.tallies.map((tally) => [
      `${label(tally.counting, gated.cap)}${tally.counting === gated.mode ? ' (configured)' : ''}`,
      ...tally.choices.map((entry) => power(entry.power)),
      power(tally.totalPower),
      tally.leader === null ? 'tie' : (choices[tally.leader] ?? ''),
    ]),
  }
}

/**
 * The `human-gated` section of `audit.md`. Choice labels come from the proposal and inner names
 * from the configuration: every cell is escaped (no raw HTML, link, heading or extra cell).
 */
export function renderGatedOutcomeMarkdown(gated: GatedOutcome): string[] {
  const { title, intro, head, rows } = gatedOutcomeTable(gated)
  const cells = (row: string[]) => `| ${row.map(escapeMarkdown).join(' | ')} |`
  return [`## ${escapeMarkdown(title)}`, '', escapeMarkdown(intro), '', cells(head), `| ${head.map(() => '---').join(' | ')} |`, ...rows.map(cells), '']
}

/** The same, as plain-text lines for the terminal (no escape sequence of a choice label reaches it). */
export function renderGatedOutcomeLines(gated: GatedOutcome): string[] {
  const choices = gated.tallies[0]?.choices.map((entry) => sanitizeTerminal(entry.choice, { multiline: false })) ?? []
  return [
    'human-gated (recorded power under each mode):',
    ...gated.tallies.map(
      (tally) =>
        `  ${label(tally.counting, gated.cap).padEnd(10)} ${tally.choices.map((entry, index) => `${choices[index]} ${power(entry.power)}`).join(', ')}; leader ${tally.leader === null ? 'tie' : choices[tally.leader]}${tally.counting === gated.mode ? ' (configured)' : ''}`,
    ),
  ]
}
