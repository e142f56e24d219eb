/** D13 of the stamp cache: sign-in with Ethereum (SIWE). */
import type { Hex } from 'viem'
import { createSiweMessage, SiweInvalidMessageFieldError } from 'viem/siwe'
import { InvalidParameterError, ResponseValidationError } from '../../errors/index.js'
import { accessTokenSchema, type SiweMessage } from '../../schemas/stamp-cache.js'
import { parsePositiveInteger } from '../../utils/parse.js'
import { checkSigner, type StampCacheContext, type StampCacheSigner } from './context.js'
import { getStampCacheSignInNonce } from './get-stamp-cache-sign-in-nonce.js'
import type { InvalidAddressErrorType, InvalidParameterErrorType } from '../../errors/index.js'
import type { RequestErrorType } from '../../http/transport.js'

/** Parameters of {@link signInToStampCache}: the signer and the EIP-4361 fields. */
export type SignInToStampCacheParameters = {
  /** Who signs in: a viem local account or any `{ address, signMessage }`. */
  account: StampCacheSigner
  /** The RFC 3986 authority asking for the sign-in (`app.example.org`); the server must allow it. */
  domain: string
  /** The RFC 3986 URI of the resource the sign-in is for (`https://app.example.org/login`). */
  uri: string
  /** A fresh nonce (8+ letters or digits, single use). Default: one from {@link getStampCacheSignInNonce}. */
  nonce?: string | undefined
  /** The EIP-155 chain id of the session. Default 1 (the token's `did` names chain 1). */
  chainId?: number | undefined
  /** A one-line statement shown to the user. */
  statement?: string | undefined
  /** Default: the client's `now()`. */
  issuedAt?: Date | undefined
  expirationTime?: Date | undefined
  notBefore?: Date | undefined
  requestId?: string | undefined
  resources?: string[] | undefined
  signal?: AbortSignal | undefined
}

/** What {@link signInToStampCache} returns: the token, and the message and signature that were sent. */
export type SignInToStampCacheReturnType = {
  /** The JWT the client now sends as its bearer token. */
  accessToken: string
  supportUserHash?: string | null | undefined
  /** The SIWE message as sent: the object whose EIP-4361 text (`createSiweMessage`) was signed. */
  message: SiweMessage
  /** The EIP-191 signature of the message text. */
  signature: Hex
}

/** What {@link signInToStampCache} throws (see its `@throws`). */
export type SignInToStampCacheErrorType = InvalidAddressErrorType | InvalidParameterErrorType | RequestErrorType

/**
 * Signs in with Ethereum (D13, `POST /stamp-cache/authenticate/v2`): builds an EIP-4361 message,
 * has `account` sign its text (EIP-191), sends `{ message, signature }` and keeps the returned token
 * for the later calls of this client.
 *
 * @throws {InvalidParameterError} for a bad account, domain, uri, nonce, chain id or date (before signing).
 * @throws {InvalidAddressError} when the account's address is malformed.
 * @throws {AuthenticationError} (401), {@link InvalidRequestError} (400/422) when the server refuses the sign-in.
 * @throws {ResponseValidationError} when the answer has no `access` token. Errors of `account.signMessage` propagate as they are.
 * @example
 * import { createStampCacheClient, signInToStampCache } from 'personhood'
 * import { privateKeyToAccount } from 'viem/accounts'
 * const cache = createStampCacheClient({ baseUrl: 'http://127.0.0.1:8787' })
 * const { accessToken } = await signInToStampCache(cache, {
 *   account: privateKeyToAccount(key),
 *   domain: 'app.example.org',
 *   uri: 'https://app.example.org',
 * })
 */
export async function signInToStampCache(
  client: StampCacheContext,
  parameters: SignInToStampCacheParameters,
): Promise<SignInToStampCacheReturnType> {
  const { account, domain, uri, chainId = 1, statement, expirationTime, notBefore, requestId, resources, signal } = parameters
  const address = checkSigner(account)
  parsePositiveInteger(chainId, 'chainId')
  const issuedAt = checkDate(parameters.issuedAt ?? new Date(client.now()), 'issuedAt')
  for (const [name, value] of [['expirationTime', expirationTime], ['notBefore', notBefore]] as const) {
    if (value !== undefined) checkDate(value, name)
  }
  if (parameters.nonce !== undefined) checkNonce(parameters.nonce)
  // Check every field before asking the server for a nonce (a nonce is single use).
  const fields = { address, chainId, domain, uri, version: '1' as const, statement, issuedAt, expirationTime, notBefore, requestId, resources }
  buildSiweText({ ...fields, nonce: parameters.nonce ?? 'checkonly' })
  const nonce = parameters.nonce ?? (await getStampCacheSignInNonce(client, { signal })).nonce
  const text = buildSiweText({ ...fields, nonce })
  const signature = await account.signMessage({ message: text })

  const message: SiweMessage = {
    domain,
    address,
    ...(statement !== undefined && { statement }),
    uri,
    version: '1',
    chainId,
    nonce,
    issuedAt: issuedAt.toISOString(),
    ...(expirationTime !== undefined && { expirationTime: expirationTime.toISOString() }),
    ...(notBefore !== undefined && { notBefore: notBefore.toISOString() }),
    ...(requestId !== undefined && { requestId }),
    ...(resources !== undefined && { resources }),
  }
  const { data } = await client.transport.request({
    method: 'POST',
    path: '/stamp-cache/authenticate/v2',
    body: { message, signature },
    schema: accessTokenSchema,
    signal,
  })
  if (data.access === '' || /\s/.test(data.access)) {
    throw new ResponseValidationError({
      method: 'POST',
      url: client.transport.buildUrl('/stamp-cache/authenticate/v2'),
      issues: [{ path: ['access'], message: 'Expected a bearer token: a non-empty string without whitespace' }],
    })
  }
  client.setAccessToken(data.access)
  return {
    accessToken: data.access,
    ...(data.support_user_hash !== undefined && { supportUserHash: data.support_user_hash }),
    message,
    signature,
  }
}

function checkDate(value: unknown, name: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new InvalidParameterError({ parameter: name, reason: 'Expected a valid Date.' })
  }
  return value
}

function checkNonce(nonce: unknown): void {
  if (typeof nonce !== 'string' || !/^[a-zA-Z0-9]{8,}$/.test(nonce)) {
    throw new InvalidParameterError({ parameter: 'nonce', reason: 'A SIWE nonce is at least 8 letters or digits (EIP-4361).' })
  }
}

function buildSiweText(fields: Parameters<typeof createSiweMessage>[0]): string {
  try {
    return createSiweMessage(fields)
  } catch (error) {
    if (error instanceof SiweInvalidMessageFieldError) {
      const field = /field "([^"]+)"/.exec(error.shortMessage)?.[1] ?? 'message'
      const reason = error.metaMessages?.filter((line) => line.startsWith('- ')).map((line) => line.slice(2)).join(' ')
      throw new InvalidParameterError({ parameter: field, reason: reason || error.shortMessage, cause: error })
    }
    throw error
  }
}
