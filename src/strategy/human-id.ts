/**
 * `human-id`: a score for each voter holding Human ID credentials (government ID, phone,
 * biometrics, clean hands) as they stood at the snapshot. Human ID lives on Optimism; a space's
 * snapshot is a block of its own network, so the strategy takes that block's time and judges on the
 * hub chain's last block at or before it: on chain (the verifier, a few multicalls) or through the
 * Human ID API (E4-E6, batched) and the attestation index.
 */
import { createPublicClient, http, type Address } from 'viem'
import { z } from 'zod'
import { baseSepoliaClock, findBlockAtTime, optimismClock, type BlockClock } from '../chain/block-at-time.js'
import type { HumanCredential } from '../chain/constants.js'
import { baseSepoliaNetwork, optimismNetwork, type NetworkConstants } from '../chain/constants.js'
import { toPublicClient, type ChainClient } from '../chain/provider.js'
import { createAttestationIndexClient, type AttestationIndexClient } from '../clients/attestation-index/index.js'
import { defaultAttestationIndexBaseUrl } from '../clients/attestation-index/context.js'
import { createHumanIdClient, type HumanIdClient } from '../clients/human-id/index.js'
import { defaultHumanIdBaseUrl } from '../clients/human-id/context.js'
import { StrategyOptionsError } from '../errors/strategy.js'
import { mapWithConcurrency } from '../http/concurrency.js'
import { defaultActionId, parseActionId } from '../utils/parse.js'
import { findCleanHandsRows } from '../verify/attestation-lookup.js'
import { verifyCredentials } from '../verify/credentials/index.js'
import { matchCredentials, verdictFromAttestationRows, verdictsFromVerifier, verdictsFromVotingStrategy, type HumanIdVerdict } from '../verify/verdict.js'
import type { StrategyRuntime } from './context.js'
import { readSource } from './deadline.js'
import { defineStrategy } from './define.js'
import { symbolOption } from './options.js'
import type { ResolvedSnapshot, StrategyProvider } from './snapshot.js'

/** The credentials a space can ask for, in the fallback policy's order. */
export const humanIdStrategyCredentials = ['gov-id', 'phone', 'biometrics', 'clean-hands'] as const satisfies readonly HumanCredential[]

/** The options every strategy that reads Human ID shares (human-id, human-verification). */
export const humanIdOptionFields = {
  credentials: z
    .array(z.enum(humanIdStrategyCredentials))
    .min(1)
    .max(4)
    .default(['gov-id'])
    .meta({ title: 'Credentials', description: 'Which Human ID credentials count: gov-id, phone, biometrics, clean-hands.' }),
  match: z.enum(['any', 'all']).default('any').meta({ title: 'Match', description: 'any: one of the credentials is enough; all: every one is needed.' }),
  actionId: z
    .union([z.number().int().positive(), z.string().regex(/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/)])
    .optional()
    .meta({ title: 'Action id', description: 'The action id the credentials must carry (decimal or 0x hex). Default 123456789, universal uniqueness.' }),
  source: z
    .enum(['chain', 'api'])
    .default('chain')
    .meta({ title: 'Source', description: 'chain: read the Human ID contracts at the snapshot (reproducible, no trust in an API). api: the Human ID API and the attestation index.' }),
  sandbox: z.boolean().default(false).meta({ title: 'Sandbox', description: 'Read the Base Sepolia sandbox instead of Optimism. Test spaces only: sandbox credentials prove nothing.' }),
}

/** The options of `human-id`, as a space configures them. */
export const humanIdOptionsSchema = z
  .object({
    symbol: symbolOption,
    ...humanIdOptionFields,
    score: z.number().positive().default(1).meta({ title: 'Score', description: 'The score of a verified voter (others score 0).' }),
  })
  .strict()

/** The options of `human-id`, read. */
export type HumanIdOptions = z.output<typeof humanIdOptionsSchema>

/** The Human ID part of the options, read (shared with human-verification). */
export type HumanIdSourceOptions = Pick<HumanIdOptions, 'credentials' | 'match' | 'actionId' | 'source' | 'sandbox'>

