/**
 * The answer store under the worst a host does: `personhood strategy-server` (the built bin) is
 * killed with SIGKILL in the middle of a burst, then started again on the same store with every
 * source unreachable: each answer it acknowledged before the kill is still served, equal, from the
 * store alone. A store with a corrupt line is named and never served; a torn last line (a write
 * the kill cut, never acknowledged) is cut off.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuilt, root } from '../helpers/built.js'
import { humanVerificationServing } from '../strategies/human-id-serving.js'
import type { ExampleServer } from '../strategies/conformance.js'
import { apiV2 } from './api-v2.js'

const salt = 'durability-test-salt'
const snapshot = 136_566_811
const options = { credentials: ['gov-id', 'phone', 'biometrics'] }
let world: ExampleServer & { env: Record<string, string> }
let folder: string

type Started = { child: ChildProcessWithoutNullStreams; url: string; output: () => string }

function writeConfig(name: string, sourcesUp: boolean): string {
  const dead = 'http://127.0.0.1:9'
  const file = join(folder, `${name}.json`)
  const rpc = sourcesUp ? world.env.HUMAN_ID_RPC_URL! : dead
  writeFileSync(
    file,
    JSON.stringify({
      port: 0,
      salt,
      store: join(folder, 'answers.log'),
      rpc: { '10': rpc },
      humanId: { hubChainRpc: rpc, apiUrl: sourcesUp ? world.env.HUMAN_ID_API_URL : dead, attestationIndexUrl: sourcesUp ? world.env.ATTESTATION_INDEX_URL : dead },
    }),
  )
  return file
}

function startBin(config: string): Promise<Started> {
  const child = spawn(process.execPath, [join(root, 'bin/personhood.js'), 'strategy-server', '--config', config, '--quiet'], { cwd: root })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve, reject) => {
    const check = () => {
      if (/Secured:/.test(output)) resolve({ child, url: /listening on (http:\/\/\S+)/.exec(output)![1]!, output: () => output })
    }
    child.stdout.on('data', check)
    child.once('exit', (code) => reject(new Error(`strategy-server exited with ${code}:\n${output}`)))
  })
}

function runToExit(config: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [join(root, 'bin/personhood.js'), 'strategy-server', '--config', config, '--quiet'], { cwd: root })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })))
}

function call(url: string, address: string) {
  return apiV2({ url: `${url}/strategies/human-id`, type: 'api-post', ...options }, { network: '10', snapshot, addresses: [address] }, salt)
}

beforeAll(async () => {
  ensureBuilt()
  world = (await humanVerificationServing.start()) as typeof world
  folder = mkdtempSync(join(tmpdir(), 'strategy-server-durability-'))
}, 240_000)

afterAll(async () => {
  await world?.close()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

describe('strategy-server store (built bin)', () => {
  it('a kill -9 during a burst loses no acknowledged answer', async () => {
    const first = await startBin(writeConfig('up', true))
    const voters = world.voters(600)
    const acknowledged = new Map<string, number>()
    let killed = false
    // One voter at a time in flight per lane, so answers keep arriving while the kill lands.
    const lanes = Array.from({ length: 20 }, (_, lane) =>
      (async () => {
        for (let index = lane; index < voters.length && !killed; index += 20) {
          const address = voters[index]!
          try {
            const { scores } = await call(first.url, address)
            acknowledged.set(address, Object.values(scores)[0]!)
          } catch {
            return // the server is gone
          }
          if (acknowledged.size >= 150 && !killed) {
            killed = true
            first.child.kill('SIGKILL')
          }
        }
      })(),
    )
    await Promise.all(lanes)
    await new Promise<void>((resolve) => (first.child.exitCode !== null || first.child.signalCode !== null ? resolve() : first.child.once('exit', () => resolve())))
    expect(first.child.signalCode).toBe('SIGKILL')
    expect(acknowledged.size).toBeGreaterThanOrEqual(150)
    expect(acknowledged.size).toBeLessThan(voters.length)
    // Every source is unreachable now: only the store can answer.
    const second = await startBin(writeConfig('down', false))
    try {
      expect(second.output()).toMatch(/Answer store: .*answers\.log \([0-9]+ answers/)
      for (const [address, score] of acknowledged) {
        const { scores, response } = await call(second.url, address)
        expect(response.headers.get('X-Personhood-Cache-Hits')).toBe('1')
        expect(Object.values(scores)[0]).toBe(score)
      }
      // A voter never asked for cannot be answered from the store, and is not answered 0.
      const never = voters.find((address) => !acknowledged.has(address) && !readFileSync(join(folder, 'answers.log'), 'utf8').includes(address.toLowerCase()))!
      const error = await call(second.url, never).catch((caught: unknown) => caught as { status: number })
      expect(error).toHaveProperty('status', 502)
    } finally {
      second.child.kill('SIGTERM')
      await new Promise((resolve) => second.child.once('exit', resolve))
    }
  }, 240_000)

  it('a torn last line is cut off; a corrupt line is named and nothing is served', async () => {
    const store = join(folder, 'answers.log')
    const config = writeConfig('down', false)
    const tornLine = '0123456789abcdef {"g":"human-id|torn'
    appendFileSync(store, tornLine)
    const torn = await startBin(config)
    try {
      expect(torn.output()).toContain(`a torn last line of ${Buffer.byteLength(tornLine)} bytes, never acknowledged, was cut off`)
    } finally {
      torn.child.kill('SIGTERM')
      await new Promise((resolve) => torn.child.once('exit', resolve))
    }
    expect(readFileSync(store, 'utf8').endsWith('\n')).toBe(true)
    // Flip one digit of a score in the second record.
    const lines = readFileSync(store, 'utf8').split('\n')
    lines[2] = lines[2]!.replace(/:([0-9])([,}])/, (_match, digit: string, end: string) => `:${digit === '0' ? '1' : '0'}${end}`)
    writeFileSync(store, lines.join('\n'))
    const refused = await runToExit(config)
    expect(refused.code).toBe(3)
    expect(refused.output).toContain(`The answer store ${store} cannot be used (line 3).`)
    expect(refused.output).toContain('The line does not match its checksum: the file is corrupt.')
    expect(refused.output).not.toContain('listening on')
  }, 120_000)
})
