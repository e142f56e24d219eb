/**
 * The HTML report opened in a real headless Chromium (Debian's `chromium` package): the page loads
 * nothing from outside, and each of the three charts paints something that is not blank.
 *
 * Chromium is found through PERSONHOOD_CHROMIUM or on the PATH (chromium, chromium-browser,
 * google-chrome). Without one the suite is skipped with a reason; `apt-get install chromium` enables it.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { PNG } from 'pngjs'
import { launch, type Browser } from 'puppeteer-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { renderAuditHtml } from '../../src/audit/render.js'
import { sampleAudit } from './fixtures.js'

function findChromium(): string | undefined {
  if (process.env.PERSONHOOD_CHROMIUM) return process.env.PERSONHOOD_CHROMIUM
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined
    } catch {
      // not on the PATH; try the next name
    }
  }
  return undefined
}

const chromium = findChromium()
if (!chromium) console.warn('Skipping the headless-browser check of the report: no Chromium found (apt-get install chromium, or set PERSONHOOD_CHROMIUM).')

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

describe.skipIf(!chromium)('the HTML report in headless Chromium', () => {
  let browser: Browser
  let dir: string
  let file: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'personhood-report-'))
    file = join(dir, 'audit.html')
    writeFileSync(file, renderAuditHtml(sampleAudit()))
    browser = await launch({ executablePath: chromium!, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  })

  afterAll(async () => {
    await browser?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('loads nothing but itself, and every chart paints', async () => {
    const page = await browser.newPage()
    const requested: string[] = []
    page.on('request', (request) => requested.push(request.url()))
    await page.setViewport({ width: 1000, height: 800 })
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
    expect(requested).toEqual([pathToFileURL(file).href])

    for (const id of ['chart-methods', 'chart-scores', 'chart-outcome']) {
      const chart = await page.$(`#${id}`)
      expect(chart, id).not.toBe(null)
      const box = await chart!.boundingBox()
      expect(box!.width, id).toBeGreaterThan(300)
      expect(box!.height, id).toBeGreaterThan(60)
      const shot = Buffer.from(await chart!.screenshot({ type: 'png' }))
      const { share, colours } = ink(shot)
      // Bars, labels and axes: a chart that failed to paint is white (or one flat colour).
      expect(share, id).toBeGreaterThan(0.02)
      expect(colours, id).toBeGreaterThan(8)
    }
    await page.close()
  })

  test('prints: the PDF has pages', async () => {
    const page = await browser.newPage()
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
    const pdf = Buffer.from(await page.pdf({ format: 'A4', printBackground: true }))
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    expect(pdf.length).toBeGreaterThan(10_000)
    await page.close()
  })
})
