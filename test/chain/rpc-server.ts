/**
 * A small JSON-RPC server over HTTP on 127.0.0.1 that forwards each request (batches too) to an
 * EIP-1193 provider and counts what it serves. Loopback only.
 *
 * With `control: true` it also answers `POST /control` (never counted, never forwarded): `{ "reset":
 * true }` clears the counters, `{ "latencyMs": N }` sets the added delay; the answer is the counters
 * and the delay. The node process (`edr-node.ts`) serves its node this way.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
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
  /** Called after each HTTP answer has been written (the node process frees memory there). */
  onAnswered?: () => void
}

type JsonRpcRequest = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown }

/** What `POST /control` answers. */
export type ControlAnswer = { stats: RpcStats; latencyMs: number }

/** Serves `provider` at `http://127.0.0.1:<free port>`. */
export async function serveJsonRpc(provider: Eip1193, options: ServeOptions = {}): Promise<RpcServer> {
  const stats: RpcStats = { httpRequests: 0, rpcCalls: 0, methods: {} }

  const answer = async (request: JsonRpcRequest) => {
    stats.rpcCalls++
    const method = String(request.method)
    stats.methods[method] = (stats.methods[method] ?? 0) + 1
    try {
      const result = await provider.request({ method, params: request.params ?? [] })
      return { jsonrpc: '2.0', id: request.id ?? null, result: result ?? null }
    } catch (error) {
      const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown }
      return {
        jsonrpc: '2.0',
        id: request.id ?? null,
        error: { code: typeof code === 'number' ? code : -32603, message: String(message), ...(data === undefined ? {} : { data }) },
      }
    }
  }

  const reply = (response: ServerResponse, status: number, body: string) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(body)
  }

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of incoming) chunks.push(chunk as Buffer)
    let body: unknown
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      reply(response, 400, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }))
      return
    }
    if (options.control && incoming.url === '/control') {
      const command = (body ?? {}) as { reset?: unknown; latencyMs?: unknown }
      if (command.reset === true) served.reset()
      if (typeof command.latencyMs === 'number' && Number.isFinite(command.latencyMs) && command.latencyMs >= 0) served.latencyMs = command.latencyMs
      reply(response, 200, JSON.stringify({ stats, latencyMs: served.latencyMs } satisfies ControlAnswer))
      return
    }
    stats.httpRequests++
    let result: unknown
    if (Array.isArray(body)) {
      // Batches are answered in order; their calls run one after the other, as a node would.
      const answers: unknown[] = []
      for (const request of body) answers.push(await answer(request as JsonRpcRequest))
      result = answers
    } else {
      result = await answer(body as JsonRpcRequest)
    }
    if (served.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, served.latencyMs))
    reply(response, 200, JSON.stringify(result))
    options.onAnswered?.()
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      response.writeHead(500)
      response.end(String(error))
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const served: RpcServer = {
    url: `http://127.0.0.1:${port}`,
    stats,
    latencyMs: 0,
    reset() {
      stats.httpRequests = 0
      stats.rpcCalls = 0
      stats.methods = {}
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
  return served
}
