/**
 * What one large read of the in-process EVM costs in memory: the demo world served with its local
 * chain (as the parity and conformance tests serve it), then the human-id strategy run for 2,000
 * voters with every credential (three `eth_call`s of the deployless reader, the largest about 50M
 * gas), twice, each at its own block. Each allocator setting runs in a fresh process; per setting
 * it prints the resident set after each read, the process's peak (VmHWM), and from
 * /proc/self/smaps_rollup what of the resident set is lazily freed (MADV_FREE: the kernel takes it
 * back only under pressure) and in transparent huge pages. Linux only.
 *
 *   nice -n 5 npx tsx bench/edr-read-memory.ts            # EDR's defaults, then the test suite's settings
 *
 * The suite's settings are `test.env` of vitest.config.ts (EDR's allocator, mimalloc, reads them
 * when EDR loads).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { getAddress, keccak256, toHex } from 'viem'
import suite from '../vitest.config.js'

const mb = (kb: number) => `${Math.round(kb / 1024).toLocaleString('en-US')} MB`
const field = (text: string, name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN)

if (process.argv[2] === '--child') {
  const { runStrategy } = await import('../src/index.js')
  const { strategies } = await import('../src/strategies/index.js')
  const { startChainWorld } = await import('../test/strategies/human-id-serving.js')
  const world = await startChainWorld()
  const known = world.voters(2_000).map((address) => getAddress(address))
  const addresses = [...known, ...Array.from({ length: 2_000 - known.length }, (_, index) => getAddress(keccak256(toHex(`parity voter ${index}`)).slice(0, 42)))]
  const definition = strategies['human-id']!.definition
  const after: number[] = []
  let voters = 0
  let seconds = 0
  for (const block of [136_566_811, 136_566_812]) {
    const started = performance.now()
    const { scores } = await runStrategy(definition, { space: 'bench.eth', network: '10', provider: world.provider('10'), addresses, options: { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'] }, snapshot: block, context: world.context() })
    seconds += (performance.now() - started) / 1000
    voters = Object.values(scores).filter((score) => score > 0).length
    after.push(field(readFileSync('/proc/self/status', 'utf8'), 'VmRSS'))
  }
  const status = readFileSync('/proc/self/status', 'utf8')
  const rollup = readFileSync('/proc/self/smaps_rollup', 'utf8')
  await world.close()
  console.log(JSON.stringify({ after, hwm: field(status, 'VmHWM'), lazyFree: field(rollup, 'LazyFree'), hugePages: field(rollup, 'AnonHugePages'), voters, seconds }))
  process.exit(0)
}

const suiteEnv = (suite.test?.env ?? {}) as Record<string, string>
const settings: [string, Record<string, string>][] = [
  ["EDR's defaults", {}],
  [`the suite's (${Object.entries(suiteEnv).map(([key, value]) => `${key}=${value}`).join(' ')})`, suiteEnv],
]
const rows = ['| Allocator settings | After read 1 | After read 2 | Peak (VmHWM) | Lazily freed | In huge pages | Voters scoring | Time (2 reads) |', '|---|---:|---:|---:|---:|---:|---:|---:|']
for (const [label, env] of settings) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MIMALLOC_')))
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child'], { env: { ...clean, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  const line = child.stdout.trim().split('\n').at(-1) ?? ''
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`the read with ${label} failed (exit ${String(child.status)}): ${line}`)
  const result = JSON.parse(line) as { after: number[]; hwm: number; lazyFree: number; hugePages: number; voters: number; seconds: number }
  rows.push(`| ${label} | ${mb(result.after[0]!)} | ${mb(result.after[1]!)} | ${mb(result.hwm)} | ${mb(result.lazyFree)} | ${mb(result.hugePages)} | ${result.voters} | ${result.seconds.toFixed(1)} s |`)
}
console.log(rows.join('\n'))
