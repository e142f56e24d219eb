/**
 * An audit from votes to report: judge every voter at the snapshot, join the verdicts, summarize,
 * and seal the result with a digest that is the same on every re-run.
 */
import { createHash } from 'node:crypto'
import type { Address } from 'viem'
import { AuditIncompleteError } from '../errors/audit.js'
import { stringifyJson } from '../utils/json.js'
import { findLinkedWallets, type StampEntries } from './linked.js'
import { summarizeAudit } from './summary.js'
import type { AuditResult, AuditRun, AuditSourceVerdict, AuditVoter, VerificationMethod } from './types.js'
import type { AuditVote } from './votes.js'

/** What a judge says of one voter. */
export type AuditJudgment = {
  /** The strategy's score. */
  score: number
  eligible: boolean
  method: VerificationMethod | null
  verdicts: AuditSourceVerdict[]
  passport?: AuditVoter['passport']
  /** The voter's stamp entries at the snapshot, when a score record was read (for linked wallets). */
  stamps?: StampEntries | undefined
}

/**
 * Judges voters at the audit's snapshot. It must answer for every address it is given, or throw:
 * an audit never presents a partial result as complete.
 */
export type AuditJudge = (parameters: { addresses: readonly Address[]; onJudged?: ((count: number) => void) | undefined }) => Promise<ReadonlyMap<string, AuditJudgment>>

/** Parameters of {@link runAudit}. */
export type RunAuditParameters = {
  votes: readonly AuditVote[]
  run: AuditRun
  judge: AuditJudge
  /** The Passport threshold to mark in the report. Default 20. */
  threshold?: number | undefined
  onJudged?: ((count: number) => void) | undefined
}

/**
 * Runs an audit.
 *
 * @throws whatever the judge throws (a source that failed): never a partial result.
 * @throws {AuditIncompleteError} when the judge leaves a voter unanswered.
 */
export async function runAudit(parameters: RunAuditParameters): Promise<AuditResult> {
  const { votes, run } = parameters
  const addresses = votes.map((vote) => vote.voter)
  const judgments = await parameters.judge({ addresses, onJudged: parameters.onJudged })
  const missing = addresses.filter((address) => !judgments.has(address.toLowerCase()))
  if (missing.length) throw new AuditIncompleteError({ addresses: missing, reason: `the judge left ${missing.length} voters unanswered.` })

  const stamps = new Map<Address, StampEntries>()
  for (const address of addresses) {
    const entries = judgments.get(address.toLowerCase())!.stamps
    if (entries) stamps.set(address, entries)
  }
  const linked = findLinkedWallets(stamps)

  const voters: AuditVoter[] = votes.map((vote) => {
    const judgment = judgments.get(vote.voter.toLowerCase())!
    return {
      address: vote.voter,
      choice: vote.choice,
      votingPower: vote.votingPower,
      eligible: judgment.eligible,
      method: judgment.method,
      score: judgment.score,
      ...(judgment.passport ? { passport: judgment.passport } : {}),
      verdicts: judgment.verdicts,
      linked: linked.get(vote.voter.toLowerCase()) ?? [],
    }
  })
  const summary = summarizeAudit({ voters, choices: run.proposal?.choices ?? run.choices, type: run.proposal?.type ?? run.type, threshold: parameters.threshold })
  return { run, voters, summary, digest: auditDigest(run, voters) }
}

/** JSON with object keys sorted and bigints as decimal strings: one text for one value. */
function canonicalJson(value: unknown): string {
  return stringifyJson(value, { sortKeys: true })
}

/** Evidence fields that do not change what an audit means: a block's hash (the chain id and the block number, both checked, pin the state). */
const incidentalEvidence = new Set(['blockHash'])

function withoutIncidental(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIncidental)
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).filter(([key]) => !incidentalEvidence.has(key)).map(([key, item]) => [key, withoutIncidental(item)]))
  }
  return value
}

/**
 * The digest of an audit: SHA-256 over what the audit means: what was asked (strategy, options,
 * network, snapshot, block time, proposal, choices and voting system) and what was found (every
 * voter's line: vote, verdicts and their evidence). Incidental values are left out: where the
 * votes came from, which version of the package ran, and block hashes (a local chain started
 * again has other hashes for the same state), so the same audit seals the same way on every re-run.
 */
export function auditDigest(run: AuditRun, voters: readonly AuditVoter[]): string {
  const { packageVersion: _version, votesSource: _source, ...asked } = run
  // The hash of canonicalJson({ asked, voters }), fed voter by voter ("asked" sorts before
  // "voters"): the same digest without the whole text as one string.
  const hash = createHash('sha256').update(`{"asked":${canonicalJson(asked)},"voters":[`)
  voters.forEach((voter, index) => hash.update(`${index ? ',' : ''}${canonicalJson(withoutIncidental(voter))}`))
  return hash.update(']}').digest('hex')
}
