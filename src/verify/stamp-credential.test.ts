import { base58 } from '@scure/base'
import canonicalize from 'canonicalize'
import { FlattenedSign, flattenedVerify, importJWK } from 'jose'
import type { Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import { buildStampCredential } from '../server/state/credentials.js'
import { signStampCredential, stampIssuerDid, stampVerificationMethod, verifyStampCredential } from './stamp-credential.js'

const privateKey: Hex = `0x${'11'.repeat(32)}`
const issuer = stampIssuerDid(privateKey)
const credential = buildStampCredential(
  {
    address: '0x00000000000000000000000000000000000000c1',
    provider: 'Google',
    hash: 'v0.0.0:abc',
    issuer,
    issuanceDate: '2025-05-01T00:00:00.000Z',
    expirationDate: '2025-08-01T00:00:00.000Z',
  },
  privateKey,
)

/** The issuer's public key as a JWK, read from its did:key the way any third party would. */
function publicJwk(did: string) {
  const bytes = base58.decode(did.slice('did:key:z'.length))
  expect([...bytes.subarray(0, 2)]).toEqual([0xed, 0x01])
  return { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes.subarray(2)).toString('base64url') }
}

describe('stamp credential proofs', () => {
  test('the issuer is an Ed25519 did:key and the proof names its key', () => {
    expect(issuer).toMatch(/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/)
    expect(credential.proof.verificationMethod).toBe(`${issuer}#${issuer.slice('did:key:'.length)}`)
    expect(verifyStampCredential(credential)).toEqual({ valid: true })
  })

  test('a third party checks the proof with jose alone: detached EdDSA JWS, b64 false, over the RFC 8785 JSON', async () => {
    const { proof, ...unsigned } = JSON.parse(JSON.stringify(credential)) as typeof credential
    const [header, , signature] = proof.jws.split('.')
    const key = await importJWK(publicJwk(issuer), 'EdDSA')
    const result = await flattenedVerify({ protected: header!, payload: canonicalize(unsigned)!, signature: signature! }, key, { crit: { b64: true } })
    expect(result.protectedHeader).toEqual({ alg: 'EdDSA', b64: false, crit: ['b64'] })
  })

  test('a proof made with jose (other header key order) is accepted', async () => {
    const { proof, ...unsigned } = JSON.parse(JSON.stringify(credential)) as typeof credential
    const secret = await importJWK({ ...publicJwk(issuer), d: Buffer.from(privateKey.slice(2), 'hex').toString('base64url') }, 'EdDSA')
    const jws = await new FlattenedSign(new TextEncoder().encode(canonicalize(unsigned)!)).setProtectedHeader({ crit: ['b64'], b64: false, alg: 'EdDSA' }).sign(secret)
    expect(verifyStampCredential({ ...unsigned, proof: { ...proof, jws: `${jws.protected}..${jws.signature}` } })).toEqual({ valid: true })
  })

  test('the key order of the JSON does not matter; any changed field does', () => {
    const { proof, expirationDate, ...rest } = credential
    const reordered = JSON.parse(JSON.stringify({ proof, expirationDate, ...rest })) as unknown
    expect(Object.keys(reordered as object).slice(0, 2)).toEqual(['proof', 'expirationDate'])
    expect(verifyStampCredential(reordered)).toEqual({ valid: true })
    const subject = credential.credentialSubject
    for (const changed of [
      { ...credential, credentialSubject: { ...subject, id: 'did:pkh:eip155:1:0x00000000000000000000000000000000000000c2' } },
      { ...credential, credentialSubject: { ...subject, hash: 'v0.0.0:abd' } },
      { ...credential, credentialSubject: { ...subject, provider: 'Discord' } },
      { ...credential, issuanceDate: '2025-05-01T00:00:00.001Z' },
      { ...credential, expirationDate: '2026-08-01T00:00:00.000Z' },
      { ...credential, extra: true },
    ]) {
      expect(verifyStampCredential(changed)).toEqual({ valid: false, reason: 'the signature does not match the credential' })
    }
  })

  test('each malformed proof gets its reason, never an exception', () => {
    const { proof, ...unsigned } = credential
    let deep: unknown = 'leaf'
    for (let depth = 0; depth < 20_000; depth++) deep = [deep]
    const cases: Array<[unknown, string]> = [
      [null, 'not a credential'],
      [[credential], 'not a credential'],
      [unsigned, 'no proof'],
      [{ ...credential, issuer: 'did:ethr:0x0000000000000000000000000000000000000001' }, 'the issuer is not an Ed25519 did:key'],
      [{ ...credential, issuer: 'did:key:z0OIl' }, 'the issuer is not an Ed25519 did:key'],
      [{ ...credential, proof: { ...proof, verificationMethod: `${issuer}#controller` } }, 'the proof names another key than the issuer'],
      [{ ...credential, proof: { ...proof, jws: 'not..a-signature' } }, 'the proof is not a detached EdDSA JWS with b64: false'],
      [{ ...credential, proof: { ...proof, jws: proof.jws.replace('..', '.e30.') } }, 'the proof is not a detached EdDSA JWS with b64: false'],
      [{ ...credential, proof: { ...proof, jws: `${Buffer.from('{"alg":"HS256","b64":false,"crit":["b64"]}').toString('base64url')}..${proof.jws.split('.')[2]}` } }, 'the proof is not a detached EdDSA JWS with b64: false'],
      [{ ...credential, deep, proof }, 'the credential cannot be canonicalized'],
    ]
    for (const [input, reason] of cases) expect(verifyStampCredential(input)).toEqual({ valid: false, reason })
  })

  test('signing checks the key; a credential built for another issuer than its key is refused', () => {
    expect(() => signStampCredential({}, '0x1234')).toThrow(TypeError)
    expect(stampVerificationMethod(issuer)).toBe(credential.proof.verificationMethod)
    const other = stampIssuerDid(`0x${'22'.repeat(32)}`)
    expect(() => buildStampCredential({ ...credential, address: '0x00000000000000000000000000000000000000c1', provider: 'Google', hash: 'h', issuer: other }, privateKey)).toThrow(
      `The key given is not the key of the issuer ${other}.`,
    )
  })
})
