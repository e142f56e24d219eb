/**
 * `human-id`: a score for each voter holding Human ID credentials (government ID, phone,
 * biometrics, clean hands) as they stood at the snapshot. Human ID lives on Optimism; a space's
 * snapshot is a block of its own network, so the strategy takes that block's time and judges on the
 * hub chain's last block at or before it: on chain (the deployless reader of the score-api folder,
 * one `eth_call` per chunk of voters) or through the Human ID API (E4-E6, batched) and the
 * attestation index.
 */
import type { Address } from 'viem'
import { createRpcUrlClient } from '../chain/rpc-url.js'
import { z } from 'zod'
import { baseSepoliaClock, blockAtTimeOnClock, clockReadStep, findBlockAtTime, optimismClock, type BlockClock } from '../chain/block-at-time.js'
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
import { readReaderVerdicts, type ReaderBlock } from '../verify/reader-verdicts.js'
import { matchCredentials, verdictFromAttestationRows, verdictsFromVotingStrategy, type HumanIdVerdict } from '../verify/verdict.js'
import type { StrategyRuntime } from './context.js'
import { readSource } from './deadline.js'
import { defineStrategy, type StrategyScoreParameters } from './define.js'
import { symbolOption } from './options.js'
import { isChainClient, type RequestedSnapshot, type ResolvedSnapshot, type StrategyProvider } from './snapshot.js'

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
  chain: 'Human ID contracts on chain (the deployless reader)',
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
  if (typeof configured === 'string') return createRpcUrlClient(configured, { fetch: runtime.context.fetch })
  return configured
}

/**
 * The hub chain's block to judge at, read from the chain: the snapshot's own when the space is on
 * the hub chain, else the hub chain's last block at or before the snapshot block's time (arithmetic
 * on its 2 s clock, confirmed by one header read; searched off the clock). Source `api` judges
 * there; source `chain` only when the reader's answer did not confirm the clock's block.
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
  const cacheKey = hubBlockCacheKey(hub, snapshot)
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

/**
 * The hub chain's client and its block at the snapshot (Optimism, or the Base Sepolia sandbox):
 * what Human ID is read at, and Passport's decoder when the space's network has none.
 *
 * @throws {StrategyOptionsError} when the space is on another network and no hub chain RPC is given.
 */
export async function hubChainAt(parameters: {
  strategy: string
  runtime: StrategyRuntime
  network: string
  provider: StrategyProvider
  snapshot: ResolvedSnapshot
  addresses: readonly Address[]
  sandbox?: boolean | undefined
  /** The hub block already found (no read). */
  block?: HumanIdDetail['hubBlock'] | undefined
}): Promise<{ client: ChainClient; block: HumanIdDetail['hubBlock'] }> {
  const hub = hubChainOf(parameters.sandbox === true)
  const client = hubClient(parameters.runtime, parameters.strategy, hub, parameters.network, parameters.provider)
  const block = parameters.block ?? (await hubBlockAt({ ...parameters, client, hub }))
  return { client, block }
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
  /** The snapshot's block, or the snapshot as asked (its header is then read only when needed). */
  snapshot: ResolvedSnapshot | RequestedSnapshot
  runtime: StrategyRuntime
}

/**
 * Reads the Human ID verdicts of `addresses` at the snapshot: per address, one verdict per
 * credential asked, judged on the hub chain's block at the snapshot's time, with the match
 * (`any`/`all`) applied. Every address gets an answer, or the call throws: a voter is never judged
 * without one.
 *
 * Requests, on chain: one `eth_call` of the deployless reader per chunk of addresses (500 with the
 * three SBT credentials fit one; src/rules/reader.ts plans them, as the score-api folder
 * does), which also returns the block's number, time and chain id; with clean hands, the
 * attestation index first (one read for one address; for many, the listing by pages or one read
 * per address, whichever is fewer). On the hub chain that is all: the snapshot is the block. On
 * another network, the snapshot's header (its time; not read again when given resolved), and the
 * hub chain's block at that time by the hub chain's clock (2 s blocks on Optimism), which the
 * reader's own answer confirms; off the clock, or not there yet, the block is searched
 * (`findBlockAtTime`, header reads) and the first call redone. Through the API: one E4-E6 request
 * per credential and batch of addresses (as many as a URL holds), and the index for clean hands.
 *
 * @throws {StrategyOptionsError} when the space is on another network than the hub and no hub-chain RPC is configured.
 * @throws {StrategySourceError} when a source fails (named, with the addresses); a hub chain on
 *   another chain than the hub's is one, caused by an {@link InvalidParameterError}.
 */
