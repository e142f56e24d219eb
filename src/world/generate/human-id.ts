/** The Human ID records: verifications (SBTs of every kind), clean-hands attestations (index rows) and SBTs on other chains. */
import { bytesToBigInt, getAddress, keccak256, type Address, type Hex } from 'viem'
import {
  cleanHandsAttester,
  cleanHandsFullSchemaId,
  cleanHandsSchemaId,
  defaultActionIdText,
  humanIdCircuitIds,
  humanIdIssuers,
  untrustedHumanIdIssuer,
} from '../constants.js'
import type { Random } from '../random.js'
import type { AttestationKind, AttestationRow, CleanHandsSbt, HumanIdCredential, Verification, VerificationKind } from '../types.js'
import { demoIndex, wallet, walletMeta, yearSeconds, type Draft, type Persona } from './draft.js'
import { demoCustomActionId, worldMix } from './mix.js'

/** A verification (an SBT) of `kind` for the wallet at `index`. */
export function verification(d: Draft, r: Random, index: number, credential: HumanIdCredential, kind: VerificationKind): Verification {
  const { nowSec } = d
  const sandbox = kind === 'sandbox' || kind === 'sandbox-empty-public-values'
  let issuedAt = nowSec - r.int(86400, 360 * 86400)
  if (kind === 'expired') issuedAt = nowSec - r.int(370 * 86400, 720 * 86400)
  if (kind === 'revoked') issuedAt = nowSec - r.int(30 * 86400, 300 * 86400)
  if (kind === 'legacy-store') issuedAt = nowSec - r.int(730 * 86400, 1100 * 86400)
  const emptyPublicValues = kind === 'sandbox-empty-public-values'
  const noPublicValues = emptyPublicValues || kind === 'legacy-store'
  const source = kind === 'legacy-store' ? 'legacy-store' : kind === 'zk-passport' ? 'zk-passport' : 'hub'
  const circuitId = source === 'legacy-store' ? null : source === 'zk-passport' ? humanIdCircuitIds['zk-passport'] : humanIdCircuitIds[credential]
  const issuer = noPublicValues
    ? null
    : kind === 'wrong-issuer'
      ? untrustedHumanIdIssuer
      : source === 'zk-passport'
        ? humanIdIssuers['zk-passport']
        : humanIdIssuers[credential]
  const revoked = kind === 'revoked'
  return {
    address: wallet(d, index).address,
    credential,
    network: sandbox ? 'base-sepolia' : 'optimism',
    source,
    circuitId,
    actionId: kind === 'custom-action' ? demoCustomActionId : defaultActionIdText,
    issuer,
    nullifier: noPublicValues ? null : bytesToBigInt(r.bytes(31)).toString(),
    emptyPublicValues,
    issuedAt,
    expiresAt: kind === 'legacy-store' || emptyPublicValues ? null : issuedAt + yearSeconds,
    revoked,
    revokedAt: revoked ? issuedAt + r.int(86400, nowSec - issuedAt - 3600) : null,
    kind,
  }
}

/** The verifications: the demo account's, one of each fixed case, and the population's. */
export function fillVerifications(d: Draft): void {
  const r = d.rng.fork('verifications')
  d.verifications.push(verification(d, r, demoIndex(d, 'gov-id-verified'), 'gov-id', 'valid'))
  fixedVerificationCases.forEach(([credential, kind], i) => {
    d.verifications.push(verification(d, r, d.fixedVerificationWallets[i]!, credential, kind))
  })
  for (const index of d.ordinary) {
    const persona = walletMeta(d, index).persona as Persona
    const w = d.rng.fork(`verifications:${index}`)
    for (const credential of ['gov-id', 'phone', 'biometrics'] as const) {
      if (!w.chance(worldMix.verifications[credential][persona])) continue
      let kind: VerificationKind = w.weighted(worldMix.verificationKinds)
      if (kind === 'legacy-store' && credential === 'biometrics') kind = 'valid'
      d.verifications.push(verification(d, w, index, credential, kind))
    }
    if (w.chance(worldMix.sandboxShare)) d.verifications.push(verification(d, w, index, w.pick(['gov-id', 'phone'] as const), 'sandbox'))
  }
}

/** A clean-hands attestation row of `kind` for the wallet at `index`. */
export function attestation(
  d: Draft,
  r: Random,
  index: number,
  kind: AttestationKind,
  options: { attester?: string; schema?: string; recipient?: Address; attestationId?: Hex } = {},
): AttestationRow {
  const address = wallet(d, index).address
  let attestSec = d.nowSec - r.int(86400, 300 * 86400)
  if (kind === 'expired') attestSec = d.nowSec - r.int(400 * 86400, 700 * 86400)
  if (kind === 'valid-until-now') attestSec = d.nowSec - yearSeconds
  const validUntilSec = kind === 'valid-until-now' ? d.nowSec : attestSec + yearSeconds
  const validUntil: number | string = kind === 'valid-until-zero' ? '0' : r.chance(0.6) ? String(validUntilSec) : validUntilSec
  const schema = options.schema ?? cleanHandsFullSchemaId
  const attester =
    options.attester ??
    (kind === 'wrong-attester' ? getAddress(`0x${keccak256(r.bytes(32)).slice(-40)}`) : cleanHandsAttester)
  return {
    attestationId: options.attestationId ?? `0x${(d.nextAttestationId++).toString(16)}`,
    address,
    fullSchemaId: schema,
    schemaId: schema === cleanHandsFullSchemaId ? cleanHandsSchemaId : schema.slice(schema.lastIndexOf('_') + 1),
    attester,
    isReceiver: kind !== 'not-receiver',
    revoked: kind === 'revoked',
    validUntil,
    attestTimestamp: attestSec * 1000 + r.int(0, 999),
    recipients: [options.recipient ?? address],
    kind,
  }
}

