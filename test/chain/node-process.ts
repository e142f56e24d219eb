/**
 * The benchmark's local node: an EDR node (harness.ts) served over HTTP JSON-RPC on 127.0.0.1, in a
 * child process of its own (`startNodeProcess`, as a developer runs a local node) or in the calling
 * process (`serveEdrNode`).
 *
 * EDR's allocator (mimalloc) keeps freed memory mapped for reuse in the node process
 * (`MIMALLOC_PURGE_DELAY=-1`, `MIMALLOC_RESERVE_OS_MEMORY`; read when EDR loads), so the kernel does
 * not zero fresh pages for every large request. The forced garbage collections the node ran for
 * EDR 0.12's per-step traces are gone, as in src/devchain/edr.ts: EDR 0.13.0 keeps no trace.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createEdrProvider, NodeRpcError, type EdrNodeOptions, type Eip1193 } from './harness.js'
import { serveJsonRpc, type ControlAnswer, type RpcServer, type RpcStats } from './rpc-server.js'

/** Allocator settings of the node process (mimalloc reads them when EDR loads). */
export const nodeProcessEnvironment = { MIMALLOC_PURGE_DELAY: '-1', MIMALLOC_RESERVE_OS_MEMORY: '4GiB' }

/** Creates an EDR node and serves it (with `POST /control`). */
export async function serveEdrNode(options: EdrNodeOptions): Promise<{ server: RpcServer; provider: Eip1193 }> {
  const provider: Eip1193 = await createEdrProvider(options)
  const server = await serveJsonRpc(provider, { control: true })
  return { server, provider }
}

export type NodeProcess = {
  /** The node's JSON-RPC endpoint on 127.0.0.1. */
  url: string
  pid: number
  /** An EIP-1193 provider over HTTP (for set-up: seeding, mining). */
  provider: Eip1193
  /** What the node has served since the last reset (set-up requests through `provider` included). */
  stats(): Promise<RpcStats>
  reset(): Promise<void>
  /** Delay the node adds before each HTTP answer. */
  setLatency(ms: number): Promise<void>
  close(): Promise<void>
}

/** A child process that prints its URL on its first line of output and answers `POST /control`. */
export type ControlledProcess = {
  /** Its endpoint on 127.0.0.1. */
  url: string
  pid: number
  /** What it has served since the last reset. */
  stats(): Promise<RpcStats>
  reset(): Promise<void>
  /** Delay it adds before each HTTP answer. */
  setLatency(ms: number): Promise<void>
  close(): Promise<void>
  /** POSTs a JSON body to a path of its endpoint and reads the JSON answer. */
  post(path: string, body: unknown): Promise<unknown>
}

/**
 * Spawns `script` under tsx with `args`, waits for the URL it prints first, and wraps its control
 * endpoint (`rpc-server.ts`). Shared by the EDR node process and the benchmark's proxy.
 */
export async function startControlledProcess(
  script: string,
  args: readonly string[],
  { flags = [], env = process.env, name }: { flags?: readonly string[]; env?: NodeJS.ProcessEnv; name: string },
): Promise<ControlledProcess> {
  const child = spawn(process.execPath, [...flags, '--import', import.meta.resolve('tsx'), script, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    let output = ''
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8')
      const newline = output.indexOf('\n')
      if (newline === -1) return
      child.stdout.off('data', onData)
      resolve(output.slice(0, newline).trim())
    }
    child.stdout.on('data', onData)
    child.once('error', reject)
    void exited.then((code) => reject(new Error(`the ${name} process exited (${String(code)}) before listening`)))
  })
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    return response.json()
  }
  const control = (command: object) => post('/control', command) as Promise<ControlAnswer>
  return {
    url,
    pid: child.pid as number,
    post,
    stats: async () => (await control({})).stats,
    reset: async () => {
      await control({ reset: true })
    },
    setLatency: async (ms) => {
      await control({ latencyMs: ms })
    },
    close: async () => {
      child.stdin.end()
      child.kill('SIGTERM')
      await exited
    },
  }
}

/** Starts an EDR node in a child process (`edr-node.ts`) and waits until it listens. */
export async function startNodeProcess(options: EdrNodeOptions = {}): Promise<NodeProcess> {
  const script = fileURLToPath(new URL('./edr-node.ts', import.meta.url))
  const base = await startControlledProcess(script, [JSON.stringify(options)], {
    env: { ...process.env, ...nodeProcessEnvironment },
    name: 'node',
  })
  let id = 0
  return {
    ...base,
    provider: {
      async request({ method, params }) {
        const answer = (await base.post('/', { jsonrpc: '2.0', id: ++id, method, params: params ?? [] })) as {
          result?: unknown
          error?: { code: number; message: string; data?: unknown }
        }
        if (answer.error) throw new NodeRpcError(answer.error.message, answer.error.code, answer.error.data)
        return answer.result
      },
    },
  }
}
