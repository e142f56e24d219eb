/**
 * The audit report's charts as HTML and CSS bars: no script, no font or image from outside,
 * readable offline, in print and on a phone (the text keeps its size; only the bars scale). Each
 * chart is a figure with `role="img"`, an accessible name and a description, and a caption whose
 * numbers add up to the voter count.
 */
import type { AuditSummary } from '../types.js'

/** The report's colours; each legend swatch uses the same variable as its bars. */
export const chartPalette = {
  voters: '#3b5bdb',
  power: '#0b7285',
  all: '#868e96',
  verified: '#2b8a3e',
  below: '#adb5bd',
  passing: '#2b8a3e',
  missing: '#e9ecef',
} as const

/** Escapes text for HTML and SVG. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

const methodLabels: Record<string, string> = {
  'gov-id': 'Government ID',
  phone: 'Phone',
  biometrics: 'Biometrics',
  'clean-hands': 'Clean hands',
  passport: 'Passport score',
  unverified: 'Not verified',
}

/** A human label for a verification method. */
export function methodLabel(method: string): string {
  return methodLabels[method] ?? method
}

function formatNumber(value: number): string {
  if (value !== 0 && Math.abs(value) < 0.01) return value.toExponential(1)
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 })
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : (part / whole) * 100
}

function figure(id: string, title: string, description: string, legend: [string, string][], body: string, caption: string): string {
  return [
    `<figure class="chart" id="${id}" role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc">`,
    `<div class="chart-title" id="${id}-title">${escapeXml(title)}</div>`,
    legend.length
      ? `<div class="legend" aria-hidden="true">${legend.map(([colour, text]) => `<span><i style="background:${colour}"></i>${escapeXml(text)}</span>`).join('')}</div>`
      : '',
    body,
    `<figcaption id="${id}-desc">${escapeXml(caption)} ${escapeXml(description)}</figcaption>`,
    '</figure>',
  ].join('\n')
}

function bar(colour: string, share: number, label: string, tip: string): string {
  return `<div class="bar-line"><span class="bar" style="width:${Math.max(share, 0).toFixed(2)}%;background:${colour}" title="${escapeXml(tip)}"></span><span class="bar-value">${escapeXml(label)}</span></div>`
}

/** The rows of the method chart: each method that verified someone, then the unverified. */
function methodRows(summary: AuditSummary) {
  return summary.byMethod.filter((row) => row.voters > 0 || row.method === 'unverified')
}

/**
 * Voters and voting power by verification method: two horizontal bars per method, as a share of
 * all voters and of all voting power. The rows add up to the voter count.
 */
export function methodChart(summary: AuditSummary): string {
  const rows = methodRows(summary)
  const body = [
    '<div class="hbars">',
    ...rows.map((row) => {
      const voters = percent(row.voters, summary.voters)
      const power = percent(row.votingPower, summary.votingPower)
      return [
        `<div class="hbar-row"><div class="hbar-label">${escapeXml(methodLabel(row.method))}</div><div class="hbar-bars">`,
        bar(chartPalette.voters, voters, `${row.voters.toLocaleString('en-US')} voters (${voters.toFixed(1)}%)`, `${row.voters} voters`),
        bar(chartPalette.power, power, `${power.toFixed(1)}% of power`, `${formatNumber(row.votingPower)} voting power`),
        '</div></div>',
      ].join('')
    }),
    '<div class="hbar-axis"><span>0%</span><span>50%</span><span>100%</span></div>',
    '</div>',
  ].join('\n')
  const description = rows.map((row) => `${methodLabel(row.method)}: ${row.voters} voters, ${formatNumber(row.votingPower)} voting power`).join('; ') + '.'
  const caption = `Share of all ${summary.voters.toLocaleString('en-US')} voters and of all ${formatNumber(summary.votingPower)} voting power, by the first method of the policy that verified each voter (each voter is counted once).`
  return figure('chart-methods', 'Voters and voting power by verification method', description, [[chartPalette.voters, 'voters'], [chartPalette.power, 'voting power']], body, caption)
}

/**
 * Why the bars at or above the threshold can hold more voters than the method chart counts as
 * verified by Passport: a score that had expired at the snapshot (or was scored with an error) is
 * drawn at its number but does not pass.
 */
export function passportGap(summary: AuditSummary): string {
  const { notPassingAtThreshold: gap, threshold } = summary.passport
  if (!gap) return ''
  const passing = summary.byMethod.find((row) => row.method === 'passport')?.voters ?? 0
  const above = summary.passport.bins.filter((bin) => bin.from >= threshold).reduce((total, bin) => total + bin.count, 0)
  return ` ${gap.toLocaleString('en-US')} ${gap === 1 ? 'voter' : 'voters'} scored at or above the threshold ${gap === 1 ? 'does' : 'do'} not count: the score had expired at the snapshot (or was scored with an error). So ${above.toLocaleString('en-US')} voters are drawn at ${threshold} or more and ${passing.toLocaleString('en-US')} are verified by Passport score.`
}

