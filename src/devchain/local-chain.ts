/**
 * `startLocalChain`: an in-process EVM seeded from a world, so that the on-chain verifier can be
 * tried offline and compared, address by address and block by block, with the reference server
 * serving the same world.
 */
import { createPublicClient, custom, defineChain, numberToHex, type Address, type Chain, type Hex, type PublicClient } from 'viem'
import type { NetworkConstants, NetworkContracts, NetworkName } from '../chain/constants.js'
import type { Eip1193ProviderLike } from '../chain/provider.js'
import { EvmNotInstalledError, InvalidParameterError, LocalChainError } from '../errors/index.js'
import { blockToTime, timeToBlock } from '../world/chain-time.js'
import { localChainArtifacts } from './artifacts.js'
import { createEdrProvider, ProviderRpcError } from './edr.js'
import { planLocalChain, type LocalChainWorld, type PlannedBlock } from './plan.js'
import { callReaderInSlices } from './reader-slices.js'
import { LocalChainStorage } from './storage.js'
import { serveJsonRpc, type JsonRpcServer } from './rpc-server.js'

/**
 * Parameters of {@link startLocalChain}.
 *
 * @example
 * import type { StartLocalChainParameters } from 'personhood/devchain'
 * const parameters: StartLocalChainParameters = { world, now: () => Date.parse(world.now), rpc: { port: 8545 } }
 */
export type StartLocalChainParameters = {
  /** The world to seed from: a `World`, or the reference server's state (`server.context.store.state`). */
  world: LocalChainWorld
  /**
   * The clock (Unix ms). The chain's latest block is always the world's block at this time, and
   * what happened in the world up to it. Give the reference server the same clock. Default `Date.now`.
   */
  now?: () => number
  /** The network the chain stands in for: `optimism` (default) or the `base-sepolia` sandbox. */
  network?: NetworkName
  /** Serve JSON-RPC over HTTP (default on 127.0.0.1, any free port), or `false` for in-process only. */
  rpc?: false | { host?: string; port?: number }
}

/** A running local chain. */
export type LocalChain = {
  /** The JSON-RPC endpoint (`http://127.0.0.1:<port>`); undefined with `rpc: false`. */
  rpcUrl: string | undefined
  /** A viem chain for it (id, name, Multicall3, the RPC URL). */
  chain: Chain
  /** A viem public client on it (in-process, no HTTP), declared for the chain: pass it to `verifyCredentials`. */
  client: PublicClient
  /** The same chain as an EIP-1193 provider. */
  provider: Eip1193ProviderLike
  /** The network's constants; the contracts sit at its built-in addresses. */
  network: NetworkConstants
  contracts: NetworkContracts
  /** The latest block at or before a time: the block a snapshot taken then would name. */
  blockAt(time: Date | string): bigint
  /** The timestamp of a block (the world's clock). */
  timeOf(blockNumber: bigint): Date
  /** Mines up to the block of `now()`, writing what the world holds until then; resolves to that block. */
  sync(): Promise<bigint>
  /** Stops serving JSON-RPC. */
  stop(): Promise<void>
}

/**
 * JSON-RPC methods the local chain answers: reads only. Its history comes from the world; a write
 * would make it disagree with the reference server serving the same world.
 */
const readMethods = new Set([
  'eth_blockNumber',
  'eth_call',
  'eth_chainId',
  'eth_estimateGas',
  'eth_feeHistory',
  'eth_gasPrice',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getBlockTransactionCountByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_maxPriorityFeePerGas',
  'eth_syncing',
  'net_listening',
  'net_version',
  'web3_clientVersion',
])