/** What a voter's `human-id` answer rests on. */
export type HumanIdDetail = {
  /** Whether the credentials matched (`any` or `all`) at the snapshot. */
  eligible: boolean
  /** The first credential (in the asked order) that holds, when eligible. */
  method: HumanCredential | null
  /** One verdict per credential asked (two for clean hands read through the API: the index's). */
  verdicts: HumanIdVerdict[]
  /** The hub chain's block the credentials were judged at. */
  hubBlock: { chainId: number; blockNumber: bigint; timestamp: number }
}

/** The sources' names in words, with their labels (errors and request counts name them). */
export const humanIdSourceNames = {
  hubBlock: 'hub chain block at the snapshot time',
  chain: 'Human ID contracts on chain (multicall)',
  api: 'Human ID voting strategy API (E4-E6)',
  index: 'attestation index (clean hands)',
} as const

type HubChain = { network: NetworkConstants; clock: BlockClock; chainId: number }

function hubChainOf(sandbox: boolean): HubChain {
  return sandbox
    ? { network: baseSepoliaNetwork, clock: baseSepoliaClock, chainId: baseSepoliaNetwork.chainId }
    : { network: optimismNetwork, clock: optimismClock, chainId: optimismNetwork.chainId }
}

/** The hub chain's client: the space's own provider when the space is on it, else the context's. */
function hubClient(runtime: StrategyRuntime, strategy: string, hub: HubChain, network: string, provider: StrategyProvider): ChainClient {
  if (Number(network) === hub.chainId && isChainClient(provider)) return provider
  const configured = runtime.context.humanId?.hubChain
  if (configured === undefined) {
    throw new StrategyOptionsError({
      strategy,
      issues: [
        {
          path: ['HUMAN_ID_RPC_URL'],
          message: `The space is on network ${network} and Human ID on chain ${hub.chainId}: give a JSON-RPC URL of chain ${hub.chainId} (the CLI's --hub-chain-rpc, HUMAN_ID_RPC_URL, or humanId.hubChain in the context).`,
        },
      ],
    })
  }
  if (typeof configured === 'string') return createPublicClient({ transport: http(configured, { retryCount: 2, ...(runtime.context.fetch ? { fetchFn: runtime.context.fetch } : {}) }) })
  return configured
}

function isChainClient(provider: StrategyProvider): provider is ChainClient {
  return typeof (provider as { request?: unknown }).request === 'function' || typeof (provider as { send?: unknown }).send === 'function'
}

/**
 * The hub chain's block to judge at: the snapshot's own when the space is on the hub chain, else
 * the hub chain's last block at or before the snapshot block's time (arithmetic on its 2 s clock,
 * confirmed by one header read).
 */
async function hubBlockAt(parameters: {
  runtime: StrategyRuntime
  client: ChainClient
  hub: HubChain
  snapshot: ResolvedSnapshot
  addresses: readonly Address[]
}): Promise<HumanIdDetail['hubBlock']> {
  const { runtime, hub, snapshot } = parameters
  if (Number(snapshot.network) === hub.chainId) return { chainId: hub.chainId, blockNumber: snapshot.blockNumber, timestamp: snapshot.timestamp }
  const cacheKey = `human-id:hub-block:${hub.chainId}:${snapshot.timestamp}`
  const cached = runtime.cache?.get(cacheKey) as HumanIdDetail['hubBlock'] | undefined
  if (cached) return cached
  const found = await readSource({ source: humanIdSourceNames.hubBlock, addresses: parameters.addresses, deadline: runtime.deadline }, () =>
    findBlockAtTime(parameters.client, { timestamp: snapshot.timestamp, clock: runtime.context.humanId?.hubClock ?? hub.clock, chainId: hub.chainId }),
  )
  runtime.countRequest(humanIdSourceNames.hubBlock, found.reads)
  const block = { chainId: hub.chainId, blockNumber: found.number, timestamp: Number(found.timestamp) }
  runtime.cache?.set(cacheKey, block)
  return block
}

