/**
 * `personhood serve` over a real port: the built bin is spawned, prints its base URLs, an API key and
 * the admin token, answers the foundation clients on every interface, and saves its state on SIGTERM.
 * Builds `dist/` first when it is missing or older than `src/`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createPassportClient } from '../../src/clients/passport/index.js'
import { createRegistryClient } from '../../src/clients/registry/index.js'
import { exitCodeFor, exitCodes } from '../../src/cli/exit-codes.js'
import { serveNotices } from '../../src/cli/serve.js'
import { startServe } from '../../src/server/start.js'
import { loadStateFile } from '../../src/server/persistence.js'
import { ensureBuilt, root } from '../helpers/built.js'

type Started = { child: ChildProcessWithoutNullStreams; output: () => string; url: string; apiKey: string; adminToken: string }

async function startBin(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [join(root, 'bin/personhood.js'), 'serve', '--port', '0', ...args], { cwd: root })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 240_000)
    const check = () => {
      if (/Admin token/.test(output)) {
        clearTimeout(timer)
        resolve()
      }
    }
    child.stdout.on('data', check)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code}:\n${output}`))
    })
  })
  const url = /listening on (http:\/\/\S+)/.exec(output)![1]!
  const apiKey = /API key \(X-API-KEY\): (\S+)/.exec(output)![1]!
  const adminToken = /Admin token \(Authorization: Bearer\): (\S+)/.exec(output)![1]!
  return { child, output: () => output, url, apiKey, adminToken }
}

/** Runs `personhood serve ...` that should exit on its own (a refusal); killed after 60 s if it does not. */
async function runBin(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, 'bin/personhood.js'), 'serve', ...args], { cwd: root })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  clearTimeout(timer)
  return { code, stdout, stderr }
}

function stop(started: Started): Promise<number | null> {
  return new Promise((resolve) => {
    if (started.child.exitCode !== null) return resolve(started.child.exitCode)
    started.child.once('exit', (code) => resolve(code))
    started.child.kill('SIGTERM')
  })
}

