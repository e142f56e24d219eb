/**
 * A disk cache of service answers for audits: a `fetch` that answers from disk what it has seen,
 * so an interrupted audit resumes without asking again and a re-run asks nothing at all.
 *
 * What it keeps: only answers that cannot change for the audit's snapshot — JSON-RPC reads pinned
 * to a block number (`eth_call`, `eth_getBlockByNumber`...), the Passport score history at a time
 * (A2 with `created_at`) safely in the past, and Human ID's voting-strategy answers at a snapshot
 * block (E4-E6). Answers about current state (a score now, the C4 listing, attestation listings,
 * the hub's votes, `eth_chainId`) are never kept: reused at another snapshot they would give a
 * wrong verdict. It never keeps a write, an error, or a read of `latest`. Keys are hashes of the
 * scope (chain id and snapshot block), method, URL and body (JSON-RPC ids left out); headers, where
 * API keys and bearer tokens travel, are never part of a key or of a file.
 */
import { createHash, randomBytes } from 'node:crypto'
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { InvalidParameterError } from '../errors/input.js'

/**
 * Refuses a cache folder another user could plant answers in: one that is a symlink, not a folder,
 * writable by everyone, or owned by another user.
 *
 * @throws {InvalidParameterError} (`--cache-dir`) naming what is wrong.
 */
export function checkCacheFolder(dir: string): void {
  const stats = lstatSync(dir)
  const refuse = (reason: string) => {
    throw new InvalidParameterError({ parameter: '--cache-dir', reason: `${dir} ${reason}: its answers could be planted by someone else. Give a folder of your own (mode 700), or --no-cache.` })
  }
  if (stats.isSymbolicLink()) refuse('is a symbolic link')
  if (!stats.isDirectory()) refuse('is not a folder')
  if (stats.mode & 0o002) refuse('is writable by every user')
  const uid = process.getuid?.()
  if (uid !== undefined && stats.uid !== uid) refuse('belongs to another user')
}

/** Parameters of {@link createCachingFetch}. */
export type CreateCachingFetchParameters = {
  /** The folder the answers live in (created when missing). */
  dir: string
  /** The fetch that asks the network. Default: global fetch. */
  fetch?: typeof fetch | undefined
  /** What the answers are answers for: the chain id and the snapshot block. Part of every key. */
  scope: { chainId: string; blockNumber: bigint | string }
  /** The clock, ms (decides whether a score-history time is settled). Default Date.now. */
  now?: (() => number) | undefined
  /** How long before now a score-history time must be to be kept. Default 1 hour. */
  settledMs?: number | undefined
}

/** Counts of what the cache answered and what went to the network. */
export type CacheStats = { hits: number; misses: number; stored: number; uncacheable: number }

type Stored = { status: number; contentType: string | null; body: string }

/** JSON-RPC methods whose answer is fixed once their block is named. */
const pinnedRpcMethods: Record<string, (params: unknown[]) => boolean> = {
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

/**
 * Whether a GET answer is fixed for the snapshot: A2 (score history at `created_at`, when that time
 * is settled), or E4-E6 (Human ID's verdicts at a snapshot block).
 */
function isSnapshotPinnedGet(url: URL, settledBefore: number): boolean {
  if (/\/v2\/stamps\/[^/]+\/score\/[^/]+\/history\/?$/.test(url.pathname)) {
    const at = Date.parse(url.searchParams.get('created_at') ?? '')
    return Number.isFinite(at) && at <= settledBefore
  }
  if (/\/voting-strategies\/sybil-resistance\/(gov-id|phone|biometrics)\/?$/.test(url.pathname)) {
    return /^\d+$/.test(url.searchParams.get('snapshot') ?? '') && /^\d+$/.test(url.searchParams.get('network') ?? '')
  }
  return false
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
 * import { createCachingFetch } from './cache.js'
 * const cache = createCachingFetch({ dir: '.personhood-cache', scope: { chainId: '10', blockNumber: 130_000_000n } })
 * const passport = createPassportClient({ apiKey, fetch: cache.fetch })
 * // ...after the run: cache.stats.misses requests went out
 */
export function createCachingFetch(parameters: CreateCachingFetchParameters): { fetch: typeof fetch; stats: CacheStats } {
  const { dir } = parameters
  const base = parameters.fetch ?? globalThis.fetch
  const now = parameters.now ?? Date.now
  const settledMs = parameters.settledMs ?? 3_600_000
  const scope = `chain ${parameters.scope.chainId} block ${String(parameters.scope.blockNumber)}`
  const stats: CacheStats = { hits: 0, misses: 0, stored: 0, uncacheable: 0 }
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  checkCacheFolder(dir)

  const keyOf = async (request: Request): Promise<{ key: string; rpcBody?: unknown } | undefined> => {
    const method = request.method.toUpperCase()
    if (method === 'GET' || method === 'HEAD') return isSnapshotPinnedGet(new URL(request.url), now() - settledMs) ? { key: `${method} ${request.url}` } : undefined
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
    return undefined
  }

  const fileOf = (key: string) => {
    const hash = createHash('sha256').update(`${scope}\n${key}`).digest('hex')
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
      writeFileSync(temporary, JSON.stringify({ status: response.status, contentType: response.headers.get('content-type'), body: text } satisfies Stored), { mode: 0o600, flag: 'wx' })
      renameSync(temporary, file)
      stats.stored++
    }
    const contentType = response.headers.get('content-type')
    return new Response(text, { status: response.status, statusText: response.statusText, headers: contentType ? { 'content-type': contentType } : {} })
  }
  return { fetch: cachingFetch as typeof fetch, stats }
}
