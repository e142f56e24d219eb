/**
 * What the stamp-cache (interface D) actions share: the client's parameters and context (a
 * transport and the bearer token), the signer type, the checks of the token and the signer, and
 * the checks several actions make (the scorer id and score address of D7-D8, the terms-of-service
 * target of D10-D12, the items of the bulk writes D1-D4).
 */
import type { Address, Hex } from 'viem'
import { getAddress } from 'viem'
import type { z } from 'zod'
import { InvalidParameterError, ResponseValidationError } from '../../errors/index.js'
import type { Transport, TransportOptions } from '../../http/transport.js'
import { maxBulkStamps, type InternalScore } from '../../schemas/stamp-cache.js'
import { normalizeAddress } from '../../utils/address.js'
import { parseInteger } from '../../utils/parse.js'

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

/** The one terms-of-service type in use (docs/interface.md §3). */
export const defaultTosType = 'IST'

/** A stamp to cache (D1, D2): `provider`, optional `address`, and `stamp` (any JSON; absent in a D2 item means delete). */
export type CacheStampInput = { provider: string; address?: string | null | undefined; stamp?: unknown }

/** Checks D7 and D8's `alternateScorerId`: undefined or a non-negative integer. */
export function checkScorerId(value: unknown): number | undefined {
  if (value === undefined) return undefined
  return parseInteger(value, 'alternateScorerId', { min: 0 })
}

/** Refuses (as a {@link ResponseValidationError}) a D7 or D8 score record of another address than `address`. */
export function checkScoreAddress(score: InternalScore, address: Address, method: string, url: string): void {
  if (score.address.toLowerCase() !== address) {
    throw new ResponseValidationError({
      method,
      url,
      issues: [{ path: ['address'], message: `Expected the score of ${address}, got the score of ${score.address}` }],
    })
  }
}

/** Checks the address and `tosType` (default {@link defaultTosType}) of D10-D12. */
export function checkTosTarget(parameters: { address: string; tosType?: string | undefined }): { address: Address; tosType: string } {
  const address = normalizeAddress(parameters.address)
  const tosType = parameters.tosType ?? defaultTosType
  // Letters, digits, _ and - only: the value is a path segment ("..", "/" or "?" would change the URL).
  if (typeof tosType !== 'string' || !/^[A-Za-z0-9_-]+$/.test(tosType)) {
    throw new InvalidParameterError({ parameter: 'tosType', reason: `Expected letters, digits, _ or - (such as "${defaultTosType}").` })
  }
  return { address, tosType }
}

/**
 * Reads the items (`parameters[name]`) of a bulk call: an array of at most 100, each of `schema`,
 * addresses normalized; and the call's signal.
 */
export function checkBulk<S extends z.ZodType>(
  parameters: unknown,
  name: 'stamps' | 'items',
  schema: S,
): { body: z.output<S>[]; signal: AbortSignal | undefined } {
  if (Array.isArray(parameters)) throw new InvalidParameterError({ parameter: name, reason: `Pass the items as { ${name}: [...] }.` })
  const { [name]: items, signal } = (parameters ?? {}) as { stamps?: unknown; items?: unknown; signal?: AbortSignal | undefined }
  if (!Array.isArray(items)) throw new InvalidParameterError({ parameter: name, reason: 'Expected an array.' })
  if (items.length > maxBulkStamps) {
    throw new InvalidParameterError({
      parameter: name,
      reason: `At most ${maxBulkStamps} items per call, got ${items.length}: split them into several calls.`,
    })
  }
  const body = items.map((item: unknown, index) => {
    const parsed = schema.safeParse(item)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue?.path.length ? `.${issue.path.map(String).join('.')}` : ''
      throw new InvalidParameterError({ parameter: `${name}[${index}]${where}`, reason: issue?.message ?? 'Invalid item.' })
    }
    const output = parsed.data as z.output<S> & { address?: string | null }
    if (typeof output.address === 'string') {
      return { ...output, address: normalizeAddress(output.address, `${name}[${index}].address`) }
    }
    return output
  })
  return { body, signal }
}
