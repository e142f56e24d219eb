/**
 * Entry point of the node process started by `startNodeProcess` (node-process.ts): an EDR node
 * served over HTTP JSON-RPC on 127.0.0.1. Takes the node options as JSON in its first argument,
 * prints the URL as the first line of stdout, and exits when its stdin closes (the parent is gone)
 * or on SIGTERM.
 */
import type { EdrNodeOptions } from './harness.js'
import { serveEdrNode } from './node-process.js'

const options = JSON.parse(process.argv[2] ?? '{}') as EdrNodeOptions
const { server } = await serveEdrNode(options)
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
