/**
 * Builds and checks stamp credentials (verifiable credentials) shaped the way the public service
 * issues them: a `did:pkh` subject, the stamp's provider and hash, issuance and expiry, and a
 * detached-payload JWS proof (`b64: false`) signed with the issuer's Ed25519 key over the RFC 8785
 * canonical JSON of everything but the proof, so the subject, hash, provider, issuer and dates are
 * all covered and the order a client writes keys in does not matter. The issuer's DID is a `did:key`
 * holding its public key: anyone can check a proof from the credential alone (`verifyStampCredential`
 * of `personhood`), as the public Passport issuer's proofs can be checked.
 */
import type { Address, Hex } from 'viem'
import { signStampCredential, stampIssuerDid, stampVerificationMethod, verifyStampCredential, type StampProofReason } from '../../verify/stamp-credential.js'

/** What a credential is built from (a world stamp, or an admin request). */
export type CredentialInput = {
  /** Lowercase. */
  address: Address
  provider: string
  hash: string
  /** Issuer DID: the `did:key` of the issuer's key (see `stampIssuerDid`). */
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

const subjectContext = [
  { hash: 'https://schema.org/Text', provider: 'https://schema.org/Text' },
]

/** Proof verdicts by stamp object: stored stamps are never changed in place (null: the proof holds). */
const verdicts = new WeakMap<object, StampProofReason | null>()

/**
 * Builds and signs a stamp credential. The credential is deeply frozen and known to hold (the
 * server does not check its own signature again), and `proof.jws` is computed when first read:
 * loading the ~7,000 stamps of the demo world signs none of them until they are listed or saved.
 *
 * @throws {TypeError} when the key is not 32 bytes or not the key of `input.issuer`.
 * @example
 * const credential = buildStampCredential({ address, provider: 'Google', hash, issuer: stampIssuerDid(key), issuanceDate, expirationDate }, key)
 */
export function buildStampCredential(input: CredentialInput, issuerPrivateKey: Hex): StampCredentialJson {
  if (stampIssuerDid(issuerPrivateKey) !== input.issuer) throw new TypeError(`The key given is not the key of the issuer ${input.issuer}.`)
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
  deepFreeze(unsigned)
  let jws: string | undefined
  const proof = Object.freeze({
    type: 'JsonWebSignature2020',
    proofPurpose: 'assertionMethod',
    verificationMethod: stampVerificationMethod(input.issuer),
    created: input.issuanceDate,
    get jws(): string {
      return (jws ??= signStampCredential(unsigned, issuerPrivateKey))
    },
  })
  const credential: StampCredentialJson = Object.freeze({ ...unsigned, proof })
  verdicts.set(credential, null)
  return credential
}

function deepFreeze(value: unknown): void {
  if (!value || typeof value !== 'object' || Object.isFrozen(value)) return
  for (const child of Object.values(value)) deepFreeze(child)
  Object.freeze(value)
}

/**
 * Why a stamp is refused: not a credential, an issuer whose key cannot be known (not a `did:key`, or
 * not an issuer of this server), or a proof that does not verify.
 */
export type CredentialProblem = 'unreadable' | 'unknown-issuer' | 'bad-proof'

/**
 * Checks a stamp credential's proof (`verifyStampCredential`: Ed25519, by the key of the issuer's
 * `did:key`, over the whole credential but its proof), memoized per object. Any change to the
 * credential (its subject, hash, dates, issuer...) breaks the proof.
 *
 * @returns undefined when the proof holds, else the problem.
 * @example
 * checkStampCredential(credential) // undefined, or 'bad-proof'
 */
export function checkStampCredential(credential: unknown): CredentialProblem | undefined {
  if (!credential || typeof credential !== 'object') return 'unreadable'
  let reason = verdicts.get(credential)
  if (reason === undefined) {
    const check = verifyStampCredential(credential)
    reason = check.valid ? null : check.reason
    verdicts.set(credential, reason)
  }
  if (reason === null) return undefined
  if (reason === 'not a credential' || reason === 'no proof') return 'unreadable'
  return reason === 'the issuer is not an Ed25519 did:key' ? 'unknown-issuer' : 'bad-proof'
}
