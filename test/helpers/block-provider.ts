/** A chain of blocks only, for tests that need a snapshot block and nothing else of a chain. */
import { numberToHex } from 'viem'

/**
 * An EIP-1193 provider of a chain whose block n is at 1,700,000,000 + 2n, head 1,000 (a block past
 * the head is null); any method but `eth_getBlockByNumber` throws. `calls` records every request's
 * method.
 */
export function recordingBlockProvider() {
  const calls: string[] = []
  return {
    calls,
    async request({ method, params }: { method: string; params?: unknown }) {
      calls.push(method)
      if (method !== 'eth_getBlockByNumber') throw new Error(`unexpected ${method}`)
      const tag = (params as unknown[])[0]
      const number = tag === 'latest' ? 1000n : BigInt(tag as string)
      if (number > 1000n) return null
      return { number: numberToHex(number), hash: `0x${'ab'.repeat(32)}`, timestamp: numberToHex(1_700_000_000n + 2n * number) }
    },
  }
}
