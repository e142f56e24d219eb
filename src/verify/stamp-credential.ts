/**
 * Stamp credential proofs that anyone can check: an Ed25519 signature (a detached JWS, `alg: EdDSA`,
 * `b64: false`) by the issuer, whose DID is a `did:key` holding the public key (the way the public
 * Passport issuer names itself). The signed payload is the RFC 8785 canonical JSON of the whole
 * credential without its `proof`: subject (`id`, `hash`, `provider`), issuer, issuance and expiry.
 * Checking needs nothing but the credential: the key comes from the issuer's DID. Whether that issuer
 * is trusted is the caller's decision.
 *
 * Node only (node:crypto signs and checks Ed25519 about 25 times faster than a pure-JS curve: 0.16 against 4.2 ms a check here, and
 * the server checks every stamp it scores): exported from `personhood/server`, not the root.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { base58 } from '@scure/base'
import canonicalize from 'canonicalize'
import type { Hex } from 'viem'

/** The protected header of every stamp proof: EdDSA over the unencoded payload (RFC 7797). */
export const stampProofHeader = { alg: 'EdDSA', b64: false, crit: ['b64'] } as const

const encodedHeader = Buffer.from(JSON.stringify(stampProofHeader)).toString('base64url')
const didKeyPrefix = 'did:key:z'
/** Multicodec prefix of an Ed25519 public key (0xed, varint-encoded). */
const ed25519Multicodec = Buffer.from([0xed, 0x01])
const pkcs8Prefix = Buffer.from('302e020100300506032b657004220420', 'hex')
const spkiPrefix = Buffer.from('302a300506032b6570032100', 'hex')

/** Why a stamp proof is not valid (a short sentence, shown to users). */
export type StampProofReason =
  | 'not a credential'
  | 'no proof'
  | 'the issuer is not an Ed25519 did:key'
  | 'the proof names another key than the issuer'
  | 'the proof is not a detached EdDSA JWS with b64: false'
  | 'the credential cannot be canonicalized'
  | 'the signature does not match the credential'

/** What {@link verifyStampCredential} returns. */
export type StampCredentialCheck = { valid: true } | { valid: false; reason: StampProofReason }

const privateKeys = new Map<Hex, KeyObject>()
const issuerDids = new Map<Hex, string>()
const publicKeys = new Map<string, KeyObject | null>()
const maxCachedKeys = 1024

function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cache.size >= maxCachedKeys) cache.clear()
  cache.set(key, value)
  return value
}

function privateKeyObject(privateKey: Hex): KeyObject {
  const cached = privateKeys.get(privateKey)
  if (cached) return cached
  const seed = Buffer.from(privateKey.slice(2), 'hex')
  if (seed.length !== 32) throw new TypeError('A stamp issuer key is 32 bytes (0x + 64 hex digits).')
  return remember(privateKeys, privateKey, createPrivateKey({ key: Buffer.concat([pkcs8Prefix, seed]), format: 'der', type: 'pkcs8' }))
}

function publicKeyOfDid(did: string): KeyObject | null {
  const cached = publicKeys.get(did)
  if (cached !== undefined) return cached
  let key: KeyObject | null = null
  if (did.startsWith(didKeyPrefix)) {
    try {
      const bytes = Buffer.from(base58.decode(did.slice(didKeyPrefix.length)))
      if (bytes.length === 34 && bytes.subarray(0, 2).equals(ed25519Multicodec)) {
        key = createPublicKey({ key: Buffer.concat([spkiPrefix, bytes.subarray(2)]), format: 'der', type: 'spki' })
      }
    } catch {
      key = null
    }
  }
  return remember(publicKeys, did, key)
}

/**
 * The `did:key` of a stamp issuer: its Ed25519 public key (derived from the 32-byte private key) in
 * multibase base58btc with the Ed25519 multicodec prefix (`did:key:z6Mk...`).
 *
 * @throws {TypeError} when the key is not 32 bytes.
 * @example
 * const did = stampIssuerDid(privateKey) // 'did:key:z6Mk...'
 */
