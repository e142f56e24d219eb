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

/** {@link ChainReadError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type ChainReadErrorType = ChainReadError & { name: 'ChainReadError' }

/** The node cannot serve state at the requested block (not an archive node, or a future block). */
export class BlockNotAvailableError extends ChainReadError {
  override name = 'BlockNotAvailableError' as const
  constructor(parameters: ChainErrorParameters) {
    super(parameters, `The node cannot serve state at block ${parameters.blockNumber.toString()}.`, 'BLOCK_NOT_AVAILABLE')
  }
}

/** {@link BlockNotAvailableError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type BlockNotAvailableErrorType = BlockNotAvailableError & { name: 'BlockNotAvailableError' }

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

/** {@link UnsupportedNetworkError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type UnsupportedNetworkErrorType = UnsupportedNetworkError & { name: 'UnsupportedNetworkError' }

/**
 * The local chain (`personhood/devchain`, `personhood serve --chain`) could not start: the EVM did
 * not load, or the JSON-RPC port could not be bound.
 */
export class LocalChainError extends BaseError {
  override name: string = 'LocalChainError'
  constructor(parameters: BaseErrorParameters & { shortMessage: string }, code = 'LOCAL_CHAIN_FAILED') {
    super(parameters.shortMessage, { ...parameters, code })
  }
}

/** {@link LocalChainError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type LocalChainErrorType = LocalChainError & { name: 'LocalChainError' }

/**
 * The local chain's EVM (`@nomicfoundation/edr`, about 198 MB with its native builds) is not
 * installed. It is an optional peer dependency: `npm install personhood` does not download it, and
 * only the local chain (`serve --chain`, `demo`, `personhood/devchain`) needs it. `installCommand`
 * is the one command that adds it to a project.
 */
export class EvmNotInstalledError extends LocalChainError {
  override name = 'EvmNotInstalledError' as const
  readonly packageName: string
  readonly packageVersion: string
  readonly installCommand: string
  constructor(parameters: BaseErrorParameters & { packageName: string; packageVersion: string }) {
    const installCommand = `npm install ${parameters.packageName}@${parameters.packageVersion}`
    super(
      {
        ...parameters,
        shortMessage: `The local chain needs its EVM, the package ${parameters.packageName}, which is not installed.`,
        details:
          parameters.details ??
          `It is an optional peer dependency (about 198 MB), so installing personhood does not download it. In your project run: ${installCommand}. With npx, run the command with both packages: npx -p personhood -p ${parameters.packageName}@${parameters.packageVersion} personhood demo`,
      },
      'EVM_NOT_INSTALLED',
    )
    this.packageName = parameters.packageName
    this.packageVersion = parameters.packageVersion
    this.installCommand = installCommand
  }
}

/** {@link EvmNotInstalledError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type EvmNotInstalledErrorType = EvmNotInstalledError & { name: 'EvmNotInstalledError' }

/**
 * A block whose time is ahead of the local clock by more than the allowed margin: the node (or the
 * clock) is wrong, and a verdict judged at that time would be judged at the wrong moment.
 */
export class BlockInFutureError extends ChainReadError {
  override name = 'BlockInFutureError' as const
  constructor(parameters: ChainErrorParameters & { blockTimestamp: number; now: number; marginSeconds: number }) {
    super(
      {
        ...parameters,
        details:
          parameters.details ??
          `The block's time ${new Date(parameters.blockTimestamp * 1000).toISOString()} is ${Math.round(parameters.blockTimestamp - parameters.now / 1000)} s ahead of the local clock (${new Date(parameters.now).toISOString()}); at most ${parameters.marginSeconds} s is allowed. Check the RPC endpoint and the clock.`,
      },
      `Block ${parameters.blockNumber.toString()} is dated in the future.`,
      'BLOCK_IN_FUTURE',
    )
  }
}

/** {@link BlockInFutureError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type BlockInFutureErrorType = BlockInFutureError & { name: 'BlockInFutureError' }

/** An RPC endpoint that serves another chain than the network it was given for. */
export class ChainMismatchError extends BaseError {
  override name = 'ChainMismatchError' as const
  readonly expected: string
  readonly actual: string
  constructor(parameters: BaseErrorParameters & { expected: string; actual: string; endpoint: string }) {
    super(`The RPC endpoint for network ${parameters.expected} serves chain ${parameters.actual}.`, {
      ...parameters,
      code: 'CHAIN_MISMATCH',
      details:
        parameters.details ??
        `${parameters.endpoint} answers eth_chainId ${parameters.actual}, not ${parameters.expected}: give that network's JSON-RPC URL.`,
    })
    this.expected = parameters.expected
    this.actual = parameters.actual
  }
}

/** {@link ChainMismatchError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type ChainMismatchErrorType = ChainMismatchError & { name: 'ChainMismatchError' }
