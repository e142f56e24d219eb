/**
 * No key in any CLI output (issue #27): the commands that take a JSON-RPC URL (`verify`, `score`,
 * `audit`), given one with a key in its path and in its query, with the endpoint failing every way
 * (refused, 500, bad JSON, a reverted call), never print the key: not on stdout, not on stderr,
 * not in the audit's report files. The keys are chosen so that only the configured secrets can hide
 * them (the generic redaction would not take `sEcReTpAtH` for a key), and the failing endpoint
 * echoes its own URL in every answer, as some providers do.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { main } from '../../src/cli/main.js'

const pathKey = 'sEcReTpAtH'
const queryKey = 'qKeyZebra'
const voter = '0x52908400098527886E0F7030069857D2E4169EE7'
/**
 * A port nothing listens on (a server's, closed before the tests): a connection there is refused.
 * Not a well-known one such as 9 or 1, which fetch refuses as a "bad port" without connecting.
 */
let refusedRpc = ''

/** How the endpoint fails; `later`: it answers `eth_chainId`, then fails what follows. */
const modes = ['refused', '500', 'bad JSON', '500 later', 'bad JSON later', 'reverted'] as const
type Call = { id: number; method: string; params?: unknown[] }

const dir = mkdtempSync(join(tmpdir(), 'personhood-cli-redaction-'))
const votes = join(dir, 'votes.csv')
writeFileSync(votes, `address,choice,voting_power\n${voter},1,1\n`)

/**
 * One server for the modes that answer. An RPC URL is `/<mode>/<chain id>/<key>?apikey=<key>`: a
 * mode fails every call (`http-500`, `bad-json`), or every call after `eth_chainId` (`http-500-later`),
 * or answers the chain id and blocks and reverts every `eth_call` (`reverted`). It also stands in
 * for an attestation index that lists nothing (`/index/...`), so that the on-chain reads are reached.
 */
