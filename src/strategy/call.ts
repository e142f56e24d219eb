/**
 * A strategy call parsed once, at the edge: the options read by the strategy's schema, the network
 * and the snapshot read, the addresses checked, checksummed and made distinct. `runStrategy`, the
 * strategy server and the audit take the parsed call and never read the raw input again.
 */
import type { Address } from 'viem'
import { InvalidParameterError, type InvalidAddressErrorType, type InvalidParameterErrorType } from '../errors/input.js'
import type { StrategyOptionsErrorType } from '../errors/strategy.js'
import { stringifyJson } from '../utils/json.js'
import { parseAddress, parseNetwork } from '../utils/parse.js'
import { createStrategyRuntime, type StrategyContext } from './context.js'
import type { StrategyDefinition } from './types.js'
import { parseStrategyOptions } from './options.js'
import { parseSnapshot } from './snapshot.js'

/** A call's raw input: score-api's arguments by name, as a caller or a request gives them. */
export type StrategyCallInput = {
  /** The space (score-api passes its ENS name). Default ''. */
  space?: string | undefined
  /** The space's network: a chain id ("10"; a number is read as its digits). */
  network: unknown
  /** The addresses to score. */
  addresses: unknown
  /** The options as a space configures them (`params` in score-api); `start` and `end` are dropped. */
  options: unknown
  /** A block number of the network, or 'latest'. */
  snapshot: unknown
}

/** Options of {@link parseStrategyCall}. */
export type ParseStrategyCallParameters = {
  /** The networks served: any other is refused (the strategy server's providers). Default: any chain id. */
  networks?: readonly string[] | undefined
  /**
   * Turns the error of a bad address (at `index`, given as `value`) into the one to throw.
   * Default: the address's own error (`InvalidAddressError`, or `InvalidParameterError` naming
   * `addresses[index]`).
   */
  onInvalidAddress?: ((error: unknown, index: number, value: unknown) => Error) | undefined
}

/**
 * A checked call of `definition`: what {@link parseStrategyCall} returns. Its fields are read, never
 * re-parsed: pass it to `runStrategy(definition, { call, provider, context })`.
 */
export type StrategyCall<options = unknown, prepared = options> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any strategy's definition
  readonly definition: StrategyDefinition<options, any, prepared>
  readonly space: string
  /** A chain id string. */
  readonly network: string
  /** Distinct, EIP-55 checksummed, in the caller's order (may be empty). */
  readonly addresses: readonly Address[]
  /** The options as the strategy's schema read them. */
  readonly options: options
  /** The block asked, or 'latest'. */
  readonly snapshot: bigint | 'latest'
  /**
   * The options as `prepare` returned them, once {@link prepareStrategyCall} ran: a run uses them
   * instead of preparing again.
   */
  readonly prepared?: { readonly value: prepared } | undefined
}

/** What {@link parseStrategyCall} throws: options refused, or a bad network, snapshot or address. */
export type ParseStrategyCallErrorType = StrategyOptionsErrorType | InvalidParameterErrorType | InvalidAddressErrorType

/**
 * Parses a strategy call once: the options (before any request; unknown ones refused), the network
 * (a chain id; one of `networks` when given), the snapshot (a block number or 'latest') and the
 * addresses (checked, checksummed, duplicates dropped, in order). Nothing is sent.
 *
 * @throws {StrategyOptionsError} naming every option at fault.
 * @throws {InvalidParameterError} naming `network`, `snapshot` or `addresses`.
 * @throws {InvalidAddressError} naming a bad address (unless `onInvalidAddress` says otherwise).
 * @example
 * import { parseStrategyCall, passportV2Strategy, runStrategy } from 'personhood'
 * const call = parseStrategyCall(passportV2Strategy, { network: '10', snapshot: 130_000_000, addresses, options: { scorerId: 335 } })
 * const { scores } = await runStrategy(passportV2Strategy, { call, provider, context })
 */
export function parseStrategyCall<options, detail, prepared>(
  definition: StrategyDefinition<options, detail, prepared>,
  input: StrategyCallInput,
  parameters: ParseStrategyCallParameters = {},
): StrategyCall<options, prepared> {
  const options = parseStrategyOptions(definition.name, definition.optionsSchema, input.options) as options
  const network = readNetwork(input.network, parameters.networks)
  const snapshot = parseSnapshot(input.snapshot)
  if (!Array.isArray(input.addresses)) throw new InvalidParameterError({ parameter: 'addresses', reason: 'Expected an array of addresses.' })
  const addresses = new Set<Address>()
  for (const [index, value] of (input.addresses as unknown[]).entries()) {
    try {
      addresses.add(parseAddress(value, `addresses[${index}]`))
    } catch (error) {
      throw parameters.onInvalidAddress ? parameters.onInvalidAddress(error, index, value) : error
    }
  }
  return { definition, space: input.space ?? '', network, addresses: [...addresses], options, snapshot }
}

function readNetwork(value: unknown, networks: readonly string[] | undefined): string {
  const network = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value
  if (networks === undefined) return parseNetwork(network, 'network')
  if (typeof network !== 'string' || !networks.includes(network)) {
    throw new InvalidParameterError({
      parameter: 'network',
      reason: `This server serves networks ${networks.join(', ') || '(none configured)'}; got ${stringifyJson(value)?.slice(0, 40) ?? 'nothing'}.`,
    })
  }
  return network
}

/**
 * The call with `prepare` run once, with the context's configuration (a scorer id from the
 * environment, say), so that every run of the call uses it and none prepares again. A strategy
 * without `prepare` keeps its options.
 *
 * @throws {StrategyOptionsError} for configuration the context lacks (before any request).
 */
export function prepareStrategyCall<options, prepared>(call: StrategyCall<options, prepared>, context: StrategyContext = {}): StrategyCall<options, prepared> {
  const { definition } = call
  if (!definition.prepare) return { ...call, prepared: { value: call.options as unknown as prepared } }
  const runtime = createStrategyRuntime({ ...context, cache: false })
  try {
    return { ...call, prepared: { value: definition.prepare({ strategy: definition.name, options: call.options, runtime }) } }
  } finally {
    runtime.deadline.dispose()
  }
}

/**
 * The call narrowed to some of its addresses (a batch of an audit's voters, say), in the order
 * given, each taken as the call checked it.
 *
 * @throws {InvalidParameterError} for an address the call does not hold.
 */
export function selectCallAddresses<options, prepared>(call: StrategyCall<options, prepared>, addresses: readonly string[]): StrategyCall<options, prepared> {
  const held = new Map(call.addresses.map((address) => [address.toLowerCase(), address]))
  const selected = addresses.map((address, index) => {
    const found = held.get(address.toLowerCase())
    if (!found) throw new InvalidParameterError({ parameter: `addresses[${index}]`, reason: `"${address.slice(0, 60)}" is not an address of this call.` })
    return found
  })
  return { ...call, addresses: [...new Set(selected)] }
}

/**
 * The call for another strategy with other options (an audit's judge, say): the options read by
 * that strategy's schema; the network, snapshot and addresses as they were checked.
 *
 * @throws {StrategyOptionsError} naming the options at fault.
 */
export function withCallStrategy<options, detail, prepared>(
  call: StrategyCall<unknown, unknown>,
  definition: StrategyDefinition<options, detail, prepared>,
  options: unknown,
): StrategyCall<options, prepared> {
  return { definition, space: call.space, network: call.network, addresses: call.addresses, snapshot: call.snapshot, options: parseStrategyOptions(definition.name, definition.optionsSchema, options) as options }
}
