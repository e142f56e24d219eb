/**
 * Verdicts in plain words, written once: what a voter reads on the strategy server's voter page,
 * in `personhood verify` and in the audit report (its "why" label and detail). Every word here is
 * computed from the verdicts the strategies give (src/verify/verdict.ts: credential, valid,
 * reason, expiry, the Passport score and threshold); nothing here judges a credential again.
 *
 * Dependency-free (plain shapes in, strings out), so every layer that shows a verdict can import
 * it, the report included.
 */

/** Where a voter gets a Human ID credential: Human ID's app, one page per verification type. */
export const humanIdAppUrl = 'https://id.human.tech'

/** Where a voter collects stamps and raises a Passport score. */
export const passportAppUrl = 'https://app.passport.xyz'

const credentialNames: Record<string, string> = {
  'gov-id': 'Government ID',
  phone: 'Phone',
  biometrics: 'Biometrics',
  'clean-hands': 'Clean hands',
  passport: 'Passport score',
}

/** The order credentials are shown in: the fallback policy's. */
const credentialOrder = ['gov-id', 'phone', 'biometrics', 'clean-hands', 'passport']

/** A credential's name in words (`gov-id` is "Government ID"). */
export function credentialName(credential: string): string {
  return credentialNames[credential] ?? credential
}

/** The page of Human ID's app where a voter gets `credential` (gov-id, phone, biometrics, clean-hands). */
export function humanIdAppLink(credential: string): string {
  return `${humanIdAppUrl}/${credential}`
}

/** A verdict as the words need it: one source's answer on one credential. */
export type VerdictWordsInput = {
  /** `gov-id`, `phone`, `biometrics`, `clean-hands` or `passport`. */
  credential: string
  valid: boolean
  /** The verdict's reason (`valid`, `none`, `expired`, `revoked`, `below-threshold`...). */
  reason: string
  /** Unix seconds when it stops (or stopped) counting; null or absent when not known. */
  expiresAt?: number | null | undefined
  /** Who answered (`chain`, `human-id-api`, `attestation-index`, `passport-listing`...). */
  via?: string | undefined
  /** Passport only: the score as read (null: never scored). */
  score?: number | string | null | undefined
  /** Passport only: the threshold it was judged against. */
  threshold?: number | string | undefined
  /** Passport only: the error the service scored with. */
  error?: string | null | undefined
}

/**
 * Reads the words' input from a verdict of src/verify/verdict.ts or a line of the audit (whose
 * Passport score and threshold may sit apart from the verdict, in `passport`).
 */
export function verdictWordsInput(
  verdict: { credential: string; valid: boolean; reason: string; expiresAt?: number | null | undefined; via?: string | undefined; source?: string | undefined; evidence?: unknown },
  passport?: { score: number | string | null; threshold: number | string } | undefined,
): VerdictWordsInput {
  const evidence = (verdict.evidence ?? {}) as { kind?: unknown; score?: string | null; threshold?: string; error?: string | null }
  const fromEvidence = evidence.kind === 'passport-score'
  const via = verdict.via ?? (verdict.source && verdict.source !== 'human-id' && verdict.source !== 'passport' ? verdict.source : undefined)
  return {
    credential: verdict.credential,
    valid: verdict.valid,
    reason: verdict.reason,
    expiresAt: verdict.expiresAt ?? (verdict.reason === 'expired' ? expiryInEvidence(verdict.evidence) : null),
    ...(via ? { via } : {}),
    ...(verdict.credential === 'passport'
      ? {
          score: fromEvidence ? (evidence.score ?? null) : (passport?.score ?? null),
          ...(fromEvidence && evidence.threshold !== undefined ? { threshold: evidence.threshold } : passport ? { threshold: passport.threshold } : {}),
          ...(fromEvidence && evidence.error ? { error: evidence.error } : {}),
        }
      : {}),
  }
}

/** Unix seconds as a Date can hold them, from a bigint, a number or a decimal string; null otherwise. */
function toSeconds(value: unknown): number | null {
  const text = typeof value === 'bigint' || typeof value === 'number' ? String(value) : typeof value === 'string' && /^[0-9]{1,20}$/.test(value) ? value : undefined
  if (text === undefined) return null
  const seconds = Number(text)
  return seconds > 0 && seconds <= 8.64e12 ? seconds : null
}

