/**
 * Persistence (`--data`): every acknowledged change is on disk when its answer arrives (atomic
 * writes, coalesced), and a server restarted from the file has the identical state.
 */
import { appendFileSync, chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, test } from 'vitest'
import { startServe, type RunningServe } from '../../src/server/start.js'
import { createServer } from '../../src/server/index.js'
import { createFilePersistence, loadStateFile, logFileOf } from '../../src/server/persistence.js'
import { readAt } from '../../src/server/state/history.js'
import { Store } from '../../src/server/state/store.js'
import { adminToken, keys, testWorld, worldNow, worldNowMs } from './harness.js'

const directories: string[] = []
afterAll(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true })
})

/** The durable state: the snapshot with its log replayed, as a restart sees it. */
function durable(file: string) {
  return loadStateFile(file)!.store.toJSON()
}

/** A state as it is saved: the nonces, which live minutes, are not. */
function withoutNonces(state: object) {
  return { ...JSON.parse(JSON.stringify(state)), signingNonces: {}, tosNonces: {}, siweNonces: {} }
}

function tempFile(): string {
  const directory = mkdtempSync(join(tmpdir(), 'personhood-state-'))
  directories.push(directory)
  return join(directory, 'state.json')
}

describe('file persistence', () => {
  test('an answer is sent only once its change is saved; a restart from the file has the identical state', async () => {
    const file = tempFile()
    const { world, state } = testWorld()
    const store = new Store(structuredClone(state), { now: () => worldNowMs })
    const persistence = createFilePersistence({ file, store })
    const server = createServer({ store, now: () => worldNowMs, persistence })
    const key = keys(world).indexer
    const address = world.demoAccounts[0]!.address

    const response = await server.fetch(new Request(`http://x/v2/stamps/1/score/${address}`, { headers: { 'X-API-KEY': key } }))
    expect(response.status).toBe(200)
    const saved = durable(file)
    expect(readAt(saved.history['1']![address], Infinity)?.record).toEqual(await response.json())

    // Concurrent changes are coalesced; every one of them is on disk when its answer arrives.
    const addresses = Array.from({ length: 20 }, (_, i) => `0x${(0xe000 + i).toString(16).padStart(40, '0')}`)
    await Promise.all(
      addresses.map((entry) =>
        server.fetch(
          new Request('http://x/admin/stamps', {
            method: 'POST',
            headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ address: entry, provider: 'Google' }),
          }),
        ),
      ),
    )
    const afterBatch = durable(file)
    for (const entry of addresses) expect(afterBatch.stamps[entry]).toHaveLength(1)
    expect(persistence.savedRevision).toBe(store.revision)

    // Reads that change nothing do not write.
    const revision = store.revision
    await server.fetch(new Request('http://x/v2/stamps/metadata', { headers: { 'X-API-KEY': key } }))
    expect(store.revision).toBe(revision)

    await persistence.close()
    expect(readdirSync(join(file, '..')).sort()).toEqual(['state.json', 'state.json.log'])
    const restarted = loadStateFile(file)!.store
    expect(restarted.toJSON()).toEqual(withoutNonces(store.toJSON()))
    const again = createServer({ store: restarted, now: () => worldNowMs })
    const reread = await again.fetch(new Request(`http://x/v2/stamps/1/score/${address}/history?created_at=2030-01-01`, { headers: { 'X-API-KEY': key } }))
    expect((await reread.json()).items[0]).toEqual(readAt(saved.history['1']![address], Infinity)?.record)
  })

  test('a file that is not a state is refused; a missing file is no state', () => {
    const file = tempFile()
    expect(loadStateFile(file)).toBeUndefined()
    writeFileSync(file, JSON.stringify({ version: 99 }))
    expect(() => loadStateFile(file)).toThrow(`The state file ${file} cannot be used; nothing was changed.`)
  })

  test('a save costs the size of the change, not of the state: score reads append a line each, nonces write nothing', async () => {
    const file = tempFile()
    const { world, state } = testWorld()
    const store = new Store(structuredClone(state), { now: () => worldNowMs })
    const persistence = createFilePersistence({ file, store })
    const server = createServer({ store, now: () => worldNowMs, persistence })
    await persistence.flush()
    const snapshotBytes = statSync(file).size
    expect(persistence.writes.snapshots).toBe(1)

    const key = keys(world).indexer
    const before = persistence.writes.bytes
    for (const account of world.demoAccounts) {
      for (let i = 0; i < 20; i++) await server.fetch(new Request(`http://x/v2/stamps/1/score/${account.address}`, { headers: { 'X-API-KEY': key } }))
    }
    for (let i = 0; i < 200; i++) await server.fetch(new Request('http://x/account/nonce'))
    const reads = world.demoAccounts.length * 20
    const perRead = (persistence.writes.bytes - before) / reads
    expect(persistence.writes.snapshots).toBe(1)
    // One history offset per read of an unchanged score (a new run when it changes): a tiny part of the state.
    expect(perRead).toBeLessThan(4096)
    expect(perRead * 100).toBeLessThan(snapshotBytes)
    await persistence.close()
    expect(durable(file)).toEqual(withoutNonces(store.toJSON()))
  })

  test('A2 history through the log: a read of an unchanged score appends one number; after a restart A2 answers every read exactly', async () => {
    const file = tempFile()
    const { world, state } = testWorld()
    const clock = { ms: worldNowMs }
    const store = new Store(structuredClone(state), { now: () => clock.ms })
    const persistence = createFilePersistence({ file, store })
    const server = createServer({ store, now: () => clock.ms, persistence })
    await persistence.flush()
    const key = keys(world).indexer
    const address = world.demoAccounts[0]!.address
    const answers: Array<{ last_score_timestamp: string }> = []
    const logBefore = statSync(logFileOf(file)).size
    for (let i = 0; i < 300; i++) {
      clock.ms += 60_000 + (i % 3)
      answers.push(await (await server.fetch(new Request(`http://x/v2/stamps/1/score/${address}`, { headers: { 'X-API-KEY': key } }))).json())
    }
    const lines = readFileSync(logFileOf(file), 'utf8').slice(logBefore).trim().split('\n').map((line) => JSON.parse(line))
    const history = lines.filter((line) => line.path[0] === 'history')
    expect(history).toHaveLength(300)
    // After the first read of the run, each read is one pushed number.
    expect(history.slice(1).every((line) => line.op === 'push' && line.path.at(-1) === 'offsets' && /^\d+$/.test(line.json))).toBe(true)
    await persistence.close()

    const restarted = loadStateFile(file)!.store
    expect(restarted.toJSON()).toEqual(withoutNonces(store.toJSON()))
    for (const answer of answers) expect(restarted.historyAt(1, address, Date.parse(answer.last_score_timestamp))?.record).toEqual(answer)
  })

  test('a version 1 file (one history event per read) is converted at load and saved whole before any change is logged', async () => {
    const file = tempFile()
    const { state } = testWorld()
    const [address, runs] = Object.entries(state.history[1]!)[0]!
    const events = runs.flatMap((run) => run.offsets.map((offset) => readAt(runs, run.start + offset)!))
    const later = events.at(-1)!.at + 1000
    const pushed = { at: later, record: { ...events.at(-1)!.record, last_score_timestamp: new Date(later).toISOString() } }
    writeFileSync(file, JSON.stringify({ ...state, version: 1, history: { 1: { [address]: events } }, logGeneration: 3 }))
    writeFileSync(logFileOf(file), `${JSON.stringify({ g: 3, op: 'push', path: ['history', '1', address], json: JSON.stringify(pushed) })}\n`)

    const loaded = loadStateFile(file)!
    expect(loaded.upgraded).toBe(true)
    expect(loaded.store.state.version).toBe(2)
    for (const event of [...events, pushed]) expect(loaded.store.historyAt(1, address, event.at)).toEqual(event)
    const persistence = createFilePersistence({ file, store: loaded.store, generation: loaded.generation, upgraded: loaded.upgraded })
    loaded.store.acceptTos('IST', '0x00000000000000000000000000000000000000e5')
    await persistence.close()
    expect(persistence.writes.snapshots).toBe(1)

    const again = loadStateFile(file)!
    expect(again.upgraded).toBe(false)
    expect(again.store.toJSON()).toEqual(withoutNonces(loaded.store.toJSON()))
  })

  test('the log is compacted into a new snapshot once it outgrows it; older lines are never replayed again', async () => {
    const file = tempFile()
    const { world, state } = testWorld()
    const store = new Store(structuredClone(state), { now: () => worldNowMs })
    const persistence = createFilePersistence({ file, store })
    const server = createServer({ store, now: () => worldNowMs, persistence })
    const key = keys(world).indexer
    const address = world.demoAccounts[0]!.address
    for (let i = 0; persistence.writes.snapshots < 2 && i < 20_000; i++) {
      await server.fetch(new Request(`http://x/v2/stamps/1/score/${address}`, { headers: { 'X-API-KEY': key } }))
    }
    expect(persistence.writes.snapshots).toBe(2)
    await persistence.close()
    expect(statSync(logFileOf(file)).size).toBeLessThan(statSync(file).size)
    expect(durable(file)).toEqual(withoutNonces(store.toJSON()))
  })

  test('after a crash: a torn last log line is dropped with a warning, a torn middle line refuses the file, orphan temp files go', async () => {
    const file = tempFile()
    const { state } = testWorld()
    const store = new Store(structuredClone(state), { now: () => worldNowMs })
    const persistence = createFilePersistence({ file, store })
    store.addStamps('0x00000000000000000000000000000000000000e1', [])
    store.acceptTos('IST', '0x00000000000000000000000000000000000000e1')
    await persistence.close()
    const orphan = join(file, '..', '.state.json.4242.1700000000000.tmp')
    writeFileSync(orphan, '{"half":')
    appendFileSync(logFileOf(file), '{"g":1,"op":"set","path":["nextStampId"],"js')

    const loaded = loadStateFile(file)!
    expect(loaded.warnings).toEqual([
      'removed 1 temp file(s) left by an interrupted save: .state.json.4242.1700000000000.tmp',
      `dropped a torn last line of ${logFileOf(file)} (a save interrupted by a crash; that change was never acknowledged)`,
    ])
    expect(loaded.store.tosAccepted('IST', '0x00000000000000000000000000000000000000e1')).toBe(true)
    expect(readdirSync(join(file, '..')).sort()).toEqual(['state.json', 'state.json.log'])

    appendFileSync(logFileOf(file), '\n{"g":1,"op":"set","path":["nextStampId"],"json":"7"}\n')
    expect(() => loadStateFile(file)).toThrow(`The state file ${logFileOf(file)} cannot be used; nothing was changed.`)
  })

  test('after a torn last line is dropped, the server keeps saving: the next restart reads every later change', async () => {
    const file = tempFile()
    const { state } = testWorld()
    const first = new Store(structuredClone(state), { now: () => worldNowMs })
    const persistence = createFilePersistence({ file, store: first })
    first.acceptTos('IST', '0x00000000000000000000000000000000000000e3')
    await persistence.close()
    appendFileSync(logFileOf(file), '{"g":1,"op":"push","path":["tosAcceptances"],"js')

    const loaded = loadStateFile(file)!
    expect(loaded.warnings).toHaveLength(1)
    const again = createFilePersistence({ file, store: loaded.store, generation: loaded.generation })
    loaded.store.acceptTos('IST', '0x00000000000000000000000000000000000000e4')
    await again.close()

    const reloaded = loadStateFile(file)!
    expect(reloaded.warnings).toEqual([])
    expect(reloaded.store.tosAccepted('IST', '0x00000000000000000000000000000000000000e3')).toBe(true)
    expect(reloaded.store.tosAccepted('IST', '0x00000000000000000000000000000000000000e4')).toBe(true)
  })

  test('the state file and its log are private (0600); an existing file others can read is warned about', async () => {
    const file = tempFile()
    const { state } = testWorld()
    const store = new Store(structuredClone(state), { now: () => worldNowMs })
    const persistence = createFilePersistence({ file, store })
    store.acceptTos('IST', '0x00000000000000000000000000000000000000e2')
    await persistence.close()
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(logFileOf(file)).mode & 0o777).toBe(0o600)
    expect(loadStateFile(file)!.warnings).toEqual([])
    chmodSync(file, 0o644)
    expect(loadStateFile(file)!.warnings).toEqual([`${file} is readable by other users (mode 644); it holds secrets: chmod 600 it.`])
  })
})

