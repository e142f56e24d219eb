/**
 * The audit at a glance: who was verified by what, the Passport score distribution, linked-wallet
 * clusters, and the vote's outcome counting all voting power against only verified voting power.
 */
import type { Address } from 'viem'
import type { AuditSummary, AuditVoter, ChoiceTally, MethodTally, ScoreBin } from './types.js'
import { verificationMethods } from './types.js'
import type { VoteChoice } from './votes.js'

/** Parameters of {@link summarizeAudit}. */
export type SummarizeAuditParameters = {
  voters: readonly AuditVoter[]
  /** The proposal's choice labels; without them choices are named by number. */
  choices?: readonly string[] | undefined
  /** The proposal's voting system (single-choice, basic, approval, ranked-choice, weighted, quadratic). */
  type?: string | undefined
  /** The Passport threshold to mark. Default 20. */
  threshold?: number | undefined
  /** Width of a histogram bin. Default 5. */
  binWidth?: number | undefined
}

/**
 * Summarizes an audit's voters.
 *
 * @example
 * import { summarizeAudit } from 'personhood/audit'
 * const summary = summarizeAudit({ voters, choices: ['For', 'Against'], type: 'single-choice' })
 * summary.outcome.leaderVerified // 0: "For" leads among verified humans
 */
export function summarizeAudit(parameters: SummarizeAuditParameters): AuditSummary {
  const { voters, threshold = 20, binWidth = 5 } = parameters
  const votingPower = sum(voters.map((voter) => voter.votingPower))
  const eligible = voters.filter((voter) => voter.eligible)
  const eligibleVotingPower = sum(eligible.map((voter) => voter.votingPower))

  const byMethod: MethodTally[] = [...verificationMethods, 'unverified' as const].map((method) => {
    const group = voters.filter((voter) => (voter.eligible ? voter.method === method : method === 'unverified'))
    return { method, voters: group.length, votingPower: sum(group.map((voter) => voter.votingPower)) }
  })

  const asked = voters.filter((voter) => voter.passport)
  const scores = asked.flatMap((voter) => (voter.passport?.score === null || voter.passport?.score === undefined ? [] : [voter.passport.score]))
  const top = Math.max(Math.ceil((threshold * 2.5) / binWidth) * binWidth, binWidth)
  const bins: ScoreBin[] = []
  for (let from = 0; from < top; from += binWidth) bins.push({ from, to: from + binWidth, count: 0 })
  bins.push({ from: top, to: null, count: 0 })
  for (const score of scores) {
    const index = Math.min(Math.max(Math.floor(score / binWidth), 0), bins.length - 1)
    bins[index]!.count++
  }

  return {
    voters: voters.length,
    votingPower,
    eligibleVoters: eligible.length,
    eligibleVotingPower,
    unverifiedShare: percent(voters.length - eligible.length, voters.length),
    unverifiedPowerShare: percent(votingPower - eligibleVotingPower, votingPower),
    byMethod,
    passport: {
      threshold,
      scored: scores.length,
      neverScored: asked.length - scores.length,
      notAsked: voters.length - asked.length,
      bins,
      notPassingAtThreshold: asked.filter((voter) => voter.passport!.score !== null && voter.passport!.score >= voter.passport!.threshold && !voter.passport!.passing).length,
    },
    outcome: tallyOutcome(voters, parameters.choices, parameters.type),
    clusters: findClusters(voters),
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0)
}

function percent(part: number, whole: number): number {
  return whole === 0 ? 0 : (part / whole) * 100
}

// ---------------------------------------------------------------------------------------------
// Outcome
// ---------------------------------------------------------------------------------------------

function tallyOutcome(voters: readonly AuditVoter[], labels: readonly string[] | undefined, type = 'unknown'): AuditSummary['outcome'] {
  const highest = Math.max(labels?.length ?? 0, ...voters.map((voter) => highestChoice(voter.choice)))
  const names = Array.from({ length: highest }, (_, index) => labels?.[index] ?? `Choice ${index + 1}`)
  const count = (group: readonly AuditVoter[]) =>
    type === 'ranked-choice' ? instantRunoff(group, highest) : proportional(group, highest)
  const all = count(voters)
  const verified = count(voters.filter((voter) => voter.eligible))
  const choices: ChoiceTally[] = names.map((choice, index) => ({ choice, all: all[index] ?? 0, verified: verified[index] ?? 0 }))
  const notes: Record<string, string> = {
    approval: 'Approval: each voter’s full voting power counts for every choice they approved.',
    'ranked-choice': 'Ranked choice: instant runoff; the last round’s totals are shown.',
    weighted: 'Weighted: each voter’s power is split across choices in proportion to their weights.',
    quadratic: 'Quadratic: shown as a proportional split of each voter’s power (not the quadratic sum).',
  }
  return { type, choices, leaderAll: leader(all), leaderVerified: leader(verified), note: notes[type] }
}