describe('personhood serve (built bin, real port)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'personhood-serve-'))
  const dataFile = join(dataDir, 'state.json')
  let demo: Started

  beforeAll(async () => {
    ensureBuilt()
    demo = await startBin(['--seed', 'demo', '--data', dataFile])
  }, 300_000)
  afterAll(async () => {
    if (demo) await stop(demo)
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('says that the demo world\'s keys are public', () => {
    expect(demo.output()).toContain('Demo world: its API keys and account keys are public and the same on every machine.')
  })

  test('refuses a state file with a wrong-typed field: names the file and the field, binds nothing, changes nothing', async () => {
    const saved = JSON.parse(readFileSync(dataFile, 'utf8'))
    saved.scorers[0].threshold = 20
    const broken = join(dataDir, 'broken.json')
    const text = JSON.stringify(saved)
    writeFileSync(broken, text)
    const { code, stdout, stderr } = await runBin(['--port', '0', '--data', broken])
    const output = stdout + stderr
    expect(code).toBe(exitCodes.input) // a state file that cannot be used is a wrong input
    expect(output).toContain(`The state file ${broken} cannot be used; nothing was changed.`)
    expect(output).toContain('scorers[0].threshold: Invalid input: expected string, received number')
    expect(output).not.toContain('listening on')
    expect(readFileSync(broken, 'utf8')).toBe(text)
  })

  test('prints the base URL of each interface, an API key and the admin token', () => {
    const output = demo.output()
    for (const path of ['', '/human-id', '/attestation-index', '/admin']) expect(output).toContain(`${demo.url}${path}`)
    expect(demo.apiKey).toMatch(/^[0-9a-f]{8}\.[0-9a-f]{32}$/)
    expect(demo.adminToken).toMatch(/^[0-9a-f]{48}$/)
  })

  test('answers the clients of A, B and C, and the E and admin routes', async () => {
    const passport = createPassportClient({ apiKey: demo.apiKey, baseUrl: demo.url, rateLimiters: false })
    const registry = createRegistryClient({ apiKey: demo.apiKey, baseUrl: demo.url, rateLimiter: false })
    const admin = { Authorization: `Bearer ${demo.adminToken}` }
    const state = await (await fetch(`${demo.url}/admin/state`, { headers: admin })).json()
    const passing = state.demoAccounts.find((account: { story: string }) => account.story === 'passing-stamps').address
    const verified = state.demoAccounts.find((account: { story: string }) => account.story === 'gov-id-verified').address
    const cleanHands = state.demoAccounts.find((account: { story: string }) => account.story === 'clean-hands-only').address

    expect(await passport.getScore({ scorerId: 1, address: passing })).toMatchObject({ address: passing, passing_score: true })
    expect((await passport.getModelScore({ address: passing })).score).toBeGreaterThanOrEqual(-1)
    expect((await passport.getStampMetadata()).length).toBeGreaterThan(0)
    expect(await registry.submitPassport({ address: passing, scorerId: 3 })).toMatchObject({ status: 'DONE', score: '1.000000000' })
    expect((await registry.getScore({ scorerId: 3, address: passing })).evidence?.success).toBe(true)
    expect(await (await fetch(`${demo.url}/human-id/sybil-resistance/gov-id/optimism?user=${verified}&action-id=123456789`)).json()).toMatchObject({ result: true })
    expect((await (await fetch(`${demo.url}/attestation-index/api/scan/addresses/${cleanHands}/attestations`)).json()).data.rows.length).toBeGreaterThan(0)
    expect((await fetch(`${demo.url}/stamp-cache/weights`)).status).toBe(200)
    expect((await fetch(`${demo.url}/admin/state`)).status).toBe(401)
    expect((await fetch(`${demo.url}/v2/stamps/metadata`)).status).toBe(401)
  })

  test('SIGTERM saves the state to --data and exits 0', async () => {
    const response = await fetch(`${demo.url}/admin/model-scores/0x00000000000000000000000000000000000000aa`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${demo.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ nft: 77 }),
    })
    expect(response.status).toBe(200)
    expect(await stop(demo)).toBe(0)
    const saved = JSON.parse(readFileSync(dataFile, 'utf8'))
    expect(saved.modelScores['0x00000000000000000000000000000000000000aa']).toEqual({ nft: 77 })

    const restarted = await startBin(['--data', dataFile])
    try {
      expect(restarted.adminToken).toBe(demo.adminToken)
      const model = await fetch(`${restarted.url}/v2/models/score/0x00000000000000000000000000000000000000aa?model=nft`, { headers: { 'X-API-KEY': restarted.apiKey } })
      expect((await model.json()).details.models.nft.score).toBe(77)
    } finally {
      expect(await stop(restarted)).toBe(0)
    }
  })

  test('SIGTERM sent the moment the URL line is read still saves and exits 0', async () => {
    const file = join(dataDir, 'signal-at-url.json')
    const child = spawn(process.execPath, [join(root, 'bin/personhood.js'), 'serve', '--port', '0', '--seed', 'empty', '--data', file], { cwd: root })
    let output = ''
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stdout.on('data', (chunk: Buffer) => {
      const first = !/listening on/.test(output)
      output += chunk.toString()
      if (first && /listening on/.test(output)) child.kill('SIGTERM')
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000)
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])))
    clearTimeout(timer)
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    expect(output).toContain('SIGTERM: saving and stopping...')
    expect(loadStateFile(file)?.store.state.scorers).toEqual([])
  }, 300_000)

  test('--seed empty starts with no scorers and a working generated key', async () => {
    const empty = await startBin(['--seed', 'empty'])
    try {
      const response = await fetch(`${empty.url}/v2/stamps/metadata`, { headers: { 'X-API-KEY': empty.apiKey } })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual([])
      expect((await fetch(`${empty.url}/v2/stamps/1/score/0x00000000000000000000000000000000000000aa`, { headers: { 'X-API-KEY': empty.apiKey } })).status).toBe(404)
    } finally {
      await stop(empty)
    }
  }, 300_000)
})