describe('serve --data', () => {
  const running: RunningServe[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.close()))
  })

  test('state written with --data, server restarted: state, admin token and keys identical', async () => {
    const file = tempFile()
    const first = await startServe({ port: 0, seed: 'demo', data: file, wallets: 60, worldNow })
    running.push(first)
    expect(first.source).toBe('demo')
    const headers = { 'X-API-KEY': first.apiKey }
    const admin = { Authorization: `Bearer ${first.adminToken}` }
    const address = first.app.context.store.state.demoAccounts[0]!.address
    expect((await fetch(`${first.url}/v2/stamps/1/score/${address}`, { headers })).status).toBe(200)
    expect(
      (
        await fetch(`${first.url}/admin/verifications`, {
          method: 'POST',
          headers: { ...admin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ address, credential: 'phone' }),
        })
      ).status,
    ).toBe(201)
    const before = await (await fetch(`${first.url}/admin/state`, { headers: admin })).json()
    await first.close()
    running.splice(0)

    const second = await startServe({ port: 0, seed: 'empty', data: file })
    running.push(second)
    expect(second.source).toBe('data')
    expect(second.adminToken).toBe(first.adminToken)
    expect(second.apiKey).toBe(first.apiKey)
    const after = await (await fetch(`${second.url}/admin/state`, { headers: admin })).json()
    expect(after).toEqual(before)
  })
})