/**
 * When an expired credential expired, from what its verdict rests on: the expiry the chain read
 * for it (a verdict carries an expiry only while it holds). Null when the evidence does not say
 * (the expiry was not read, or the evidence is kept apart, as in an audit's lines).
 */
function expiryInEvidence(evidence: unknown): number | null {
  const reads = (evidence as { reads?: unknown } | undefined)?.reads
  if (!Array.isArray(reads)) return null
  for (const read of reads as Record<string, unknown>[]) {
    if (read?.reason !== 'expired' && (read?.onchain as { reason?: unknown } | undefined)?.reason !== 'expired') continue
    const found =
      toSeconds(read.expiry) ??
      toSeconds((read.sbtOwners as { expiry?: unknown } | undefined)?.expiry) ??
      toSeconds((read.onchain as { validUntil?: unknown } | undefined)?.validUntil) ??
      toSeconds((read.row as { validUntil?: unknown } | undefined)?.validUntil)
    if (found !== null) return found
  }
  return null
}

/** A time a voter reads: the UTC day and minute, e.g. `2026-03-01 14:05 UTC`. */
export function formatVerdictTime(seconds: number): string {
  const iso = new Date(seconds * 1000).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}

/** A score as the service wrote it, without trailing zeros (`28.99100` is 28.991). */
function formatScore(score: number | string): string {
  const text = String(score)
  return /^-?[0-9]+\.[0-9]*$/.test(text) ? text.replace(/\.?0+$/, '') : text
}

const viaWords: Record<string, string> = {
  chain: 'the Human ID contracts, read on chain at the snapshot block',
  'human-id-api': "Human ID's API",
  'attestation-index': 'the attestation index',
  'passport-listing': "the scorer's listing of scores",
  'passport-history': "the scorer's score history at the snapshot",
  'passport-live': 'a live read of the score (no record at the snapshot)',
}

/** Who answered, in words (`chain` is "read on chain at the snapshot"). */
export function describeVia(via: string | undefined): string | undefined {
  return via === undefined ? undefined : (viaWords[via] ?? via)
}

/** One verdict in words. */
export type VerdictWords = {
  credential: string
  /** "Government ID", "Passport score"... */
  name: string
  held: boolean
  /** A short status: held, expired, revoked, wrong issuer, not found, below the threshold... */
  status: string
  /** A label naming the credential and its status ("Government ID expired", "Passport score below 20"). */
  label: string
  /** The label as short as a phone's table cell needs ("Passport below 20"). */
  short: string
  /** The whole verdict, a sentence ("Government ID: expired on 2026-03-01 14:05 UTC."). */
  sentence: string
}

/**
 * One verdict in words: its status, a short label and a sentence with its date, score and
 * threshold where they apply.
 *
 * @example
 * import { describeVerdict } from './verdict-words.js'
 * describeVerdict({ credential: 'gov-id', valid: false, reason: 'expired', expiresAt: 1_767_225_600 }).sentence
 * // 'Government ID: expired on 2026-01-01 00:00 UTC, before the snapshot.'
 */
