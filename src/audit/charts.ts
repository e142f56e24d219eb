/**
 * The audit report's charts as inline SVG: no script, no font or image from outside, readable
 * offline and in print. Each chart carries a title and a text description for screen readers.
 */
import type { AuditSummary } from './types.js'

const palette = { all: '#8a94a6', verified: '#1f7a4d', unverified: '#c2410c', bar: '#3b5bdb', axis: '#444', grid: '#ddd', threshold: '#c2410c' }

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

function svg(id: string, width: number, height: number, title: string, description: string, body: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="${id}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${id}-title ${id}-desc">`,
    `<title id="${id}-title">${escapeXml(title)}</title>`,
    `<desc id="${id}-desc">${escapeXml(description)}</desc>`,
    body,
    '</svg>',
  ].join('\n')
}

/**
 * Voters and voting power by verification method: two horizontal bars per method, as a share of
 * all voters and of all voting power.
 */
export function methodChart(summary: AuditSummary): string {
  const rows = summary.byMethod.filter((row) => row.voters > 0 || row.method === 'unverified')
  const width = 640
  const left = 130
  const barWidth = width - left - 90
  const rowHeight = 40
  const top = 30
  const height = top + rows.length * rowHeight + 10
  const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole)
  const body = [
    `<g font-family="sans-serif" font-size="12" fill="${palette.axis}">`,
    `<rect x="${left}" y="6" width="10" height="10" fill="${palette.bar}"/><text x="${left + 14}" y="15">voters</text>`,
    `<rect x="${left + 80}" y="6" width="10" height="10" fill="${palette.verified}"/><text x="${left + 94}" y="15">voting power</text>`,
    ...rows.map((row, index) => {
      const y = top + index * rowHeight
      const voters = share(row.voters, summary.voters)
      const power = share(row.votingPower, summary.votingPower)
      const powerColor = row.method === 'unverified' ? palette.unverified : palette.verified
      return [
        `<text x="${left - 8}" y="${y + 17}" text-anchor="end">${escapeXml(methodLabel(row.method))}</text>`,
        `<rect x="${left}" y="${y + 2}" width="${(voters * barWidth).toFixed(1)}" height="14" fill="${palette.bar}"><title>${row.voters} voters</title></rect>`,
        `<text x="${left + voters * barWidth + 4}" y="${y + 13}">${row.voters} (${(voters * 100).toFixed(1)}%)</text>`,
        `<rect x="${left}" y="${y + 18}" width="${(power * barWidth).toFixed(1)}" height="14" fill="${powerColor}"><title>${formatNumber(row.votingPower)} voting power</title></rect>`,
        `<text x="${left + power * barWidth + 4}" y="${y + 29}">${(power * 100).toFixed(1)}%</text>`,
      ].join('\n')
    }),
    '</g>',
  ].join('\n')
  const description = rows.map((row) => `${methodLabel(row.method)}: ${row.voters} voters, ${formatNumber(row.votingPower)} voting power`).join('; ')
  return svg('chart-methods', width, height, 'Voters and voting power by verification method', description, body)
}

/** The Passport score distribution of the voters Passport was asked about, with the threshold marked. */
export function scoreChart(summary: AuditSummary): string {
  const { bins, threshold } = summary.passport
  const width = 640
  const height = 240
  const left = 40
  const bottom = 200
  const plotHeight = 160
  const barSpace = (width - left - 20) / bins.length
  const highest = Math.max(1, ...bins.map((bin) => bin.count))
  const scale = (count: number) => (count / highest) * plotHeight
  const binWidth = bins[0]!.to! - bins[0]!.from
  const thresholdX = left + (threshold / binWidth) * barSpace
  const body = [
    `<g font-family="sans-serif" font-size="11" fill="${palette.axis}">`,
    `<line x1="${left}" y1="${bottom}" x2="${width - 20}" y2="${bottom}" stroke="${palette.axis}"/>`,
    ...bins.map((bin, index) => {
      const x = left + index * barSpace
      const h = scale(bin.count)
      const below = bin.to !== null && bin.to <= threshold
      const label = bin.to === null ? `${bin.from}+` : `${bin.from}`
      return [
        `<rect x="${(x + 2).toFixed(1)}" y="${(bottom - h).toFixed(1)}" width="${(barSpace - 4).toFixed(1)}" height="${h.toFixed(1)}" fill="${below ? palette.all : palette.verified}"><title>${escapeXml(bin.to === null ? `${bin.from} or more` : `${bin.from} to ${bin.to}`)}: ${bin.count}</title></rect>`,
        bin.count ? `<text x="${(x + barSpace / 2).toFixed(1)}" y="${(bottom - h - 4).toFixed(1)}" text-anchor="middle">${bin.count}</text>` : '',
        `<text x="${(x + 2).toFixed(1)}" y="${bottom + 14}">${label}</text>`,
      ].join('\n')
    }),
    `<line x1="${thresholdX.toFixed(1)}" y1="${bottom - plotHeight - 10}" x2="${thresholdX.toFixed(1)}" y2="${bottom}" stroke="${palette.threshold}" stroke-width="2" stroke-dasharray="5 3"/>`,
    `<text x="${(thresholdX + 4).toFixed(1)}" y="${bottom - plotHeight - 2}" fill="${palette.threshold}">threshold ${threshold}</text>`,
    `<text x="${width / 2}" y="${bottom + 32}" text-anchor="middle">Passport score at the snapshot (${summary.passport.scored} scored, ${summary.passport.neverScored} never scored)</text>`,
    '</g>',
  ].join('\n')
  const description = `${bins.map((bin) => `${bin.to === null ? `${bin.from}+` : `${bin.from}-${bin.to}`}: ${bin.count}`).join(', ')}; threshold ${threshold}`
  return svg('chart-scores', width, height, 'Passport score distribution with the threshold', description, body)
}

/** The outcome per choice: all voting power beside only verified voting power, each as a share of its total. */
export function outcomeChart(summary: AuditSummary): string {
  const { choices } = summary.outcome
  const width = 640
  const left = 150
  const barWidth = width - left - 110
  const rowHeight = 40
  const top = 30
  const height = top + Math.max(choices.length, 1) * rowHeight + 10
  const totalAll = choices.reduce((total, choice) => total + choice.all, 0)
  const totalVerified = choices.reduce((total, choice) => total + choice.verified, 0)
  const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole)
  const body = [
    `<g font-family="sans-serif" font-size="12" fill="${palette.axis}">`,
    `<rect x="${left}" y="6" width="10" height="10" fill="${palette.all}"/><text x="${left + 14}" y="15">all voting power</text>`,
    `<rect x="${left + 130}" y="6" width="10" height="10" fill="${palette.verified}"/><text x="${left + 144}" y="15">verified humans only</text>`,
    ...choices.map((choice, index) => {
      const y = top + index * rowHeight
      const all = share(choice.all, totalAll)
      const verified = share(choice.verified, totalVerified)
      return [
        `<text x="${left - 8}" y="${y + 17}" text-anchor="end">${escapeXml(choice.choice.length > 22 ? `${choice.choice.slice(0, 21)}…` : choice.choice)}</text>`,
        `<rect x="${left}" y="${y + 2}" width="${(all * barWidth).toFixed(1)}" height="14" fill="${palette.all}"><title>${formatNumber(choice.all)} of all voting power</title></rect>`,
        `<text x="${left + all * barWidth + 4}" y="${y + 13}">${(all * 100).toFixed(1)}%</text>`,
        `<rect x="${left}" y="${y + 18}" width="${(verified * barWidth).toFixed(1)}" height="14" fill="${palette.verified}"><title>${formatNumber(choice.verified)} of verified voting power</title></rect>`,
        `<text x="${left + verified * barWidth + 4}" y="${y + 29}">${(verified * 100).toFixed(1)}%</text>`,
      ].join('\n')
    }),
    '</g>',
  ].join('\n')
  const description = choices.map((choice) => `${choice.choice}: ${(share(choice.all, totalAll) * 100).toFixed(1)}% of all power, ${(share(choice.verified, totalVerified) * 100).toFixed(1)}% of verified power`).join('; ')
  return svg('chart-outcome', width, height, 'Outcome per choice: all voting power against verified voting power', description, body)
}