/**
 * The Passport score distribution of the voters Passport was asked about, with the threshold, and
 * beside it the voters never scored and those not asked: the bars add up to the voter count.
 */
export function scoreChart(summary: AuditSummary): string {
  const { bins, threshold, scored, neverScored, notAsked } = summary.passport
  const columns = [
    ...bins.map((bin) => ({
      label: bin.to === null ? `${bin.from}+` : `${bin.from}`,
      name: bin.to === null ? `score ${bin.from} or more` : `score ${bin.from} to under ${bin.to}`,
      count: bin.count,
      colour: bin.to !== null && bin.to <= threshold ? chartPalette.below : chartPalette.passing,
      kind: 'bin',
    })),
    { label: 'never', name: 'never scored', count: neverScored, colour: chartPalette.missing, kind: 'other' },
    { label: 'not asked', name: 'not asked (verified otherwise)', count: notAsked, colour: chartPalette.missing, kind: 'other' },
  ]
  const highest = Math.max(1, ...columns.map((column) => column.count))
  const thresholdIndex = bins.findIndex((bin) => bin.from >= threshold)
  const body = [
    '<div class="vbars-frame">',
    '<div class="vbars-yaxis" aria-hidden="true"><span>voters</span></div>',
    '<div class="vbars">',
    ...columns.map((column, index) => {
      const h = (column.count / highest) * 100
      const marker = index === thresholdIndex ? `<span class="threshold" title="threshold ${threshold}">threshold ${threshold}</span>` : ''
      return `<div class="vbar-col${column.kind === 'other' ? ' other' : ''}${index === thresholdIndex ? ' at-threshold' : ''}">${marker}<div class="vbar-area"><span class="vbar-count">${column.count.toLocaleString('en-US')}</span><span class="vbar" style="height:${h.toFixed(2)}%;background:${column.colour}" title="${escapeXml(`${column.name}: ${column.count}`)}"></span></div><div class="vbar-label">${escapeXml(column.label)}</div></div>`
    }),
    '</div>',
    '</div>',
    '<div class="vbars-xaxis">Passport score at the snapshot (bins of ' + `${bins.length > 1 ? bins[0]!.to! - bins[0]!.from : ''}` + ' points)</div>',
  ].join('\n')
  const description = `${bins.map((bin) => `${bin.to === null ? `${bin.from}+` : `${bin.from}-${bin.to}`}: ${bin.count}`).join(', ')}; never scored: ${neverScored}; not asked: ${notAsked}; threshold ${threshold}.`
  const caption = `${scored.toLocaleString('en-US')} scored + ${neverScored.toLocaleString('en-US')} never scored + ${notAsked.toLocaleString('en-US')} not asked = ${(scored + neverScored + notAsked).toLocaleString('en-US')} voters. Passport is asked only about voters no Human ID credential verified.${passportGap(summary)}`
  return figure(
    'chart-scores',
    'Passport score distribution, with the threshold',
    description,
    [[chartPalette.below, `below ${threshold}`], [chartPalette.passing, `${threshold} or more`], [chartPalette.missing, 'no score']],
    body,
    caption,
  )
}

/** The outcome per choice: all voting power beside only verified voting power, each as a share of its total. */
export function outcomeChart(summary: AuditSummary): string {
  const { choices } = summary.outcome
  const totalAll = choices.reduce((total, choice) => total + choice.all, 0)
  const totalVerified = choices.reduce((total, choice) => total + choice.verified, 0)
  const body = [
    '<div class="hbars">',
    ...choices.map((choice) => {
      const all = percent(choice.all, totalAll)
      const verified = percent(choice.verified, totalVerified)
      return [
        `<div class="hbar-row"><div class="hbar-label">${escapeXml(choice.choice)}</div><div class="hbar-bars">`,
        bar(chartPalette.all, all, `${all.toFixed(1)}%`, `${formatNumber(choice.all)} of all voting power`),
        bar(chartPalette.verified, verified, `${verified.toFixed(1)}%`, `${formatNumber(choice.verified)} of verified voting power`),
        '</div></div>',
      ].join('')
    }),
    '<div class="hbar-axis"><span>0%</span><span>50%</span><span>100%</span></div>',
    '</div>',
  ].join('\n')
  const description = choices.map((choice) => `${choice.choice}: ${percent(choice.all, totalAll).toFixed(1)}% of all power, ${percent(choice.verified, totalVerified).toFixed(1)}% of verified power`).join('; ') + '.'
  const caption = `Each bar is a share of its own total: all voting power (${formatNumber(totalAll)}) or the voting power of verified voters only (${formatNumber(totalVerified)}).`
  return figure('chart-outcome', 'Outcome per choice: all voting power against verified voting power', description, [[chartPalette.all, 'all voting power'], [chartPalette.verified, 'verified humans only']], body, caption)
}
