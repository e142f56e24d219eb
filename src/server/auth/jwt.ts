/**
 * The cache interface's access tokens (D13) and the bearer middleware of D1-D4 and D7-D12: HS256 JWTs
 * carrying `did` = `did:pkh:eip155:1:<lowercase address>`, `iat`, `exp` (7 days), `jti` and `iss`,
 * verified at the injected time.
 */
import { createMiddleware } from 'hono/factory'
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose'
import type { Address } from 'viem'
import { HttpError } from '../errors.js'
import { InvalidParameterError } from '../../errors/input.js'

/** Lifetime of an access token: 7 days, in seconds. */
export const accessTokenLifetimeSeconds = 7 * 24 * 60 * 60

/** The `iss` claim when none is configured. */
export const defaultTokenIssuer = 'personhood'

/** Shortest HS256 secret accepted: 32 bytes (RFC 7518 §3.2: a key at least as long as the hash). */
export const minimumSecretBytes = 32

/** A secret, or a function reading it (from the server state) at each use. */
export type SecretSource = string | Uint8Array | (() => string | Uint8Array)

/** The claims of an access token as the server reads them. */
export type AccessTokenClaims = {
  did: string
  /** Lowercase address from `did`. */
  address: Address
  iat: number
  exp: number
  jti: string
  iss: string
}

const didPattern = /^did:pkh:eip155:1:(0x[0-9a-f]{40})$/

/** The `did` claim of an address: `did:pkh:eip155:1:<lowercase address>`. */
export function addressToDid(address: string): string {
  return `did:pkh:eip155:1:${address.toLowerCase()}`
}

function toKey(secret: string | Uint8Array): Uint8Array {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret
  if (key.byteLength < minimumSecretBytes) {
    throw new InvalidParameterError({ parameter: 'secret', reason: `The JWT secret must be at least ${minimumSecretBytes} bytes long, got ${key.byteLength}.` })
  }
  return key
}

function readSecret(source: SecretSource): Uint8Array {
  return toKey(typeof source === 'function' ? source() : source)
}

function toDate(now: Date | number): Date {
  return typeof now === 'number' ? new Date(now) : now
}

export type IssueAccessTokenParameters = {
  address: Address
  secret: string | Uint8Array
  /** The injected current time (`iat`; `exp` is 7 days later). */
  now: Date | number
  issuer?: string | undefined
  lifetimeSeconds?: number | undefined
}

/**
 * Issues an HS256 access token for an address.
 *
 * @throws {Error} when the secret is shorter than 32 bytes.
 * @example
 * import { issueAccessToken } from './jwt.js'
 * const access = await issueAccessToken({ address, secret, now: new Date() })
 */
export async function issueAccessToken(parameters: IssueAccessTokenParameters): Promise<string> {
  const key = toKey(parameters.secret)
  const iat = Math.floor(toDate(parameters.now).getTime() / 1000)
  return new SignJWT({ did: addressToDid(parameters.address) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(parameters.issuer ?? defaultTokenIssuer)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (parameters.lifetimeSeconds ?? accessTokenLifetimeSeconds))
    .setJti(crypto.randomUUID())
    .sign(key)
}

/** Why a token was refused. */
export type TokenFailureReason = 'expired' | 'invalid'

export type VerifyAccessTokenReturnType =
  | { ok: true; claims: AccessTokenClaims }
  | { ok: false; reason: TokenFailureReason; detail: string }

/**
 * Verifies an access token at `now`: HS256 signature (constant-time HMAC check), issuer, expiry and
 * a `did` of the expected form.
 */
export async function verifyAccessToken(
  token: string,
  parameters: { secret: string | Uint8Array; now: Date | number; issuer?: string | undefined },
): Promise<VerifyAccessTokenReturnType> {
  try {
    const { payload } = await jwtVerify(token, toKey(parameters.secret), {
      algorithms: ['HS256'],
      issuer: parameters.issuer ?? defaultTokenIssuer,
      currentDate: toDate(parameters.now),
      requiredClaims: ['did', 'iat', 'exp', 'jti'],
    })
    const match = typeof payload.did === 'string' ? didPattern.exec(payload.did) : null
    if (!match?.[1] || typeof payload.jti !== 'string' || payload.iat === undefined || payload.exp === undefined) {
      return { ok: false, reason: 'invalid', detail: 'Invalid token: it does not carry a did:pkh:eip155:1 address.' }
    }
    return {
      ok: true,
      claims: {
        did: match[0],
        address: match[1] as Address,
        iat: payload.iat,
        exp: payload.exp,
        jti: payload.jti,
        iss: payload.iss ?? '',
      },
    }
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired', detail: 'Token expired: sign in again.' }
    return { ok: false, reason: 'invalid', detail: 'Invalid token: its signature, issuer or claims do not check out.' }
  }
}

/** Variables the bearer middleware sets: the token's address (lowercase) and claims. */
export type BearerVariables = { address: Address; claims: AccessTokenClaims }

export type BearerAuthOptions = {
  /** The HS256 secret, or a function reading it (at least 32 bytes). */
  secret: SecretSource
  /** The injected clock. */
  now: () => Date | number
  issuer?: string | undefined
  /** The `realm` of `WWW-Authenticate`; default `personhood`. */
  realm?: string | undefined
}

function challenge(realm: string, error?: { code: string; description: string }): string {
  const base = `Bearer realm="${realm}"`
  return error ? `${base}, error="${error.code}", error_description="${error.description}"` : base
}

/**
 * A hono middleware that requires `Authorization: Bearer <access token>`. A missing, malformed,
 * tampered or expired token is a 401 with `WWW-Authenticate: Bearer ...` (RFC 6750) and `{ detail }`;
 * a good one sets `c.var.address` (lowercase) and `c.var.claims`.
 *
 * @throws {Error} at creation when a static secret is shorter than 32 bytes or `now` is not a function.
 * @example
 * app.use('/stamp-cache/stamps/*', bearerAuth({ secret, now: () => ctx.now() }))
 */
export function bearerAuth(options: BearerAuthOptions) {
  if (typeof options.secret !== 'function') toKey(options.secret)
  if (typeof options.now !== 'function') throw new InvalidParameterError({ parameter: 'now', reason: 'bearerAuth needs a function returning the current time.' })
  const realm = options.realm ?? 'personhood'
  if (/["\\]/.test(realm)) throw new InvalidParameterError({ parameter: 'realm', reason: 'bearerAuth: the realm must not contain quotes or backslashes.' })
  return createMiddleware<{ Variables: BearerVariables }>(async (c, next) => {
    const header = c.req.header('authorization')
    const match = header === undefined ? null : /^Bearer[ \t]+([A-Za-z0-9\-_.~+/]+=*)[ \t]*$/i.exec(header)
    if (!match?.[1]) {
      throw new HttpError(401, 'Authentication credentials were not provided: send Authorization: Bearer <access token>.', {
        'www-authenticate': challenge(realm),
      })
    }
    const result = await verifyAccessToken(match[1], { secret: readSecret(options.secret), now: options.now(), issuer: options.issuer })
    if (!result.ok) {
      throw new HttpError(401, result.detail, {
        'www-authenticate': challenge(realm, {
          code: 'invalid_token',
          description: result.reason === 'expired' ? 'The access token expired' : 'The access token is invalid',
        }),
      })
    }
    c.set('address', result.claims.address)
    c.set('claims', result.claims)
    await next()
  })
}