describe('personhood serve: what it says when it cannot start (built bin)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'personhood-serve-errors-'))
  beforeAll(() => ensureBuilt(), 300_000)
  afterAll(() => {
    chmodSync(join(dir, 'read-only'), 0o700)
    rmSync(dir, { recursive: true, force: true })
  })

  /** A refusal: exits non-zero, prints one message and no stack trace, binds nothing. */
  function expectRefusal(result: { code: number | null; stdout: string; stderr: string }): string {
    const output = result.stdout + result.stderr
    expect(result.code).not.toBe(0)
    expect(result.code).not.toBeNull()
    expect(output).not.toContain('listening on')
    expect(output).not.toMatch(/^\s+at /m)
    expect(output).not.toMatch(/\.tmp\b/)
    return output
  }

  test('a port in use: names the port and suggests --port 0; a state file this start created is removed', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    const file = join(dir, 'fresh.json')
    try {
      const output = expectRefusal(await runBin(['--port', String(port), '--seed', 'empty', '--data', file]))
      expect(output).toContain(`Port ${port} on 127.0.0.1 is already in use`)
      expect(output).toContain('--port 0')
      expect(existsSync(file)).toBe(false)
      expect(existsSync(`${file}.log`)).toBe(false)
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })

  test('--data naming a folder: names the path and the option, suggests a file in it', async () => {
    const output = expectRefusal(await runBin(['--port', '0', '--seed', 'empty', '--data', dir]))
    expect(output).toContain(`--data ${dir}: is a folder`)
    expect(output).toContain(join(dir, 'state.json'))
    expect(readdirSync(dir).filter((name) => name !== 'read-only')).toEqual([])
  })

  test('--data in a missing folder, or under a file: names the path, the option and the folder', async () => {
    const missing = join(dir, 'missing', 'state.json')
    expect(expectRefusal(await runBin(['--port', '0', '--seed', 'empty', '--data', missing]))).toContain(`--data ${missing}: the folder ${join(dir, 'missing')} does not exist`)
    const plain = join(dir, 'plain-file')
    writeFileSync(plain, 'x')
    try {
      expect(expectRefusal(await runBin(['--port', '0', '--seed', 'empty', '--data', join(plain, 'state.json')]))).toContain(`${plain} is not a folder`)
    } finally {
      rmSync(plain)
    }
  })

  // Root may write anywhere chmod says it may not; /proc/self then plays the unwritable folder.
  const readOnly = join(dir, 'read-only')
  mkdirSync(readOnly, { mode: 0o500 })
  const unwritable = [readOnly, '/proc/self'].find((folder) => {
    try {
      accessSync(folder, constants.W_OK)
      return false
    } catch {
      return existsSync(folder)
    }
  })
  test.skipIf(unwritable === undefined)('--data in a folder this user cannot write: names the path and the option', async () => {
    const file = join(unwritable!, 'state.json')
    const output = expectRefusal(await runBin(['--port', '0', '--seed', 'empty', '--data', file]))
    expect(output).toContain(`--data ${file}: the folder ${unwritable} cannot be written by this user`)
  })

  test('a state file that is not JSON: names the file, refuses to start, leaves it as it was', async () => {
    const file = join(dir, 'corrupt.json')
    const text = '{"version": 3, "scorers": [{"id": 1, "na'
    writeFileSync(file, text)
    try {
      const output = expectRefusal(await runBin(['--port', '0', '--data', file]))
      expect(output).toContain(`The state file ${file} cannot be used; nothing was changed.`)
      expect(output).toContain('Not JSON')
      expect(readFileSync(file, 'utf8')).toBe(text)
      expect(existsSync(`${file}.log`)).toBe(false)
    } finally {
      rmSync(file)
    }
  })

  test('the errors are typed: a CLI maps them to the input exit code', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as { port: number }).port
    try {
      for (const options of [{ port }, { port: 0, data: dir }, { port: 0, data: join(dir, 'missing', 'state.json') }]) {
        const error = await startServe({ seed: 'empty', ...options }).then(
          async (running) => {
            await running.close()
            return undefined
          },
          (caught: unknown) => caught,
        )
        expect(exitCodeFor(error)).toBe(exitCodes.input)
      }
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })
})

describe('serve notices', () => {
  test('a demo world says its keys are public, and warns when other machines can reach it', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) expect(serveNotices({ host, demoWorld: true })).toHaveLength(1)
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) expect(serveNotices({ host, demoWorld: true })[1]).toMatch(/^ {2}WARNING: bound to /)
    expect(serveNotices({ host: '0.0.0.0', demoWorld: false })).toEqual([])
  })
})

describe('personhood serve --data under kill -9 (built bin)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'personhood-kill-'))
  beforeAll(() => ensureBuilt(), 300_000)
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  test('SIGKILL in the middle of concurrent score reads, twice: every acknowledged read is in the state after a restart', async () => {
    const file = join(dataDir, 'state.json')
    const apiKey = 'killtest.0123456789abcdef0123456789abcdef'
    const acknowledged: string[] = []
    for (let round = 0; round < 2; round++) {
      const server = await startBin(round === 0 ? ['--seed', 'demo', '--wallets', '50', '--data', file] : ['--data', file])
      if (round === 0) {
        const key = await fetch(`${server.url}/admin/api-keys/${apiKey}`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ tier: 4 }),
        })
        expect(key.status).toBe(200)
      }
      const exited = new Promise((resolve) => server.child.once('exit', resolve))
      let killed = false
      const worker = async (lane: number) => {
        for (let i = 0; !killed; i++) {
          const address = `0x${(round * 1_000_000 + lane * 100_000 + i).toString(16).padStart(40, '0')}`
          try {
            const response = await fetch(`${server.url}/v2/stamps/1/score/${address}`, { headers: { 'X-API-KEY': apiKey } })
            if (response.status === 200) acknowledged.push(address)
            await response.arrayBuffer()
          } catch {
            // The connection died with the server: that read was never acknowledged.
          }
        }
      }
      const workers = Array.from({ length: 8 }, (_, lane) => worker(lane))
      while (acknowledged.length < (round + 1) * 150) await new Promise((resolve) => setTimeout(resolve, 5))
      server.child.kill('SIGKILL')
      killed = true
      await exited
      await Promise.all(workers)
    }
    const loaded = loadStateFile(file)!
    const missing = acknowledged.filter((address) => !loaded.store.historyAt(1, address, Number.MAX_SAFE_INTEGER))
    expect(missing).toEqual([])
    expect(acknowledged.length).toBeGreaterThanOrEqual(300)
  }, 300_000)
})
