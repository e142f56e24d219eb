/**
 * A JSON-RPC gate for tests that must hold a run in flight: a loopback HTTP server that forwards
 * every request to `target`, except that while it holds, each `eth_call` waits until it releases.
 * Headers and chain ids pass, so calls reach the strategies and queue; their runs wait at the chain.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type RpcGate = {
  url: string
  /** From now on, eth_call waits. */
  hold(): void
  /** Lets every waiting eth_call through, and the ones after it. */
  release(): void
  /** eth_calls held so far. */
  readonly held: number
  stop(): Promise<void>
}

export async function startRpcGate(target: string): Promise<RpcGate> {
  const waiters: (() => void)[] = []
  let holding = false
  let held = 0
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      if (holding && body.includes('"eth_call"')) {
        held += 1
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
      try {
        const answer = await fetch(target, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
        response.writeHead(answer.status, { 'Content-Type': 'application/json' })
        response.end(await answer.text())
      } catch (error) {
        response.writeHead(502, { 'Content-Type': 'text/plain' })
        response.end(String(error))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const release = () => {
    holding = false
    for (const resume of waiters.splice(0)) resume()
  }
  return {
    url: `http://127.0.0.1:${port}`,
    hold() {
      holding = true
    },
    release,
    get held() {
      return held
    },
    stop() {
      release()
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
