/**
 * Strategies as score-api *validations*: who may vote or propose in a space. A validation answers
 * one address at a time, true or false; here it is true when the strategy scores the address above
 * 0 at the snapshot. A source that fails is an error (score-api answers it as one), never a false:
 * a voter is not turned away because a service was down.
 */
import { runStrategy, type RunStrategyErrorType, type StrategyDefinition } from './define.js'
import type { StrategyContext } from './context.js'
import type { StrategyProvider, StrategySnapshot } from './snapshot.js'
import { isValidAddress } from '../utils/address.js'

/** Parameters of {@link validateWithStrategy}. */
export type ValidateWithStrategyParameters = {
  /** The address that wants to vote or propose. */
  author: string
  /** The space's network (chain id string). */
  network: string
  provider: StrategyProvider
  /** The proposal's snapshot (a block of `network`), or 'latest' for a new proposal. */
  snapshot: StrategySnapshot
  /** The validation's params, read as the strategy's options. */
  params: unknown
  context?: StrategyContext | undefined
}

/** What {@link validateWithStrategy} returns: whether the author passes. */
export type ValidateWithStrategyReturnType = boolean

/** What {@link validateWithStrategy} throws: what {@link runStrategy} throws (a malformed author is a `false`, not an error). */
export type ValidateWithStrategyErrorType = RunStrategyErrorType

/**
 * Whether `author` passes: the strategy scores it above 0 at the snapshot. A malformed address
 * does not pass (score-api's own rule); invalid params and failing sources throw.
 *
 * @throws {StrategyOptionsError} for invalid params; {@link StrategySourceError} when a source fails.
 * @example
 * import { humanVerificationStrategy, validateWithStrategy } from 'personhood'
 * const mayVote = await validateWithStrategy(humanVerificationStrategy, { author, network: '1', provider, snapshot: 'latest', params: { scorerId: 335 } })
 */
export async function validateWithStrategy<options, detail, prepared>(
  definition: StrategyDefinition<options, detail, prepared>,
  parameters: ValidateWithStrategyParameters,
): Promise<ValidateWithStrategyReturnType> {
  if (!isValidAddress(parameters.author)) return false
  const run = await runStrategy(definition, {
    network: parameters.network,
    provider: parameters.provider,
    addresses: [parameters.author],
    options: parameters.params,
    snapshot: parameters.snapshot,
    context: parameters.context,
  })
  return Object.values(run.scores)[0]! > 0
}
