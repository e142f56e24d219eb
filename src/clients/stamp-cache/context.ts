/**
 * What every stamp-cache (interface D) action shares: the client's parameters and context (a
 * transport and the bearer token), the signer type, and the checks of the token and the signer.
 */
import type { Address, Hex } from 'viem'
import { getAddress } from 'viem'
import { InvalidParameterError } from '../../errors/index.js'
import type { Transport, TransportOptions } from '../../http/transport.js'
import { normalizeAddress } from '../../utils/address.js'

/** What {@link createStampCacheClient} accepts. */
export type CreateStampCacheClientParameters = TransportOptions & {
  /** Where the cache lives (the spec gives no host), e.g. `http://127.0.0.1:8787`; paths carry `/stamp-cache`. */
  baseUrl: string
  /** A bearer token from an earlier sign-in (D13). Without one, call `signIn` before the bearer endpoints. */
  accessToken?: string | undefined
}

/**
 * What the stamp-cache actions need: a transport and the bearer token store. A
 * {@link StampCacheClient} is one; pass it to the standalone actions (`getStampCacheScore(client, ...)`).
 */
export type StampCacheContext = {
  readonly transport: Transport
  /** The clock in milliseconds (the SIWE `issuedAt` default). */
  readonly now: () => number
  /** The bearer token later calls carry, or undefined before sign-in. */
  getAccessToken(): string | undefined
  /**
   * Sets (or, with undefined, clears) the bearer token later calls carry.
   *
   * @throws {InvalidParameterError} when the token is not a non-empty string without whitespace.
   */
  setAccessToken(token: string | undefined): void
}

/** A signer: a viem `LocalAccount` (`privateKeyToAccount(...)`) or any object with `address` and EIP-191 `signMessage`. */
export type StampCacheSigner = {
  address: Address | string
  signMessage(args: { message: string }): Promise<Hex>
}

/** Options of the stamp-cache calls that take no other parameter. */
export type StampCacheRequestOptions = {
  /** Aborts the request. */
  signal?: AbortSignal | undefined
}

/**
 * Checks a bearer token (never echoing it): a non-empty string without whitespace.
 *
 * @throws {InvalidParameterError} otherwise.
 */
export function checkAccessToken(token: unknown): string {
  if (typeof token !== 'string' || token === '' || /\s/.test(token)) {
    throw new InvalidParameterError({
      parameter: 'accessToken',
      reason: 'Expected the bearer token (a JWT from signIn) as a non-empty string without whitespace.',
    })
  }
  return token
}

/**
 * Refuses, before any request, an action that needs a bearer token when the client has none.
 *
 * @throws {InvalidParameterError} naming `action` and how to get a token.
 */
export function requireAccessToken(client: StampCacheContext, action: string): void {
  if (client.getAccessToken() === undefined) {
    throw new InvalidParameterError({
      parameter: 'accessToken',
      reason: `${action} needs a bearer token: call signIn first, or pass accessToken to createStampCacheClient or setAccessToken.`,
    })
  }
}

/**
 * Checks a signer (`{ address, signMessage }`) and returns its checksummed address.
 *
 * @throws {InvalidParameterError} when it cannot sign; {@link InvalidAddressError} for a malformed address.
 */
export function checkSigner(account: unknown): Address {
  const value = account as Partial<StampCacheSigner> | null | undefined
  if (typeof value !== 'object' || value === null || typeof value.signMessage !== 'function') {
    throw new InvalidParameterError({
      parameter: 'account',
      reason: 'Expected a viem account (privateKeyToAccount) or an object with address and signMessage.',
    })
  }
  return getAddress(normalizeAddress(value.address, 'account address'))
}
