/**
 * Every example in every command's `--help` runs as written against the demo world: the built bin
 * is `personhood` on the PATH, the shell has the `export` lines of `personhood serve --seed demo
 * --chain`, and the folder holds the files the examples name (below). The examples are read from
 * each command's help text, so a command or an example added later is run too. A command that
 * serves (it prints "listening on") is stopped with SIGTERM once it listens and must exit 0; any
 * other must exit 0, or with the code its comment names ("exit 6 past ...").
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createProgram } from '../../src/cli/main.js'
import { ensureBuilt, root } from '../helpers/built.js'

const bin = join(root, 'bin/personhood.js')

/** A command's whole `--help` text, as commander prints it. */
function helpOf(name: string): string {
  const command = createProgram().commands.find((item) => item.name() === name)!
  let text = ''
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: (chunk) => (text += chunk) })
  command.outputHelp()
  return text
}

type Example = { name: string; what: string; line: string; exitCodes: number[] }

/** The examples of every command: each `  # what` line and the `  $ personhood ...` line after it. */
const examples: Example[] = createProgram().commands.flatMap((command) => {
  const lines = helpOf(command.name()).split('\n')
  return lines.flatMap((text, index) => {
    const line = /^ {2}\$ (personhood .*)$/.exec(text)?.[1]
    if (!line) return []
    const what = /^ {2}# (.*)$/.exec(lines[index - 1] ?? '')?.[1] ?? ''
    const named = [...what.matchAll(/\bexit (\d)\b/g)].map((match) => Number(match[1]))
    return [{ name: command.name(), what, line, exitCodes: [0, ...named] }]
  })
})

let server: ChildProcess | undefined
let serverOutput = ''
let environment: Record<string, string> = {}
let folder: string

/** Runs `line` in bash in a fresh folder of the workspace; a server is stopped once it listens. */
function run(line: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string; served: boolean }> {
  const cwd = mkdtempSync(join(folder, 'example-'))
  for (const [file, text] of Object.entries(files())) writeFileSync(join(cwd, file), text)
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], {
      cwd,
      env: { ...process.env, ...environment, PATH: `${join(folder, 'bin')}${delimiter}${process.env.PATH ?? ''}`, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    let served = false
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      if (!served && /listening on /.test(output)) {
        served = true
        child.kill('SIGTERM')
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('error', reject)
    child.once('close', (code, signal) => resolve({ code, signal, output, served }))
  })
}

/** The files the examples name, for the demo world the server holds. */
function files(): Record<string, string> {
  const voters = [environment.DEMO_ADDRESS!, environment.DEMO_VERIFIED_ADDRESS!]
  return {
    // score --addresses voters.txt: one address a line
    'voters.txt': `${voters.join('\n')}\n`,
    // audit --votes votes.csv: a Snapshot vote export
    'votes.csv': `address,choice,voting_power\n${voters[0]},1,10\n${voters[1]},2,5\n`,
    // strategy-server --config strategy-server.json: the demo chain for Optimism, answers in memory
    'strategy-server.json': JSON.stringify({ rpc: { 10: environment.PERSONHOOD_RPC_URL }, store: 'none' }),
  }
}

beforeAll(async () => {
  ensureBuilt()
  folder = mkdtempSync(join(tmpdir(), 'personhood-help-examples-'))
  mkdirSync(join(folder, 'bin'))
  // `personhood` as an installed bin would be: the checkout's own
  writeFileSync(join(folder, 'bin/personhood'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`)
  chmodSync(join(folder, 'bin/personhood'), 0o755)
  server = spawn(process.execPath, [bin, 'serve', '--seed', 'demo', '--port', '0', '--chain', '--chain-port', '0'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] })
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      serverOutput += chunk.toString()
      // serve prints the export lines before this one, each line on its own
      if (/^ {2}Demo accounts:$/m.test(serverOutput)) resolve()
    }
    server!.stdout!.on('data', read)
    server!.stderr!.on('data', read)
    server!.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${serverOutput}`)))
  })
  environment = Object.fromEntries([...serverOutput.matchAll(/^ {4}export ([A-Z_]+)=(\S+)/gm)].map((match) => [match[1]!, match[2]!]))
}, 180_000)

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve))
    server.kill('SIGTERM')
    await exited
  }
  if (folder) rmSync(folder, { recursive: true, force: true })
})

describe('every --help example', () => {
  it('every command has examples, and the demo server gave the variables they read', () => {
    const commands = createProgram().commands.map((command) => command.name())
    expect([...new Set(examples.map((example) => example.name))].sort()).toEqual([...commands].sort())
    const read = new Set(examples.flatMap((example) => [...example.line.matchAll(/\$([A-Z_]+)/g)].map((match) => match[1]!)))
    expect([...read].filter((name) => !(name in environment))).toEqual([])
  })

  it.each(examples.map((example) => [`${example.name}: ${example.what}`, example] as const))('%s', async (_title, example) => {
    const result = await run(example.line)
    const shown = `\`${example.line}\` ended with ${result.code ?? result.signal}:\n${result.output}`
    if (result.served) expect(result.code, shown).toBe(0)
    else expect(example.exitCodes, shown).toContain(result.code)
  }, 180_000)
})
