/**
 * One voter of the audit in words, for every writer of the report (HTML, CSV): the choice by its
 * label, and why the voter counts or not, from the shared verdict words (src/utils/verdict-words.ts,
 * also the voter page's and `personhood verify`'s), never from rules of the report's own.
 */
import { credentialName, describeVoter, humanIdAppLink, passportAppUrl, verdictWordsInput, type VoterWords } from '../../utils/verdict-words.js'
import type { AuditRun, AuditVoter } from '../types.js'
import type { VoteChoice } from '../votes.js'

/** A vote's choice by its labels (`#n` where a label is missing): `For`, `A > B`, `A: 2, B: 1`. */
export function formatChoice(choice: VoteChoice, labels?: readonly string[]): string {
  const name = (index: number) => labels?.[index - 1] ?? `#${index}`
  if (typeof choice === 'number') return name(choice)
  if (Array.isArray(choice)) return (choice as number[]).map(name).join(' > ')
  return Object.entries(choice as Record<string, number>)
    .map(([index, weight]) => `${name(Number(index))}: ${weight}`)
    .join(', ')
}

/** The Human ID credentials and the Passport fallback of the audited configuration, when its options say. */
function ruleOf(run: Pick<AuditRun, 'strategy' | 'options'> | undefined): { credentials?: string[]; passport?: boolean } {
  const options = (run?.options ?? {}) as { credentials?: unknown; passportScore?: unknown }
  const credentials = Array.isArray(options.credentials) ? options.credentials.filter((item): item is string => typeof item === 'string') : undefined
  const passport = run?.strategy === 'passport-v2' ? true : options.passportScore === 0 ? false : undefined
  return { ...(credentials ? { credentials } : {}), ...(passport === undefined ? {} : { passport }) }
}

/**
 * Why a voter of the audit counts or not, in the shared words: every reason that applies (an
 * expired Passport score is "expired", not "below the threshold"; an expired Human ID credential
 * shows beside it) and what the voter can do next.
 */
export function auditVoterWords(voter: AuditVoter, run?: Pick<AuditRun, 'strategy' | 'options'>): VoterWords {
  const passport = voter.passport ? { score: voter.passport.score, threshold: voter.passport.threshold } : undefined
  return describeVoter({
    verdicts: voter.verdicts.map((verdict) => verdictWordsInput(verdict, passport)),
    eligible: voter.eligible,
    method: voter.method,
    ...ruleOf(run),
  })
}

/** What the report tells a voter: where to check an address, and how to get counted. */
export type VoterHelp = { check: string; command: string; steps: { text: string; url: string }[]; timing: string }

/** Where a voter of this audit checks an address, and how to get counted under its configuration. */
export function voterHelp(result: { run: Pick<AuditRun, 'strategy' | 'options' | 'network' | 'snapshot'> }): VoterHelp {
  const { run } = result
  const rule = ruleOf(run)
  const credentials = run.strategy === 'passport-v2' ? [] : (rule.credentials ?? ['gov-id', 'phone', 'biometrics'])
  const steps = credentials.map((credential) => ({ text: `${credentialName(credential)}: verify in Human ID\u2019s app (a credential on Optimism).`, url: humanIdAppLink(credential) }))
  if (rule.passport !== false && run.strategy !== 'human-id') steps.push({ text: 'Passport: collect stamps until the score reaches the threshold, then have the space\u2019s scorer score it.', url: passportAppUrl })
  return {
    check:
      'Why an address counts or not, in words, with what to do next: the space\u2019s voter page (a personhood strategy server serves it at /voters; the space links it from the proposal), or this command, which reads every source at the same snapshot:',
    command: `npx personhood verify <address> --snapshot ${run.snapshot} --network ${run.network} --rpc <a JSON-RPC URL of network ${run.network}>`,
    steps,
    timing: 'A credential or score counts from the first proposal whose snapshot comes after it: the snapshot of this proposal is fixed.',
  }
}
