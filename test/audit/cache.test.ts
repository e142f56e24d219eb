import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createCachingFetch } from '../../src/audit/cache.js'

let dir: string
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
    const first = createCachingFetch({ dir, fetch: net.fetch })
    const headers = { 'X-API-KEY': 'secret-key-123' }
    await (await first.fetch('https://api.example/v2/stamps/1/score/0xabc', { headers })).json()
    await first.fetch('https://api.example/v2/stamps/1/score/0xdef', { headers })
    expect(first.stats).toMatchObject({ misses: 2, stored: 2, hits: 0 })

    const second = createCachingFetch({ dir, fetch: net.fetch })
    const answer = await second.fetch('https://api.example/v2/stamps/1/score/0xabc', { headers })
    expect(await answer.json()).toEqual({ score: '21.00000' })
    await second.fetch('https://api.example/v2/stamps/1/score/0xdef', { headers })
    expect(second.stats).toMatchObject({ hits: 2, misses: 0 })
    expect(net.seen).toHaveLength(2)
  })

  test('keeps no key or token on disk, and its files are private', async () => {
    const net = network(() => Response.json({ ok: true }))
    const cache = createCachingFetch({ dir, fetch: net.fetch })
    await cache.fetch('https://api.example/read', { headers: { 'X-API-KEY': 'secret-key-123', Authorization: 'Bearer tok-456' } })
    for (const file of files(dir)) {
      expect(readFileSync(file, 'utf8')).not.toMatch(/secret-key-123|tok-456/)
      expect(statSync(file).mode & 0o077).toBe(0)
    }
  })

  test('never keeps an error, a write or a read of latest', async () => {
    let status = 503
    const net = network(() => new Response('{"detail":"busy"}', { status }))
    const cache = createCachingFetch({ dir, fetch: net.fetch })
    await cache.fetch('https://api.example/read')
    status = 200
    await cache.fetch('https://api.example/read')
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
    const cache = createCachingFetch({ dir, fetch: net.fetch })
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
    const cache = createCachingFetch({ dir, fetch: net.fetch })
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['0x10', false] })
    await cache.fetch('https://rpc.example', { method: 'POST', body })
    await cache.fetch('https://rpc.example', { method: 'POST', body })
    expect(net.seen).toHaveLength(2)
  })

  test('GraphQL queries are kept by query and variables', async () => {
    const net = network(() => Response.json({ data: { votes: [] } }))
    const cache = createCachingFetch({ dir, fetch: net.fetch })
    const body = (skip: number) => JSON.stringify({ query: 'query Votes { votes }', variables: { skip } })
    await cache.fetch('https://hub.example/graphql', { method: 'POST', body: body(0) })
    await cache.fetch('https://hub.example/graphql', { method: 'POST', body: body(0) })
    await cache.fetch('https://hub.example/graphql', { method: 'POST', body: body(1000) })
    expect(net.seen).toHaveLength(2)
  })
})
