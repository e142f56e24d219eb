/**
 * An in-process EVM: an EDR provider (`@nomicfoundation/edr`, the EVM of hardhat) created directly
 * with a minimal configuration, without hardhat's config resolution and provider wrappers. EDR is
 * loaded when the first provider is created, never when this module is imported: only the commands
 * that start a chain pay for it.
 *
 * What EDR costs, and what can be turned off: nothing in its configuration turns off its per-step
 * trace. Every call runs under an observer whose trace collector records every EVM step (about
 * 1,000 entries for one `getSBT` inside `aggregate3`); `observability` only adds code coverage and
 * gas reports on top, and the logger and the contract decoder (Solidity stack traces) only act on
 * failures and console.log. This provider leaves all of those out.
 */
import { createRequire } from 'node:module'
import type * as Edr from '@nomicfoundation/edr'
import { hexToBytes, type Address, type Hex } from 'viem'
import type { Eip1193ProviderLike } from '../chain/provider.js'

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

const require = createRequire(import.meta.url)

let edrModule: typeof Edr | undefined
let edrContext: Promise<Edr.EdrContext> | undefined

/** Loads EDR (once) and its one context per process: every provider of the process is created from it. */
function loadEdr(): { edr: typeof Edr; context: Promise<Edr.EdrContext> } {
  const edr = (edrModule ??= require('@nomicfoundation/edr') as typeof Edr)
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
  const { edr, context: contextPromise } = loadEdr()
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
  const config: Edr.ProviderConfig = {
    allowBlocksWithSameTimestamp: false,
    allowUnlimitedContractSize: false,
    bailOnCallFailure: false,
    bailOnTransactionFailure: false,
    blockGasLimit: parameters.blockGasLimit ?? 100_000_000n,
    chainId,
    coinbase: hexToBytes('0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e'),
    genesisState,
    hardfork: edr.CANCUN,
    initialDate: BigInt(parameters.genesisTime),
    minGasPrice: 0n,
    mining: { autoMine: parameters.autoMine ?? true, memPool: { order: edr.MineOrdering.Priority } },
    networkId: chainId,
    observability: {},
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
