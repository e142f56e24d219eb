/**
 * The JSON-RPC server of the local chain (src/devchain/rpc-server.ts) on 127.0.0.1, counting what
 * it serves, with an added delay per answer for the benchmark.
 *
 * With `control: true` it also answers `POST /control` (never counted, never forwarded): `{ "reset":
 * true }` clears the counters, `{ "latencyMs": N }` sets the added delay; the answer is the counters
 * and the delay. The node process (`edr-node.ts`) serves its node this way.
 */
import { serveJsonRpc as serve } from '../../src/devchain/rpc-server.js'
import type { Eip1193 } from './harness.js'

/** What the server has served since the last reset. */
export type RpcStats = { httpRequests: number; rpcCalls: number; methods: Record<string, number> }

export type RpcServer = {
  url: string
  stats: RpcStats
  /** Delay added before each HTTP answer, to stand in for a network round trip (bench only). Default 0. */
  latencyMs: number
  reset(): void
  close(): Promise<void>
}

export type ServeOptions = {
  /** Answer `POST /control` (counters and delay), for a node in another process. Default false. */
  control?: boolean
}

/** What `POST /control` answers. */
export type ControlAnswer = { stats: RpcStats; latencyMs: number }

/** Serves `provider` at `http://127.0.0.1:<free port>`. */
export async function serveJsonRpc(provider: Eip1193, options: ServeOptions = {}): Promise<RpcServer> {
  const stats: RpcStats = { httpRequests: 0, rpcCalls: 0, methods: {} }
  const control = (body: unknown): ControlAnswer => {
    const command = (body ?? {}) as { reset?: unknown; latencyMs?: unknown }
    if (command.reset === true) served.reset()
    if (typeof command.latencyMs === 'number' && Number.isFinite(command.latencyMs) && command.latencyMs >= 0) served.latencyMs = command.latencyMs
    return { stats, latencyMs: served.latencyMs }
  }
  const server = await serve(provider, {
    onCall(method) {
      stats.rpcCalls++
      stats.methods[method] = (stats.methods[method] ?? 0) + 1
    },
    async beforeAnswer() {
      stats.httpRequests++
      if (served.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, served.latencyMs))
    },
    ...(options.control ? { routes: { '/control': control } } : {}),
  })
  const served: RpcServer = {
    url: server.url,
    stats,
    latencyMs: 0,
    reset() {
      stats.httpRequests = 0
      stats.rpcCalls = 0
      stats.methods = {}
    },
    close: () => server.close(),
  }
  return served
}
