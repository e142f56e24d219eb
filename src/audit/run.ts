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
import { auditVoterLine, createEvidencePacker, createVerdictTable, noLinkedWallets } from './lines.js'
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
 * Judges voters at the audit's snapshot, a batch at a time (or all at once): every address it is
 * given must be answered, or it throws; an audit never presents a partial result as complete.
 */
export type AuditJudge = (parameters: {
  addresses: readonly Address[]
  onJudged?: ((count: number) => void) | undefined
}) => AsyncIterable<ReadonlyMap<string, AuditJudgment>> | Promise<ReadonlyMap<string, AuditJudgment>>

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
 * Runs an audit: each batch of judgments is turned into compact lines as it comes (verdicts
 * shared, evidence packed: see `lines.ts`) and let go, so memory grows by a few hundred bytes a
 * voter, not by the judgments' objects.
 *
 * @throws whatever the judge throws (a source that failed): never a partial result.
 * @throws {AuditIncompleteError} when the judge leaves a voter unanswered.
 */
export async function runAudit(parameters: RunAuditParameters): Promise<AuditResult> {
  const { votes, run } = parameters
  const addresses = votes.map((vote) => vote.voter)
  const place = new Map(addresses.map((address, index) => [address.toLowerCase(), index]))
  const lines: (AuditVoter | undefined)[] = new Array(votes.length)
  const evidence = createEvidencePacker(votes.length)
  const verdicts = createVerdictTable()
  const stamps = new Map<Address, StampEntries>()
  const addLine = (key: string, judgment: AuditJudgment) => {
    const index = place.get(key)
    if (index === undefined) return
    const vote = votes[index]!
    lines[index] = {
      address: vote.voter,
      choice: vote.choice,
      votingPower: vote.votingPower,
      eligible: judgment.eligible,
      method: judgment.method,
      score: judgment.score,
      ...(judgment.passport ? { passport: verdicts.passport(judgment.passport) } : {}),
      verdicts: verdicts.list(judgment.verdicts.map(({ evidence: _evidence, ...verdict }) => verdict)),
      linked: noLinkedWallets,
    }
    evidence.set(index, judgment.verdicts.map((verdict) => verdict.evidence))
    if (judgment.stamps) stamps.set(vote.voter, compactStamps(judgment.stamps))
  }
  const judged = parameters.judge({ addresses, onJudged: parameters.onJudged })
  if (Symbol.asyncIterator in judged) {
    const batches = judged[Symbol.asyncIterator]()
    // Each batch taken in a call of its own: a loop here would keep the last batch in this
    // function's frame while the judge works on the next one.
    while (await takeBatch(batches, addLine));
  } else {
    for (const [key, judgment] of await judged) addLine(key, judgment)
  }
  const missing = addresses.filter((_, index) => lines[index] === undefined)
  if (missing.length) throw new AuditIncompleteError({ addresses: missing, reason: `the judge left ${missing.length} voters unanswered.` })

  const voters = lines.map((line) => line!)
  for (const [key, signals] of findLinkedWallets(stamps)) voters[place.get(key)!]!.linked = signals
  const summary = summarizeAudit({ voters, choices: run.proposal?.choices ?? run.choices, type: run.proposal?.type ?? run.type, threshold: parameters.threshold })
  const sealed = { run, voters, evidence: evidence.done() }
  return { ...sealed, summary, digest: auditDigest(sealed) }
}

/** Takes the judge's next batch into the lines; false when there is none. */
async function takeBatch(batches: AsyncIterator<ReadonlyMap<string, AuditJudgment>>, add: (key: string, judgment: AuditJudgment) => void): Promise<boolean> {
  const next = await batches.next()
  if (next.done) return false
  for (const [key, judgment] of next.value) add(key, judgment)
  return true
}

/** What linking reads of a voter's stamps (dedup, expiry, the wallet named), the rest let go. */
function compactStamps(entries: StampEntries): StampEntries {
  return Object.fromEntries(
    Object.entries(entries).map(([provider, entry]) => [provider, { dedup: entry.dedup, expiration_date: entry.expiration_date, ...(entry.source_wallet ? { source_wallet: entry.source_wallet } : {}) }]),
  )
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
export function auditDigest(result: Pick<AuditResult, 'run' | 'voters' | 'evidence'>): string {
  const { packageVersion: _version, votesSource: _source, ...asked } = result.run
  // The hash of canonicalJson({ asked, voters }), fed voter by voter ("asked" sorts before
  // "voters"): the same digest without the whole text as one string.
  const hash = createHash('sha256').update(`{"asked":${canonicalJson(asked)},"voters":[`)
  for (let index = 0; index < result.voters.length; index++) hash.update(`${index ? ',' : ''}${canonicalJson(withoutIncidental(auditVoterLine(result, index)))}`)
  return hash.update(']}').digest('hex')
}
