/**
 * Builds stamp credentials (verifiable credentials) shaped the way the public service issues them: a
 * `did:pkh` subject, the stamp's provider and hash, issuance and expiry, and a detached-payload JWS
 * proof (`b64: false`).
 *
 * The proof is an HMAC-SHA256 JWS (HS256) keyed with the issuer's demo private key, not an
 * asymmetric signature: the demo world holds about 7,000 stamps, and asymmetric signing of all of
 * them cost more than the whole 2-second start budget of `personhood serve`. Only the server (which
 * holds the issuer keys) can check these proofs ({@link verifyStampCredential}); no consumer of the
 * public interfaces verifies stamp proofs either (the service vouches for them).
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

const subjectContext = [
  { hash: 'https://schema.org/Text', provider: 'https://schema.org/Text' },
]

/**
 * Builds and signs a stamp credential. The JWS covers the canonical JSON of the credential without
 * its proof (keys in the order written here).
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
  const signature = mac(issuerPrivateKey, `${jwsHeader}.${JSON.stringify(unsigned)}`)
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

/** Checks the proof of a credential built by {@link buildStampCredential} against the issuer's key. */
export function verifyStampCredential(credential: StampCredentialJson, issuerPrivateKey: Hex): boolean {
  const { proof, ...unsigned } = credential
  const [header, , signature] = proof.jws.split('.')
  if (header !== jwsHeader || !signature) return false
  const expected = mac(issuerPrivateKey, `${header}.${JSON.stringify(unsigned)}`)
  const actual = Buffer.from(signature, 'base64url')
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
