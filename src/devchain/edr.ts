/**
 * An in-process EVM: an EDR provider (`@nomicfoundation/edr`, the EVM of hardhat) created directly
 * with a minimal configuration, without hardhat's config resolution and provider wrappers. EDR is
 * imported (dynamically) when the first provider is created, never when this module is imported:
 * only the commands that start a chain pay for it. It is an optional peer dependency (about 198 MB
 * with its native builds), so a library install does not download it; when it is missing, creating
 * a provider throws an `EvmNotInstalledError` naming the command that installs it.
 *
 * What EDR costs, and what is turned off: EDR 0.13.0 records call traces only when asked
 * (`observability.includeCallTraces`, default `IncludeTraces.None`, which this provider sets); 0.12
 * ran every call under a trace collector that recorded every EVM step (about 1,000 entries for one
 * `getSBT` inside `aggregate3`), hundreds of MB for one reader call near the 50M-gas cap, held until
 * V8 collected the response (the provider then forced garbage collections). This provider asks for
 * no traces, no code coverage and no gas report; the logger and the contract decoder (Solidity
 * stack traces) only act on failures and console.log.
 */
import type * as Edr from '@nomicfoundation/edr'
import { hexToBytes, type Address, type Hex } from 'viem'
import type { Eip1193ProviderLike } from '../chain/provider.js'
import { EvmNotInstalledError } from '../errors/index.js'

/** An error answered by the node, shaped as EIP-1193 says (`code`, `message`, `data`), which viem maps. */
export class ProviderRpcError extends Error {
  override name = 'ProviderRpcError'
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

/** An account present from block 0: code (runtime bytecode) and balance. */
export type GenesisAccount = { address: Address; code?: Hex; balance?: bigint }

/** How {@link createEdrProvider} creates a chain. */
export type CreateEdrProviderParameters = {
  chainId: number
  /** Unix seconds of block 0. */
  genesisTime: number
  /** Accounts (contracts) present from block 0, on top of the hardfork's precompiles. */
  genesisAccounts?: readonly GenesisAccount[]
  /** Private keys of accounts the node may sign for (`eth_sendTransaction`). */
  ownedAccounts?: readonly Hex[]
  /** Block gas limit. Default 100M. */
  blockGasLimit?: bigint
  /** Mine a block for every transaction. Default true. */
  autoMine?: boolean
}

/** The package of the EVM, an optional peer dependency: a library install does not download it. */
export const edrPackage = '@nomicfoundation/edr'
/** The version this package is built and tested against (package.json's peer and dev dependency). */
export const edrVersion = '0.13.0'

let edrModule: Promise<typeof Edr> | undefined
let edrContext: Promise<Edr.EdrContext> | undefined

/**
 * Imports the EVM package. A missing package (or a missing native build of it for this platform)
 * is an {@link EvmNotInstalledError} that names the package and the command that installs it.
 *
 * @param specifier - The module to import; tests name one that is not installed.
 * @throws {EvmNotInstalledError} when the package cannot be found.
 */
export async function importEdr(specifier: string = edrPackage): Promise<typeof Edr> {
  try {
    const loaded = (await import(specifier)) as typeof Edr & { default?: typeof Edr }
    // EDR is CommonJS: its exports are on `default`, and named where Node's analysis found them.
    return (loaded.default ?? loaded) as typeof Edr
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && error instanceof Error && error.message.includes(specifier)) {
      throw new EvmNotInstalledError({ packageName: edrPackage, packageVersion: edrVersion, cause: error })
    }
    throw error
  }
}

/** Loads EDR (once) and its one context per process: every provider of the process is created from it. */
async function loadEdr(): Promise<{ edr: typeof Edr; context: Promise<Edr.EdrContext> }> {
  const loading = (edrModule ??= importEdr())
  // A failed import is not kept: installing the package and trying again in the same process works.
  const edr = await loading.catch((error: unknown) => {
    if (edrModule === loading) edrModule = undefined
    throw error
  })
  edrContext ??= (async () => {
    const context = new edr.EdrContext()
    await context.registerProviderFactory(edr.L1_CHAIN_TYPE, edr.l1ProviderFactory())
    return context
  })()
  return { edr, context: edrContext }
}

/**
 * Creates an EDR provider: L1 chain type, Cancun (Optimism's EVM), automine unless turned off; no
 * logger, no code coverage or gas report, no contract decoder, no subscriptions; failed calls
 * answer errors (no bail-out). Node errors are thrown as {@link ProviderRpcError}.
 *
 * @example
 * const provider = await createEdrProvider({ chainId: 10, genesisTime: 1_700_000_000 })
 * await provider.request({ method: 'eth_blockNumber' }) // '0x0'
 */
export async function createEdrProvider(parameters: CreateEdrProviderParameters): Promise<Eip1193ProviderLike> {
  const { edr, context: contextPromise } = await loadEdr()
  const context = await contextPromise
  const chainId = BigInt(parameters.chainId)
  const genesisState = edr.l1GenesisState(edr.l1HardforkFromString(edr.CANCUN))
  for (const account of parameters.genesisAccounts ?? []) {
    genesisState.push({
      address: hexToBytes(account.address),
      ...(account.balance === undefined ? {} : { balance: account.balance }),
      code: account.code ? hexToBytes(account.code) : new Uint8Array(),
    })
  }
  const blockGasLimit = parameters.blockGasLimit ?? 100_000_000n
  const config: Edr.ProviderConfig = {
    allowBlocksWithSameTimestamp: false,
    allowUnlimitedContractSize: false,
    bailOnCallFailure: false,
    bailOnTransactionFailure: false,
    chainId,
    coinbase: hexToBytes('0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e'),
    // A call or transaction without a gas field gets the block's limit (EDR's default is lower: a
    // reader call planned at 50M gas would run out of gas and be split in half).
    defaultTransactionGasLimit: blockGasLimit,
    genesisState,
    hardfork: edr.CANCUN,
    minGasPrice: 0n,
    mining: { autoMine: parameters.autoMine ?? true, blockGasLimit, memPool: { order: edr.MineOrdering.Priority } },
    network: { genesisBlockGasLimit: blockGasLimit, genesisBlockTime: BigInt(parameters.genesisTime) },
    networkId: chainId,
    // No call traces (EDR's default, said here so that a release that changes it does not bring
    // them back: they cost gigabytes on a large read), no code coverage, no gas report.
    observability: { includeCallTraces: edr.IncludeTraces.None },
    ownedAccounts: [...(parameters.ownedAccounts ?? [])],
    precompileOverrides: [],
  }
  const logger: Edr.LoggerConfig = { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} }
  const provider = await context.createProvider(edr.L1_CHAIN_TYPE, config, logger, { subscriptionCallback: () => {} }, new edr.ContractDecoder())
  let id = 0
  return {
    async request({ method, params }) {
      const response = await provider.handleRequest(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params: params ?? [] }))
      const body = (typeof response.data === 'string' ? JSON.parse(response.data) : response.data) as {
        result?: unknown
        error?: { code: number; message: string; data?: unknown }
      }
      if (body.error) throw new ProviderRpcError(body.error.message, body.error.code, body.error.data)
      return body.result
    },
  }
}

