/**
 * A counting, delaying JSON-RPC proxy in front of a node over HTTP (anvil, for the benchmark), in a
 * Node process of its own (`rpc-proxy.ts`) so that it shares no event loop with the client it
 * measures. It answers `POST /control` as the EDR node process does (counters, added delay).
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ControlAnswer, RpcStats } from './rpc-server.js'

export type ProxyProcess = {
  /** The proxy's JSON-RPC endpoint on 127.0.0.1. */
  url: string
  pid: number
  /** What the proxy has forwarded since the last reset. */
  stats(): Promise<RpcStats>
  reset(): Promise<void>
  /** Delay the proxy adds before each HTTP answer. */
  setLatency(ms: number): Promise<void>
  close(): Promise<void>
}

/** Starts a proxy to `target` (a loopback URL) in a child process and waits until it listens. */
export async function startProxyProcess(target: string): Promise<ProxyProcess> {
  const script = fileURLToPath(new URL('./rpc-proxy.ts', import.meta.url))
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), script, target], { stdio: ['pipe', 'pipe', 'inherit'] })
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
    void exited.then((code) => reject(new Error(`the proxy process exited (${String(code)}) before listening`)))
  })
  const control = async (command: object) => {
    const response = await fetch(`${url}/control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(command) })
    return (await response.json()) as ControlAnswer
  }
  return {
    url,
    pid: child.pid as number,
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
