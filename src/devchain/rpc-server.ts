/**
 * A small JSON-RPC server over HTTP that forwards each request (batches too) to an EIP-1193
 * provider: how the local chain is reached by other processes (`personhood serve --chain`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Eip1193ProviderLike } from '../chain/provider.js'

/** Options of {@link serveJsonRpc}. */
export type ServeJsonRpcOptions = {
  /** Default 127.0.0.1. */
  host?: string
  /** Default 0: any free port. */
  port?: number
  /** Largest request body accepted (bytes); a larger one is answered 413 unread. Default 16 MiB. */
  maxBodyBytes?: number
  /** Called for every JSON-RPC call before it is forwarded (counting). */
  onCall?: (method: string) => void
  /** Awaited before each HTTP answer is written (an added delay, in benchmarks). */
  beforeAnswer?: () => Promise<void> | void
  /** Extra POST paths answered with JSON (never forwarded, never counted). */
  routes?: Record<string, (body: unknown) => unknown>
}

/** A running JSON-RPC server. */
export type JsonRpcServer = {
  /** `http://host:port`. */
  url: string
  close(): Promise<void>
}

type JsonRpcRequest = { jsonrpc?: string; id?: unknown; method?: unknown; params?: unknown }

const defaultMaxBodyBytes = 16 * 1024 * 1024

/**
 * Serves `provider` over HTTP JSON-RPC and resolves once it listens.
 *
 * @throws when the port cannot be bound (the listen error, e.g. `EADDRINUSE`).
 * @example
 * const server = await serveJsonRpc(provider, { port: 8545 })
 * console.log(server.url) // http://127.0.0.1:8545
 */
export async function serveJsonRpc(provider: Eip1193ProviderLike, options: ServeJsonRpcOptions = {}): Promise<JsonRpcServer> {
  const { host = '127.0.0.1', port = 0, maxBodyBytes = defaultMaxBodyBytes } = options

  const answer = async (request: JsonRpcRequest) => {
    const id = request?.id ?? null
    if (typeof request !== 'object' || request === null || typeof request.method !== 'string') {
      return { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid request: expected { jsonrpc, id, method, params }.' } }
    }
    options.onCall?.(request.method)
    try {
      const result = await provider.request({ method: request.method, params: request.params ?? [] })
      return { jsonrpc: '2.0', id, result: result ?? null }
    } catch (error) {
      const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown }
      return {
        jsonrpc: '2.0',
        id,
        error: { code: typeof code === 'number' ? code : -32603, message: String(message), ...(data === undefined ? {} : { data }) },
      }
    }
  }

  const reply = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(JSON.stringify(body))
  }

  const readBody = async (incoming: IncomingMessage): Promise<Buffer | undefined> => {
    const declared = Number(incoming.headers['content-length'])
    if (Number.isFinite(declared) && declared > maxBodyBytes) return undefined
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of incoming) {
      size += (chunk as Buffer).length
      if (size > maxBodyBytes) return undefined
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks)
  }

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    if (incoming.method !== 'POST') {
      reply(response, 405, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'JSON-RPC requests are POSTed.' } })
      return
    }
    const raw = await readBody(incoming)
    if (raw === undefined) {
      response.setHeader('connection', 'close')
      reply(response, 413, { jsonrpc: '2.0', id: null, error: { code: -32600, message: `Request body over ${maxBodyBytes} bytes.` } })
      incoming.destroy()
      return
    }
    let body: unknown
    try {
      body = JSON.parse(raw.toString('utf8'))
    } catch {
      reply(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })
      return
    }
    const route = incoming.url ? options.routes?.[incoming.url] : undefined
    if (route) {
      reply(response, 200, route(body))
      return
    }
    let result: unknown
    if (Array.isArray(body)) {
      // Batches are answered in order; their calls run one after the other, as a node would.
      const answers: unknown[] = []
      for (const request of body) answers.push(await answer(request as JsonRpcRequest))
      result = answers
    } else {
      result = await answer(body as JsonRpcRequest)
    }
    await options.beforeAnswer?.()
    reply(response, 200, result)
  }

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: String(error) } })
      else response.end()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port: bound } = server.address() as AddressInfo
  const shownHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shownHost}:${bound}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
