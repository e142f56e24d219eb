/**
 * The strategy server's voter page on the demo world's local chain and reference server, opened as
 * a voter opens it: in a real headless Chromium at a phone's width (390 px) and a laptop's (1,280
 * px), scripts off, for a voter of each kind (verified by each method, an expired, a revoked and a
 * wrong-issuer credential, Passport only, a Passport score that expired, nothing, a source down).
 * What a person reads is checked: the answer, the reason, the next step, and no sideways scroll. A
 * screenshot of each is kept under `test-artifacts/voter-page/` (git-ignored).
 *
 * Without Chromium the browser part is skipped with the reason; the rest (the same words as
 * `personhood verify`, a proposal read from the hub, the rate limit, no key on the page) runs.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { launch, type Browser } from 'puppeteer-core'
import type { Address } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { formatVerifyReport, runVerifyCommand } from '../../src/cli/verify.js'
import { runStrategy } from '../../src/strategy/define.js'
import type { HumanVerificationDetail } from '../../src/strategy/human-verification.js'
import { humanVerificationStrategy } from '../../src/strategy/human-verification.js'
import { startStrategyServer, type RunningStrategyServer, type StrategyServerConfig } from '../../src/strategy-server/start.js'
import { findChromium } from '../helpers/chromium.js'
import { humanVerificationServing } from '../strategies/human-id-serving.js'

const found = await findChromium()
const chromium = found.path
if (!chromium) console.warn(`Skipping the headless-browser check of the voter page: ${found.reason}`)

const snapshot = 136_566_811
const credentials = ['gov-id', 'phone', 'biometrics', 'clean-hands'] as const
const options = { credentials: [...credentials] }
const artifacts = join(process.cwd(), 'test-artifacts', 'voter-page')

let world: Awaited<ReturnType<typeof humanVerificationServing.start>> & { env: Record<string, string>; humanIdContext: () => { humanId?: unknown } }
let server: RunningStrategyServer
let down: RunningStrategyServer
let hub: Server
let hubUrl: string
/** One voter of each kind, found by what the strategy says of the demo world's voters. */
const kinds = new Map<string, Address>()
const proposalId = `0x${'7e'.repeat(32)}`

function configOf(overrides: Partial<StrategyServerConfig> = {}): StrategyServerConfig {
  return {
    port: 0,
    store: 'none',
    rpc: { '10': world.env.HUMAN_ID_RPC_URL as string },
    passport: { apiKey: world.env.PASSPORT_API_KEY as string, baseUrl: world.env.PASSPORT_API_URL as string, tier: 3, scorerId: '1' },
    humanId: { hubChainRpc: world.env.HUMAN_ID_RPC_URL as string, apiUrl: world.env.HUMAN_ID_API_URL as string, attestationIndexUrl: world.env.ATTESTATION_INDEX_URL as string },
    ...overrides,
  }
}

/** A Snapshot hub that knows one proposal, voting through this server's api-v2 endpoint. */
function startHub(strategyUrl: () => string): Promise<Server> {
  const hubServer = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const { variables } = JSON.parse(body) as { variables: { id: string } }
      const proposal =
        variables.id === proposalId
          ? {
              id: proposalId,
              title: 'Fund the commons',
              choices: ['For', 'Against'],
              type: 'single-choice',
              state: 'closed',
              snapshot: String(snapshot),
              network: '10',
              start: 1,
              end: 2,
              votes: 3,
              space: { id: 'commons.eth', name: 'Commons' },
              strategies: [
                { name: 'ticket', network: '10', params: { symbol: 'VOTE' } },
                { name: 'api-v2', network: '10', params: { url: strategyUrl(), type: 'api-post', decimals: 0, ...options, passportScore: 0 } },
              ],
            }
          : null
      response.writeHead(200, { 'Content-Type': 'application/json' })
      response.end(JSON.stringify({ data: { proposal } }))
    })
  })
  return new Promise((resolve) => hubServer.listen(0, '127.0.0.1', () => resolve(hubServer)))
}

