/** E1-E3 of Human ID: whether a user holds a valid verification for an action. */
import { InvalidParameterError } from '../../errors/index.js'
import {
  humanIdNetworks,
  verificationResultResponseSchema,
  type HumanIdCredential,
  type HumanIdNetwork,
  type VerificationResult,
} from '../../schemas/human-id.js'
import { normalizeAddress } from '../../utils/address.js'
import { checkActionId, checkCredential } from './checks.js'
import type { ActionId, HumanIdContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link getHumanIdVerification}. */
export type GetHumanIdVerificationParameters = {
  credential: HumanIdCredential
  /** Default `optimism`. */
  network?: HumanIdNetwork | undefined
  /** The user's address. */
  user: string
  /** Default 123456789 (universal uniqueness); a custom id asks for app-specific uniqueness. */
  actionId?: ActionId | undefined
  signal?: AbortSignal | undefined
}

/** `{ result: true, expirationDate }` (Unix seconds) or `{ result: false }`. */
export type GetHumanIdVerificationReturnType = VerificationResult

/** What {@link getHumanIdVerification} throws (see its `@throws`). */
export type GetHumanIdVerificationErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Tells whether a user holds a valid Human ID verification for an action (E1-E3,
 * `GET /sybil-resistance/{credential}/{network}?user=&action-id=`).
 *
 * @throws {InvalidParameterError} before any request for an unknown credential or network, or a bad action id.
 * @throws {InvalidAddressError} before any request for a malformed `user`.
 * @throws {InvalidRequestError} (400) and other {@link HttpRequestError}s as the server answers;
 * {@link ResponseValidationError} when `result` is not a boolean (or `expirationDate` is missing when true).
 * @example
 * import { createHumanIdClient, getHumanIdVerification } from 'personhood'
 * const { result } = await getHumanIdVerification(createHumanIdClient(), {
 *   credential: 'phone',
 *   user: '0x52908400098527886E0F7030069857D2E4169EE7',
 * })
 */
export async function getHumanIdVerification(
  client: HumanIdContext,
  parameters: GetHumanIdVerificationParameters,
): Promise<GetHumanIdVerificationReturnType> {
  const credential = checkCredential(parameters.credential)
  const network = parameters.network ?? 'optimism'
  if (!(humanIdNetworks as readonly unknown[]).includes(network)) {
    throw new InvalidParameterError({ parameter: 'network', reason: `Expected one of ${humanIdNetworks.join(', ')}, got ${JSON.stringify(network)}.` })
  }
  const user = normalizeAddress(parameters.user, 'user')
  const actionId = checkActionId(parameters.actionId)
  const { data } = await client.transport.request({
    method: 'GET',
    path: `/sybil-resistance/${credential}/${network}`,
    query: { user, 'action-id': actionId },
    schema: verificationResultResponseSchema,
    signal: parameters.signal,
  })
  return data
}
