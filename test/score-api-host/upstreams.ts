/**
 * The networks a score-api strategy reaches, for the test host: one HTTP gateway on 127.0.0.1 that
 * stands in for snapshot.js's brovider (`<url>/<network>`: JSON-RPC answered by the local chain or
 * chain clock serving that network) and for the blockfinder (a GraphQL endpoint answering
 * `blocks(where: { ts, network_in })` as `getSnapshots` asks it), and a counter of every request a
 * strategy sends: JSON-RPC by method, HTTP by host and path, subgraph queries.
 *
 * Each `eth_call` to the address snapshot.js's `multicall` uses on that network (its networks.json)
 * runs with Multicall v1 code placed there by a state override: the real networks have that
 * contract; the local chain has Multicall3 only.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { readFileSync } from 'node:fs'
import { createServer, type ClientRequest, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import type { Hex } from 'viem'
import { compileSolidity } from '../../scripts/contracts.js'
import type { Eip1193ProviderLike } from '../../src/index.js'

const require = createRequire(import.meta.url)
const snapshotNetworks = require('@snapshot-labs/snapshot.js/src/networks.json') as Record<string, { multicall?: string }>

let multicallV1Code: Hex | undefined
/** The runtime code of Multicall v1 (`contracts/MulticallV1.sol`), compiled once. */
export function multicallV1RuntimeCode(): Hex {
  multicallV1Code ??= compileSolidity({ 'MulticallV1.sol': readFileSync(join(import.meta.dirname, 'contracts', 'MulticallV1.sol'), 'utf8') }).MulticallV1!.deployedBytecode
  return multicallV1Code
}

/** The requests counted while recording. */
export type UpstreamRequests = {
  /** Upstream HTTP requests of every kind (a JSON-RPC batch is one). */
  total: number
  /** JSON-RPC calls by method, e.g. `{ eth_call: 1, eth_chainId: 1 }`. */
  rpc: Record<string, number>
  /** HTTP requests other than JSON-RPC, by `host/path` (no query; an address in the path as `:address`). */
  http: Record<string, number>
  /** GraphQL (subgraph) queries by endpoint: `blockfinder`, or the `host/path` of another. */
  subgraph: Record<string, number>
}

/** The gateway and its counter. */
export type Upstreams = {
  /** What snapshot.js's `getProvider` takes as `broviderUrl`. */
  broviderUrl: string
  /** What snapshot.js's `getSnapshots` takes as `blockFinderUrl`. */
  blockFinderUrl: string
  /** The environment the host's `utils.ts` reads. */
  env: Record<string, string>
  /** Counts the requests sent while `run` runs (one recording at a time). */
  record<T>(run: () => Promise<T>): Promise<{ result: T; requests: UpstreamRequests }>
  close(): Promise<void>
}

type JsonRpcRequest = { jsonrpc?: string; id?: unknown; method: string; params?: unknown[] }

function empty(): UpstreamRequests {
  return { total: 0, rpc: {}, http: {}, subgraph: {} }
}

function bump(record: Record<string, number>, key: string) {
  record[key] = (record[key] ?? 0) + 1
}

/** The latest block of `provider` whose timestamp is at or before `ts` (binary search on headers). */
async function blockAtOrBefore(provider: Eip1193ProviderLike, ts: number): Promise<number | undefined> {
  const time = async (number: number) => {
    const block = (await provider.request({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] })) as { timestamp: Hex } | null
    return block ? Number(BigInt(block.timestamp)) : Number.POSITIVE_INFINITY
  }
  let high = Number(BigInt((await provider.request({ method: 'eth_blockNumber' })) as Hex))
  let low = 0
  if ((await time(low)) > ts) return undefined
  if ((await time(high)) <= ts) return high
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2)
    if ((await time(middle)) <= ts) low = middle
    else high = middle
  }
  return low
}

/**
 * Starts the gateway on 127.0.0.1 (any free port) over `providers` (network id to an EIP-1193
 * provider, e.g. `{ '10': chain.provider, '1': ethereumClock }`).
 */
