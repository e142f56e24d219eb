/** D11, sign, D12 of the stamp cache: accepts the terms of service in one call. */
import type { Hex } from 'viem'
import { acceptStampCacheTos } from './accept-stamp-cache-tos.js'
import { checkSigner, defaultTosType, requireAccessToken, type StampCacheContext, type StampCacheSigner } from './context.js'
import { getStampCacheTosMessage } from './get-stamp-cache-tos-message.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link signAndAcceptStampCacheTos}. */
export type SignAndAcceptStampCacheTosParameters = {
  /** The signer; its address is the one that accepts. */
  account: StampCacheSigner
  tosType?: string | undefined
  signal?: AbortSignal | undefined
}

/** What {@link signAndAcceptStampCacheTos} returns: the text signed, its nonce and the signature sent. */
export type SignAndAcceptStampCacheTosReturnType = { text: string; nonce: string; signature: Hex }

/** What {@link signAndAcceptStampCacheTos} throws (see its `@throws`). */
export type SignAndAcceptStampCacheTosErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Accepts the terms of service in one call: reads the text to sign (D11), has `account` sign it
 * (EIP-191) and sends the signature (D12).
 *
 * @throws {InvalidParameterError} before any request: no bearer token, a bad account or `tosType`.
 * @throws {HttpRequestError} and subclasses as the server answers D11 or D12. Errors of `account.signMessage` propagate as they are.
 * @example
 * import { signAndAcceptStampCacheTos } from 'personhood'
 * import { privateKeyToAccount } from 'viem/accounts'
 * await signAndAcceptStampCacheTos(cache, { account: privateKeyToAccount(key) })
 */
export async function signAndAcceptStampCacheTos(
  client: StampCacheContext,
  parameters: SignAndAcceptStampCacheTosParameters,
): Promise<SignAndAcceptStampCacheTosReturnType> {
  requireAccessToken(client, 'signAndAcceptTos')
  const address = checkSigner(parameters.account)
  const tosType = parameters.tosType ?? defaultTosType
  const { signal } = parameters
  const { text, nonce } = await getStampCacheTosMessage(client, { address, tosType, signal })
  const signature = await parameters.account.signMessage({ message: text })
  await acceptStampCacheTos(client, { address, tosType, nonce, signature, signal })
  return { text, nonce, signature }
}
