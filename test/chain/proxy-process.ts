/**
 * A counting, delaying JSON-RPC proxy in front of a node over HTTP (anvil, for the benchmark), in a
 * Node process of its own (`rpc-proxy.ts`) so that it shares no event loop with the client it
 * measures. It answers `POST /control` as the EDR node process does (counters, added delay).
 */
import { fileURLToPath } from 'node:url'
import { startControlledProcess, type ControlledProcess } from './node-process.js'

/** The proxy: its URL, counters, added delay. */
export type ProxyProcess = Omit<ControlledProcess, 'post'>

/** Starts a proxy to `target` (a loopback URL) in a child process and waits until it listens. */
export async function startProxyProcess(target: string): Promise<ProxyProcess> {
  const script = fileURLToPath(new URL('./rpc-proxy.ts', import.meta.url))
  return startControlledProcess(script, [target], { name: 'proxy' })
}