function attestationIndexOf(runtime: StrategyRuntime): AttestationIndexClient {
  const { context } = runtime
  return (
    context.clients?.attestationIndex ??
    createAttestationIndexClient({
      baseUrl: context.humanId?.attestationIndexBaseUrl ?? defaultAttestationIndexBaseUrl,
      ...(context.fetch ? { fetch: context.fetch } : {}),
      now: runtime.now,
      sleep: runtime.sleep,
      concurrency: runtime.concurrency,
    })
  )
}

function humanIdClientOf(runtime: StrategyRuntime): HumanIdClient {
  const { context } = runtime
  return (
    context.clients?.humanId ??
    createHumanIdClient({
      baseUrl: context.humanId?.baseUrl ?? defaultHumanIdBaseUrl,
      ...(context.fetch ? { fetch: context.fetch } : {}),
      now: runtime.now,
      sleep: runtime.sleep,
      concurrency: runtime.concurrency,
    })
  )
}

/** A fetch that counts each request under `source` (the index and API clients send through it). */
function countingFetch(runtime: StrategyRuntime, source: string): typeof fetch {
  const base = runtime.context.fetch ?? fetch
  return (input, init) => {
    runtime.countRequest(source)
    return base(input, init)
  }
}

/** Parameters of {@link readHumanIdVerdictsAt}. */
export type ReadHumanIdVerdictsAtParameters = {
  strategy: string
  options: HumanIdSourceOptions
  network: string
  provider: StrategyProvider
  /** Distinct, EIP-55. */
  addresses: readonly Address[]
  snapshot: ResolvedSnapshot
  runtime: StrategyRuntime
}

/**
 * Reads the Human ID verdicts of `addresses` at the snapshot: per address, one verdict per
 * credential asked, judged on the hub chain's block at the snapshot's time, with the match
 * (`any`/`all`) applied. Every address gets an answer, or the call throws: a voter is never judged
 * without one.
 *
 * Requests, on chain: the hub block (one header read when the space is on another network), then
 * `verifyCredentials` (one multicall per 500 calls, and for clean hands the attestation index, per
 * address or by listing pages, whichever is fewer). Through the API: one E4-E6 request per
 * credential and batch of addresses (as many as a URL holds), and the index for clean hands.
 *
 * @throws {StrategyOptionsError} when the space is on another network than the hub and no hub-chain RPC is configured.
 * @throws {StrategySourceError} when a source fails (named, with the addresses).
 */