export function describeVerdict(verdict: VerdictWordsInput): VerdictWords {
  const name = credentialName(verdict.credential)
  const until = verdict.expiresAt ? ` until ${formatVerdictTime(verdict.expiresAt)}` : ''
  const on = verdict.expiresAt ? ` on ${formatVerdictTime(verdict.expiresAt)}` : ''
  const words = (status: string, label: string, sentence: string): VerdictWords => ({
    credential: verdict.credential,
    name,
    held: verdict.valid,
    status,
    label,
    short: label.replace(/^Passport score (?=below|expired|error)/, 'Passport ').replace(/^No Passport score$/, 'No Passport'),
    sentence: `${name}: ${sentence}`,
  })
  if (verdict.credential === 'passport') {
    const score = verdict.score === null || verdict.score === undefined ? null : formatScore(verdict.score)
    const threshold = verdict.threshold === undefined ? 'the threshold' : formatScore(verdict.threshold)
    switch (verdict.reason) {
      case 'valid':
        return words('passes', `Passport score ${score ?? ''}`.trim(), `${score ?? 'a score'} at the snapshot, at least the threshold ${threshold}: it passes${until}.`)
      case 'below-threshold':
        return words('below the threshold', `Passport score below ${threshold}`, `${score ?? 'a score'} at the snapshot, below the threshold ${threshold}.`)
      case 'expired':
        return words(
          'expired',
          'Passport score expired',
          `${score ?? 'a score'} (threshold ${threshold}), but it had expired${on}, before the snapshot: an expired score does not count, whatever its number.`,
        )
      case 'never-scored':
        return words('never scored', 'No Passport score', "no score from the space's scorer at the snapshot (the address was never scored).")
      case 'error':
        return words('scored with an error', 'Passport score error', `the scorer answered with an error${verdict.error ? ` ("${verdict.error}")` : ''} instead of a score.`)
      default:
        return words(verdict.reason, `Passport ${verdict.reason}`, `${verdict.valid ? 'passes' : 'does not pass'} (${verdict.reason}).`)
    }
  }
  switch (verdict.reason) {
    case 'valid':
      return words('held', name, `held at the snapshot${until}.`)
    case 'legacy':
      return words('held', name, 'held at the snapshot (a permanent record of the older Human ID store: no expiry).')
    case 'none':
      return words('not found', `No ${name}`, 'not found: this address held no such credential at the snapshot.')
    case 'expired':
      return words('expired', `${name} expired`, `expired${on || ' before the snapshot'}${on ? ', before the snapshot' : ''}.`)
    case 'revoked':
      return words('revoked', `${name} revoked`, 'revoked: Human ID withdrew it before the snapshot.')
    case 'wrong-issuer':
      return words('wrong issuer', `${name}: wrong issuer`, "wrong issuer: the credential was not issued by Human ID's issuer for it, so it never counts.")
    case 'wrong-action':
      return words('wrong action', `${name}: another action`, "wrong action: the credential was issued for another action id than the space's.")
    case 'wrong-recipient':
      return words('wrong recipient', `${name}: another address`, 'issued to another address than this one.')
    case 'wrong-attester':
      return words('wrong attester', `${name}: wrong attester`, "wrong attester: the attestation was not made by Human ID's attester.")
    case 'wrong-schema':
      return words('wrong schema', `${name}: wrong schema`, "wrong schema: the attestation is not Human ID's clean-hands attestation.")
    case 'malformed':
      return words('malformed', `${name}: malformed`, 'malformed: the record could not be read as a credential.')
    case 'not-verified':
      return words('not verified', `${name}: not verified`, "Human ID's service says not verified (it does not say why).")
    default:
      return words(verdict.reason, `${name}: ${verdict.reason}`, `${verdict.valid ? 'held' : 'not held'} (${verdict.reason}).`)
  }
}

/** A step a voter can take, with the page to take it on when there is one. */
export type NextStep = { text: string; url?: string | undefined }

/** A source that could not answer, and why (the real cause). */
export type UnansweredSource = { source: string; cause: string }

/** What {@link describeVoter} reads. */
export type DescribeVoterParameters = {
  /** Every verdict on the voter (several sources may answer on one credential). */
  verdicts: readonly VerdictWordsInput[]
  /** The strategy's decision; null when it could not be made (a source did not answer). */
  eligible: boolean | null
  /** What made the voter count (a credential or `passport`). */
  method?: string | null | undefined
  /** The Human ID credentials the rule accepts (next steps name only those). Default: those with a verdict. */
  credentials?: readonly string[] | undefined
  /** Whether the rule falls back on (or is) a Passport score. Default: whether a Passport verdict is here. */
  passport?: boolean | undefined
  /** The Passport threshold, when no Passport verdict says it. */
  threshold?: number | string | undefined
  /** Whether the rule needs any one of `credentials` (default) or all of them. */
  match?: 'any' | 'all' | undefined
  /** The space's action id, when not Human ID's default (a next step names it). */
  actionId?: string | undefined
  /** The sources that could not answer. */
  unanswered?: readonly UnansweredSource[] | undefined
}

/** A voter's verdicts in words. */
export type VoterWords = {
  /** Whether the voter counts; null when it cannot be told. */
  counted: boolean | null
  /** One line: counted or not, and by what. */
  headline: string
  /** A short label for a table cell: the method, or every reason that applies. */
  label: string
  /** Every reason that applies, one sentence each (each credential asked, and Passport when asked). */
  reasons: string[]
  /** What to do next. */
  nextSteps: NextStep[]
}