/**
 * Starts an in-process EVM (EDR, loaded now) seeded from a world: the Human ID Hub with the world's
 * SBTs, the permanent gov-id and phone stores, Sign Protocol with the clean-hands attestations of
 * the attestation index (same ids), Passport's decoder with the world's on-chain Passports, and
 * Multicall3, at the network's built-in addresses. Block `n`
 * is mined at `genesisTime + n * blockTimeSeconds` of the world's clock, and each record is written
 * in the first block at or after its time (see `planLocalChain`), so `verifyCredentials` at block N
 * answers as the reference server's E4-E6 and rule 6 over its E8 rows at block N.
 *
 * The chain follows `now`: before every request it mines up to the block of `now()`, so its latest
 * block is the server's. It is read-only: writes and node controls (`eth_sendTransaction`,
 * `evm_*`, `hardhat_*`) are refused. Changes made to the server afterwards (admin API) do not
 * reach it.
 *
 * @throws {InvalidParameterError} when the world cannot be written to a chain (see `planLocalChain`).
 * @throws {EvmNotInstalledError} when the EVM package (`@nomicfoundation/edr`, an optional peer dependency) is not installed.
 * @throws {LocalChainError} when EDR cannot be loaded or the JSON-RPC port cannot be bound.
 * @example
 * import { startLocalChain } from 'personhood/devchain'
 * import { verifyCredentials } from 'personhood'
 * import { generateWorld } from 'personhood/world'
 *
 * const world = generateWorld({ now: '2025-06-01T00:00:00.000Z' })
 * const chain = await startLocalChain({ world, now: () => Date.parse(world.now) })
 * const { results } = await verifyCredentials(chain.client, {
 *   addresses: [world.demoAccounts[1].address],
 *   credentials: ['gov-id'],
 *   blockNumber: chain.blockAt(world.now),
 * })
 * await chain.stop()
 */