export async function readHumanIdVerdictsAt(parameters: ReadHumanIdVerdictsAtParameters): Promise<Map<Address, HumanIdDetail>> {
  return (await readHumanIdAt(parameters)).details
}

/**
 * {@link readHumanIdVerdictsAt}, and the snapshot it judged at (on the hub chain with source
 * `chain`, the reader's block: no header read). For human-id and human-verification.
 */
export async function readHumanIdAt(parameters: ReadHumanIdVerdictsAtParameters): Promise<{ details: Map<Address, HumanIdDetail>; snapshot: ResolvedSnapshot }> {
  const { strategy, options, runtime, addresses } = parameters
  const hub = hubChainOf(options.sandbox)
  const client = hubClient(runtime, strategy, hub, parameters.network, parameters.provider)
  const actionId = parseActionId(options.actionId ?? defaultActionId)
  const credentials = [...new Set(options.credentials)]
  const verdicts = new Map<Address, HumanIdVerdict[]>(addresses.map((address) => [address, []]))
  const add = (list: readonly HumanIdVerdict[]) => {
    for (const verdict of list) verdicts.get(verdict.address)?.push(verdict)
  }

  let hubBlock: HumanIdDetail['hubBlock']
  let snapshot: ResolvedSnapshot
  if (options.source === 'chain') {
    const read = await readOnChain({ ...parameters, hub, client, credentials, actionId })
    for (const list of read.verdicts.values()) add(list)
    ;({ hubBlock, snapshot } = read)
  } else {
    snapshot = 'resolve' in parameters.snapshot ? await parameters.snapshot.resolve() : parameters.snapshot
    hubBlock = await hubBlockAt({ runtime, client, hub, snapshot, addresses })
    const api = humanIdClientOf({ ...runtime, context: { ...runtime.context, fetch: countingFetch(runtime, humanIdSourceNames.api) } })
    const onApi = credentials.filter((credential): credential is 'gov-id' | 'phone' | 'biometrics' => credential !== 'clean-hands')
    await mapWithConcurrency(onApi, runtime.concurrency, async (credential) => {
      const scores = await readSource({ source: humanIdSourceNames.api, addresses, deadline: runtime.deadline }, (signal) =>
        api.getVotingStrategyScores({ credential, network: hub.chainId, snapshot: hubBlock.blockNumber, addresses, actionId, signal }),
      )
      add(verdictsFromVotingStrategy({ credential, scores, chainId: hub.chainId, snapshot: hubBlock.blockNumber, actionId }))
    })
    if (credentials.includes('clean-hands')) {
      const { rows } = await readCleanHandsRows(runtime, hub, addresses)
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
  return { details, snapshot }
}

/** The attestation index's rows of each address (in order), the cheaper way for their number. */
function readCleanHandsRows(runtime: StrategyRuntime, hub: HubChain, addresses: readonly Address[]) {
  const lower = addresses.map((address) => address.toLowerCase() as Address)
  return readSource({ source: humanIdSourceNames.index, addresses, deadline: runtime.deadline }, () =>
    findCleanHandsRows({
      index: countedIndex(runtime),
      addresses: lower,
      schemaId: hub.network.cleanHands.fullSchemaId,
      attester: hub.network.cleanHands.attester,
      lookup: 'auto',
      concurrency: runtime.concurrency,
    }),
  )
}

/**
 * Source `chain`: the index's candidates for clean hands, then the reader at the hub chain's block:
 * the snapshot's own on the hub chain; elsewhere the block at the snapshot's time by the hub
 * chain's clock, checked by the reader's answer (searched when off the clock or not there yet).
 */
async function readOnChain(
  parameters: ReadHumanIdVerdictsAtParameters & { hub: HubChain; client: ChainClient; credentials: HumanIdSourceOptions['credentials']; actionId: bigint },
): Promise<{ verdicts: Map<Address, HumanIdVerdict[]>; hubBlock: HumanIdDetail['hubBlock']; snapshot: ResolvedSnapshot }> {
  const { runtime, hub, client, addresses, credentials } = parameters
  const cleanHands = credentials.includes('clean-hands') ? await readCleanHandsRows(runtime, hub, addresses) : undefined
  const given = 'resolve' in parameters.snapshot ? undefined : parameters.snapshot
  const onHub = Number(parameters.network) === hub.chainId
  let blockNumber: bigint | 'latest'
  let check: ((first: { block: ReaderBlock } | { error: unknown }) => Promise<bigint | undefined>) | undefined
  let snapshot = given
  if (onHub) {
    blockNumber = given?.blockNumber ?? (parameters.snapshot as RequestedSnapshot).requested
  } else {
    snapshot ??= await (parameters.snapshot as RequestedSnapshot).resolve()
    const found = await hubBlockByClock(runtime, hub, client, snapshot, addresses)
    ;({ blockNumber, check } = found)
  }
  const counted = countingChainClient(toPublicClient(client), runtime)
  const read = await readSource({ source: humanIdSourceNames.chain, addresses, deadline: runtime.deadline }, () =>
    readReaderVerdicts({
      client: counted,
      network: hub.network,
      addresses,
      credentials,
      actionId: parameters.actionId,
      expiries: runtime.context.humanId?.expiries === true,
      blockNumber,
      ...(cleanHands ? { cleanHands: { rows: cleanHands.rows, lookup: cleanHands.summary.path } } : {}),
      check,
    }),
  )
  const hubBlock = { chainId: read.block.chainId, blockNumber: read.block.number, timestamp: Number(read.block.timestamp) }
  if (!onHub) runtime.cache?.set(hubBlockCacheKey(hub, snapshot!), hubBlock)
  return {
    verdicts: read.verdicts,
    hubBlock,
    // On the hub chain the reader's block is the snapshot's.
    snapshot: snapshot ?? { network: parameters.network, requested: (parameters.snapshot as RequestedSnapshot).requested, blockNumber: hubBlock.blockNumber, timestamp: hubBlock.timestamp },
  }
}

function hubBlockCacheKey(hub: HubChain, snapshot: ResolvedSnapshot): string {
  return `human-id:hub-block:${hub.chainId}:${snapshot.timestamp}`
}

/**
 * The hub chain's block at the snapshot's time for the reader: one found before (kept in the
 * cache), else by the hub chain's exact clock, with the check the reader's answer must pass (else
 * it is searched, and this chain is searched from then on), else searched now.
 */
async function hubBlockByClock(runtime: StrategyRuntime, hub: HubChain, client: ChainClient, snapshot: ResolvedSnapshot, addresses: readonly Address[]) {
  const cached = runtime.cache?.get(hubBlockCacheKey(hub, snapshot)) as HumanIdDetail['hubBlock'] | undefined
  if (cached) return { blockNumber: cached.blockNumber, check: undefined }
  const clock = runtime.context.humanId?.hubClock ?? hub.clock
  const offClockKey = `human-id:off-clock:${hub.chainId}`
  const byClock = runtime.cache?.get(offClockKey) === true ? undefined : blockAtTimeOnClock(clock, snapshot.timestamp)
  const search = async () => (await hubBlockAt({ runtime, client, hub, snapshot, addresses })).blockNumber
  if (byClock === undefined) return { blockNumber: await search(), check: undefined }
  const check = async (first: { block: ReaderBlock } | { error: unknown }): Promise<bigint | undefined> => {
    // src/rules/hub.ts's hubClockStep: a failure that is not about the block is thrown, not searched around.
    const next = clockReadStep(clock, byClock, snapshot.timestamp, first)
    if (next.step !== 'search') return undefined
    if (next.offClock) runtime.cache?.set(offClockKey, true)
    return search()
  }
  return { blockNumber: byClock, check }
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
  async score(parameters) {
    return (await scoreHumanId(parameters)).results
  },
  // On the hub chain the reader returns the block's time: no header is read first.
  scoreRequested: scoreHumanId,
})

async function scoreHumanId({ strategy, network, provider, addresses, options, snapshot, runtime }: StrategyScoreParameters<HumanIdOptions, ResolvedSnapshot | RequestedSnapshot>) {
  const read = await readHumanIdAt({ strategy, options, network, provider, addresses, snapshot, runtime })
  const results = new Map(
    addresses.map((address) => {
      const detail = read.details.get(address)!
      return [address, { score: detail.eligible ? options.score : 0, detail }] as const
    }),
  )
  return { snapshot: read.snapshot, results }
}

