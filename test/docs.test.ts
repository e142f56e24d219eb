/**
 * The documentation stays inside the repository and explains the labels the project speaks in:
 * every relative link of README.md and docs/ reaches a file of the repository, docs/interface.md
 * explains every endpoint label, and what `serve` and `demo` print names things in words first,
 * with a label only in parentheses after them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatDemoReport, type DemoReport } from '../src/cli/demo.js'
import { describeServe } from '../src/cli/serve.js'
import { startServe } from '../src/server/start.js'
import { generateWorld } from '../src/world/generate/index.js'
import { root } from './helpers/built.js'

const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)]

/** A label of the specification (A1 .. E8), the rule number of clean hands, or a pointer to notes outside the repository. */
const bareLabel = /\b(A[1-4]|B1|C[1-7]|D([1-9]|1[0-3])|E[1-8])\b|rule 6|field notes|§/

/** The text with every parenthesized part removed: what is left must name things in words. */
const outsideParentheses = (line: string) => line.replace(/\([^()]*\)/g, '')

describe('documentation', () => {
  it.each(documents)('%s links only to files inside the repository', (document) => {
    const text = readFileSync(join(root, document), 'utf8')
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !/^(https?:|mailto:|#)/.test(target))
    for (const target of targets) {
      const path = resolve(dirname(join(root, document)), target.split('#')[0]!)
      expect(relative(root, path).startsWith('..'), `${document} links outside the repository: ${target}`).toBe(false)
      expect(existsSync(path), `${document} links to a missing file: ${target}`).toBe(true)
    }
  })

  it('docs/interface.md explains every endpoint label, and README links it', () => {
    const interfaceDoc = readFileSync(join(root, 'docs/interface.md'), 'utf8')
    const labels = ['A1', 'A2', 'A3', 'A4', 'B1', ...[1, 2, 3, 4, 5, 6, 7].map((n) => `C${n}`), ...Array.from({ length: 13 }, (_, i) => `D${i + 1}`), ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `E${n}`)]
    const explained = (label: string) => new RegExp(`^\\| [^|]*\\b${label}\\b[^|]*\\| \``, 'm').test(interfaceDoc)
    expect(labels.filter((label) => !explained(label))).toEqual([])
    expect(interfaceDoc).toContain('### The clean-hands rule')
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain('](docs/interface.md)')
  })
})

describe('what the commands print', () => {
  it('demo: words first, labels only in parentheses', () => {
    const world = generateWorld({ now: '2025-06-01T00:00:00.000Z', wallets: 50 })
    const report: DemoReport = {
      url: 'http://127.0.0.1:8787',
      world: { seed: world.seed, now: world.now, wallets: 50, stamps: 1, sybilClusters: 1, verifications: 1, attestations: 1 },
      accounts: world.demoAccounts.map((account) => ({
        story: account.story,
        description: account.description,
        address: account.address,
        score: '0.00000',
        passingScore: false,
        dedupedStamps: 0,
        modelScore: -1,
        verifications: { 'gov-id': false, phone: false, biometrics: false },
        cleanHands: false,
      })),
      signIn: { story: 'passing-stamps', address: world.demoAccounts[0]!.address, cacheScore: '0', matchesA1: true },
      votingStrategy: { credential: 'gov-id', blockNumber: 1, addresses: 50, verified: 0, requests: 1 },
      requests: 10,
    }
    const lines = formatDemoReport(report).filter((line) => bareLabel.test(outsideParentheses(line)))
    expect(lines).toEqual([])
  })

  it('serve: words first, labels only in parentheses', async () => {
    const running = await startServe({ port: 0, worldNow: '2025-06-01T00:00:00.000Z', wallets: 50 })
    try {
      expect(describeServe(running).filter((line) => bareLabel.test(outsideParentheses(line)))).toEqual([])
    } finally {
      await running.close()
    }
  })

  it("README's audit example is the demo's reproduce command (the demo's world), and names --hub-chain-rpc", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const demoSource = readFileSync(join(root, 'src/cli/audit-demo.ts'), 'utf8')
    const demoWallets = /parameters\.wallets \?\? (\d+)/.exec(demoSource)![1]
    expect(readme).toContain(`npx personhood serve --seed demo --chain --wallets ${demoWallets} --world-now`)
    const printed = /npx personhood audit --votes \$\{votesFile\} --config \$\{configFile\} --snapshot \$\{snapshot\} (.*) --out/.exec(demoSource)![1]!.replace('${demoChoices.join(\',\')}', 'For,Against,Abstain')
    expect(readme.replace(/\\\n\s*/g, '')).toContain(printed)
    expect(readme).toMatch(/--network 1 --rpc ETHEREUM_URL --hub-chain-rpc OPTIMISM_URL/)
    expect(readme).toContain('](docs/cli.md#security-notes-what-the-audit-trusts-and-what-it-checks)')
  })
})