export function stampIssuerDid(privateKey: Hex): string {
  const cached = issuerDids.get(privateKey)
  if (cached) return cached
  const spki = createPublicKey(privateKeyObject(privateKey)).export({ format: 'der', type: 'spki' })
  return remember(issuerDids, privateKey, `${didKeyPrefix}${base58.encode(Buffer.concat([ed25519Multicodec, spki.subarray(spkiPrefix.length)]))}`)
}

/** The `verificationMethod` of a proof by `did`: the did:key's own key (`did:key:z...#z...`). */
export function stampVerificationMethod(did: string): string {
  return `${did}#${did.slice('did:key:'.length)}`
}

/** The bytes a stamp proof signs: `<protected header>.<canonical JSON of the credential without proof>`. */
function signingInput(header: string, unsigned: unknown): Buffer | undefined {
  let payload: string | undefined
  try {
    payload = canonicalize(unsigned)
  } catch {
    return undefined
  }
  return payload === undefined ? undefined : Buffer.from(`${header}.${payload}`)
}

/**
 * Signs a credential (without `proof`) as its issuer: the detached JWS for `proof.jws`
 * (`<header>..<signature>`).
 *
 * @throws {TypeError} when the key is not 32 bytes or the credential is not canonical JSON.
 * @example
 * const jws = signStampCredential(unsignedCredential, issuerPrivateKey)
 */
export function signStampCredential(unsigned: Record<string, unknown>, privateKey: Hex): string {
  const input = signingInput(encodedHeader, unsigned)
  if (!input) throw new TypeError('A stamp credential must be JSON (RFC 8785 canonical form).')
  return `${encodedHeader}..${sign(null, input, privateKeyObject(privateKey)).toString('base64url')}`
}

function readHeader(encoded: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Record<string, unknown>
    return (
      header !== null &&
      typeof header === 'object' &&
      header.alg === stampProofHeader.alg &&
      header.b64 === false &&
      Array.isArray(header.crit) &&
      header.crit.length === 1 &&
      header.crit[0] === 'b64'
    )
  } catch {
    return false
  }
}

/**
 * Checks a stamp credential's proof: an Ed25519 signature, by the key of the issuer's `did:key`, over
 * the canonical JSON (RFC 8785) of everything in the credential but `proof`. Any change to the
 * subject, hash, provider, issuer or dates breaks it. Trust in the issuer is not judged here.
 *
 * @example
 * import { verifyStampCredential } from 'personhood/server'
 * const check = verifyStampCredential(cachedStamp.stamp)
 * if (!check.valid) console.log(check.reason)
 */
export function verifyStampCredential(credential: unknown): StampCredentialCheck {
  if (!credential || typeof credential !== 'object' || Array.isArray(credential)) return { valid: false, reason: 'not a credential' }
  const { proof, ...unsigned } = credential as Record<string, unknown>
  const jws = proof && typeof proof === 'object' ? (proof as Record<string, unknown>).jws : undefined
  if (typeof jws !== 'string') return { valid: false, reason: 'no proof' }
  const issuer = unsigned.issuer
  const key = typeof issuer === 'string' ? publicKeyOfDid(issuer) : null
  if (!key || typeof issuer !== 'string') return { valid: false, reason: 'the issuer is not an Ed25519 did:key' }
  if ((proof as Record<string, unknown>).verificationMethod !== stampVerificationMethod(issuer)) {
    return { valid: false, reason: 'the proof names another key than the issuer' }
  }
  const parts = jws.split('.')
  if (parts.length !== 3 || parts[1] !== '' || !readHeader(parts[0]!) || !/^[A-Za-z0-9_-]{86}$/.test(parts[2]!)) {
    return { valid: false, reason: 'the proof is not a detached EdDSA JWS with b64: false' }
  }
  const input = signingInput(parts[0]!, unsigned)
  if (!input) return { valid: false, reason: 'the credential cannot be canonicalized' }
  const valid = verify(null, input, key, Buffer.from(parts[2]!, 'base64url'))
  return valid ? { valid: true } : { valid: false, reason: 'the signature does not match the credential' }
}