export async function startLocalChain(parameters: StartLocalChainParameters): Promise<LocalChain> {
  const { world, now = Date.now, network: networkName = 'optimism' } = parameters
  if (typeof world !== 'object' || world === null || typeof world.chain !== 'object' || !Array.isArray(world.verifications) || !Array.isArray(world.attestations)) {
    throw new InvalidParameterError({ parameter: 'world', reason: 'Expected a world (or a server state) with chain, verifications and attestations.' })
  }
  const base = world.chain
  if (!Number.isSafeInteger(base.genesisTime) || !Number.isSafeInteger(base.blockTimeSeconds) || base.blockTimeSeconds < 1) {
    throw new InvalidParameterError({ parameter: 'world', reason: 'world.chain needs a whole genesisTime (Unix seconds) and a blockTimeSeconds of at least 1.' })
  }
  const plan = planLocalChain(world, { network: networkName })
  const { network } = plan
  const contracts = network.contracts

  let edr: Eip1193ProviderLike
  try {
    edr = await createEdrProvider({ chainId: network.chainId, genesisTime: base.genesisTime, autoMine: false })
  } catch (error) {
    if (error instanceof EvmNotInstalledError) throw error
    throw new LocalChainError({
      shortMessage: 'The local chain could not start: the EVM (@nomicfoundation/edr) did not load.',
      cause: error,
      details: `${error instanceof Error ? error.message : String(error)}. Reinstall the package's dependencies (npm install) on a platform EDR supports (Linux, macOS, Windows on x64; Linux and macOS on arm64).`,
    })
  }

  const timeBase = { genesisTime: base.genesisTime, blockTimeSeconds: base.blockTimeSeconds }
  const hex = (value: bigint | number) => numberToHex(value)
  // The code is state of block 0; every later write is state of the block it happens in.
  const code = (name: keyof typeof localChainArtifacts) => localChainArtifacts[name].deployedBytecode as Hex
  const codeAt = new Map<string, Hex>()
  for (const [address, bytecode] of [
    [contracts.multicall3, code('Multicall3')],
    [contracts.hub, code('LocalHub')],
    [contracts.govIdLegacyStore, code('LocalLegacyStore')],
    [contracts.phoneLegacyStore, code('LocalLegacyStore')],
    [contracts.signProtocol, code('LocalSignProtocol')],
    [contracts.passportDecoder, code('LocalPassportDecoder')],
  ] as const) {
    if (!address) continue
    codeAt.set(address.toLowerCase(), bytecode)
    await edr.request({ method: 'hardhat_setCode', params: [address, bytecode] })
  }

  const storage = new LocalChainStorage()
  const pending = [...plan.blocks]
  let tip = 0n
  /** Mines empty blocks up to `target` (each at the world's time of its number; a gap costs one request). */
  const mineTo = async (target: bigint) => {
    if (target <= tip) return
    await edr.request({ method: 'evm_setNextBlockTimestamp', params: [hex(blockToTime(tip + 1n, timeBase))] })
    await edr.request({ method: 'hardhat_mine', params: [hex(target - tip), hex(base.blockTimeSeconds)] })
    tip = target
  }
  /**
   * Mines up to a planned block and writes its state. EDR keeps such writes per block and, for a
   * block inside a gap, rebuilds the state from them alone; the first storage write to an account
   * in a block would make that block's record of the account replace, not amend, the account's
   * earlier storage. Setting the account's code first (unchanged) makes the record an amendment.
   */
  const apply = async (block: PlannedBlock) => {
    await mineTo(block.blockNumber)
    const touched = new Set<string>()
    for (const write of block.writes) {
      for (const { address, slot, value } of storage.writes(write, block.timestamp)) {
        const account = address.toLowerCase()
        if (!touched.has(account)) {
          touched.add(account)
          await edr.request({ method: 'hardhat_setCode', params: [address, codeAt.get(account)] })
        }
        await edr.request({ method: 'hardhat_setStorageAt', params: [address, slot, value] })
      }
    }
  }
  let queue: Promise<unknown> = Promise.resolve()
  const sync = (): Promise<bigint> => {
    const run = queue.then(async () => {
      const target = BigInt(Math.max(0, timeToBlock(Math.floor(now() / 1000), timeBase)))
      while (pending.length > 0 && pending[0]!.blockNumber <= target) await apply(pending.shift()!)
      await mineTo(target)
      return tip
    })
    queue = run.catch(() => {})
    return run
  }
  await sync()

  const provider: Eip1193ProviderLike = {
    async request({ method, params }) {
      if (method === 'eth_accounts') return []
      if (!readMethods.has(method)) {
        throw new ProviderRpcError(
          `${method} is not available on the personhood local chain: it is read-only, and its blocks follow the world's clock (restart it from another world to change its history).`,
          -32601,
        )
      }
      const synced = await sync()
      if (method === 'eth_call' && Array.isArray(params) && typeof params[0] === 'object' && params[0] !== null) {
        // A large reader call runs in slices (reader-slices.ts): a read in slices peaks at half the memory of one whole.
        // A call at the latest block reads every slice at the block it was asked at: another request
        // may mine a block while the slices run.
        const [call, tag, ...rest] = params as [Record<string, unknown>, unknown, ...unknown[]]
        const { input: _input, ...withoutInput } = call
        const block = tag === undefined || tag === 'latest' ? hex(synced) : tag
        const sliced = await callReaderInSlices(call, async (data) => (await edr.request({ method, params: [{ ...withoutInput, data }, block, ...rest] })) as Hex)
        if (sliced !== undefined) return sliced
      }
      return edr.request({ method, params })
    },
  }

  let server: JsonRpcServer | undefined
  if (parameters.rpc !== false) {
    const { host = '127.0.0.1', port = 0 } = parameters.rpc ?? {}
    try {
      server = await serveJsonRpc(provider, { host, port })
    } catch (error) {
      const inUse = (error as { code?: unknown }).code === 'EADDRINUSE'
      throw new LocalChainError({
        shortMessage: `The local chain could not listen on ${host}:${port}${inUse ? ': the port is in use' : ''}.`,
        cause: error,
        details: inUse ? 'Choose another port, or port 0 for any free one.' : error instanceof Error ? error.message : String(error),
      })
    }
  }
  const rpcUrl = server?.url
  const chain = defineChain({
    id: network.chainId,
    name: `personhood local chain (${network.name})`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: rpcUrl ? [rpcUrl] : [] } },
    contracts: { multicall3: { address: contracts.multicall3 as Address } },
    testnet: true,
  })
  // No block-number cache: the latest block moves with the clock.
  const client = createPublicClient({ chain, transport: custom(provider, { retryCount: 0 }), cacheTime: 0 })

  return {
    rpcUrl,
    chain,
    client,
    provider,
    network,
    contracts,
    blockAt(time) {
      const ms = time instanceof Date ? time.getTime() : Date.parse(time)
      if (!Number.isFinite(ms)) throw new InvalidParameterError({ parameter: 'time', reason: `Expected a Date or an ISO 8601 string, got ${String(time)}.` })
      return BigInt(Math.max(0, timeToBlock(Math.floor(ms / 1000), timeBase)))
    },
    timeOf: (blockNumber) => new Date(blockToTime(blockNumber, timeBase) * 1000),
    sync,
    async stop() {
      await server?.close()
    },
  }
}
