/**
 * Persistence (`--data`): every acknowledged change is on disk when its answer arrives (atomic
 * writes, coalesced), and a server restarted from the file has the identical state.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { startServe, type RunningServe } from '../../src/cli/serve.js'
import { createServer } from '../../src/server/index.js'
import { createFilePersistence, loadStateFile } from '../../src/server/persistence.js'
import { Store } from '../../src/server/state/store.js'
import { adminToken, keys, testWorld, worldNow, worldNowMs } from './harness.js'

const directories: string[] = []
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
    const saved = JSON.parse(readFileSync(file, 'utf8'))
    expect(saved.history['1'][address].at(-1).record).toEqual(await response.json())

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
    const afterBatch = JSON.parse(readFileSync(file, 'utf8'))
    for (const entry of addresses) expect(afterBatch.stamps[entry]).toHaveLength(1)
    expect(persistence.savedRevision).toBe(store.revision)

    // Reads that change nothing do not write.
    const revision = store.revision
    await server.fetch(new Request('http://x/v2/stamps/metadata', { headers: { 'X-API-KEY': key } }))
    expect(store.revision).toBe(revision)

    await persistence.close()
    expect(readdirSync(join(file, '..'))).toEqual(['state.json'])
    const restarted = loadStateFile(file)!
    expect(restarted.toJSON()).toEqual(JSON.parse(JSON.stringify(store.toJSON())))
    const again = createServer({ store: restarted, now: () => worldNowMs })
    const reread = await again.fetch(new Request(`http://x/v2/stamps/1/score/${address}/history?created_at=2030-01-01`, { headers: { 'X-API-KEY': key } }))
    expect((await reread.json()).items[0]).toEqual(saved.history['1'][address].at(-1).record)
  })

  test('a file that is not a state is refused; a missing file is no state', () => {
    const file = tempFile()
    expect(loadStateFile(file)).toBeUndefined()
    writeFileSync(file, JSON.stringify({ version: 99 }))
    expect(() => loadStateFile(file)).toThrow('Not a personhood server state')
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
