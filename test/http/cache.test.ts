import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createCachingFetch } from '../../src/http/cache.js'

let dir: string
const scope = { chainId: '10', blockNumber: 100n }
const now = () => Date.parse('2026-01-01T00:00:00Z')
const history = (address: string, at = '2025-06-01T00:00:00.000Z') => `https://api.example/v2/stamps/1/score/${address}/history?created_at=${at}`
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'personhood-cache-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A fetch that answers from a function and counts what reached it. */
function network(answer: (request: Request) => Promise<Response> | Response) {
  const seen: Request[] = []
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init)
    seen.push(request)
    return answer(request)
  }) as typeof fetch
  return { fetch: fetchFn, seen }
}

function files(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

describe('createCachingFetch', () => {
  test('a second run of the same reads asks the network nothing', async () => {
    const net = network(() => Response.json({ score: '21.00000' }))
    const first = createCachingFetch({ dir, fetch: net.fetch, scope, now })
    const headers = { 'X-API-KEY': 'secret-key-123' }
    await (await first.fetch(history('0xabc'), { headers })).json()
    await first.fetch(history('0xdef'), { headers })
    expect(first.stats).toMatchObject({ misses: 2, stored: 2, hits: 0 })

    const second = createCachingFetch({ dir, fetch: net.fetch, scope, now })
    const answer = await second.fetch(history('0xabc'), { headers })
    expect(await answer.json()).toEqual({ score: '21.00000' })
    await second.fetch(history('0xdef'), { headers })
    expect(second.stats).toMatchObject({ hits: 2, misses: 0 })
    expect(net.seen).toHaveLength(2)
  })

  test('keeps no key or token on disk, and its files are private', async () => {
    const net = network(() => Response.json({ ok: true }))
    const cache = createCachingFetch({ dir, fetch: net.fetch, scope, now })
    await cache.fetch(history('0xabc'), { headers: { 'X-API-KEY': 'secret-key-123', Authorization: 'Bearer tok-456' } })
    expect(files(dir)).toHaveLength(1)
    for (const file of files(dir)) {
      expect(readFileSync(file, 'utf8')).not.toMatch(/secret-key-123|tok-456/)
      expect(statSync(file).mode & 0o077).toBe(0)
    }
  })

  test('never keeps an error, a write or a read of latest', async () => {
    let status = 503
    const net = network(() => new Response('{"detail":"busy"}', { status }))
    const cache = createCachingFetch({ dir, fetch: net.fetch, scope, now })
    await cache.fetch(history('0xabc'))
    status = 200
    await cache.fetch(history('0xabc'))
    expect(net.seen).toHaveLength(2)
    await cache.fetch('https://api.example/write', { method: 'POST', body: JSON.stringify({ address: '0x1' }) })
    await cache.fetch('https://api.example/write', { method: 'POST', body: JSON.stringify({ address: '0x1' }) })
    const latest = { jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: '0x1', data: '0x' }, 'latest'] }
    await cache.fetch('https://rpc.example', { method: 'POST', body: JSON.stringify(latest) })
    await cache.fetch('https://rpc.example', { method: 'POST', body: JSON.stringify(latest) })
    await cache.fetch('https://hub.example/graphql', { method: 'POST', body: JSON.stringify({ query: 'mutation { vote }', variables: {} }) })
    expect(net.seen).toHaveLength(7)
    expect(cache.stats.hits).toBe(0)
  })

  test('JSON-RPC reads pinned to a block are kept whatever their id, and answered with the caller’s id', async () => {
    const net = network(async (request) => {
      const body = (await request.json()) as { id: number }[]
      return Response.json(body.map((call) => ({ jsonrpc: '2.0', id: call.id, result: '0x2a' })))
    })
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'eth_call', params: [{ to: '0x1', data: '0xabcd' }, '0x10'] })
    const cache = createCachingFetch({ dir, fetch: net.fetch, scope, now })
    await cache.fetch('https://rpc.example', { method: 'POST', body: JSON.stringify([call(1), call(2)]) })
    const again = await cache.fetch('https://rpc.example', { method: 'POST', body: JSON.stringify([call(7), call(8)]) })
    expect(await again.json()).toEqual([
      { jsonrpc: '2.0', id: 7, result: '0x2a' },
      { jsonrpc: '2.0', id: 8, result: '0x2a' },
    ])
    expect(net.seen).toHaveLength(1)
  })

  test('a JSON-RPC error answer is not kept', async () => {
    const net = network(() => Response.json({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'header not found' } }))
    const cache = createCachingFetch({ dir, fetch: net.fetch, scope, now })
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0x10', false] })
    await cache.fetch('https://rpc.example', { method: 'POST', body })
    await cache.fetch('https://rpc.example', { method: 'POST', body })
    expect(net.seen).toHaveLength(2)
  })

  test('answers about current state are never kept: a score now, the C4 listing, attestations, the hub, the chain id', async () => {
    const net = network(() => Response.json({ items: [], count: 0, data: { votes: [] }, jsonrpc: '2.0', id: 1, result: '0xa' }))
    const cache = createCachingFetch({ dir, fetch: net.fetch, scope, now })
    const reads = [
      () => cache.fetch('https://api.example/v2/stamps/1/score/0xabc'),
      () => cache.fetch('https://api.example/registry/score/1?limit=1000&offset=0'),
      () => cache.fetch('https://api.example/registry/score/1/0xabc'),
      () => cache.fetch('https://index.example/api/scan/addresses/0xabc/attestations'),
      () => cache.fetch('https://index.example/api/index/attestations?schemaId=x&page=2'),
      () => cache.fetch('https://hid.example/sybil-resistance/gov-id/optimism?user=0xabc&action-id=1'),
      () => cache.fetch('https://hub.example/graphql', { method: 'POST', body: JSON.stringify({ query: 'query Votes { votes }', variables: { skip: 0 } }) }),
      () => cache.fetch('https://rpc.example', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) }),
      // A score history at a time that may still be written (under an hour before now).
      () => cache.fetch(history('0xabc', '2025-12-31T23:30:00.000Z')),
    ]
    for (const read of [...reads, ...reads]) await read()
    expect(net.seen).toHaveLength(reads.length * 2)
    expect(cache.stats.hits).toBe(0)
    expect(files(dir)).toEqual([])
  })

  test('answers fixed for a snapshot are kept per chain and block: another snapshot asks again', async () => {
    let score = '5'
    const net = network(() => Response.json({ score }))
    const at = (blockNumber: bigint, chainId = '10') => createCachingFetch({ dir, fetch: net.fetch, scope: { chainId, blockNumber }, now })
    const e4 = 'https://hid.example/voting-strategies/sybil-resistance/gov-id?network=10&snapshot=100&addresses=0xabc&action-id=1'
    expect(await (await at(100n).fetch(history('0xabc'))).json()).toEqual({ score: '5' })
    await at(100n).fetch(e4)
    score = '30'
    expect(await (await at(100n).fetch(history('0xabc'))).json()).toEqual({ score: '5' })
    expect(await (await at(200n).fetch(history('0xabc'))).json()).toEqual({ score: '30' })
    expect(await (await at(100n, '1').fetch(history('0xabc'))).json()).toEqual({ score: '30' })
    await at(100n).fetch(e4)
    expect(net.seen).toHaveLength(4)
  })

  test('refuses a cache folder others can write to, or that is a symlink', async () => {
    const { chmodSync, mkdirSync, symlinkSync } = await import('node:fs')
    const open = join(dir, 'open')
    mkdirSync(open)
    chmodSync(open, 0o777)
    expect(() => createCachingFetch({ dir: open, scope })).toThrow(/"--cache-dir" is invalid[\s\S]*open is writable by every user: its answers could be planted by someone else/)
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'link'))
    mkdirSync(join(dir, 'elsewhere'), { mode: 0o700 })
    expect(() => createCachingFetch({ dir: join(dir, 'link'), scope })).toThrow(/is a symbolic link/)
  })
})
