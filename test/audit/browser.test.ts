/**
 * The HTML report opened in a real headless Chromium, as an auditor would open it: at a phone's
 * width (390 px) and a laptop's (1,280 px) nothing overflows sideways, the page loads nothing from
 * outside, every chart paints, the numbers on the page are those of `audit.json`, and the voter
 * table sorts, filters, searches and pages. A full-page screenshot of each width is kept under
 * `test-artifacts/report/` (git-ignored) as the test's artifact.
 *
 * Chromium is found through PERSONHOOD_CHROMIUM, on the PATH (chromium, chromium-browser,
 * google-chrome), or in the dev dependency @sparticuz/chromium; without any the suite is skipped
 * with the reason.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { inflateSync } from 'node:zlib'
import { PNG } from 'pngjs'
import { launch, type Browser, type Page } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { writeAuditOutputs } from '../../src/audit/report/write.js'
import { summarizeAudit } from '../../src/audit/summary.js'
import type { AuditResult, AuditVoter } from '../../src/audit/types.js'
import { findChromium } from '../helpers/chromium.js'
import { sampleAudit, sampleVoter } from './fixtures.js'

const found = await findChromium()
const chromium = found.path
if (!chromium) console.warn(`Skipping the headless-browser check of the report: ${found.reason}`)

const artifacts = join(process.cwd(), 'test-artifacts', 'report')

/** Share of pixels that differ from white, and how many distinct colours there are. */
function ink(png: Buffer): { share: number; colours: number } {
  const image = PNG.sync.read(png)
  let inked = 0
  const colours = new Set<number>()
  for (let i = 0; i < image.data.length; i += 4) {
    const [r, g, b] = [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!]
    if (r < 245 || g < 245 || b < 245) inked++
    colours.add((r << 16) | (g << 8) | b)
  }
  return { share: inked / (image.width * image.height), colours: colours.size }
}

/**
 * 137 voters (more than two pages of the table): the five of the sample audit, then voters whose
 * power, choice, method and Passport score vary, and a second linked pair.
 */
function largeAudit(): AuditResult {
  const base = sampleAudit()
  const methods = ['gov-id', 'phone', 'biometrics', 'clean-hands', 'passport'] as const
  const voters: AuditVoter[] = [...base.voters]
  for (let n = 6; n <= 137; n++) {
    const eligible = n % 3 === 0
    const method = eligible ? methods[n % methods.length]! : null
    const score = n % 4 === 0 ? null : (n * 7) % 45
    voters.push(
      sampleVoter(n, {
        choice: (n % 2) + 1,
        votingPower: (n * 37) % 101,
        eligible,
        method,
        score: eligible ? 1 : 0,
        ...(eligible && method !== 'passport' ? {} : { passport: { score, passing: score !== null && score >= 20, threshold: 20, origin: score === null ? ('absent' as const) : ('listing' as const) } }),
      }),
    )
  }
  voters[50] = { ...voters[50]!, linked: [{ kind: 'dedup-stamp', provider: 'Discord', otherAddress: voters[51]!.address, basis: 'same-credential' }] }
  voters[51] = { ...voters[51]!, linked: [{ kind: 'dedup-stamp', provider: 'Discord', otherAddress: voters[50]!.address, basis: 'same-credential' }] }
  const choices = base.run.proposal!.choices
  return {
    ...base,
    voters,
    summary: summarizeAudit({ voters, choices, type: 'single-choice' }),
    digest: createHash('sha256').update(JSON.stringify(voters)).digest('hex'),
  }
}

/** For each page of a PDF (Chromium's output), how many text-showing operators its content stream has. */
function pdfPageTextCounts(pdf: Buffer): number[] {
  const text = pdf.toString('latin1')
  const objects = new Map<string, { dict: string; stream?: Buffer }>()
  const header = /(\d+) 0 obj\b/g
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const from = match.index + match[0].length
    const streamAt = text.indexOf('stream', from)
    const endAt = text.indexOf('endobj', from)
    if (streamAt !== -1 && streamAt < endAt) {
      const dict = text.slice(from, streamAt)
      const start = streamAt + (text[streamAt + 6] === '\r' ? 8 : 7)
      const end = text.indexOf('endstream', start)
      const raw = pdf.subarray(start, end)
      objects.set(match[1]!, { dict, stream: /FlateDecode/.test(dict) ? inflateSync(raw) : raw })
      header.lastIndex = text.indexOf('endobj', end)
    } else {
      objects.set(match[1]!, { dict: text.slice(from, endAt) })
      header.lastIndex = endAt
    }
  }
  return [...objects.values()]
    .filter(({ dict }) => /\/Type\s*\/Page(?!s)/.test(dict))
    .map(({ dict }) => {
      const id = /\/Contents\s+(\d+) 0 R/.exec(dict)?.[1]
      const content = id ? objects.get(id)?.stream?.toString('latin1') ?? '' : ''
      return (content.match(/\bT[Jj]\b/g) ?? []).length
    })
}