function highestChoice(choice: VoteChoice): number {
  if (typeof choice === 'number') return choice
  if (Array.isArray(choice)) return Math.max(...(choice as number[]))
  return Math.max(...Object.keys(choice).map(Number))
}

/** Single choice: all power to the choice; a list: all power to each; weights: split in proportion. */
function proportional(voters: readonly AuditVoter[], size: number): number[] {
  const totals = new Array<number>(size).fill(0)
  for (const { choice, votingPower } of voters) {
    if (typeof choice === 'number') totals[choice - 1]! += votingPower
    else if (Array.isArray(choice)) for (const index of new Set(choice as number[])) totals[index - 1]! += votingPower
    else {
      const entries = Object.entries(choice as Record<string, number>)
      const weight = sum(entries.map(([, value]) => value))
      if (weight > 0) for (const [index, value] of entries) totals[Number(index) - 1]! += (votingPower * value) / weight
    }
  }
  return totals
}

/** Instant runoff over ranked ballots: drop the weakest choice until one holds a majority. */
function instantRunoff(voters: readonly AuditVoter[], size: number): number[] {
  const ballots = voters.map((voter) => ({ ranking: typeof voter.choice === 'number' ? [voter.choice] : Array.isArray(voter.choice) ? (voter.choice as number[]) : [], power: voter.votingPower }))
  const eliminated = new Set<number>()
  for (;;) {
    const totals = new Array<number>(size).fill(0)
    for (const ballot of ballots) {
      const top = ballot.ranking.find((index) => !eliminated.has(index))
      if (top !== undefined) totals[top - 1]! += ballot.power
    }
    const counted = sum(totals)
    const standing = totals.map((total, index) => ({ total, index: index + 1 })).filter(({ index }) => !eliminated.has(index))
    if (standing.length <= 2 || standing.some(({ total }) => total * 2 > counted) || counted === 0) return totals
    const lowest = Math.min(...standing.map(({ total }) => total))
    // Ties for last drop together, unless that would leave nothing standing.
    const losers = standing.filter(({ total }) => total === lowest)
    if (losers.length === standing.length) return totals
    for (const { index } of losers) eliminated.add(index)
  }
}

function leader(totals: readonly number[]): number | null {
  const top = Math.max(0, ...totals)
  if (top === 0) return null
  const leaders = totals.flatMap((total, index) => (total === top ? [index] : []))
  return leaders.length === 1 ? leaders[0]! : null
}

// ---------------------------------------------------------------------------------------------
// Linked wallets
// ---------------------------------------------------------------------------------------------

/** Voters joined by deduplicated stamps (directly or through a shared stamp owner), two or more to a group. */
function findClusters(voters: readonly AuditVoter[]): AuditSummary['clusters'] {
  const parent = new Map<string, string>()
  const find = (key: string): string => {
    const up = parent.get(key)
    if (up === undefined || up === key) {
      parent.set(key, key)
      return key
    }
    const root = find(up)
    parent.set(key, root)
    return root
  }
  for (const voter of voters) {
    for (const signal of voter.linked) {
      if (signal.otherAddress) parent.set(find(voter.address.toLowerCase()), find(signal.otherAddress.toLowerCase()))
    }
  }
  const groups = new Map<string, AuditVoter[]>()
  for (const voter of voters) {
    const root = find(voter.address.toLowerCase())
    groups.set(root, [...(groups.get(root) ?? []), voter])
  }
  return [...groups.values()]
    .filter((group) => group.length >= 2)
    .map((group) => ({
      addresses: group.map((voter) => voter.address as Address).sort(),
      voters: group.length,
      votingPower: sum(group.map((voter) => voter.votingPower)),
    }))
    .sort((a, b) => b.voters - a.voters || a.addresses[0]!.localeCompare(b.addresses[0]!))
}
