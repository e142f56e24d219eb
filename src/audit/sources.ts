/**
 * The sources of one audit: the JSON-RPC clients, the attestation index, the Passport clients and
 * the fetch every request of the audit goes through. What an audit reads as it stands when the audit
 * runs is read once per audit, not once per batch of voters: each chain's id (`eth_chainId`), the
 * header of a numbered block, the attestation index's listing and the Passport score listing (C4). Answers fixed for the snapshot may come from a disk cache (opened
 * once the snapshot's block is known), and every request that reaches the network is counted.
 */
import { createRpcUrlClient } from '../chain/rpc-url.js'
import type { ChainClient, Eip1193ProviderLike } from '../chain/provider.js'
import { toPublicClient } from '../chain/provider.js'
import { createAttestationIndexClient, type AttestationIndexClient, type AttestationListingPageResult } from '../clients/attestation-index/index.js'
import { defaultAttestationIndexBaseUrl } from '../clients/attestation-index/context.js'
import { createCachingFetch, type CacheStats } from '../http/cache.js'
import type { PassportClient } from '../clients/passport/index.js'
import type { ListScoresReturnType, RegistryClient } from '../clients/registry/index.js'
import { createStrategyRuntime, getPassportSources, type StrategyContext } from '../strategy/context.js'
import { stringifyJson } from '../utils/json.js'

/**
 * A client that asks the node once per audit what cannot change during it: `eth_chainId`, and the
 * header of a numbered block (`eth_getBlockByNumber` with a block number). Every other request goes
 * through. A failed read is not kept (the next one asks again).
 *
 * @example
 * const client = readOnceClient(createPublicClient({ transport: http(url) }))
 * await client.request({ method: 'eth_chainId' }) // asked
 * await client.request({ method: 'eth_chainId' }) // remembered
 */
export function readOnceClient(client: ChainClient): Eip1193ProviderLike {
  const inner = toPublicClient(client)
  const once = readOnce<unknown>()
  return {
    request(args) {
      const key = readOnceKey(args)
      const read = () => inner.request(args as never) as Promise<unknown>
      return key === undefined ? read() : once(key, read)
    },
  }
}

/** Remembers each answer by its key, so it is asked once; a read that fails is not kept (the next one asks again). */
function readOnce<T>(): (key: string, read: () => Promise<T>) => Promise<T> {
  const answers = new Map<string, Promise<T>>()
  return (key, read) => {
    let answer = answers.get(key)
    if (answer === undefined) {
      answer = read()
      answers.set(key, answer)
      answer.catch(() => answers.delete(key))
    }
    return answer
  }
}

function readOnceKey({ method, params }: { method: string; params?: unknown }): string | undefined {
  if (method === 'eth_chainId') return method
  if (method === 'eth_getBlockByNumber' && Array.isArray(params) && typeof params[0] === 'string' && /^0x[0-9a-f]+$/i.test(params[0])) {
    return `${method} ${params[0].toLowerCase()} ${String(params[1] === true)}`
  }
  return undefined
}

/**
 * An attestation index whose listing pages (by schema, attester, recipient and page) are read once:
 * every batch of voters after the first is served the same pages.
 */
export function readOnceAttestationIndex(index: AttestationIndexClient): AttestationIndexClient {
  const once = readOnce<AttestationListingPageResult>()
  return {
    ...index,
    getAttestationListingPage: (parameters) =>
      once(JSON.stringify([parameters.schemaId, parameters.attester, parameters.recipient ?? null, parameters.page ?? 1]), () => index.getAttestationListingPage(parameters)),
  }
}

/**
 * A registry client whose score listing pages (C4 without an address: by scorer, filters, size and
 * offset) are read once: every batch of voters after the first is served the same pages, so the
 * listing reads as one listing across the audit. Reads of one address go through.
 */
export function readOnceScoreListing(registry: RegistryClient): RegistryClient {
  const once = readOnce<ListScoresReturnType>()
  return {
    ...registry,
    listScores(parameters) {
      if (parameters.address !== undefined) return registry.listScores(parameters)
      const { signal: _signal, ...page } = parameters
      return once(stringifyJson(page, { sortKeys: true }), () => registry.listScores(parameters))
    },
  }
}

/**
 * The Passport clients of an audit, built once (the context's own when it gives both), or none
 * when no API key is configured (a strategy without Passport needs none).
 */