export async function readHumanIdVerdictsAt(parameters: ReadHumanIdVerdictsAtParameters): Promise<Map<Address, HumanIdDetail>> {
  const { strategy, options, runtime, addresses, snapshot } = parameters
  const hub = hubChainOf(options.sandbox)
  const client = hubClient(runtime, strategy, hub, parameters.network, parameters.provider)
  const hubBlock = await hubBlockAt({ runtime, client, hub, snapshot, addresses })
  const actionId = parseActionId(options.actionId ?? defaultActionId)
  const credentials = [...new Set(options.credentials)]
  const verdicts = new Map<Address, HumanIdVerdict[]>(addresses.map((address) => [address, []]))
  const add = (list: readonly HumanIdVerdict[]) => {
    for (const verdict of list) verdicts.get(verdict.address)?.push(verdict)
  }

  if (options.source === 'chain') {
    const indexSource = { source: humanIdSourceNames.index, addresses, deadline: runtime.deadline }
    const chainSource = { source: humanIdSourceNames.chain, addresses, deadline: runtime.deadline }
    const counted = countingChainClient(toPublicClient(client), runtime)
    const result = await readSource(credentials.includes('clean-hands') ? { ...chainSource, source: `${chainSource.source} and ${indexSource.source}` } : chainSource, () =>
      verifyCredentials(counted, {
        addresses,
        credentials,
        actionId,
        blockNumber: hubBlock.blockNumber,
        network: hub.network,
        allowSandbox: options.sandbox,
        concurrency: runtime.concurrency,
        ...(credentials.includes('clean-hands') ? { attestationIndex: countedIndex(runtime) } : {}),
      }),
    )
    add(verdictsFromVerifier(result))
  } else {
    const api = humanIdClientOf({ ...runtime, context: { ...runtime.context, fetch: countingFetch(runtime, humanIdSourceNames.api) } })
    const onApi = credentials.filter((credential): credential is 'gov-id' | 'phone' | 'biometrics' => credential !== 'clean-hands')
    await mapWithConcurrency(onApi, runtime.concurrency, async (credential) => {
      const scores = await readSource({ source: humanIdSourceNames.api, addresses, deadline: runtime.deadline }, (signal) =>
        api.getVotingStrategyScores({ credential, network: hub.chainId, snapshot: hubBlock.blockNumber, addresses, actionId, signal }),
      )
      add(verdictsFromVotingStrategy({ credential, scores, chainId: hub.chainId, snapshot: hubBlock.blockNumber, actionId }))
    })
    if (credentials.includes('clean-hands')) {
      const lower = addresses.map((address) => address.toLowerCase() as Address)
      const { rows } = await readSource({ source: humanIdSourceNames.index, addresses, deadline: runtime.deadline }, () =>
        findCleanHandsRows({
          index: countedIndex(runtime),
          addresses: lower,
          schemaId: hub.network.cleanHands.fullSchemaId,
          attester: hub.network.cleanHands.attester,
          lookup: 'auto',
          concurrency: runtime.concurrency,
        }),
      )
      add(
        addresses.map((address, index) =>
          verdictFromAttestationRows({ address, rows: rows[index] ?? [], now: hubBlock.timestamp, attester: hub.network.cleanHands.attester, schemaId: hub.network.cleanHands.fullSchemaId }),
        ),
      )
    }
  }

  const details = new Map<Address, HumanIdDetail>()
  for (const address of addresses) {
    const list = verdicts.get(address)!
    const match = matchCredentials({ verdicts: list, credentials, match: options.match })
    const method = match.valid ? (credentials.find((credential) => match.verdicts.some((verdict) => verdict.credential === credential && verdict.valid)) ?? null) : null
    details.set(address, { eligible: match.valid, method, verdicts: list, hubBlock })
  }
  return details
}

function countedIndex(runtime: StrategyRuntime): AttestationIndexClient {
  const given = runtime.context.clients?.attestationIndex
  if (given) return given
  return attestationIndexOf({ ...runtime, context: { ...runtime.context, fetch: countingFetch(runtime, humanIdSourceNames.index) } })
}

/** The hub chain's client with every JSON-RPC request counted. */
function countingChainClient(client: ReturnType<typeof toPublicClient>, runtime: StrategyRuntime): ChainClient {
  return {
    request: (args: { method: string; params?: unknown }) => {
      runtime.countRequest(humanIdSourceNames.chain)
      return client.request(args as never)
    },
  }
}

/**
 * The `human-id` strategy: `score` for a voter whose Human ID credentials matched (`any` or `all`
 * of `credentials`) at the snapshot, else 0.
 *
 * @example
 * import { humanIdStrategy, runStrategy } from 'personhood'
 * const { scores } = await runStrategy(humanIdStrategy, {
 *   network: '1', provider, addresses, snapshot: 21_000_000,
 *   options: { credentials: ['gov-id', 'phone'], match: 'any' },
 *   context: { humanId: { hubChain: process.env.HUMAN_ID_RPC_URL } },
 * })
 */
export const humanIdStrategy = defineStrategy<HumanIdOptions, HumanIdDetail>({
  name: 'human-id',
  title: 'Human ID credentials at the snapshot',
  optionsSchema: humanIdOptionsSchema,
  async score({ strategy, network, provider, addresses, options, snapshot, runtime }) {
    const details = await readHumanIdVerdictsAt({ strategy, options, network, provider, addresses, snapshot, runtime })
    return new Map(addresses.map((address) => {
      const detail = details.get(address)!
      return [address, { score: detail.eligible ? options.score : 0, detail }]
    }))
  },
})

