/** E7 of Human ID: the clean-hands SBT status of an address on a non-EVM chain. */
import { InvalidParameterError } from '../../errors/index.js'
import { cleanHandsResultResponseSchema, type CleanHandsResult } from '../../schemas/human-id.js'
import { checkActionId } from './checks.js'
import type { ActionId, HumanIdContext } from './context.js'
import type { InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getHumanIdCleanHandsSbt}. */
export type GetHumanIdCleanHandsSbtParameters = {
  /** The user's address on the non-EVM chain the SBT lives on (any non-empty string without whitespace). */
  address: string
  /** Default 123456789. */
  actionId?: ActionId | undefined
  /** Aborts the requests. */
  signal?: AbortSignal | undefined
}

/** `{ isUnique: true, signature, circuitId }` for a verified user, `{ isUnique: false }` otherwise. */
export type GetHumanIdCleanHandsSbtReturnType = CleanHandsResult

/** What {@link getHumanIdCleanHandsSbt} throws (see its `@throws`). */
export type GetHumanIdCleanHandsSbtErrorType = InvalidParameterErrorType | RequestErrorType

/**
 * Reads the clean-hands (sanctions / PEP screening) SBT status of an address on the non-EVM chain
 * (E7, `GET /attestation/sbts/clean-hands?address=&action-id=`).
 *
 * @throws {InvalidParameterError} before any request for an empty address or a bad action id.
 * @throws {HttpRequestError} and subclasses as the server answers; {@link ResponseValidationError} for a malformed answer.
 * @example
 * import { createHumanIdClient, getHumanIdCleanHandsSbt } from 'personhood'
 * const answer = await getHumanIdCleanHandsSbt(createHumanIdClient(), { address: 'neutron1...' })
 * if (answer.isUnique) console.log(answer.circuitId)
 */
export async function getHumanIdCleanHandsSbt(
  client: HumanIdContext,
  parameters: GetHumanIdCleanHandsSbtParameters,
): Promise<GetHumanIdCleanHandsSbtReturnType> {
  const { address } = parameters
  if (typeof address !== 'string' || address === '' || /\s/.test(address)) {
    throw new InvalidParameterError({ parameter: 'address', reason: 'Expected the address on the non-EVM chain as a non-empty string without whitespace.' })
  }
  const actionId = checkActionId(parameters.actionId)
  const { data } = await client.transport.request({
    method: 'GET',
    path: '/attestation/sbts/clean-hands',
    query: { address, 'action-id': actionId },
    schema: cleanHandsResultResponseSchema,
    signal: parameters.signal,
  })
  return data
}