/** The attestation rows: the demo account's, every adversarial case, and the population's. */
export function fillAttestations(d: Draft): void {
  const r = d.rng.fork('attestations')
  const rows = d.attestations
  rows.push(attestation(d, r, demoIndex(d, 'clean-hands-only'), 'valid'))
  const at = (i: number): number => d.fixedAttestationWallets[i]!
  rows.push(attestation(d, r, at(0), 'valid-attester-case', { attester: cleanHandsAttester.toLowerCase() }))
  rows.push(attestation(d, r, at(1), 'valid-attester-case', { attester: `0x${cleanHandsAttester.slice(2).toUpperCase()}` }))
  rows.push(attestation(d, r, at(2), 'wrong-attester'))
  rows.push(attestation(d, r, at(3), 'wrong-schema', { schema: 'onchain_evm_10_0x80' }))
  rows.push(attestation(d, r, at(4), 'wrong-schema', { schema: 'onchain_evm_10_0x9' }))
  rows.push(attestation(d, r, at(5), 'wrong-chain-schema', { schema: 'onchain_evm_8453_0x8' }))
  rows.push(attestation(d, r, at(6), 'revoked'))
  rows.push(attestation(d, r, at(7), 'expired'))
  rows.push(attestation(d, r, at(8), 'valid-until-now'))
  rows.push(attestation(d, r, at(9), 'valid-until-zero'))
  // The same attestation listed on two pages: the receiver's (valid) and another address's (not-receiver).
  const receiver = attestation(d, r, at(11), 'valid')
  rows.push(attestation(d, r, at(10), 'not-receiver', { recipient: receiver.address, attestationId: receiver.attestationId }))
  const shared = rows[rows.length - 1]!
  rows.push({ ...receiver, validUntil: shared.validUntil, attestTimestamp: shared.attestTimestamp })
  // Renewal: an expired attestation and a newer valid one (valid overall).
  rows.push(attestation(d, r, at(12), 'expired'), attestation(d, r, at(12), 'valid'))
  // Two bad rows and no good one (not valid overall).
  rows.push(attestation(d, r, at(13), 'revoked'), attestation(d, r, at(13), 'wrong-attester'))
  for (const index of d.ordinary) {
    const persona = walletMeta(d, index).persona as Persona
    const w = d.rng.fork(`attestations:${index}`)
    if (!w.chance(worldMix.attestations[persona])) continue
    if (w.chance(worldMix.attestationRenewalShare)) rows.push(attestation(d, w, index, 'expired'))
    rows.push(attestation(d, w, index, 'valid'))
  }
}

/** Clean-hands SBTs on NEAR and Aptos, one of each kind. */
export function cleanHandsSbts(d: Draft): CleanHandsSbt[] {
  const r = d.rng.fork('clean-hands-sbts')
  const near = (): string => `${r.pick(['alice', 'bob', 'carol', 'dave', 'erin', 'frank'])}-${r.int(100, 999)}.near`
  const aptos = (): string => `0x${Buffer.from(r.bytes(32)).toString('hex')}`
  const sbt = (chain: CleanHandsSbt['chain'], kind: CleanHandsSbt['kind']): CleanHandsSbt => {
    const issuedAt = kind === 'expired' ? d.nowSec - r.int(370 * 86400, 600 * 86400) : d.nowSec - r.int(86400, 300 * 86400)
    return {
      chain,
      address: chain === 'near' ? near() : aptos(),
      actionId: kind === 'custom-action' ? demoCustomActionId : defaultActionIdText,
      circuitId: humanIdCircuitIds['clean-hands'],
      issuedAt,
      expiresAt: issuedAt + yearSeconds,
      revoked: kind === 'revoked',
      // Halfway between its issuance and now: revoked at any time judged from then on.
      revokedAt: kind === 'revoked' ? issuedAt + Math.floor((d.nowSec - issuedAt) / 2) : null,
      kind,
    }
  }
  return [sbt('near', 'valid'), sbt('aptos', 'valid'), sbt('near', 'expired'), sbt('aptos', 'revoked'), sbt('near', 'custom-action')]
}

/** The verification cases placed on purpose, one wallet each. */
export const fixedVerificationCases: ReadonlyArray<readonly [HumanIdCredential, VerificationKind]> = [
  ['phone', 'valid'],
  ['biometrics', 'valid'],
  ['gov-id', 'expired'],
  ['phone', 'expired'],
  ['gov-id', 'revoked'],
  ['biometrics', 'revoked'],
  ['gov-id', 'custom-action'],
  ['phone', 'custom-action'],
  ['gov-id', 'sandbox'],
  ['phone', 'sandbox-empty-public-values'],
  ['gov-id', 'legacy-store'],
  ['phone', 'legacy-store'],
  ['gov-id', 'zk-passport'],
  ['gov-id', 'wrong-issuer'],
]

/** Wallets used by the attestation cases placed on purpose (see `fillAttestations`). */
export const fixedAttestationWalletCount = 14
