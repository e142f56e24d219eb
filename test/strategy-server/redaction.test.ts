/**
 * No key in any body or log (issue #27, point 6): a strategy server whose JSON-RPC URL carries a
 * key in its path and in its query, with the endpoint failing every way (refused, 500, bad JSON, a
 * reverted call), never shows the key: not in an answer's body or headers, not in a log line, not
 * in the metrics. The keys are chosen so that only the configured secrets can hide them (the
 * generic redaction would not take `sEcReTpAtH` for a key).
 */
import { afterEach, describe, expect, test, vi } from 'vitest'
import { startStrategyServer, type RunningStrategyServer } from '../../src/strategy-server/start.js'

const pathKey = 'sEcReTpAtH'
const queryKey = 'qKeyZebra'
const rpcUrl = `https://rpc.example/v2/${pathKey}?apikey=${queryKey}`
const voter = '0x52908400098527886E0F7030069857D2E4169EE7'

type Mode = 'refused' | '500' | 'bad JSON' | 'reverted'

/** The endpoint: the chain id and blocks answered, then each mode's failure. */
function rpc(mode: Mode): typeof fetch {
  return async (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (!href.startsWith('https://rpc.example/')) throw new TypeError(`fetch failed: ${href}`)
    const body = JSON.parse(String(init?.body)) as { id: number; method: string } | { id: number; method: string }[]
    const one = (call: { id: number; method: string }) => {
      if (call.method === 'eth_chainId') return { jsonrpc: '2.0', id: call.id, result: '0xa' }
      if (mode === 'reverted' && call.method === 'eth_call') return { jsonrpc: '2.0', id: call.id, error: { code: 3, message: `execution reverted at ${href}`, data: '0x' } }
      if (mode === 'reverted' && call.method === 'eth_getBlockByNumber') {
        return { jsonrpc: '2.0', id: call.id, result: { number: '0x3e8', timestamp: '0x6553f100', hash: `0x${'11'.repeat(32)}`, parentHash: `0x${'22'.repeat(32)}`, transactions: [] } }
      }
      return undefined
    }
    if (mode === 'refused') throw new TypeError(`fetch failed: connect ECONNREFUSED ${href}`)
    if (mode === '500') return new Response(`upstream error for ${href}`, { status: 500 })
    if (mode === 'bad JSON') return new Response(`<html>${href}</html>`, { status: 200, headers: { 'Content-Type': 'application/json' } })
    const answers = Array.isArray(body) ? body.map(one) : one(body)
    if ((Array.isArray(answers) ? answers : [answers]).some((answer) => answer === undefined)) return new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: `no such method at ${href}` } }))
    return new Response(JSON.stringify(answers), { headers: { 'Content-Type': 'application/json' } })
  }
}

let running: RunningStrategyServer | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
  vi.restoreAllMocks()
})

describe('a JSON-RPC key never leaves the strategy server', () => {
  test.each<Mode>(['refused', '500', 'bad JSON', 'reverted'])('%s: no body, header, log line or metric holds the key', async (mode) => {
    const logged: string[] = []
    vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void logged.push(parts.map(String).join(' ')))
    vi.spyOn(console, 'warn').mockImplementation((...parts: unknown[]) => void logged.push(parts.map(String).join(' ')))
    running = await startStrategyServer({
      config: { port: 0, host: '127.0.0.1', store: 'none', rpc: { '10': rpcUrl }, humanId: { hubChainRpc: rpcUrl } },
      fetch: rpc(mode),
      log: (line) => logged.push(line),
      now: () => 1_750_000_000_000,
    })
    logged.push(...running.describe())
    const seen: string[] = []
    for (const strategy of ['human-id']) {
      const response = await running.app.request(`/strategies/${strategy}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ options: {}, network: '10', snapshot: 1000, addresses: [voter] }),
      })
      const text = await response.text()
      expect(response.status, text).toBeGreaterThanOrEqual(500)
      seen.push(text, JSON.stringify([...response.headers.entries()]))
    }
    const metrics = await running.app.request('/metrics')
    seen.push(await metrics.text(), ...logged)
    for (const text of seen) {
      expect(text).not.toContain(pathKey)
      expect(text).not.toContain(queryKey)
    }
  })
})
