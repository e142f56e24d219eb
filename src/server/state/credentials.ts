/**
 * Builds and checks stamp credentials (verifiable credentials) shaped the way the public service
 * issues them: a `did:pkh` subject, the stamp's provider and hash, issuance and expiry, and a
 * detached-payload JWS proof (`b64: false`) over the canonical JSON of everything but the proof
 * (object keys sorted), so the subject, hash, provider, issuer and dates are all covered and the
 * order a client writes keys in does not matter.
 *
 * The proof is an HMAC-SHA256 JWS (HS256) keyed with the issuer's private key, not an asymmetric
 * signature: the demo world holds about 7,000 stamps, and asymmetric signing of all of them cost
 * more than the whole 2-second start budget of `personhood serve`. The server holds its issuers'
 * keys and checks every proof ({@link checkStampCredential}) before a stamp is stored or counted,
 * as the public service does; a consumer of the public interfaces cannot check these proofs (the
 * service vouches for its stamps).
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Address, Hex } from 'viem'

/** What a credential is built from (a world stamp, or an admin request). */
export type CredentialInput = {
  /** Lowercase. */
  address: Address
  provider: string
  hash: string
  /** Issuer DID. */
  issuer: string
  /** ISO 8601. */
  issuanceDate: string
  /** ISO 8601. */
  expirationDate: string
}

/** The credential `stamp` JSON of a cache record. */
export type StampCredentialJson = {
  '@context': string[]
  type: string[]
  credentialSubject: { id: string; hash: string; provider: string; '@context': unknown[] }
  issuer: string
  issuanceDate: string
  expirationDate: string
  proof: { type: string; proofPurpose: string; verificationMethod: string; created: string; jws: string }
}

const jwsHeader = Buffer.from(JSON.stringify({ alg: 'HS256', crit: ['b64'], b64: false })).toString('base64url')

function mac(privateKey: Hex, signingInput: string): Buffer {
  return createHmac('sha256', Buffer.from(privateKey.slice(2), 'hex')).update(signingInput).digest()
}

/** JSON with object keys sorted at every level: the text a proof covers. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  )
}

const subjectContext = [
  { hash: 'https://schema.org/Text', provider: 'https://schema.org/Text' },
]

/**
 * Builds and signs a stamp credential. The JWS covers the canonical JSON of the credential without
 * its proof (object keys sorted).
 *
 * @example
 * const credential = buildStampCredential({ address, provider: 'Google', hash, issuer, issuanceDate, expirationDate }, issuerKey)
 */
export function buildStampCredential(input: CredentialInput, issuerPrivateKey: Hex): StampCredentialJson {
  const unsigned = {
    '@context': ['https://www.w3.org/2018/credentials/v1', 'https://w3id.org/vc/status-list/2021/v1'],
    type: ['VerifiableCredential'],
    credentialSubject: {
      id: `did:pkh:eip155:1:${input.address}`,
      hash: input.hash,
      provider: input.provider,
      '@context': subjectContext,
    },
    issuer: input.issuer,
    issuanceDate: input.issuanceDate,
    expirationDate: input.expirationDate,
  }
  const signature = mac(issuerPrivateKey, `${jwsHeader}.${canonicalJson(unsigned)}`)
  return {
    ...unsigned,
    proof: {
      type: 'JsonWebSignature2020',
      proofPurpose: 'assertionMethod',
      verificationMethod: `${input.issuer}#controller`,
      created: input.issuanceDate,
      jws: `${jwsHeader}..${signature.toString('base64url')}`,
    },
  }
}

/** Why a stamp credential is refused: not a credential, an issuer without a key here, or a proof that does not verify. */
export type CredentialProblem = 'unreadable' | 'unknown-issuer' | 'bad-proof'

/**
 * Checks a stamp credential's proof against its issuer's key: the JWS header, and the HMAC over the
 * canonical credential without its proof. Any change to the credential (its subject, hash, dates,
 * issuer...) breaks the proof.
 *
 * @param issuerKey the key of an issuer DID, or undefined when the server knows no such issuer.
 * @returns undefined when the proof holds, else the problem.
 * @example
 * checkStampCredential(credential, (did) => keys.get(did)) // undefined, or 'bad-proof'
 */
export function checkStampCredential(credential: unknown, issuerKey: (did: string) => Hex | undefined): CredentialProblem | undefined {
  if (!credential || typeof credential !== 'object' || Array.isArray(credential)) return 'unreadable'
  const { proof, ...unsigned } = credential as Record<string, unknown>
  const jws = proof && typeof proof === 'object' ? (proof as Record<string, unknown>).jws : undefined
  if (typeof unsigned.issuer !== 'string' || typeof jws !== 'string') return 'unreadable'
  const key = issuerKey(unsigned.issuer)
  if (!key) return 'unknown-issuer'
  const [header, payload, signature] = jws.split('.')
  if (header !== jwsHeader || payload !== '' || !signature) return 'bad-proof'
  const expected = mac(key, `${header}.${canonicalJson(unsigned)}`)
  const actual = Buffer.from(signature, 'base64url')
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? undefined : 'bad-proof'
}

/** Checks the proof of a credential built by {@link buildStampCredential} against the issuer's key. */
export function verifyStampCredential(credential: StampCredentialJson, issuerPrivateKey: Hex): boolean {
  return checkStampCredential(credential, (did) => (did === credential.issuer ? issuerPrivateKey : undefined)) === undefined
}
