/**
 * Entry point of the proxy process started by `startProxyProcess` (proxy-process.ts): a JSON-RPC
 * server on 127.0.0.1 (rpc-server.ts, with `POST /control`) that forwards every call to the node
 * whose URL is its first argument, counting them and adding the delay it is told to. Prints its URL
 * as the first line of stdout, and exits when its stdin closes (the parent is gone) or on SIGTERM.
 */
import { httpProvider } from './anvil-node.js'
import { serveJsonRpc } from './rpc-server.js'

const target = process.argv[2]
if (!target?.startsWith('http://127.0.0.1:')) throw new Error('usage: rpc-proxy.ts http://127.0.0.1:<port>')
const server = await serveJsonRpc(httpProvider(target), { control: true })
process.stdout.write(`${server.url}\n`)

let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  server.close().finally(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.stdin.on('end', stop)
process.stdin.resume()
