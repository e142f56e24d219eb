/**
 * A stand-in for score-api's scoring API, for the suite (CI cannot fetch score-api). Written from
 * snapshot-labs/score-api@6ffd1ba, not imported: `src/rpc.ts` (`POST /api/scores`: defaults
 * `network = '1'`, `snapshot = 'latest'`; `formatStrategies` gives each strategy the request's
 * network when it has none; more than `MAX_STRATEGIES` (10) is 400 "invalid strategies length"; an
 * unknown name is 400 "invalid strategies: a,b"; no strategy is 500 "something wrong with the
 * strategies"; a bad address is 400 "invalid address"), `src/scores.ts` (a numeric snapshot above
 * the head is scored at 'latest' with state `pending`, else `final`), `src/strategies/utils.ts`
 * (`getScoresDirect`: addresses deduplicated as checksummed, other networks' blocks found by the
 * snapshot block's time (as the blockfinder does: the last block at or before it), `start`/`end`
 * honoured, each answer filtered to requested addresses with a score above 0; a strategy that throws
 * fails the request with 500 and its message) and `src/utils.ts` (`rpcSuccess`:
 * `{ jsonrpc: '2.0', result: { state, scores }, id: null, cache }`; `rpcError`: status = code,
 * `{ jsonrpc: '2.0', error: { code, message: 'unauthorized', data }, id }`). `src/helpers/keycard.ts`:
 * an API key given in `x-api-key` (or `?apiKey=`) that keycard does not know is 400 "invalid api key".
 * `src/index.ts`: JSON bodies up to 8 MB; any other route is 404 with `data: {}`.
 *
 * It runs the strategies it is given in score-api's module shape (`erc20-balance-of` from
 * test/strategy/token-chain.ts reads the local chain) and counts what it was asked.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getAddress, isAddress, numberToHex } from 'viem'
import type { Eip1193ProviderLike } from '../../src/chain/provider.js'

/** A strategy as score-api's registry holds it. */
export type StandInStrategy = {
  strategy(space: string, network: string, provider: Eip1193ProviderLike, addresses: string[], params: Record<string, unknown>, snapshot: number | 'latest'): Promise<Record<string, number>>
}

/** A network the stand-in reads: its provider, and its last block at or before a time (the blockfinder's answer). */
export type StandInNetwork = { provider: Eip1193ProviderLike; blockAt(seconds: number): bigint }

export type ScoreApiStandIn = {
  url: string
  /** Every `/api/scores` body received, parsed, with its `x-api-key` header. */
  readonly requests: { params: Record<string, unknown>; apiKey: string | undefined }[]
  /** Replaces the next answers' bodies (status and raw text), for tests of malformed answers. */
  answerNext(...answers: { status: number; body: string }[]): void
  close(): Promise<void>
}

const maxStrategies = 10
const emptyAddress = '0x0000000000000000000000000000000000000000'

function rpcError(code: number, data: unknown, id: unknown = null): { status: number; body: string } {
  return { status: code, body: JSON.stringify({ jsonrpc: '2.0', error: { code, message: 'unauthorized', data }, id }) }
}

function sortObject(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, value[key]]))
}

async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) return undefined
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Starts the stand-in on 127.0.0.1.
 *
 * @param parameters.strategies score-api's registry (name to module).
 * @param parameters.networks the networks it reads, by chain id string.
 * @param parameters.apiKeys keys keycard knows; a key not among them is 400 "invalid api key" (none: keycard not configured, every key ignored).
 */
