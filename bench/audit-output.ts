/**
 * What the audit's outputs cost as the vote grows: from the demo's real voter lines (every verdict
 * with its evidence, about 8 KB of JSON each), audits of 1,000 to 100,000 voters are assembled
 * (the lines repeated under fresh addresses), summarized and written (audit.json, audit.csv,
 * audit.md, audit.html). Each size runs in its own process so its peak memory is its own. Prints a
 * markdown table: voters, time to summarize and write, peak resident memory, and file sizes.
 *
 * This measures the report side only: judging voters (requests to the sources) is not in it.
 *
 * Run: `npm run build && npx tsx bench/audit-output.ts` (the demo is run once to get its lines).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { getAddress } from 'viem'
import { auditDigest } from '../src/audit/run.js'
import { writeAuditOutputs } from '../src/audit/report/write.js'
import { summarizeAudit } from '../src/audit/summary.js'
import type { AuditResult, AuditVoter } from '../src/audit/types.js'

const sizes = (process.env.BENCH_SIZES ?? '1000,10000,50000,100000').split(',').map(Number)

if (process.argv[2] === '--child') {
  const voters = Number(process.argv[3])
  const demo = JSON.parse(readFileSync(process.argv[4]!, 'utf8')) as AuditResult
  const out = process.argv[5]!
  const started = performance.now()
  const position = new Map(demo.voters.map((voter, at) => [voter.address.toLowerCase(), at]))
  const lines: AuditVoter[] = Array.from({ length: voters }, (_, index) => {
    const template = demo.voters[index % demo.voters.length]!
    // Fresh addresses; links stay within each copy of the demo's voters.
    const copy = Math.floor(index / demo.voters.length)
    const address = (n: number) => getAddress(`0x${(copy * 1_000_000 + n + 1).toString(16).padStart(40, '0')}`)
    return {
      ...structuredClone(template),
      address: address(index % demo.voters.length),
      linked: template.linked.map((signal) => ({ ...signal, ...(signal.otherAddress ? { otherAddress: address(position.get(signal.otherAddress.toLowerCase()) ?? 0) } : {}) })),
    }
  })
  const assembled = performance.now()
  const run = demo.run
  const summary = summarizeAudit({ voters: lines, choices: run.proposal?.choices ?? run.choices, type: run.proposal?.type ?? run.type })
  const result: AuditResult = { run, voters: lines, summary, digest: auditDigest({ run, voters: lines }) }
  writeAuditOutputs(out, result)
  const written = performance.now()
  const size = (name: string) => statSync(join(out, name)).size
  process.stdout.write(
    JSON.stringify({ voters, assembleMs: assembled - started, writeMs: written - assembled, peakRssMb: process.resourceUsage().maxRSS / 1024, json: size('audit.json'), csv: size('audit.csv'), html: size('audit.html') }),
  )
  process.exit(0)
}

const root = fileURLToPath(new URL('..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'personhood-bench-audit-'))
try {
  execFileSync(process.execPath, [join(root, 'bin/personhood.js'), 'demo', '--out', join(work, 'demo')], { stdio: 'ignore', cwd: work })
  const demoJson = join(work, 'demo', 'audit.json')
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
  console.log('| voters | assemble (s) | summarize + write (s) | peak RSS (MB) | audit.json (MB) | audit.csv (MB) | audit.html (MB) |')
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const voters of sizes) {
    const out = join(work, `out-${voters}`)
    let row: string
    try {
      const text = execFileSync(process.execPath, ['--max-old-space-size=4096', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', String(voters), demoJson, out], { encoding: 'utf8', cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
      const measured = JSON.parse(text) as { assembleMs: number; writeMs: number; peakRssMb: number; json: number; csv: number; html: number }
      row = `| ${voters.toLocaleString('en-US')} | ${(measured.assembleMs / 1000).toFixed(1)} | ${(measured.writeMs / 1000).toFixed(1)} | ${measured.peakRssMb.toFixed(0)} | ${mb(measured.json)} | ${mb(measured.csv)} | ${mb(measured.html)} |`
    } catch (error) {
      row = `| ${voters.toLocaleString('en-US')} | failed: ${String((error as { stderr?: string }).stderr ?? error).split('\n').find((line) => /Error|heap/.test(line)) ?? 'see stderr'} | | | | | |`
    }
    console.log(row)
    rmSync(out, { recursive: true, force: true })
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