const widths = [390, 1280] as const

describe.skipIf(!chromium)('the HTML report in headless Chromium', () => {
  let browser: Browser
  let dir: string
  let file: string
  let audit: AuditResult

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'personhood-report-'))
    writeAuditOutputs(dir, largeAudit())
    file = join(dir, 'audit.html')
    // The page is checked against the audit.json written beside it, as a reader would.
    audit = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8')) as AuditResult
    mkdirSync(artifacts, { recursive: true })
    browser = await launch({ executablePath: chromium!, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  })

  afterAll(async () => {
    await browser?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  async function open(width: number, options: { javaScript?: boolean } = {}): Promise<Page> {
    const page = await browser.newPage()
    await page.setJavaScriptEnabled(options.javaScript ?? true)
    await page.setViewport({ width, height: 900 })
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
    return page
  }

  /** Addresses of the table's rows, in order, from each row's full address. */
  const shownAddresses = (page: Page) => page.$$eval('#voter-rows tr', (rows) => rows.map((row) => row.querySelector('code')!.getAttribute('title')!))

  for (const width of widths) {
    test(`at ${width} px nothing overflows sideways, and a screenshot is kept`, async () => {
      const page = await open(width)
      const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
      expect(sizes.scroll).toBeLessThanOrEqual(sizes.client)
      expect(sizes.client).toBe(width)
      // No element sticks out of the page's right edge either (a table clipped by overflow:hidden would not show in scrollWidth).
      const outside = await page.evaluate(
        (limit) =>
          [...document.querySelectorAll('body *')]
            .filter((element) => {
              const box = element.getBoundingClientRect()
              return box.width > 0 && box.right > limit + 0.5 && !element.closest('.scroll')
            })
            .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
        width,
      )
      expect(outside).toEqual([])
      // Text stays readable on a phone: no chart text below 9 px.
      const smallest = await page.$$eval('.chart *', (elements) =>
        Math.min(...elements.filter((element) => element.childNodes.length && [...element.childNodes].some((node) => node.nodeType === 3 && node.textContent!.trim())).map((element) => parseFloat(getComputedStyle(element).fontSize))),
      )
      expect(smallest).toBeGreaterThanOrEqual(9)
      await page.screenshot({ path: join(artifacts, `audit-${width}.png`) as `${string}.png`, fullPage: true })
      await page.close()
    })
  }

  test('loads nothing but itself, and every chart paints with an accessible name', async () => {
    const page = await browser.newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(request.url()))
    await page.setViewport({ width: 1280, height: 800 })
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
    expect(requested).toEqual([pathToFileURL(file).href])
    for (const id of ['chart-methods', 'chart-scores', 'chart-outcome']) {
      const chart = await page.$(`#${id}`)
      expect(chart, id).not.toBe(null)
      const name = await page.$eval(`#${id}`, (element) => ({ role: element.getAttribute('role'), name: document.getElementById(element.getAttribute('aria-labelledby')!)?.textContent }))
      expect(name.role, id).toBe('img')
      expect(name.name, id).toMatch(/\w{4}/)
      const shot = Buffer.from(await chart!.screenshot({ type: 'png' }))
      const { share, colours } = ink(shot)
      // Bars, labels and axes: a chart that failed to paint is white (or one flat colour).
      expect(share, id).toBeGreaterThan(0.02)
      expect(colours, id).toBeGreaterThan(8)
    }
    await page.close()
  })

  test('the numbers on the page are those of audit.json, and the score chart adds up to the voter count', async () => {
    const page = await open(1280)
    const { summary } = audit
    expect(await page.$eval('#stat-voters', (element) => element.textContent)).toBe(summary.voters.toLocaleString('en-US'))
    expect(await page.$eval('#stat-verified', (element) => element.textContent)).toBe(summary.eligibleVoters.toLocaleString('en-US'))
    // The histogram's columns (bins, never scored, not asked) sum to every voter.
    const counts = await page.$$eval('#chart-scores .vbar-count', (elements) => elements.map((element) => Number(element.textContent!.replace(/,/g, ''))))
    expect(counts).toEqual([...summary.passport.bins.map((bin) => bin.count), summary.passport.neverScored, summary.passport.notAsked])
    expect(counts.reduce((a, b) => a + b, 0)).toBe(audit.voters.length)
    const caption = await page.$eval('#chart-scores figcaption', (element) => element.textContent!)
    expect(caption).toContain(`= ${audit.voters.length} voters`)
    // The method chart's voters sum to every voter too.
    const methodVoters = await page.$$eval('#chart-methods .bar-value', (elements) => elements.map((element) => element.textContent!).filter((text) => text.includes('voters')).map((text) => Number(/^([\d,]+) voters/.exec(text)![1]!.replace(/,/g, ''))))
    expect(methodVoters.reduce((a, b) => a + b, 0)).toBe(audit.voters.length)
    // The outcome table's totals per choice.
    const outcome = await page.$$eval('.outcome-table tbody tr', (rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)))
    expect(outcome[0]!.slice(1, -2)).toEqual(summary.outcome.choices.map((choice) => choice.all.toLocaleString('en-US', { maximumFractionDigits: 2 })))
    expect(outcome[1]!.slice(1, -2)).toEqual(summary.outcome.choices.map((choice) => choice.verified.toLocaleString('en-US', { maximumFractionDigits: 2 })))
    // A card per linked group, with its shared evidence and how it voted.
    const cards = await page.$$eval('.card', (elements) => elements.map((element) => element.textContent!))
    expect(cards).toHaveLength(summary.clusters.length)
    expect(cards.some((text) => text.includes('Google') && text.includes('Against — 2 wallets, 80 power'))).toBe(true)
    expect(cards.some((text) => text.includes('Discord') && text.includes('same credential'))).toBe(true)
    await page.close()
  })

  test('the voter table sorts, filters, searches and pages over every voter', async () => {
    const page = await open(1280)
    const byPower = [...audit.voters].sort((a, b) => b.votingPower - a.votingPower || a.address.toLowerCase().localeCompare(b.address.toLowerCase()))
    // The first page: the 50 voters with the most power, not every voter in the DOM.
    expect(await shownAddresses(page)).toEqual(byPower.slice(0, 50).map((voter) => voter.address))
    expect(await page.$eval('#p-status', (element) => element.textContent)).toBe(`1–50 of ${audit.voters.length} voters`)
    await page.click('#p-next')
    expect(await shownAddresses(page)).toEqual(byPower.slice(50, 100).map((voter) => voter.address))

    // Sort by power ascending (a second click on the sorted column).
    await page.click('th[data-key="power"] button')
    const ascending = (await shownAddresses(page)).map((address) => audit.voters.find((voter) => voter.address === address)!.votingPower)
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b))
    expect(ascending[0]).toBe(Math.min(...audit.voters.map((voter) => voter.votingPower)))
    expect(await page.$eval('th[data-key="power"]', (element) => element.getAttribute('aria-sort'))).toBe('ascending')

    // Filter: verified only, then by method.
    await page.select('#f-verified', '1')
    expect(await page.$eval('#p-status', (element) => element.textContent)).toBe(`1–${Math.min(50, audit.summary.eligibleVoters)} of ${audit.summary.eligibleVoters} voters`)
    await page.select('#f-method', 'phone')
    const phone = audit.voters.filter((voter) => voter.eligible && voter.method === 'phone').map((voter) => voter.address)
    expect((await shownAddresses(page)).sort()).toEqual([...phone].sort())
    await page.select('#f-method', '')
    await page.select('#f-verified', '')

    // Filter by choice and by linked.
    await page.select('#f-choice', 'Against')
    const against = audit.voters.filter((voter) => voter.choice === 2).length
    expect(await page.$eval('#p-status', (element) => element.textContent)).toBe(`1–${Math.min(50, against)} of ${against} voters`)
    await page.select('#f-choice', '')
    await page.select('#f-linked', '1')
    const linked = audit.summary.clusters.flatMap((cluster) => cluster.addresses)
    expect((await shownAddresses(page)).sort()).toEqual([...linked].sort())
    await page.select('#f-linked', '')

    // Search by a part of an address, in any case.
    const target = audit.voters[77]!.address
    await page.type('#f-search', target.slice(-8).toUpperCase())
    expect(await shownAddresses(page)).toEqual(audit.voters.filter((voter) => voter.address.toLowerCase().includes(target.slice(-8).toLowerCase())).map((voter) => voter.address))
    expect(await shownAddresses(page)).toContain(target)
    await page.close()
  })

  test('with scripts off the page still reads: the first page of voters is in the HTML', async () => {
    const page = await open(390, { javaScript: false })
    expect(await page.$$eval('#voter-rows tr', (rows) => rows.length)).toBe(50)
    expect(await page.$eval('#voter-controls', (element) => (element as HTMLElement).offsetParent === null)).toBe(true)
    expect(await page.$eval('#voters-static', (element) => element.textContent)).toContain(`of ${audit.voters.length}`)
    const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client)
    await page.close()
  })

  test('prints on A4 without blank pages', async () => {
    const page = await open(1280)
    const pdf = Buffer.from(await page.pdf({ format: 'A4', printBackground: true }))
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    const pages = pdfPageTextCounts(pdf)
    expect(pages.length).toBeGreaterThan(1)
    // Every page draws text: a page left blank by a break has none.
    expect(pages.filter((count) => count === 0)).toEqual([])
    await page.close()
  })
})

