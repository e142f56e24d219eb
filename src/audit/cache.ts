/**
 * A disk cache of service answers for audits: a `fetch` that answers from disk what it has seen,
 * so an interrupted audit resumes without asking again and a re-run asks nothing at all.
 *
 * What it keeps: answers that cannot change for a past snapshot — successful reads (GET, and the
 * hub's GraphQL queries), 404s of reads, and JSON-RPC reads pinned to a block number (`eth_call`,
 * `eth_getBlockByNumber`, `eth_chainId`...). It never keeps a write, an error, or a read of
 * `latest`. Keys are hashes of method, URL and body (JSON-RPC ids left out); headers, where API keys
 * and bearer tokens travel, are never part of a key or of a file.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** Parameters of {@link createCachingFetch}. */
export type CreateCachingFetchParameters = {
  /** The folder the answers live in (created when missing). */
  dir: string
  /** The fetch that asks the network. Default: global fetch. */
  fetch?: typeof fetch | undefined
}

/** Counts of what the cache answered and what went to the network. */
export type CacheStats = { hits: number; misses: number; stored: number; uncacheable: number }

type Stored = { status: number; contentType: string | null; body: string }

/** JSON-RPC methods whose answer is fixed once their block is named. */
const pinnedRpcMethods: Record<string, (params: unknown[]) => boolean> = {
  eth_chainId: () => true,
  net_version: () => true,
  eth_call: (params) => isBlockNumber(params[1]),
  eth_getBalance: (params) => isBlockNumber(params[1]),
  eth_getCode: (params) => isBlockNumber(params[1]),
  eth_getStorageAt: (params) => isBlockNumber(params[2]),
  eth_getBlockByNumber: (params) => isBlockNumber(params[0]),
}

function isBlockNumber(tag: unknown): boolean {
  if (typeof tag === 'string') return /^0x[0-9a-f]+$/i.test(tag)
  // EIP-1898 block objects: a number or a hash pins the block.
  return !!tag && typeof tag === 'object' && ('blockNumber' in tag || 'blockHash' in tag)
}

type RpcCall = { jsonrpc?: string; id?: unknown; method: string; params?: unknown[] }

/** The id-free key of a JSON-RPC body, or undefined when some call in it is not pinned to a block. */
function rpcKey(body: unknown): string | undefined {
  const calls = (Array.isArray(body) ? body : [body]) as RpcCall[]
  if (!calls.length || !calls.every((call) => call && typeof call.method === 'string')) return undefined
  for (const call of calls) {
    const pinned = pinnedRpcMethods[call.method]
    if (!pinned || !pinned(call.params ?? [])) return undefined
  }
  return JSON.stringify(calls.map((call) => [call.method, call.params ?? []]))
}

/** Puts the request's JSON-RPC ids back into a stored answer. */
function withRequestIds(stored: string, body: unknown): string {
  const answer = JSON.parse(stored) as unknown
  if (Array.isArray(body) && Array.isArray(answer)) {
    return JSON.stringify(answer.map((item: Record<string, unknown>, index) => ({ ...item, id: (body[index] as RpcCall).id })))
  }
  if (!Array.isArray(body) && answer && typeof answer === 'object') return JSON.stringify({ ...answer, id: (body as RpcCall).id })
  return stored
}

/**
 * Wraps a fetch with a disk cache of answers that cannot change.
 *
 * @example
 * import { createCachingFetch } from 'personhood/audit'
 * const cache = createCachingFetch({ dir: '.personhood-cache' })
 * const passport = createPassportClient({ apiKey, fetch: cache.fetch })
 * // ...after the run: cache.stats.misses requests went out
 */
export function createCachingFetch(parameters: CreateCachingFetchParameters): { fetch: typeof fetch; stats: CacheStats } {
  const { dir } = parameters
  const base = parameters.fetch ?? globalThis.fetch
  const stats: CacheStats = { hits: 0, misses: 0, stored: 0, uncacheable: 0 }
  mkdirSync(dir, { recursive: true, mode: 0o700 })

  const keyOf = async (request: Request): Promise<{ key: string; rpcBody?: unknown } | undefined> => {
    const method = request.method.toUpperCase()
    if (method === 'GET' || method === 'HEAD') return { key: `${method} ${request.url}` }
    if (method !== 'POST') return undefined
    const text = await request.clone().text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return undefined
    }
    const rpc = rpcKey(body)
    if (rpc !== undefined) return { key: `RPC ${request.url} ${rpc}`, rpcBody: body }
    // A GraphQL query (not a mutation) reads; it is keyed by its text and variables.
    if (body && typeof body === 'object' && typeof (body as { query?: unknown }).query === 'string' && !/^\s*mutation\b/.test((body as { query: string }).query)) {
      return { key: `GRAPHQL ${request.url} ${text}` }
    }
    return undefined
  }

  const fileOf = (key: string) => {
    const hash = createHash('sha256').update(key).digest('hex')
    return { folder: join(dir, hash.slice(0, 2)), file: join(dir, hash.slice(0, 2), `${hash}.json`) }
  }

  const cachingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const keyed = await keyOf(request)
    if (!keyed) {
      stats.uncacheable++
      return base(request)
    }
    const { folder, file } = fileOf(keyed.key)
    let stored: Stored | undefined
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as Stored
    } catch {
      stored = undefined
    }
    if (stored) {
      stats.hits++
      const body = keyed.rpcBody === undefined ? stored.body : withRequestIds(stored.body, keyed.rpcBody)
      return new Response(body, { status: stored.status, headers: stored.contentType ? { 'content-type': stored.contentType } : {} })
    }
    stats.misses++
    const response = await base(request)
    const keep = response.status === 200 || (response.status === 404 && keyed.rpcBody === undefined && request.method === 'GET')
    if (!keep) return response
    const text = await response.text()
    // A JSON-RPC answer that carries an error is not an answer to keep.
    const rpcError = keyed.rpcBody !== undefined && /"error"\s*:/.test(text)
    if (!rpcError) {
      mkdirSync(folder, { recursive: true, mode: 0o700 })
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
      writeFileSync(temporary, JSON.stringify({ status: response.status, contentType: response.headers.get('content-type'), body: text } satisfies Stored), { mode: 0o600 })
      renameSync(temporary, file)
      stats.stored++
    }
    const contentType = response.headers.get('content-type')
    return new Response(text, { status: response.status, statusText: response.statusText, headers: contentType ? { 'content-type': contentType } : {} })
  }
  return { fetch: cachingFetch as typeof fetch, stats }
}
