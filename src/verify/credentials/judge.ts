/**
 * How `verifyCredentials` judges what it read: each SBT (and zk-passport pair) by the Hub's rule,
 * permanent stores, and clean hands (the index rows, confirmed on chain).
 */
import type { Address } from 'viem'
import type { NetworkConstants } from '../../chain/constants.js'
import { sbtId, type GetSbtResult } from '../../chain/hub.js'
import type { ChainReadError } from '../../errors/index.js'
import type { CleanHandsRow } from '../clean-hands.js'
import { judgeCleanHandsChecks } from '../../rules/clean-hands-index.js'
import type { MalformedAttestationRow } from '../../schemas/attestation.js'
import { classifySbt, judgeHumanIdCredential, type JudgeHumanIdCredentialParameters, type SbtClassification, type SbtReason } from '../sbt.js'
import type { AttestationEvidence, AttestationIndexEvidence, CredentialEvidence, CredentialResult, PairState, SbtCredential, SbtEvidence, SbtSlot } from './types.js'

export function slot(network: NetworkConstants, circuit: SbtCredential | 'zk-passport'): SbtSlot {
  return { circuit, circuitId: network.circuitIds[circuit], issuer: network.issuers[circuit] }
}

export function judge(sbt: SbtSlot, subject: Address, actionId: bigint, blockTimestamp: bigint | undefined): SbtClassification {
  if (!sbt.getSBT) throw new Error('internal: getSBT was not read')
  return classifySbt({ getSBT: sbt.getSBT, sbtOwners: sbt.sbtOwners, blockTimestamp, actionId, issuer: sbt.issuer })
}

/** Final verdict on one SBT slot after both rounds; an inconsistency is an error, never a guess. */
export function finalVerdict(sbt: SbtSlot, subject: Address, actionId: bigint, blockTimestamp: bigint | undefined, fail: (details: string) => ChainReadError) {
  const verdict = judge(sbt, subject, actionId, blockTimestamp)
  if (verdict.status === 'classified') return verdict
  if (verdict.status === 'inconsistent') throw fail(`${sbt.circuit} SBT: ${verdict.details}`)
  throw new Error(`internal: ${sbt.circuit} SBT: ${verdict.status === 'needs-owners' ? 'sbtOwners' : 'the block timestamp'} was not read`)
}

export function sbtEvidence(pair: PairState, sbt: SbtSlot, hub: Address, actionId: bigint, reason: SbtReason): SbtEvidence {
  return {
    kind: 'sbt',
    circuit: sbt.circuit,
    contract: hub,
    subject: pair.address,
    circuitId: sbt.circuitId,
    getSBT: sbt.getSBT as GetSbtResult,
    ...(sbt.sbtOwners ? { sbtId: sbtId(pair.address, sbt.circuitId), sbtOwners: sbt.sbtOwners } : {}),
    expected: { actionId, issuer: sbt.issuer },
    reason,
  }
}

export function judgePair(
  pair: PairState,
  actionId: bigint,
  blockTimestamp: bigint | undefined,
  hub: Address,
  fail: (details: string) => ChainReadError,
): CredentialResult {
  const primary = finalVerdict(pair.primary, pair.address, actionId, blockTimestamp, fail)
  const evidence: CredentialEvidence[] = [sbtEvidence(pair, pair.primary, hub, actionId, primary.reason)]
  const reads: JudgeHumanIdCredentialParameters = { primary }
  // The fallbacks were read (round 2) only when the primary SBT is not valid.
  if (primary.reason !== 'valid' && pair.passport) {
    reads.passport = finalVerdict(pair.passport, pair.address, actionId, blockTimestamp, fail)
    evidence.push(sbtEvidence(pair, pair.passport, hub, actionId, reads.passport.reason))
  }
  if (primary.reason !== 'valid' && reads.passport?.reason !== 'valid' && pair.legacy) {
    if (pair.legacy.isUnique === undefined) throw fail(`isUniqueForAction on ${pair.legacy.contract} was not read.`)
    evidence.push({ kind: 'legacy-store', contract: pair.legacy.contract, call: 'isUniqueForAction', user: pair.address, actionId, isUnique: pair.legacy.isUnique })
    reads.legacy = pair.legacy.isUnique
  }
  return { ...judgeHumanIdCredential(reads), evidence }
}

/**
 * Clean hands from the rows' checks: the one that got furthest (the index rule, then the
 * attestation on chain) gives the reason; the rule is src/rules/clean-hands-index.ts's.
 */
export function judgeCleanHands(
  address: Address,
  rows: readonly (CleanHandsRow | MalformedAttestationRow)[],
  attestations: AttestationEvidence[],
  lookup: AttestationIndexEvidence['lookup'],
): CredentialResult {
  const evidence: CredentialEvidence[] = [{ kind: 'attestation-index', address, rowCount: rows.length, lookup }, ...attestations]
  const judged = judgeCleanHandsChecks(
    attestations.map((entry) => ({
      row: entry.rowReason,
      onchain: entry.onchain?.reason,
      validUntil: entry.onchain?.attestation.validUntil,
    })),
  )
  if (judged.valid) return { valid: true, reason: 'valid', expiresAt: judged.expiresAt, evidence }
  return { valid: false, reason: judged.reason, evidence }
}