export async function startScoreApiStandIn(parameters: {
  strategies: Readonly<Record<string, StandInStrategy>>
  networks: Readonly<Record<string, StandInNetwork>>
  apiKeys?: readonly string[]
}): Promise<ScoreApiStandIn> {
  const requests: ScoreApiStandIn['requests'] = []
  const scripted: { status: number; body: string }[] = []

  async function scores(params: Record<string, unknown>): Promise<{ status: number; body: string }> {
    const space = typeof params.space === 'string' ? params.space : ''
    const network = (params.network ?? '1') as string
    const snapshot = (params.snapshot ?? 'latest') as number | string
    const addresses = (params.addresses ?? []) as string[]
    const given = Array.isArray(params.strategies) ? (params.strategies as Record<string, unknown>[]) : []
    const strategies = given.map((strategy) => sortObject({ ...strategy, network: (strategy?.network as string) || network }))
    if (strategies.length > maxStrategies) return rpcError(400, 'invalid strategies length')
    const invalid = [...new Set(strategies.map((strategy) => strategy.name as string).filter((name) => name === undefined || !Object.hasOwn(parameters.strategies, name)))]
    if (invalid.length > 0) return rpcError(400, `invalid strategies: ${invalid.join(',')}`)
    if (strategies.length === 0) return rpcError(500, 'something wrong with the strategies')
    if (!addresses.every((address) => address === emptyAddress || (typeof address === 'string' && isAddress(address, { strict: true })))) return rpcError(400, 'invalid address')
    const main = parameters.networks[network]
    try {
      if (!main) throw new Error(`network ${network} is not served`)
      let block: number | 'latest' = 'latest'
      if (snapshot !== 'latest') {
        const head = Number(BigInt((await main.provider.request({ method: 'eth_blockNumber' })) as string))
        block = head < Number(snapshot) ? 'latest' : Number.parseInt(String(snapshot), 10)
      }
      const state = block === 'latest' ? 'pending' : 'final'
      let results: Record<string, number>[]
      if (addresses.length === 0) results = strategies.map(() => ({}))
      else {
        const formatted = [...new Set(addresses.map((address) => getAddress(address)))]
        // getSnapshots: the snapshot's network as asked; every other network at the block the blockfinder finds for its time.
        let time: number | undefined
        if (block !== 'latest') {
          const header = (await main.provider.request({ method: 'eth_getBlockByNumber', params: [numberToHex(block), false] })) as { timestamp: string }
          time = Number(BigInt(header.timestamp))
        }
        results = await Promise.all(
          strategies.map(async (strategy) => {
            const strategyNetwork = strategy.network as string
            const served = parameters.networks[strategyNetwork]
            if (!served) throw new Error(`network ${strategyNetwork} is not served`)
            const at = block === 'latest' || strategyNetwork === network ? block : Number(served.blockAt(time!))
            const params = (strategy.params ?? {}) as Record<string, unknown>
            if ((at !== 'latest' && (params.start as number) > at) || (params.end && (at === 'latest' || at > (params.end as number)))) return {}
            const score = await parameters.strategies[strategy.name as string]!.strategy(space, strategyNetwork, served.provider, formatted, params, at)
            const asked = new Set(formatted.map((address) => address.toLowerCase()))
            return Object.fromEntries(Object.entries(score).filter(([address, vp]) => vp > 0 && asked.has(address.toLowerCase())))
          }),
        )
      }
      return { status: 200, body: JSON.stringify({ jsonrpc: '2.0', result: { state, scores: results }, id: null, cache: false }) }
    } catch (error) {
      return rpcError(500, (error as Error)?.message || error || 'Unknown error')
    }
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://stand-in')
      const apiKey = (request.headers['x-api-key'] as string | undefined) ?? url.searchParams.get('apiKey') ?? undefined
      const text = await readBody(request, 8 * 1024 * 1024)
      let answer: { status: number; body: string }
      if (text === undefined) answer = { status: 413, body: 'PayloadTooLargeError: request entity too large' }
      else {
        let body: Record<string, unknown> = {}
        try {
          body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
        } catch {
          body = {}
        }
        if (apiKey && parameters.apiKeys && !parameters.apiKeys.includes(apiKey)) answer = rpcError(400, 'invalid api key', body.id ?? null)
        else if (request.method === 'POST' && url.pathname === '/api/scores') {
          const params = ((body ?? {}).params ?? {}) as Record<string, unknown>
          requests.push({ params, apiKey })
          answer = scripted.shift() ?? (await scores(params))
        } else answer = rpcError(404, {}, body.id ?? null)
      }
      response.writeHead(answer.status, { 'Content-Type': 'application/json; charset=utf-8' })
      response.end(answer.body)
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answerNext: (...answers) => void scripted.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