let server: Server
let origin = ''
beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const href = `${origin}${request.url ?? ''}`
      const [, first = '', chain = '10'] = (request.url ?? '').split('?')[0]!.split('/')
      // Passport and Human ID's API: they refuse the key at once (401 is not retried, so no backoff).
      if (first === 'elsewhere') return void response.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ detail: 'Invalid API key.' }))
      if (first === 'index') return void response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ data: { page: 1, size: 100, total: 0, rows: [] } }))
      const later = first.endsWith('-later')
      const mode = first.replace(/-later$/, '')
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as Call | Call[]
      const calls = Array.isArray(body) ? body : [body!]
      const chainIdOnly = calls.every((call) => call.method === 'eth_chainId')
      const answer = (call: Call) => {
        if (call.method === 'eth_chainId') return { jsonrpc: '2.0', id: call.id, result: `0x${Number(chain).toString(16)}` }
        if (call.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: call.id, result: '0x3e8' }
        if (call.method === 'eth_getBlockByNumber') {
          return { jsonrpc: '2.0', id: call.id, result: { number: '0x3e8', timestamp: '0x6553f100', hash: `0x${'11'.repeat(32)}`, parentHash: `0x${'22'.repeat(32)}`, transactions: [] } }
        }
        if (call.method === 'eth_call') return { jsonrpc: '2.0', id: call.id, error: { code: 3, message: `execution reverted at ${href}`, data: '0x' } }
        return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `no method ${call.method} at ${href}` } }
      }
      if (mode !== 'reverted' && !(later && chainIdOnly)) {
        if (mode === 'http-500') return void response.writeHead(500, { 'Content-Type': 'text/plain' }).end(`upstream error for ${href}`)
        return void response.writeHead(200, { 'Content-Type': 'application/json' }).end(`<html>${href}</html>`)
      }
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body!)))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const closed = createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  refusedRpc = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v2/${pathKey}?apikey=${queryKey}`
  await new Promise((resolve) => closed.close(resolve))
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

const rpcUrl = (mode: (typeof modes)[number], chain = '10') => (mode === 'refused' ? refusedRpc : `${origin}/${mode.replace('500', 'http-500').replaceAll(' ', '-')}/${chain}/${pathKey}?apikey=${queryKey}`)

/** Runs the CLI in-process; everything it printed (stdout and stderr) and its exit code. */
async function run(argv: string[]): Promise<{ printed: string; exitCode: number | string | undefined }> {
  const printed: string[] = []
  const keep = (...parts: unknown[]) => void printed.push(parts.map(String).join(' '))
  const spies = [
    vi.spyOn(console, 'log').mockImplementation(keep),
    vi.spyOn(console, 'error').mockImplementation(keep),
    vi.spyOn(console, 'warn').mockImplementation(keep),
    vi.spyOn(console, 'info').mockImplementation(keep),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (keep(chunk), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (keep(chunk), true)),
  ]
  // Every other source refuses or lists nothing: only the RPC's failures are in play.
  for (const name of ['PERSONHOOD_RPC_URL', 'HUMAN_ID_RPC_URL', 'PERSONHOOD_API_KEY', 'PERSONHOOD_SCORE_API_URL']) vi.stubEnv(name, '')
  vi.stubEnv('PASSPORT_API_KEY', 'passport-key-for-the-test')
  vi.stubEnv('PASSPORT_SCORER_ID', '7')
  const previous = process.exitCode
  process.exitCode = undefined
  try {
    await main(['node', 'personhood', ...argv])
    return { printed: printed.join('\n'), exitCode: process.exitCode }
  } finally {
    process.exitCode = previous
    for (const spy of spies) spy.mockRestore()
    vi.unstubAllEnvs()
  }
}

/** Every file under a folder, as text. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path, 'utf8')]
  })
}

/** The other sources: Passport and Human ID's API refuse the key; the index lists nothing. */
const sources = () => ['--passport-url', `${origin}/elsewhere`, '--registry-url', `${origin}/elsewhere`, '--human-id-url', `${origin}/elsewhere`, '--index-url', `${origin}/index`]
const commands: Record<string, (mode: (typeof modes)[number], out: string) => string[]> = {
  verify: (mode) => ['verify', voter, '--snapshot', '1000', '--rpc', rpcUrl(mode), ...sources()],
  'verify --json': (mode) => ['verify', voter, '--snapshot', '1000', '--rpc', rpcUrl(mode), '--json', ...sources()],
  score: (mode) => ['score', '--strategy', 'human-id', '--snapshot', '1000', '--addresses', voter, '--rpc', rpcUrl(mode), ...sources()],
  // The space on Ethereum (its RPC answers), Human ID read through the failing hub-chain RPC.
  'score --hub-chain-rpc': (mode) => ['score', '--strategy', 'human-id', '--network', '1', '--snapshot', '1000', '--addresses', voter, '--rpc', rpcUrl('reverted', '1'), '--hub-chain-rpc', rpcUrl(mode), ...sources()],
  audit: (mode, out) => ['audit', '--votes', votes, '--network', '10', '--snapshot', '1000', '--rpc', rpcUrl(mode), '--out', out, '--no-cache', ...sources()],
}
const cases = Object.keys(commands).flatMap((command) => modes.map((mode) => [command, mode] as const))

describe('a JSON-RPC key never leaves the CLI', () => {
  test.each(cases)('%s, the endpoint %s: no output holds the key', async (command, mode) => {
    const out = mkdtempSync(join(dir, 'out-'))
    const { printed, exitCode } = await run(commands[command]!(mode, out))
    // The command did reach the endpoint and did not succeed.
    expect(exitCode, printed).not.toBe(0)
    expect(exitCode, printed).not.toBe(undefined)
    for (const text of [printed, ...filesUnder(out)]) {
      expect(text).not.toContain(pathKey)
      expect(text).not.toContain(queryKey)
    }
  })
})