beforeAll(async () => {
  world = (await humanVerificationServing.start()) as typeof world
  const now = () => world.context().now!()
  const humanId = world.humanIdContext().humanId as never
  hub = await startHub(() => `${server.url}/strategies/human-verification`)
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/graphql`
  server = await startStrategyServer({ config: configOf(), now, context: { humanId }, voterPage: { hub: hubUrl, limit: 1000, totalLimit: 1000 } })
  // The same server with Passport down (nothing listens there); no wait between its retries.
  down = await startStrategyServer({
    config: configOf({ passport: { apiKey: world.env.PASSPORT_API_KEY as string, baseUrl: 'http://127.0.0.1:9', registryBaseUrl: 'http://127.0.0.1:9', tier: 3, scorerId: '1' } }),
    now,
    context: { humanId, sleep: async () => {} },
    voterPage: { hub: hubUrl, limit: 1000, totalLimit: 1000 },
  })
  const voters = world.voters(1000)
  const context = world.context()
  const run = await runStrategy(humanVerificationStrategy, { network: '10', provider: world.provider('10'), addresses: voters, options, snapshot, context: { ...context, deadlineMs: Infinity, humanId: { ...context.humanId, expiries: true } } })
  for (const [address, answer] of run.results) {
    const detail = answer.detail as HumanVerificationDetail
    const reasons = new Map(detail.verdicts.map((verdict) => [verdict.credential, verdict.reason]))
    const humanReasons = [...credentials].map((credential) => reasons.get(credential))
    const pick = (kind: string) => (kinds.has(kind) ? undefined : kinds.set(kind, address))
    if (detail.eligible && detail.method && humanReasons.filter((reason) => reason !== 'none').length === (detail.method === 'passport' ? 0 : 1)) pick(`verified by ${detail.method}`)
    if (!detail.eligible && reasons.get('passport') === 'never-scored') {
      const telling = humanReasons.filter((reason) => reason !== 'none')
      if (telling.length === 0) pick('nothing')
      if (telling.length === 1 && ['expired', 'revoked', 'wrong-issuer'].includes(telling[0]!)) pick(telling[0]!)
    }
    if (!detail.eligible && reasons.get('passport') === 'expired' && humanReasons.every((reason) => reason === 'none')) pick('passport expired')
  }
}, 180_000)

afterAll(async () => {
  await server?.close()
  await down?.close()
  await new Promise((resolve) => hub?.close(resolve))
  await world?.close()
})

/** What the page should say of each kind: the answer, a reason, and a next step (regular expressions). */
const expected: Record<string, { answer: RegExp; reason: RegExp; next: RegExp; server?: 'down' }> = {
  'verified by gov-id': { answer: /^Counted: verified by Government ID at the snapshot\.$/, reason: /^Government ID: held at the snapshot until \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/, next: /Nothing to do for this proposal\. Government ID counts until/ },
  'verified by phone': { answer: /^Counted: verified by Phone/, reason: /^Phone: held at the snapshot/, next: /Nothing to do for this proposal/ },
  'verified by biometrics': { answer: /^Counted: verified by Biometrics/, reason: /^Biometrics: held at the snapshot/, next: /Nothing to do for this proposal/ },
  'verified by clean-hands': { answer: /^Counted: verified by Clean hands/, reason: /^Clean hands: held at the snapshot/, next: /Nothing to do for this proposal/ },
  'verified by passport': { answer: /^Counted: verified by Passport score/, reason: /^Passport score: [\d.]+ at the snapshot, at least the threshold 20: it passes/, next: /refresh your Passport’s stamps before then/ },
  expired: { answer: /^Not counted: \w[\w ]* expired and no Passport score\.$/, reason: /: expired on \d{4}-\d\d-\d\d \d\d:\d\d UTC, before the snapshot\.$/, next: /^Renew your [\w ]+ credential in Human ID’s app: a new one replaces the expired one\. id\.human\.tech\// },
  revoked: { answer: /^Not counted: \w[\w ]* revoked and no Passport score\.$/, reason: /: revoked: Human ID withdrew it before the snapshot\.$/, next: /was revoked: verify again in Human ID’s app/ },
  'wrong-issuer': { answer: /^Not counted: [\w ]+: wrong issuer and no Passport score\.$/, reason: /: wrong issuer: the credential was not issued by Human ID's issuer for it, so it never counts\.$/, next: /does not count for anyone: verify [\w ]+ in Human ID’s app/ },
  'passport expired': { answer: /^Not counted: no Human ID credential and Passport score expired\.$/, reason: /^Passport score: [\d.]+ \(threshold 20\), but it had expired on \d{4}-\d\d-\d\d \d\d:\d\d UTC, before the snapshot/, next: /^Refresh your Passport’s stamps so its score is current again/ },
  nothing: { answer: /^Not counted: no Human ID credential and no Passport score\.$/, reason: /^Government ID, Phone, Biometrics and Clean hands: not found: this address held none of them at the snapshot\.$/, next: /^Government ID: get this credential in Human ID’s app/ },
  'a source down': { answer: /^Not known: Passport [\w ()]+ could not answer; what the others say is below\.$/, reason: /could not answer: .*127\.0\.0\.1:9|could not answer: .*(fetch failed|ECONNREFUSED)/, next: /^Check again later: Passport .* could not answer, which says nothing about this address\.$/, server: 'down' },
}

function checkUrl(address: string, on: RunningStrategyServer = server): string {
  return `${on.url}/voters/check?address=${address}&strategy=human-verification&options=${encodeURIComponent(JSON.stringify(options))}&network=10&snapshot=${snapshot}`
}

test('the demo world has a voter of every kind the page is checked with', () => {
  expect([...kinds.keys()].sort()).toEqual(Object.keys(expected).filter((kind) => kind !== 'a source down').sort())
})

describe.skipIf(!chromium)('the voter page in headless Chromium, scripts off', () => {
  let browser: Browser
  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true })
    browser = await launch({ executablePath: chromium!, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] })
  })
  afterAll(async () => {
    await browser?.close()
  })

  for (const [kind, want] of Object.entries(expected)) {
    for (const width of [390, 1280]) {
      test(`${kind} at ${width} px: the answer, the reason and the next step, nothing overflows`, async () => {
        const address = kinds.get(kind === 'a source down' ? 'nothing' : kind)!
        const page = await browser.newPage()
        await page.setJavaScriptEnabled(false)
        await page.setViewport({ width, height: 900 })
        const requested: string[] = []
        page.on('request', (request) => requested.push(request.url()))
        const response = await page.goto(checkUrl(address, want.server === 'down' ? down : server), { waitUntil: 'load' })
        expect(response?.status()).toBe(200)
        // Nothing is loaded but the page itself.
        expect(requested).toHaveLength(1)
        const read = await page.evaluate(() => ({
          answer: document.getElementById('verdict')?.textContent ?? '',
          reasons: [...document.querySelectorAll('#reasons li')].map((element) => element.textContent ?? ''),
          next: [...document.querySelectorAll('#next-steps li')].map((element) => element.textContent ?? ''),
          rule: document.getElementById('rule')?.textContent ?? '',
          headings: [...document.querySelectorAll('h1, h2')].map((element) => element.tagName),
          unlabelled: [...document.querySelectorAll('input, select, textarea')].filter((element) => !document.querySelector(`label[for="${element.id}"]`)).length,
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
          outside: [...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).map((element) => element.tagName),
        }))
        expect(read.answer).toMatch(want.answer)
        expect(read.reasons.some((reason) => want.reason.test(reason)), read.reasons.join('\n')).toBe(true)
        expect(read.next.some((step) => want.next.test(step)), read.next.join('\n')).toBe(true)
        expect(read.rule).toBe(
          "human-verification: an address counts when any of Government ID, Phone, Biometrics or Clean hands held at the snapshot (Human ID credentials on Optimism, unexpired and not revoked); otherwise when it has a Passport score at the snapshot of at least the scorer's threshold (20 unless the scorer sets another), not expired.",
        )
        expect(read.headings[0]).toBe('H1')
        expect(read.unlabelled).toBe(0)
        expect(read.scroll).toBeLessThanOrEqual(read.client)
        expect(read.outside).toEqual([])
        await page.screenshot({ path: join(artifacts, `${kind.replace(/ /g, '-')}-${width}.png`) as `${string}.png`, fullPage: true })
        await page.close()
      }, 60_000)
    }
  }

  test('the form (GET /voters) reads on a phone without scripts, filled from a space\u2019s link', async () => {
    const page = await browser.newPage()
    await page.setJavaScriptEnabled(false)
    await page.setViewport({ width: 390, height: 900 })
    await page.goto(`${server.url}/voters?proposal=${proposalId}`, { waitUntil: 'load' })
    expect(await page.$eval('#proposal', (element) => (element as HTMLInputElement).value)).toBe(proposalId)
    const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client)
    // Submitting the form (no script) gives the result page for the address typed.
    await page.type('#address', kinds.get('verified by gov-id')!)
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')])
    expect(await page.$eval('#verdict', (element) => element.textContent)).toMatch(/^Counted: verified by Government ID/)
    await page.screenshot({ path: join(artifacts, 'form-390.png') as `${string}.png`, fullPage: true })
    await page.close()
  }, 60_000)
})

describe('the voter page and personhood verify', () => {
  test('give the same reasons for the same voter, of every kind', async () => {
    const env = { ...world.env, PERSONHOOD_RPC_URL: world.env.HUMAN_ID_RPC_URL as string }
    for (const [kind, address] of kinds) {
      const html = await (await fetch(checkUrl(address))).text()
      const list = /<ul class="reasons" id="reasons">([\s\S]*?)<\/ul>/.exec(html)![1]!
      const pageReasons = [...list.matchAll(/<li>([^<]*)<\/li>/g)].map((match) => match[1]!.replace(/&#39;/g, "'"))
      const report = await runVerifyCommand({ address, snapshot: String(snapshot) }, { env })
      const text = formatVerifyReport(report).join('\n')
      expect(pageReasons.length, kind).toBeGreaterThan(0)
      for (const reason of pageReasons) expect(text, `${kind}: ${reason}`).toContain(reason)
      // A voter who does not count reads the same list of reasons in both (verify also asks Passport about a voter Human ID verified).
      if (!report.decision?.eligible) expect(report.words.reasons, kind).toEqual(pageReasons)
    }
  }, 180_000)
})

describe('the voter page', () => {
  test('reads the configuration from a proposal on the hub (its api-v2 strategy on this server)', async () => {
    const address = kinds.get('passport expired')!
    const response = await fetch(`${server.url}/voters/check?address=${address}&proposal=${proposalId}`)
    expect(response.status).toBe(200)
    const html = await response.text()
    // The proposal's options turn the Passport fallback off: the rule and the answer say so.
    expect(html).toContain('Fund the commons')
    expect(html).toContain('human-verification: an address counts when any of Government ID, Phone, Biometrics or Clean hands held at the snapshot')
    expect(html).not.toContain('otherwise when it has a Passport score')
    expect(html).toMatch(/id="verdict">Not counted: no Human ID credential\.</)
    const unknown = await fetch(`${server.url}/voters/check?address=${address}&proposal=0x${'00'.repeat(32)}`)
    expect(unknown.status).toBe(404)
    expect(await unknown.text()).toContain('The address could not be checked')
  }, 60_000)

  test('refuses what a voter can fix with the form and a reason, never a score', async () => {
    const bad = await fetch(`${server.url}/voters/check?address=0x1234&strategy=human-verification`)
    expect(bad.status).toBe(400)
    const text = await bad.text()
    expect(text).toContain('role="alert"')
    expect(text).toContain('<form method="get" action="/voters/check">')
    const options = await fetch(`${server.url}/voters/check?address=${kinds.get('nothing')}&strategy=human-id&options=${encodeURIComponent('{"match":"most"}')}&network=10&snapshot=${snapshot}`)
    expect(options.status).toBe(400)
    expect(await options.text()).toContain('match: ')
  })

  test('never shows a key or a salt, and answers with a policy that loads nothing from elsewhere', async () => {
    for (const on of [server, down]) {
      const response = await fetch(checkUrl(kinds.get('nothing')!, on))
      const html = await response.text()
      expect(html).not.toContain(world.env.PASSPORT_API_KEY as string)
      expect(html).not.toMatch(/<script|<link|<img|src=/i)
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    }
  }, 60_000)

  test('is rate-limited per client: past the limit a 429 page says when to come back', async () => {
    const limited = await startStrategyServer({ config: configOf(), now: () => world.context().now!(), context: { humanId: world.humanIdContext().humanId as never }, voterPage: { hub: hubUrl, limit: 2, windowMs: 60_000 } })
    try {
      const statuses: number[] = []
      let last = ''
      let retryAfter: string | null = null
      for (let i = 0; i < 3; i++) {
        const response = await fetch(checkUrl(kinds.get('nothing')!, limited))
        statuses.push(response.status)
        last = await response.text()
        retryAfter = response.headers.get('retry-after')
      }
      expect(statuses).toEqual([200, 200, 429])
      expect(last).toMatch(/Too many checks in a short time\. Try again in \d+ seconds\./)
      expect(Number(retryAfter)).toBeGreaterThan(0)
    } finally {
      await limited.close()
    }
  }, 60_000)
})
