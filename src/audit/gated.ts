/**
 * The audit of a gated configuration (`human-gated`). A Snapshot vote export already carries each
 * vote's voting power, so the audit does not call the inner strategies: the strategy's `audit` hook
 * names the human test that judges each voter (`human-verification` with the configuration's
 * credentials, match, action id and Passport fallback) and the gate, which is applied here to the
 * recorded power, showing the outcome under every mode next to the recorded one.
 */
import { StrategyOptionsError } from '../errors/strategy.js'
import type { StrategyAuditGate } from '../strategy/define.js'
import { applyHumanGate, humanGateModes, type HumanGateMode } from '../verify/human-gate.js'
import { summarizeAudit } from './summary.js'
import type { AuditResult, AuditVoter, GatedOutcome, GatedTally, GatedVoterOutcome } from './types.js'

// The outcome's shapes live in types.ts with the audit's other shapes (types.ts imports nothing
// from here: no cycle); they are re-exported here beside the functions that build them.
export type { GatedOutcome, GatedTally, GatedVoterOutcome } from './types.js'

/**
 * The outcome under each mode, from the audit's voters (their recorded power and the human test's
 * weight, which the audit stores as the voter's score).
 *
 * @throws {StrategyOptionsError} when a voter's score is not a weight (never negative or NaN).
 */
export function summarizeGatedOutcome(result: Pick<AuditResult, 'voters' | 'run'>, gated: StrategyAuditGate): GatedOutcome {
  const { voters, run } = result
  const cap = gated.mode === 'cap' ? (gated.cap ?? null) : null
  const outcomes = voters.map((voter): GatedVoterOutcome => {
    const weight = voter.score
    if (!Number.isFinite(weight) || weight < 0) {
      throw new StrategyOptionsError({ strategy: 'human-gated', issues: [{ path: ['score'], message: `The human test gave ${voter.address} a weight of ${String(weight)}.` }] })
    }
    const of = (mode: HumanGateMode) => applyHumanGate({ power: voter.votingPower, weight, mode, cap: cap ?? undefined })
    return { address: voter.address, recorded: voter.votingPower, weight, gate: of('gate'), quadratic: of('quadratic'), cap: cap === null ? null : of('cap') }
  })
  const countings: ('recorded' | HumanGateMode)[] = ['recorded', ...humanGateModes.filter((mode) => mode !== 'cap' || cap !== null)]
  const tallies = countings.map((counting): GatedTally => {
    const powered: AuditVoter[] = voters.map((voter, index) => {
      const outcome = outcomes[index]!
      const power = counting === 'recorded' ? outcome.recorded : (outcome[counting] as number)
      return { ...voter, votingPower: power, eligible: true }
    })
    // The same counting as the audit's own outcome (proportional, or instant runoff for ranked choice).
    const { outcome } = summarizeAudit({ voters: powered, choices: run.proposal?.choices ?? run.choices, type: run.proposal?.type ?? run.type })
    return {
      counting,
      totalPower: powered.reduce((total, voter) => total + voter.votingPower, 0),
      choices: outcome.choices.map(({ choice, all }) => ({ choice, power: all })),
      leader: outcome.leaderAll,
    }
  })
  return { mode: gated.mode, cap, inner: [...gated.inner], tallies, voters: outcomes }
}
