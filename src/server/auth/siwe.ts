/**
 * Sign-in with Ethereum (EIP-4361) for the cache interface (D13): the message object is rebuilt into
 * its EIP-4361 text with viem, checked against a single-use nonce, the domain allow-list and the
 * injected time, then its signature: EOA recovery, and, when a chain client is configured, ERC-1271
 * and ERC-6492 smart-contract wallets through it.
 */
import { verifyMessage, type Address, type Hex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { parseIsoTimestamp } from '../../schemas/common.js'
import type { SignInSubmit } from '../../schemas/stamp-cache.js'

/** What a nonce book says about a nonce: consumed (`ok`) or why it was refused. */
export type NonceCheck = 'ok' | 'unknown' | 'used' | 'expired' | 'wrong-address' | 'wrong-purpose'

/** Domains a sign-in message may name when none are configured. */
export const defaultSiweDomains: readonly string[] = Object.freeze(['localhost', '127.0.0.1', 'personhood.local'])

/** How far in the future `issuedAt` may be (clock skew between wallet and server): 5 minutes. */
export const siweClockSkewMs = 5 * 60 * 1000

/**
 * What verifies smart-contract wallet signatures: a viem `PublicClient` (its `verifyMessage` does
 * EOA recovery, ERC-1271 and ERC-6492).
 */
export type SiweChainClient = {
  verifyMessage: (parameters: { address: Address; message: string; signature: Hex }) => Promise<boolean>
}

/** Why a sign-in was refused. */
export type SignInFailureReason =
  | 'invalid-message'
  | 'unknown-nonce'
  | 'reused-nonce'
  | 'expired-nonce'
  | 'wrong-domain'
  | 'expired'
  | 'not-yet-valid'
  | 'issued-in-future'
  | 'bad-signature'
  | 'chain-unavailable'

export type VerifySignInParameters = {
  /** The parsed D13 body. */
  submission: SignInSubmit
  /** The injected current time (a Date or Unix ms). */
  now: Date | number
  /** Allowed domains: `host` (any port) or `host:port` (that port only), case-insensitive. */
  domains?: readonly string[] | undefined
  /**
   * Consumes the message's nonce (single use) and says whether it was good. Called before the
   * signature is checked, so every attempt spends its nonce and a chain call always costs a fresh
   * nonce.
   */
  consumeNonce: (nonce: string) => NonceCheck
  /** Verifies smart-contract wallet signatures; without one only EOA signatures are accepted. */
  chainClient?: SiweChainClient | undefined
}

export type VerifySignInReturnType =
  | { ok: true; address: Address; message: string }
  | { ok: false; status: 400 | 401 | 503; reason: SignInFailureReason; detail: string }

function fail(status: 400 | 401 | 503, reason: SignInFailureReason, detail: string): VerifySignInReturnType {
  return { ok: false, status, reason, detail }
}

/** Splits an authority `host[:port]` (IPv6 in brackets) into host and port. */
function splitAuthority(authority: string): { host: string; port: string | undefined } {
  const value = authority.toLowerCase().replace(/^[^@]*@/, '')
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(value)
  return { host: match?.[1] ?? value, port: match?.[2] }
}

/**
 * Tells whether a SIWE `domain` is allowed: an entry `host` allows that host on any port, an entry
 * `host:port` only that port. Case-insensitive.
 *
 * @example
 * isAllowedSiweDomain('localhost:8787', ['localhost']) // true
 * isAllowedSiweDomain('evil.example', ['localhost']) // false
 */
export function isAllowedSiweDomain(domain: string, allowed: readonly string[]): boolean {
  const wanted = splitAuthority(domain)
  return allowed.some((entry) => {
    const allowedEntry = splitAuthority(entry)
    if (allowedEntry.host !== wanted.host) return false
    return allowedEntry.port === undefined || allowedEntry.port === wanted.port
  })
}

/**
 * The EIP-4361 texts a message object may have been signed as: viem's text (timestamps written as
 * `toISOString()`), and, when a timestamp was sent in another ISO form (no milliseconds, an offset),
 * the same text with the timestamps exactly as sent.
 *
 * @throws {Error} (viem's `SiweInvalidMessageFieldError`) when a field is not valid EIP-4361.
 */
export function buildSiweMessageTexts(message: SignInSubmit['message']): string[] {
  const dates = {
    'Issued At': message.issuedAt,
    'Expiration Time': message.expirationTime,
    'Not Before': message.notBefore,
  } as const
  const parsed = (value: string | undefined): Date | undefined => (value === undefined ? undefined : parseIsoTimestamp(value))
  const canonical = createSiweMessage({
    scheme: message.scheme,
    domain: message.domain,
    address: message.address,
    statement: message.statement,
    uri: message.uri,
    version: message.version,
    chainId: message.chainId,
    nonce: message.nonce,
    issuedAt: parsed(message.issuedAt),
    expirationTime: parsed(message.expirationTime),
    notBefore: parsed(message.notBefore),
    requestId: message.requestId,
    resources: message.resources,
  })
  let asSent = canonical
  for (const [label, raw] of Object.entries(dates)) {
    if (raw === undefined) continue
    asSent = asSent.replace(`\n${label}: ${parseIsoTimestamp(raw).toISOString()}`, `\n${label}: ${raw}`)
  }
  return asSent === canonical ? [canonical] : [canonical, asSent]
}

async function isEoaSignature(address: Address, message: string, signature: Hex): Promise<boolean> {
  try {
    return await verifyMessage({ address, message, signature })
  } catch {
    return false
  }
}

/** The outcome of {@link verifyWalletSignature}: the text that was signed, or why none was. */
export type WalletSignatureCheck = { valid: true; message: string } | { valid: false; reason: 'bad-signature' | 'chain-unavailable' }

/**
 * Checks an EIP-191 (`personal_sign`) signature of one of `messages` by `address`: EOA recovery
 * first, then, with a chain client, ERC-1271 / ERC-6492 smart-contract wallets.
 */
export async function verifyWalletSignature(parameters: {
  address: Address
  messages: readonly string[]
  signature: Hex
  chainClient?: SiweChainClient | undefined
}): Promise<WalletSignatureCheck> {
  const { address, messages, signature, chainClient } = parameters
  for (const message of messages) {
    if (await isEoaSignature(address, message, signature)) return { valid: true, message }
  }
  if (chainClient) {
    for (const message of messages) {
      try {
        if (await chainClient.verifyMessage({ address, message, signature })) return { valid: true, message }
      } catch {
        return { valid: false, reason: 'chain-unavailable' }
      }
    }
  }
  return { valid: false, reason: 'bad-signature' }
}

const nonceFailures: Record<Exclude<NonceCheck, 'ok'>, { reason: SignInFailureReason; detail: string }> = {
  unknown: { reason: 'unknown-nonce', detail: 'Invalid nonce: it was not issued by GET /account/nonce.' },
  used: { reason: 'reused-nonce', detail: 'Invalid nonce: it was already used (a nonce signs in once).' },
  expired: { reason: 'expired-nonce', detail: 'Invalid nonce: it expired; get a new one from GET /account/nonce.' },
  'wrong-address': { reason: 'unknown-nonce', detail: 'Invalid nonce: it was issued for another address.' },
  'wrong-purpose': { reason: 'unknown-nonce', detail: 'Invalid nonce: it was not issued for signing in.' },
}

/**
 * Verifies a D13 sign-in. Checks, in order: the message is valid EIP-4361 (400), the nonce was
 * issued by us, is unused and unexpired (consumed now; 401), the domain is allowed (401), the
 * message is within `notBefore` / `expirationTime` and not issued in the future (401), and the
 * signature: EOA recovery, then the chain client for smart-contract wallets (401; 503 when the
 * chain cannot be read).
 *
 * @returns the lowercase signer address, or the status, reason and `detail` of the refusal.
 * @example
 * const result = await verifySignIn({ submission, now: new Date(), consumeNonce: (nonce) => consume(nonce) })
 * if (result.ok) issueAccessToken({ address: result.address, ... })
 */
export async function verifySignIn(parameters: VerifySignInParameters): Promise<VerifySignInReturnType> {
  const { submission, now, chainClient } = parameters
  const domains = parameters.domains ?? defaultSiweDomains
  const { message } = submission
  const signature = submission.signature as Hex

  let texts: string[]
  try {
    texts = buildSiweMessageTexts(message)
  } catch (error) {
    const field = (error as { shortMessage?: string }).shortMessage ?? 'a field is not valid EIP-4361'
    return fail(400, 'invalid-message', `Invalid sign-in message: ${field}`)
  }

  const nonce = parameters.consumeNonce(message.nonce)
  if (nonce !== 'ok') {
    const failure = nonceFailures[nonce]
    return fail(401, failure.reason, failure.detail)
  }

  if (!isAllowedSiweDomain(message.domain, domains)) {
    return fail(401, 'wrong-domain', `Invalid domain: "${message.domain.slice(0, 100)}" is not a domain this server signs in for.`)
  }

  const nowMs = typeof now === 'number' ? now : now.getTime()
  const time = (value: string): number => parseIsoTimestamp(value).getTime()
  if (message.expirationTime !== undefined && !(time(message.expirationTime) > nowMs)) {
    return fail(401, 'expired', 'The sign-in message expired (expirationTime has passed).')
  }
  if (message.notBefore !== undefined && time(message.notBefore) > nowMs) {
    return fail(401, 'not-yet-valid', 'The sign-in message is not valid yet (notBefore is in the future).')
  }
  if (time(message.issuedAt) > nowMs + siweClockSkewMs) {
    return fail(401, 'issued-in-future', 'The sign-in message is issued in the future (issuedAt).')
  }

  const check = await verifyWalletSignature({ address: message.address, messages: texts, signature, chainClient })
  if (check.valid) return { ok: true, address: message.address.toLowerCase() as Address, message: check.message }
  if (check.reason === 'chain-unavailable') {
    return fail(503, 'chain-unavailable', 'Could not check the smart-contract wallet signature: the chain is unavailable.')
  }
  return fail(401, 'bad-signature', 'Invalid signature: the message was not signed by its address.')
}
