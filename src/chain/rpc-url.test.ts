import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createRpcUrlClient, rpcAttemptTimeoutMs } from './rpc-url.js'

const src = new URL('..', import.meta.url).pathname

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(folder, entry.name)) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [join(folder, entry.name)] : [],
  )
}

describe('createRpcUrlClient', () => {
  test("gives an attempt the package's 60 s, not viem's 10 s, and retries twice", () => {
    const client = createRpcUrlClient('http://127.0.0.1:8545')
    expect(rpcAttemptTimeoutMs).toBe(60_000)
    expect(client.transport.timeout).toBe(60_000)
    expect(client.transport.retryCount).toBe(2)
  })

  test('is the only place the package makes a client of a JSON-RPC URL', () => {
    // code lines only: TSDoc examples show users viem's own http()
    const makers = sources(src).filter((file) => readFileSync(file, 'utf8').split('\n').some((line) => !/^\s*(\*|\/\/)/.test(line) && /transport: http\(/.test(line)))
    expect(makers.map((file) => file.slice(src.length))).toEqual(['chain/rpc-url.ts'])
  })
})
