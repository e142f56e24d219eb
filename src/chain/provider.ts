/**
 * Adapts what callers hand the verifier (a viem client, an ethers v5 or v6 provider as Snapshot
 * hands strategies, or any EIP-1193 provider) to a viem PublicClient, by shape.
 */
import { createPublicClient, custom, type Client, type PublicClient } from 'viem'
import { InvalidParameterError } from '../errors/index.js'

/** An EIP-1193 provider: `request({ method, params })` (wallets, hardhat, viem transports). */
export type Eip1193ProviderLike = { request(args: { method: string; params?: unknown }): Promise<unknown> }

/** An ethers v5 or v6 JSON-RPC provider: `send(method, params)` (what Snapshot hands a strategy). */
export type EthersProviderLike = { send(method: string, params: unknown[]): Promise<unknown> }

/**
 * Anything {@link toPublicClient} (and so `verifyCredentials`) accepts as `client`.
 *
 * @example
 * import type { ChainClient } from 'personhood'
 * // In a Snapshot strategy: strategy(space, network, provider, addresses, options, snapshot)
 * const client: ChainClient = provider // an ethers v5 StaticJsonRpcProvider
 */
export type ChainClient = Client | PublicClient | Eip1193ProviderLike | EthersProviderLike

/**
 * Returns a viem PublicClient for a viem client, an ethers v5/v6 provider or an EIP-1193 provider.
 * A viem PublicClient is returned as is; the others are wrapped in a `custom` transport without
 * retries of its own (the provider keeps its own retry policy).
 *
 * @throws {InvalidParameterError} when `client` has neither `request` nor `send`.
 * @example
 * import { toPublicClient } from 'personhood'
 * import { StaticJsonRpcProvider } from '@ethersproject/providers'
 * const client = toPublicClient(new StaticJsonRpcProvider('https://mainnet.optimism.io'))
 * await client.getBlockNumber()
 */
/**
 * The chain id a client declares without asking the node: a viem client's `chain.id`, an ethers v5
 * provider's network (given to its constructor or detected once; not for the "any" network), an
 * ethers v6 provider's network when it was created with `staticNetwork`. Undefined otherwise (an
 * EIP-1193 provider, a viem client without a chain, an ethers provider that has not detected its
 * network yet): the node must then be asked (`eth_chainId`).
 *
 * A declared chain id is taken as the client's word: a client declared for one chain but connected
 * to another is the caller's mistake, and reads would go to the wrong contracts.
 *
 * @example
 * import { declaredChainId } from './provider.js'
 * import { createPublicClient, http } from 'viem'
 * import { optimism } from 'viem/chains'
 * declaredChainId(createPublicClient({ chain: optimism, transport: http() })) // 10
 * declaredChainId(createPublicClient({ transport: http() })) // undefined
 */
export function declaredChainId(client: ChainClient): number | undefined {
  const value = client as unknown as Record<string, unknown> | null | undefined
  if (typeof value !== 'object' || value === null) return undefined
  if (typeof value.request === 'function' && typeof value.transport === 'object' && typeof value.extend === 'function') {
    const chain = value.chain as { id?: unknown } | null | undefined
    return chainIdOf(chain?.id)
  }
  if (typeof value.send !== 'function') return undefined
  // ethers v6 (JsonRpcApiProvider): `_network` throws until the network is known, and only
  // `staticNetwork` promises that it never changes.
  if (typeof value._getOption === 'function') {
    let isStatic: unknown
    try {
      isStatic = (value._getOption as (key: string) => unknown).call(value, 'staticNetwork')
    } catch {
      return undefined
    }
    if (!isStatic) return undefined
    return chainIdOf(readNetwork(value)?.chainId)
  }
  // ethers v5 (BaseProvider): `_network` once given or detected; "any" may change under it.
  if (value._isProvider === true && value.anyNetwork !== true) return chainIdOf(readNetwork(value)?.chainId)
  return undefined
}

function readNetwork(provider: Record<string, unknown>): { chainId?: unknown } | undefined {
  try {
    const network = provider._network as { chainId?: unknown } | null | undefined
    return typeof network === 'object' && network !== null ? network : undefined
  } catch {
    return undefined
  }
}

function chainIdOf(value: unknown): number | undefined {
  const id = typeof value === 'bigint' && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined
}

/**
 * A viem public client over any {@link ChainClient}: a viem public client as it is, an EIP-1193
 * provider or another viem client through its `request`, an ethers provider through its `send`.
 * No retries of its own: the caller's provider decides.
 *
 * @throws {InvalidParameterError} for anything that is not one of those.
 * @example
 * import { readSbts, toPublicClient } from 'personhood'
 * const readings = await readSbts(toPublicClient(ethersProvider), parameters)
 */
export function toPublicClient(client: ChainClient): PublicClient {
  const value = client as unknown as Record<string, unknown> | null | undefined
  if (typeof value !== 'object' || value === null) {
    throw new InvalidParameterError({ parameter: 'client', reason: 'Expected a viem client, an ethers provider or an EIP-1193 provider.' })
  }
  const isViemClient = typeof value.request === 'function' && typeof value.transport === 'object' && typeof value.extend === 'function'
  if (isViemClient && value.type === 'publicClient') return client as PublicClient
  if (typeof value.request === 'function') {
    const provider = client as Eip1193ProviderLike
    return createPublicClient({
      transport: custom(
        { request: (args: { method: string; params?: unknown }) => provider.request(args) },
        { key: isViemClient ? 'viem' : 'eip1193', name: isViemClient ? 'viem client' : 'EIP-1193 provider', retryCount: 0 },
      ),
    })
  }
  if (typeof value.send === 'function') {
    const provider = client as EthersProviderLike
    return createPublicClient({
      transport: custom(
        {
          request: ({ method, params }: { method: string; params?: unknown }) =>
            provider.send(method, Array.isArray(params) ? params : params === undefined ? [] : [params]),
        },
        { key: 'ethers', name: 'ethers provider', retryCount: 0 },
      ),
    })
  }
  throw new InvalidParameterError({
    parameter: 'client',
    reason: 'Expected a viem client, an ethers provider (with send) or an EIP-1193 provider (with request).',
  })
}
