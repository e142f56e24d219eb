/**
 * The README's front door: every ```ts block of README.md runs as written against `personhood serve
 * --seed demo --chain`. The built bin is started as a user starts it, the `export` lines it prints
 * are set in the environment, and each block is written to a file inside the package (so `import
 * 'personhood'` resolves to this package, as built) and run with tsx: it must exit 0. A block that
 * is not meant to run is marked ```ts no-run and counted here, so that set cannot grow unnoticed.
 * A `console.log(...)` line whose comment says `// prints "text"` must print exactly that text the
 * first time it runs, so the README never shows an output the example does not give.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveNotices } from '../src/cli/serve.js'
import { ensureBuilt, root } from './helpers/built.js'

const readme = readFileSync(join(root, 'README.md'), 'utf8')
const blocks = [...readme.matchAll(/^```ts([^\n]*)\n([\s\S]*?)^```$/gm)].map((match, index) => ({
  index: index + 1,
  info: match[1]!.trim(),
  code: match[2]!,
  line: readme.slice(0, match.index).split('\n').length,
}))
const runnable = blocks.filter((block) => block.info === '')

/** A `console.log(...)` line of a block that says what it prints: `// prints "text"`. */
type PrintsClaim = { line: number; expected: string }
const printsComment = /^(\s*)console\.log\((.*)\)\s*\/\/ prints "([^"]*)"/

function printsClaims(code: string): PrintsClaim[] {
  return code.split('\n').flatMap((text, line) => {
    const match = printsComment.exec(text)
    return match ? [{ line, expected: match[3]! }] : []
  })
}

/**
 * The block with each claimed `console.log(...)` also recording what it printed (util.format, as
 * console.log formats), written to stderr after a marker when the block ends.
 */
function instrument(code: string): string {
  const lines = code.split('\n').map((text, line) =>
    printsComment.test(text) ? text.replace(/^(\s*)console\.log\(/, `$1globalThis.__readmePrint(${line}, `) : text,
  )
  const preamble = [
    `import { format as __format } from 'node:util'`,
    `const __printed: Record<number, string> = {}`,
    `;(globalThis as any).__readmePrint = (line: number, ...args: unknown[]) => { const text = __format(...args); __printed[line] ??= text; console.log(text) }`,
    `process.on('exit', () => process.stderr.write(\`\\n${printedMarker}\${JSON.stringify(__printed)}\\n\`))`,
  ]
  return [...preamble, ...lines].join('\n')
}
const printedMarker = '__README_PRINTED__'
const notRun = blocks.filter((block) => block.info !== '')

let server: ChildProcessWithoutNullStreams | undefined
let output = ''
let environment: Record<string, string> = {}
let workDir: string | undefined

beforeAll(async () => {
  ensureBuilt()
  server = spawn(process.execPath, [join(root, 'bin/personhood.js'), 'serve', '--seed', 'demo', '--port', '0', '--chain', '--chain-port', '0'], { cwd: root })
  server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 480_000)
    server!.stdout.on('data', () => {
      if (/^ {2}Demo accounts:$/m.test(output)) {
        clearTimeout(timer)
        resolve()
      }
    })
    server!.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code}:\n${output}`))
    })
  })
  // serve prints each line on its own, the export lines before "Demo accounts:": all are here now.
  environment = Object.fromEntries([...output.matchAll(/^ {4}export ([A-Z_]+)=(\S+)/gm)].map((match) => [match[1]!, match[2]!]))
  // Inside the package, so `import 'personhood'` resolves to it; .tmp/ is git-ignored.
  mkdirSync(join(root, '.tmp'), { recursive: true })
  workDir = mkdtempSync(join(root, '.tmp', 'readme-'))
  // A cap, not a speed check: a build and a chain world on a machine running two suites at once.
}, 600_000)

afterAll(async () => {
  if (workDir) rmSync(workDir, { recursive: true, force: true })
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
})

function run(file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), file], {
      cwd: root,
      env: { ...process.env, ...environment },
    })
    let text = ''
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()))
    child.once('exit', (code) => resolve({ code, output: text }))
  })
}

describe('README.md', () => {
  it('has its code blocks counted: every ts block runs but the ones marked no-run', () => {
    expect(runnable.length).toBe(4)
    // the outputs the README shows are claims the run checks (and none of them states a literal score beside a call instead)
    expect(runnable.flatMap((block) => printsClaims(block.code)).length).toBeGreaterThanOrEqual(4)
    expect(readme).not.toMatch(/\/\/ \{ score: "\d/)
    expect(notRun.map((block) => `line ${block.line}: ts ${block.info}`)).toEqual([])
  })

  it('serve prints every value the examples read, marked as demo values', () => {
    expect(output).toContain(serveNotices({ host: '127.0.0.1', demoWorld: true })[0]!.trim())
    expect(Object.keys(environment).sort()).toEqual([
      'DEMO_ADDRESS',
      'DEMO_PRIVATE_KEY',
      'DEMO_VERIFIED_ADDRESS',
      'PERSONHOOD_API_KEY',
      'PERSONHOOD_API_TIER',
      'PERSONHOOD_ATTESTATION_INDEX_URL',
      'PERSONHOOD_BASE_URL',
      'PERSONHOOD_HUMAN_ID_URL',
      'PERSONHOOD_RPC_URL',
      'PERSONHOOD_SCORER_ID',
    ])
    const used = new Set([...readme.matchAll(/process\.env\.([A-Z_]+)/g)].map((match) => match[1]!))
    expect([...used].filter((name) => !(name in environment))).toEqual([])
  })

  it.each(runnable.map((block) => [block.index, block.line, block] as const))('block %i (line %i) runs as written', async (_index, line, block) => {
    const file = join(workDir!, `block-${block.index}.ts`)
    writeFileSync(file, instrument(block.code))
    const result = await run(file)
    expect(result.code, `README.md block at line ${line} failed:\n${result.output}`).toBe(0)
    const printed = JSON.parse(result.output.split(`${printedMarker}`)[1]?.trim() ?? '{}') as Record<number, string>
    for (const claim of printsClaims(block.code)) {
      expect(printed[claim.line], `README.md line ${line + 1 + claim.line} says it prints "${claim.expected}"`).toBe(claim.expected)
    }
  }, 120_000)
})
