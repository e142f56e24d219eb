/**
 * The viem client of a JSON-RPC URL, made one way everywhere the package takes a URL (the CLI's
 * --rpc and --hub-chain-rpc, the audit, the strategy server, a strategy context's hub chain).
 */
import { createPublicClient, http, type PublicClient } from 'viem'

/**
 * Time one JSON-RPC attempt may take: 60 s, the package's timeout per attempt everywhere (its HTTP
 * clients too). viem's own default, 10 s, fails a 500-address reader call on a busy node.
 */
export const rpcAttemptTimeoutMs = 60_000

/**
 * A viem public client of `url`: a 60 s timeout per attempt, two retries, requests through `fetch`
 * when given (counting, caching).
 *
 * @example
 * const client = createRpcUrlClient('https://mainnet.optimism.io')
 */
export function createRpcUrlClient(url: string, options: { fetch?: typeof fetch | undefined } = {}): PublicClient {
  return createPublicClient({ transport: http(url, { retryCount: 2, timeout: rpcAttemptTimeoutMs, ...(options.fetch ? { fetchFn: options.fetch } : {}) }) })
}
