import { BaseError, type BaseErrorParameters } from './base.js'

type ChainErrorParameters = BaseErrorParameters & {
  /** The block the read was made at ('latest' when none was pinned). */
  blockNumber: bigint | 'latest'
  /** The addresses whose results this failure affects. */
  addresses: readonly string[]
  chainId?: number | undefined
}

function chainMeta(parameters: ChainErrorParameters): string[] {
  const shown = parameters.addresses.slice(0, 5)
  return [
    ...(parameters.chainId !== undefined ? [`Chain: ${parameters.chainId}`] : []),
    `Block: ${parameters.blockNumber.toString()}`,
    `Addresses (${parameters.addresses.length}): ${shown.join(', ')}${parameters.addresses.length > 5 ? ', ...' : ''}`,
    ...(parameters.metaMessages ?? []),
  ]
}

/**
 * An RPC read failed (node error, bad answer, transport failure). The affected addresses have no
 * answer: they are neither verified nor unverified.
 */
export class ChainReadError extends BaseError {
  override name: string = 'ChainReadError'
  readonly blockNumber: bigint | 'latest'
  readonly addresses: readonly string[]
  readonly chainId: number | undefined
  constructor(parameters: ChainErrorParameters, shortMessage = 'The on-chain read failed.', code = 'CHAIN_READ_FAILED') {
    super(shortMessage, { ...parameters, code, metaMessages: chainMeta(parameters) })
    this.blockNumber = parameters.blockNumber
    this.addresses = parameters.addresses
    this.chainId = parameters.chainId
  }
}

/** The node cannot serve state at the requested block (not an archive node, or a future block). */
export class BlockNotAvailableError extends ChainReadError {
  override name = 'BlockNotAvailableError' as const
  constructor(parameters: ChainErrorParameters) {
    super(parameters, `The node cannot serve state at block ${parameters.blockNumber.toString()}.`, 'BLOCK_NOT_AVAILABLE')
  }
}

/** A chain id this package has no constants for, and no override was given. */
export class UnsupportedNetworkError extends BaseError {
  override name = 'UnsupportedNetworkError' as const
  readonly network: string
  constructor(parameters: BaseErrorParameters & { network: string | number; supported: readonly string[] }) {
    super(`Network "${parameters.network}" is not supported.`, {
      ...parameters,
      code: 'UNSUPPORTED_NETWORK',
      details: parameters.details ?? `Supported: ${parameters.supported.join(', ')}. Pass your own constants to use another chain.`,
    })
    this.network = String(parameters.network)
  }
}

/**
 * The local chain (`personhood/devchain`, `personhood serve --chain`) could not start: the EVM did
 * not load, or the JSON-RPC port could not be bound.
 */
export class LocalChainError extends BaseError {
  override name = 'LocalChainError' as const
  constructor(parameters: BaseErrorParameters & { shortMessage: string }) {
    super(parameters.shortMessage, { ...parameters, code: 'LOCAL_CHAIN_FAILED' })
  }
}