/** One verdict per credential: a held one when any source holds it, else the most telling. */
function byCredential(verdicts: readonly VerdictWordsInput[]): Map<string, VerdictWordsInput> {
  const chosen = new Map<string, VerdictWordsInput>()
  for (const verdict of verdicts) {
    const seen = chosen.get(verdict.credential)
    // "none" and "not-verified" say only that nothing holds: a reason that says why tells more.
    const silent = (reason: string) => reason === 'none' || reason === 'not-verified'
    if (!seen || (verdict.valid && !seen.valid) || (!seen.valid && !verdict.valid && silent(seen.reason) && !silent(verdict.reason))) {
      chosen.set(verdict.credential, verdict)
    }
  }
  return new Map([...chosen].sort(([a], [b]) => order(a) - order(b)))
}

function order(credential: string): number {
  const at = credentialOrder.indexOf(credential)
  return at === -1 ? credentialOrder.length : at
}

function list(names: readonly string[], join = 'or'): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${join} ${names.at(-1)}`
}

const whenItCounts = 'A credential or score counts from the first proposal whose snapshot comes after it: this proposal\u2019s snapshot is fixed.'

/**
 * A voter's verdicts in words: whether they count, every reason that applies and what to do next.
 *
 * @example
 * import { describeVoter } from './verdict-words.js'
 * describeVoter({ verdicts, eligible: false, credentials: ['gov-id', 'phone'] }).reasons
 */
export function describeVoter(parameters: DescribeVoterParameters): VoterWords {
  const { eligible, unanswered = [] } = parameters
  const chosen = byCredential(parameters.verdicts)
  const human = [...chosen.values()].filter((verdict) => verdict.credential !== 'passport')
  const passport = chosen.get('passport')
  const asked = parameters.credentials ?? human.map((verdict) => verdict.credential)
  const passportCounts = parameters.passport ?? passport !== undefined
  // Credentials not found are said once, together: four lines of "not found" hide the one that matters.
  const notFound = human.filter((verdict) => !verdict.valid && verdict.reason === 'none')
  const reasons: string[] = []
  for (const verdict of chosen.values()) {
    if (notFound.length > 1 && notFound.includes(verdict)) {
      if (verdict === notFound[0]) reasons.push(`${list(notFound.map((item) => credentialName(item.credential)), 'and')}: not found: this address held none of them at the snapshot.`)
      continue
    }
    reasons.push(describeVerdict(verdict).sentence)
  }
  for (const source of unanswered) reasons.push(`${source.source} could not answer: ${source.cause}`)
  const steps: NextStep[] = []
  if (eligible) {
    const method = parameters.method ? chosen.get(parameters.method) : [...chosen.values()].find((verdict) => verdict.valid)
    const name = credentialName(method?.credential ?? parameters.method ?? '')
    const headline = `Counted: verified by ${name} at the snapshot.`
    steps.push(
      method?.expiresAt
        ? { text: `Nothing to do for this proposal. ${name} counts until ${formatVerdictTime(method.expiresAt)}: ${method.credential === 'passport' ? 'refresh your Passport\u2019s stamps' : 'renew it in Human ID\u2019s app'} before then to keep counting.` }
        : { text: 'Nothing to do: this address counts.' },
    )
    return { counted: true, headline, label: name, reasons, nextSteps: steps }
  }
  // Not counted, or not known: every reason that applies, and a step for each.
  const telling = human.filter((verdict) => !verdict.valid && verdict.reason !== 'none')
  // Every reason that applies: in full for the headline, short for a table cell.
  const labels = telling.map((verdict) => describeVerdict(verdict).label)
  const shorts = [...labels]
  const add = (label: string, short = label) => {
    labels.push(label)
    shorts.push(short)
  }
  if (human.length > 0 && telling.length === 0) add('No Human ID credential', 'No Human ID')
  if (passport) add(describeVerdict(passport).label, describeVerdict(passport).short)
  for (const source of unanswered) add(`${source.source} did not answer`)
  for (const verdict of telling) {
    const name = credentialName(verdict.credential)
    const url = humanIdAppLink(verdict.credential)
    if (verdict.reason === 'expired') steps.push({ text: `Renew your ${name} credential in Human ID\u2019s app: a new one replaces the expired one.`, url })
    else if (verdict.reason === 'revoked') steps.push({ text: `Your ${name} credential was revoked: verify again in Human ID\u2019s app, or ask Human ID why it was revoked.`, url })
    else if (verdict.reason === 'wrong-action') steps.push({ text: `Verify ${name} in Human ID\u2019s app for the space\u2019s action id${parameters.actionId ? ` (${parameters.actionId})` : ''}: the space links to it.`, url })
    else steps.push({ text: `This ${name} credential does not count for anyone: verify ${name} in Human ID\u2019s app.`, url })
  }
  const missing = asked.filter((credential) => credential !== 'passport' && !telling.some((verdict) => verdict.credential === credential))
  if (missing.length > 0 && telling.length === 0) {
    if (missing.length > 1) steps.push({ text: parameters.match === 'all' ? `Get every one of these Human ID credentials: the space asks for all of them.` : `Get any one of these Human ID credentials: one is enough.` })
    for (const credential of missing) steps.push({ text: `${credentialName(credential)}: get this credential in Human ID\u2019s app (it mints it on Optimism).`, url: humanIdAppLink(credential) })
  }
  // Passport's own step only when it answered, or when it was not asked (Human ID did not hold): an
  // unanswered Passport is a source to check again, not a score to raise.
  if (passportCounts && (passport || unanswered.length === 0)) {
    const threshold = passport?.threshold ?? parameters.threshold ?? 20
    const score = passport?.score === null || passport?.score === undefined ? null : formatScore(passport.score)
    const reason = passport?.reason
    if (reason === 'expired') steps.push({ text: `Refresh your Passport\u2019s stamps so its score is current again (it was ${score ?? 'scored'}, at least ${formatScore(threshold)} is needed).`, url: passportAppUrl })
    else if (reason === 'below-threshold') steps.push({ text: `Add stamps to your Passport until its score reaches ${formatScore(threshold)} (it was ${score} at the snapshot).`, url: passportAppUrl })
    else if (reason === 'never-scored' || reason === undefined) steps.push({ text: `Create a Passport, collect stamps until its score reaches ${formatScore(threshold)}, and have it scored by the space\u2019s scorer.`, url: passportAppUrl })
    else if (reason === 'error') steps.push({ text: 'Open your Passport and score it again: the scorer answered with an error.', url: passportAppUrl })
  }
  for (const source of unanswered) steps.push({ text: `Check again later: ${source.source} could not answer, which says nothing about this address.` })
  if (eligible === false) steps.push({ text: whenItCounts })
  const headline =
    eligible === null
      ? `Not known: ${list(unanswered.map((source) => source.source), 'and')} could not answer${human.length || passport ? '; what the others say is below' : ''}.`
      : `Not counted: ${list(labels.map((label) => label.replace(/^No /, 'no ')), 'and')}.`
  return { counted: eligible, headline, label: shorts.join(' \u00b7 ') || 'Not verified', reasons, nextSteps: steps }
}

/** What {@link describeRule} reads: a strategy's rule, from its options as read (defaults filled). */
export type DescribeRuleParameters = {
  strategy: string
  /** The Human ID credentials that count (human-id, human-verification, human-gated). */
  credentials?: readonly string[] | undefined
  match?: 'any' | 'all' | undefined
  actionId?: string | number | undefined
  /** Whether a Passport score counts (passport-v2, or the fallback); its threshold when set. */
  passport?: { threshold?: number | string | undefined } | false | undefined
  sandbox?: boolean | undefined
}

/**
 * The rule that decides, in one sentence.
 *
 * @example
 * import { describeRule } from './verdict-words.js'
 * describeRule({ strategy: 'human-verification', credentials: ['gov-id', 'phone'], match: 'any', passport: {} })
 */
export function describeRule(rule: DescribeRuleParameters): string {
  const names = (rule.credentials ?? []).map(credentialName)
  const threshold = rule.passport && rule.passport.threshold !== undefined ? formatScore(rule.passport.threshold) : "the scorer's threshold (20 unless the scorer sets another)"
  const chain = rule.sandbox ? 'on the Base Sepolia sandbox' : 'on Optimism'
  const action = rule.actionId === undefined ? '' : `, for action id ${rule.actionId}`
  const human = names.length ? `${rule.match === 'all' ? `all of ${list(names, 'and')}` : names.length === 1 ? names[0] : `any of ${list(names)}`} held at the snapshot (Human ID credentials ${chain}${action}, unexpired and not revoked)` : ''
  const passport = `a Passport score at the snapshot of at least ${threshold}, not expired`
  if (names.length && rule.passport) return `${rule.strategy}: an address counts when ${human}; otherwise when it has ${passport}.`
  if (names.length) return `${rule.strategy}: an address counts when ${human}.`
  if (rule.passport) return `${rule.strategy}: an address counts with ${passport}.`
  return `${rule.strategy}.`
}
