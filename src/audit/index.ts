/**
 * `personhood/audit`: a vote audited as data, and its report. `audit()` judges every voter with the
 * space's strategy at the snapshot and returns the result; the writers turn that result into
 * `audit.json`, `audit.csv`, `audit.md` and `audit.html`. `personhood audit` is a thin shell over
 * the same functions.
 *
 * @example
 * import { audit, parseVotes, writeAuditOutputs } from 'personhood/audit'
 * import { readFileSync } from 'node:fs'
 * const votes = parseVotes({ file: 'votes.csv', text: readFileSync('votes.csv', 'utf8') })
 * const result = await audit({ votes, network: '10', snapshot: 130_000_000, provider: process.env.OPTIMISM_RPC_URL!, context: { passport: { apiKey: process.env.PASSPORT_API_KEY } } })
 * writeAuditOutputs('report', result)
 */

// The audit
export { audit, defaultAuditStrategy, type AuditErrorType, type AuditParameters, type AuditReturnType, type AuditStats } from './audit.js'
export { defaultNetwork } from '../utils/parse.js'

// The votes
export { latestVotePerVoter, parseVotes, type AuditVote, type LatestVotePerVoterOptions, type ParseVotesParameters, type VoteChoice } from './votes.js'
export {
  createSnapshotHubClient,
  defaultSnapshotHubUrl,
  type CreateSnapshotHubClientParameters,
  type SnapshotHubClient,
  type SnapshotProposal,
  type SnapshotVote,
  type SnapshotVoteChoice,
} from '../clients/snapshot-hub.js'

// The result
export { summarizeAudit, type SummarizeAuditParameters } from './summary.js'
export { auditVoterLine } from './lines.js'
export { auditTitle } from './title.js'
export {
  verificationMethods,
  type AuditResult,
  type AuditRun,
  type AuditEvidence,
  type AuditSourceVerdict,
  type AuditSummary,
  type AuditVoter,
  type ChoiceTally,
  type GatedOutcome,
  type GatedTally,
  type GatedVoterOutcome,
  type LinkedWalletSignal,
  type MethodTally,
  type PassportOrigin,
  type ScoreBin,
  type VerificationMethod,
} from './types.js'

// The report
export { auditFiles, auditJsonChunks, writeAuditOutputs } from './report/write.js'
export { auditCsvChunks, auditCsvColumns, auditHtmlChunks, renderAuditHtml, renderAuditMarkdown, renderAuditSummaryTable } from './report/render.js'

// What audit()'s cacheDir reports (the disk cache itself is internal)
export type { CacheStats } from '../http/cache.js'
