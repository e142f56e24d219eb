/**
 * Starting the reference server on a port: `startServe` binds the server (`createServer`) with the
 * demo world (`seed: 'demo'`), an empty state (`seed: 'empty'`) or, with `data`, the file when it
 * exists (else the seed, written to the file at once). With `data`, every change is saved atomically
 * before it is acknowledged, and once more on close. With `chain`, the local chain (an in-process
 * EVM, `personhood/devchain`) starts beside it from the same state. `personhood serve`, the demo,
 * the tests and the benchmarks all start it this way.
 */
import { accessSync, constants, rmSync, statSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { dirname, resolve } from 'node:path'
import { serve as bindNode, type ServerType } from '@hono/node-server'
import type { Duplex } from 'node:stream'
import { generateWorld } from '../world/generate/index.js'
import type { World } from '../world/types.js'
import { checkServerOptions, createServer, type PersonhoodServer } from './app.js'
import { createFilePersistence, loadStateFile, logFileOf, type FilePersistence } from './persistence.js'
import { createEmptyState, randomSecret, Store } from './state/store.js'
import { stateFromWorld } from './state/world.js'
import type { LocalChain } from '../devchain/local-chain.js'
import { InvalidParameterError } from '../errors/input.js'
import { describeValue, parseInteger } from '../utils/parse.js'

/** Options of {@link startServe}. */
export type ServeOptions = {
  /** Default 8787; 0 picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Default `demo`. */
  seed?: 'demo' | 'empty'
  /** A state file: loaded when it exists, saved after every change and on exit. */
  data?: string
  /** Artificial latency per request (ms). */
  latencyMs?: number
  /** Delay before a C2 submission reads DONE (ms). */
  processingDelayMs?: number
  /** Reference time of the demo world (ISO 8601). Default: the start of the current UTC day. */
  worldNow?: string
  /** Wallets of the demo world. Default 1,000. */
  wallets?: number
  /** Seed string of the demo world. Default `personhood-demo`. */
  worldSeed?: string
  /** A world to serve instead of generating one (`seed: 'demo'` only). */
  world?: World
  /** The admin token (default: the state's, random for a new state). */
  adminToken?: string
  /** The clock (Unix ms). Default `Date.now`. */
  now?: () => number
  /**
   * Also start a local chain (an in-process EVM, `personhood/devchain`) seeded from the same state,
   * serving JSON-RPC on `host` at `port` (default 8545; 0 picks a free port).
   */
  chain?: boolean | { port?: number }
}

/** The base URLs `serve` prints, one per interface. */
export type ServeUrls = {
  /** A (v2 stamps) and B (models): `{base_url}`. */
  passport: string
  /** C (legacy registry): `{legacy_base_url}`. */
  registry: string
  /** D (stamp cache; paths carry `/stamp-cache`). */
  stampCache: string
  /** E1-E7: `{verification_url}`. */
  humanId: string
  /** E8: `{attestation_index_url}`. */
  attestationIndex: string
  admin: string
}

/** A running server. */
export type RunningServe = {
  url: string
  urls: ServeUrls
  /** An API key to try: the lowest-tier key allowed to read score history (A2), else the first. */
  apiKey: string
  adminToken: string
  app: PersonhoodServer
  server: ServerType
  persistence: FilePersistence | undefined
  /** The address the server is bound to. */
  host: string
  /** Milliseconds from the call to listening. */
  startupMs: number
  /** Where the state came from. */
  source: 'data' | 'demo' | 'empty'
  /** The local chain, with `chain`: its JSON-RPC URL is `chain.rpcUrl`. */
  chain: LocalChain | undefined
  /** Stops listening (server and chain) and saves the state. */
  close(): Promise<void>
}

/** Largest request line plus headers `serve` reads: 256 KiB, about 6,000 addresses in one E4 URL. */
export const maxRequestHeaderBytes = 256 * 1024

function startOfUtcDay(ms: number): string {
  return new Date(Math.floor(ms / 86_400_000) * 86_400_000).toISOString()
}

/** Checks the options of {@link startServe} that it reads itself (the server's are checked by `createServer`). */
function checkServeOptions(options: ServeOptions): void {
  const { port = 8787, host = '127.0.0.1', seed = 'demo', data, now, chain } = options
  parseInteger(port, 'port', { min: 0, max: 65_535 })
  checkServerOptions({ latencyMs: options.latencyMs, processingDelayMs: options.processingDelayMs, adminToken: options.adminToken })
  if (typeof host !== 'string' || host === '') throw new InvalidParameterError({ parameter: 'host', reason: `Expected a host name or IP address, got ${describeValue(host)}.` })
  if (seed !== 'demo' && seed !== 'empty') throw new InvalidParameterError({ parameter: 'seed', reason: `Expected demo or empty, got ${describeValue(seed)}.` })
  if (data !== undefined && (typeof data !== 'string' || data === '')) throw new InvalidParameterError({ parameter: 'data', reason: `Expected a file path, got ${describeValue(data)}.` })
  if (now !== undefined && typeof now !== 'function') throw new InvalidParameterError({ parameter: 'now', reason: `Expected a function returning Unix milliseconds, got ${describeValue(now)}.` })
  if (chain !== undefined && typeof chain !== 'boolean') {
    if (chain === null || typeof chain !== 'object') throw new InvalidParameterError({ parameter: 'chain', reason: `Expected true, false or { port }, got ${describeValue(chain)}.` })
    if (chain.port !== undefined) parseInteger(chain.port, 'chain.port', { min: 0, max: 65_535 })
  }
}

function errorCode(error: unknown): string | undefined {
  return error && typeof error === 'object' && 'code' in error && typeof error.code === 'string' ? error.code : undefined
}

function dataError(data: string, reason: string, cause?: unknown): InvalidParameterError {
  return new InvalidParameterError({ parameter: 'data', reason: `--data ${data}: ${reason}`, ...(cause !== undefined ? { cause } : {}) })
}

/**
 * Checks that `--data` names a file `serve` can read and write: not a directory, in a folder that
 * exists and that this process may write in (the state is saved through a temp file beside it).
 */
function checkDataPath(data: string): void {
  const folder = dirname(resolve(data))
  let file: ReturnType<typeof statSync> | undefined
  try {
    file = statSync(data)
  } catch (error) {
    if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') throw dataError(data, `cannot be read (${errorCode(error) ?? String(error)}).`, error)
  }
  if (file?.isDirectory()) throw dataError(data, `is a folder; --data takes a state file, for example --data ${resolve(data, 'state.json')}.`)
  if (file && !file.isFile()) throw dataError(data, 'is not a regular file; --data takes a state file.')
  let parent: ReturnType<typeof statSync> | undefined
  try {
    parent = statSync(folder)
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw dataError(data, `the folder ${folder} does not exist; create it (mkdir -p ${folder}) or choose another path.`)
    if (errorCode(error) !== 'ENOTDIR') throw dataError(data, `the folder ${folder} cannot be read (${errorCode(error) ?? String(error)}).`, error)
  }
  if (!parent?.isDirectory()) throw dataError(data, `${folder} is not a folder; choose a path whose folder exists.`)
  try {
    accessSync(folder, constants.W_OK | constants.X_OK)
    if (file) accessSync(data, constants.R_OK | constants.W_OK)
  } catch (error) {
    const what = file ? `${data} cannot be read and written` : `the folder ${folder} cannot be written`
    throw dataError(data, `${what} by this user (${errorCode(error) ?? String(error)}); choose a writable place.`, error)
  }
}

/** The error `serve` throws when the port cannot be bound, saying what to do. */
function bindError(error: unknown, host: string, port: number): unknown {
  const code = errorCode(error)
  if (code === 'EADDRINUSE') {
    return new InvalidParameterError({ parameter: 'port', reason: `Port ${port} on ${host} is already in use (another personhood serve, or another program). Start with --port 0 to take any free port, or choose another --port.`, cause: error })
  }
  if (code === 'EACCES') {
    return new InvalidParameterError({ parameter: 'port', reason: `Port ${port} on ${host} needs privileges this user lacks (ports below 1024 usually do). Start with --port 0 to take any free port, or choose one above 1023.`, cause: error })
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new InvalidParameterError({ parameter: 'host', reason: `${host} is not an address of this machine (${code}). Use --host 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).`, cause: error })
  }
  return error
}

/**
 * Starts the server and resolves once it listens.
 *
 * @throws {InvalidParameterError} on bad options (a port outside 0-65535, an unknown seed, an empty
 * host or data path, a clock that is not a function; the server's options as `createServer`
 * checks them; the world's as `generateWorld` checks them), before anything is bound or written;
 * when `data` is a folder, lies in a missing folder or one this user cannot write, or cannot be
 * written at start (naming the path); when the port is in use or needs privileges (suggesting
 * port 0), or the host is not this machine's.
 * @throws {InvalidStateError} when the data file is not a state (naming the file and the field);
 * the file is left as it was.
 * @example
 * import { startServe } from 'personhood/server'
 * const running = await startServe({ port: 0, seed: 'demo' })
 * console.log(running.urls.passport, running.apiKey)
 * await running.close()
 */
export async function startServe(options: ServeOptions = {}): Promise<RunningServe> {
  const started = performance.now()
  const { port = 8787, host = '127.0.0.1', seed = 'demo', data, now = Date.now } = options
  checkServeOptions(options)
  if (data) checkDataPath(data)

  const loaded = data ? loadStateFile(data, { now }) : undefined
  for (const warning of loaded?.warnings ?? []) console.error(`personhood: ${warning}`)
  let store = loaded?.store
  const source: RunningServe['source'] = store ? 'data' : seed
  if (!store) {
    const secrets = options.adminToken ? { adminToken: options.adminToken } : {}
    if (seed === 'demo') {
      const world =
        options.world ??
        generateWorld({
          now: options.worldNow ?? startOfUtcDay(now()),
          ...(options.wallets !== undefined ? { wallets: options.wallets } : {}),
          ...(options.worldSeed !== undefined ? { seed: options.worldSeed } : {}),
        })
      store = new Store(stateFromWorld(world, secrets), { now })
    } else {
      const state = createEmptyState(secrets)
      state.apiKeys.push({ key: `${randomSecret(4)}.${randomSecret(16)}`, name: 'default', tier: 1, historyAllowlisted: true })
      store = new Store(state, { now })
    }
  }
  // The chain reads the state's chain clock, verifications and attestations once, at start. EDR is
  // loaded only here, so `serve` without --chain never pays for it.
  let chain: LocalChain | undefined
  if (options.chain) {
    const { startLocalChain } = await import('../devchain/local-chain.js')
    const chainPort = typeof options.chain === 'object' ? (options.chain.port ?? 8545) : 8545
    chain = await startLocalChain({ world: store.state, now, rpc: { host, port: chainPort } })
  }
  // A save that fails at start is thrown (naming --data); once serving, each failure is printed.
  let serving = false
  const persistence = data
    ? createFilePersistence({
        file: data,
        store,
        generation: loaded?.generation ?? 0,
        upgraded: loaded?.upgraded ?? false,
        onError: (error) => {
          if (serving) console.error(`personhood: could not save state to ${data}: ${error instanceof Error ? error.message : String(error)}`)
        },
      })
    : undefined
  const app = createServer({
    store,
    now,
    ...(options.adminToken ? { adminToken: options.adminToken } : {}),
    ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}),
    ...(options.processingDelayMs !== undefined ? { processingDelayMs: options.processingDelayMs } : {}),
    ...(persistence ? { persistence } : {}),
    // Smart-contract wallets that sign in (D13) are checked on the local chain.
    ...(chain ? { chainClient: chain.client } : {}),
  })
  if (persistence && (source !== 'data' || loaded?.upgraded)) {
    // A new (or converted) state file right away, so a restart finds the same world (and secrets).
    store.mutate(() => {})
    try {
      await persistence.flush()
    } catch (error) {
      await chain?.stop()
      throw dataError(data!, `the state could not be written (${errorCode(error) ?? (error instanceof Error ? error.message : String(error))}).`, error)
    }
  }

  let server: ServerType
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      // Long request lines are served: score-api's `api` strategy puts every address of a call in one
      // E4 URL (500 addresses are about 22,000 characters).
      const bound = bindNode({ fetch: app.fetch, port, hostname: host, serverOptions: { maxHeaderSize: maxRequestHeaderBytes } }, () => resolve(bound))
      bound.once('error', reject)
      // What Node's HTTP parser refuses (a request line or headers over the limit, a malformed
      // request) is answered with a JSON body too, never an empty one.
      bound.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
        if (!socket.writable) return socket.destroy()
        const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
        const status = tooLarge ? 431 : 400
        const body = JSON.stringify({
          detail: tooLarge
            ? `Request line and headers too large: at most ${maxRequestHeaderBytes} bytes (about ${Math.floor(maxRequestHeaderBytes / 43).toLocaleString('en-US')} addresses in one URL).`
            : 'Malformed HTTP request.',
        })
        socket.end(`HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
      })
    })
  } catch (error) {
    await chain?.stop()
    await persistence?.close().catch(() => {})
    // A state file this start created goes too: the next start (say with --port 0) begins from its own seed.
    if (data && source !== 'data') for (const file of [data, logFileOf(data)]) rmSync(file, { force: true })
    throw bindError(error, host, port)
  }
  serving = true
  const address = server.address() as AddressInfo
  const shownHost = host.includes(':') ? `[${host}]` : host
  const url = `http://${shownHost}:${address.port}`
  // The key the README's examples need: one allowed to read score history, the lowest tier first.
  const apiKeys = [...store.state.apiKeys].sort((a, b) => a.tier - b.tier)
  const apiKey = (apiKeys.find((candidate) => candidate.historyAllowlisted) ?? apiKeys[0])?.key ?? ''
  let closing: Promise<void> | undefined
  return {
    url,
    urls: {
      passport: url,
      registry: url,
      stampCache: url,
      humanId: `${url}/human-id`,
      attestationIndex: `${url}/attestation-index`,
      admin: `${url}/admin`,
    },
    apiKey,
    adminToken: store.state.secrets.adminToken,
    app,
    server,
    persistence,
    host,
    startupMs: performance.now() - started,
    source,
    chain,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          if ('closeAllConnections' in server) server.closeAllConnections()
        })
        await chain?.stop()
        await persistence?.close()
      })()
      return closing
    },
  }
}

