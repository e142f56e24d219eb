/**
 * The benchmark's local node: an EDR node (harness.ts) served over HTTP JSON-RPC on 127.0.0.1, in a
 * child process of its own (`startNodeProcess`, as a developer runs a local node) or in the calling
 * process (`serveEdrNode`).
 *
 * The node runs a garbage collection after answering once its requests have kept EDR busy for 25 ms
 * since the last one, and EDR's allocator (mimalloc) keeps freed memory mapped for reuse
 * (`MIMALLOC_PURGE_DELAY=-1`, `MIMALLOC_RESERVE_OS_MEMORY`; read when EDR loads). Both were set for
 * EDR 0.12, which kept a trace of every EVM step of a call (about 100 MB for one 500-call
 * `aggregate3`) in the response until V8 collected it, so the process grew per request and the
 * kernel zeroed fresh pages each time. EDR 0.13.0 keeps no trace (see src/devchain/edr.ts); the
 * settings are kept so that bench/chain.ts measures the node as its published figures did.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createEdrProvider, NodeRpcError, type EdrNodeOptions, type Eip1193 } from './harness.js'
import { serveJsonRpc, type ControlAnswer, type RpcServer, type RpcStats } from './rpc-server.js'

/** Node flags of the node process. */
export const nodeProcessFlags = ['--expose-gc']

/** Allocator settings of the node process (mimalloc reads them when EDR loads). */
export const nodeProcessEnvironment = { MIMALLOC_PURGE_DELAY: '-1', MIMALLOC_RESERVE_OS_MEMORY: '4GiB' }

/** EDR time between two garbage collections of the node. */
const collectEveryBusyMs = 25

/**
 * Creates an EDR node and serves it (with `POST /control`). `collectGarbage` (a `gc` function) is
 * called after answering once EDR has been busy for 25 ms since the last call.
 */
export async function serveEdrNode(options: EdrNodeOptions, collectGarbage?: () => void): Promise<{ server: RpcServer; provider: Eip1193 }> {
  const edr = await createEdrProvider(options)
  // Wall time during which at least one request was inside EDR, since the last collection.
  let inFlight = 0
  let busySince = 0
  let busyMs = 0
  const provider: Eip1193 = {
    async request(args) {
      if (inFlight++ === 0) busySince = performance.now()
      try {
        return await edr.request(args)
      } finally {
        if (--inFlight === 0) busyMs += performance.now() - busySince
      }
    },
  }
  const server = await serveJsonRpc(provider, {
    control: true,
    onAnswered() {
      if (collectGarbage && busyMs >= collectEveryBusyMs) {
        busyMs = 0
        collectGarbage()
      }
    },
  })
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
    flags: nodeProcessFlags,
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