export async function startUpstreams(providers: Record<string, Eip1193ProviderLike>): Promise<Upstreams> {
  let counting: UpstreamRequests | undefined
  let gatewayHost = ''

  async function answerRpc(network: string, call: JsonRpcRequest) {
    if (counting) bump(counting.rpc, call.method)
    const provider = providers[network]
    const reply = (body: object) => ({ jsonrpc: '2.0', id: call.id ?? null, ...body })
    if (!provider) return reply({ error: { code: -32601, message: `The test host serves no network ${network}` } })
    let params = call.params ?? []
    const multicall = snapshotNetworks[network]?.multicall?.toLowerCase()
    const target = (params[0] as { to?: string } | undefined)?.to?.toLowerCase()
    if (call.method === 'eth_call' && multicall && target === multicall) {
      const overrides = (params[2] ?? {}) as Record<string, object>
      params = [params[0], params[1] ?? 'latest', { [multicall]: { code: multicallV1RuntimeCode() }, ...overrides }]
    }
    try {
      return reply({ result: await provider.request({ method: call.method, params }) })
    } catch (error) {
      const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown }
      return reply({ error: { code: typeof code === 'number' ? code : -32603, message: message ?? String(error), ...(data === undefined ? {} : { data }) } })
    }
  }

  async function answerBlockfinder(query: string) {
    if (counting) bump(counting.subgraph, 'blockfinder')
    const ts = /\bts\s*:\s*(\d+)/.exec(query)?.[1]
    const networks = /\bnetwork_in\s*:\s*\[([^\]]*)\]/.exec(query)?.[1]?.match(/"([^"]+)"/g)?.map((quoted) => quoted.slice(1, -1))
    if (ts === undefined || networks === undefined) return { errors: [{ message: `The blockfinder stand-in cannot read ${query}` }] }
    const blocks = []
    for (const network of networks) {
      const provider = providers[network]
      if (!provider) return { errors: [{ message: `The blockfinder stand-in serves no network ${network}` }] }
      const number = await blockAtOrBefore(provider, Number(ts))
      if (number !== undefined) blocks.push({ network, number })
    }
    return { data: { blocks } }
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      void (async () => {
        const path = (request.url ?? '/').split('?')[0] as string
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown
        let answer: unknown
        if (path === '/blockfinder') answer = await answerBlockfinder(String((body as { query?: unknown })?.query ?? ''))
        else {
          const network = path.slice(1)
          answer = Array.isArray(body) ? await Promise.all(body.map((call) => answerRpc(network, call as JsonRpcRequest))) : await answerRpc(network, body as JsonRpcRequest)
        }
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(answer))
      })().catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' })
        response.end(String((error as Error)?.message ?? error))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  gatewayHost = `127.0.0.1:${(server.address() as AddressInfo).port}`
  const url = `http://${gatewayHost}`

  // Every HTTP request leaving the process while recording: Node's http client (ethers v5,
  // cross-fetch) and undici (global fetch).
  const countHttp = (host: string, path: string) => {
    if (!counting) return
    counting.total++
    const bare = path.split('?')[0] as string
    if (host === gatewayHost) return
    bump(counting.http, `${host}${bare.replace(/0x[0-9a-fA-F]{40}/g, ':address')}`)
  }
  const onHttp = (message: unknown) => {
    const request = (message as { request: ClientRequest }).request
    countHttp(String(request.getHeader('host') ?? request.host), request.path)
  }
  const onUndici = (message: unknown) => {
    const request = (message as { request: { origin: string; path: string } }).request
    countHttp(new URL(request.origin).host, request.path)
  }

  return {
    broviderUrl: url,
    blockFinderUrl: `${url}/blockfinder`,
    // Ten minutes a call, not snapshot.js's 25 s: the tests check answers, never a node's speed.
    env: { SCORE_API_HOST_BROVIDER_URL: url, SCORE_API_HOST_BLOCKFINDER_URL: `${url}/blockfinder`, SCORE_API_HOST_PROVIDER_TIMEOUT_MS: '600000' },
    async record(run) {
      if (counting) throw new Error('The upstream counter is already recording')
      const requests = empty()
      counting = requests
      subscribe('http.client.request.start', onHttp)
      subscribe('undici:request:create', onUndici)
      try {
        const result = await run()
        return { result, requests }
      } finally {
        unsubscribe('http.client.request.start', onHttp)
        unsubscribe('undici:request:create', onUndici)
        counting = undefined
      }
    },
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  }
}