function passportClientsOf(context: StrategyContext): { passport: PassportClient; registry: RegistryClient } | undefined {
  const given = context.clients
  if (given?.passport && given.registry) return { passport: given.passport, registry: given.registry }
  if (!context.passport?.apiKey) return undefined
  const { passport, registry } = getPassportSources(createStrategyRuntime({ ...context, deadlineMs: Infinity }), 'audit')
  return { passport, registry }
}

/** Parameters of {@link createAuditSources}. */
export type CreateAuditSourcesParameters = {
  /** The space network's client, or its JSON-RPC URL (then read through the audit's fetch, so the disk cache applies). */
  provider: ChainClient | string
  /** Where the strategy's sources are (`fetch`, `passport`, `humanId`, `clients`...). */
  context: StrategyContext
}

/** What {@link createAuditSources} returns. */
export type AuditSources = {
  /** The space network's client (read once: its chain id and the snapshot's header). */
  provider: Eip1193ProviderLike
  /** The Human ID hub chain's client when the context names one (read once as well). */
  hubChain: Eip1193ProviderLike | undefined
  /** The strategy context with these sources in it: the audit's fetch, the hub chain and the attestation index. */
  context: StrategyContext
  /**
   * Opens the disk cache of answers fixed for the snapshot (see `createCachingFetch`): every request
   * made after this through the audit's fetch may be answered from it.
   */
  openCache(parameters: { dir: string; scope: { chainId: string; blockNumber: bigint } }): void
  /** Requests that reached the network through the audit's fetch, and answers the disk cache gave. */
  requests(): { sent: number; fromCache: number; cache: CacheStats | null }
}

/**
 * Sets up the sources of one audit (see the module's comment). Sources the caller hands over as
 * ready clients are used as given (their requests are not counted; chain clients are still read
 * once).
 *
 * @example
 * const sources = createAuditSources({ provider: 'https://mainnet.optimism.io', context: { passport: { apiKey } } })
 * await runStrategy(humanVerificationStrategy, { network: '10', provider: sources.provider, addresses, options, snapshot, context: sources.context })
 */
export function createAuditSources(parameters: CreateAuditSourcesParameters): AuditSources {
  const { context } = parameters
  const base = context.fetch ?? globalThis.fetch
  let sent = 0
  const counted: typeof fetch = (input, init) => {
    sent++
    return base(input, init)
  }
  let through: typeof fetch = counted
  let cache: CacheStats | null = null
  const auditFetch: typeof fetch = (input, init) => through(input, init)
  // A reader call is planned near a node's 50M-gas cap: a node may take tens of seconds on it, so
  // the client waits 60 s an attempt (src/chain/rpc-url.ts), not viem's 10 s.
  const overHttp = (url: string) => createRpcUrlClient(url, { fetch: auditFetch })

  const provider = readOnceClient(typeof parameters.provider === 'string' ? overHttp(parameters.provider) : parameters.provider)
  const configuredHub = context.humanId?.hubChain
  // The same URL for both chains is one client (a space on the hub chain): its chain id read once.
  const hubChain =
    configuredHub === undefined ? undefined : configuredHub === parameters.provider ? provider : readOnceClient(typeof configuredHub === 'string' ? overHttp(configuredHub) : configuredHub)
  const attestationIndex = readOnceAttestationIndex(
    context.clients?.attestationIndex ??
      createAttestationIndexClient({
        baseUrl: context.humanId?.attestationIndexBaseUrl ?? defaultAttestationIndexBaseUrl,
        fetch: auditFetch,
        ...(context.now ? { now: context.now } : {}),
        ...(context.sleep ? { sleep: context.sleep } : {}),
        concurrency: context.concurrency ?? 4,
      }),
  )
  const passport = passportClientsOf({ ...context, fetch: auditFetch })
  return {
    provider,
    hubChain,
    context: {
      ...context,
      fetch: auditFetch,
      humanId: { ...context.humanId, ...(hubChain ? { hubChain } : {}) },
      clients: { ...context.clients, attestationIndex, ...(passport ? { passport: passport.passport, registry: readOnceScoreListing(passport.registry) } : {}) },
    },
    openCache({ dir, scope }) {
      const caching = createCachingFetch({ dir, scope, fetch: counted, ...(context.now ? { now: context.now } : {}) })
      cache = caching.stats
      through = caching.fetch
    },
    requests: () => ({ sent, fromCache: cache?.hits ?? 0, cache }),
  }
}
