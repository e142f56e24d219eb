/** C2 of the registry: submitting an address for scoring. */
import { InvalidParameterError } from '../../errors/input.js'
import { registryScoreResponseSchema, type RegistryScore } from '../../schemas/registry.js'
import { normalizeAddress } from '../../utils/address.js'
import { parsePositiveIntegerId } from '../../utils/parse.js'
import type { RegistryContext } from './context.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link submitPassport}. */
export type SubmitPassportParameters = {
  /** The wallet to score; sent in lower case. */
  address: string
  /** A positive integer or a string of digits; sent as text. */
  scorerId: number | string
  /** An EIP-191 signature (0x hex) of the C1 message by `address`. Requires `nonce`. */
  signature?: string | undefined
  /** The nonce of that C1 message. Requires `signature`. */
  nonce?: string | undefined
  signal?: AbortSignal | undefined
}
/** The score record; it may still be `PROCESSING` with a null score (use {@link waitForScore}). */
export type SubmitPassportReturnType = RegistryScore

/** What {@link submitPassport} throws (see its `@throws`). */
export type SubmitPassportErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Submits an address for scoring (C2, `POST /registry/submit-passport`). Not idempotent: after a
 * 5xx, a timeout or a network error the request is not repeated (it may have been applied); only a
 * 429, which the server refuses before doing anything, is retried.
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters `address`, `scorerId`, and `signature` with `nonce` when the scorer requires them.
 * @throws {InvalidAddressError} on a malformed address (no request is sent).
 * @throws {InvalidParameterError} on a bad `scorerId`, a signature that is not 0x hex, or a signature
 * without nonce (or the reverse) (no request is sent).
 * @throws {InvalidRequestError} (400) on a signature that does not match or a reused nonce.
 * @throws {HttpRequestError}, {@link TimeoutError}, {@link NetworkError}, {@link ResponseParseError}
 * or {@link ResponseValidationError} when the request fails.
 * @example
 * import { createRegistryClient } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * const submitted = await registry.submitPassport({ address: '0x52908400098527886e0f7030069857d2e4169ee7', scorerId: 335 })
 * const record = submitted.status === 'DONE' ? submitted : await registry.waitForScore({ address: submitted.address, scorerId: 335 })
 */
export async function submitPassport(
  client: RegistryContext,
  { address, scorerId, signature, nonce, signal }: SubmitPassportParameters,
): Promise<SubmitPassportReturnType> {
  const normalized = normalizeAddress(address)
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  if (signature !== undefined && (typeof signature !== 'string' || !/^0x(?:[0-9a-fA-F]{2})+$/.test(signature))) {
    throw new InvalidParameterError({ parameter: 'signature', reason: 'Expected 0x followed by hex bytes.' })
  }
  if (nonce !== undefined && (typeof nonce !== 'string' || nonce === '')) {
    throw new InvalidParameterError({ parameter: 'nonce', reason: 'Expected the non-empty nonce of the signing message.' })
  }
  if ((signature === undefined) !== (nonce === undefined)) {
    throw new InvalidParameterError({
      parameter: signature === undefined ? 'signature' : 'nonce',
      reason: 'A signature and the nonce of the message it signs go together: give both or neither.',
    })
  }
  const { data } = await client.transport.request({
    method: 'POST',
    path: '/registry/submit-passport',
    body: { address: normalized, scorer_id: id, ...(signature !== undefined ? { signature, nonce } : {}) },
    schema: registryScoreResponseSchema,
    idempotent: false,
    rateLimiter: client.rateLimiter,
    signal,
  })
  return data
}
