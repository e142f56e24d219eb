/**
 * Why a source could not answer, in one line a person can act on: the error's own short message,
 * then what it rests on (a strategy option's issues, the details, the underlying cause), with every
 * URL's secrets redacted. `personhood verify` and the voter page say this where they used to keep
 * only the short message ("The options of strategy ... are invalid" without which option or why).
 */
import { BaseError } from '../errors/base.js'
import { redact } from './redact.js'

/** The cause of a failure: the outermost error's code and the whole chain in words. */
export type ErrorCause = { code: string; message: string }

/**
 * The real cause of `error`, in one line: each short message of its cause chain (repeats dropped),
 * a strategy option's issues (`apiKey: ...`), and the last details; secrets in URLs redacted.
 *
 * @example
 * import { describeErrorCause } from './error-cause.js'
 * describeErrorCause(error).message
 * // 'The options of strategy "passport-v2" are invalid: (options): No Passport API key ...'
 */
export function describeErrorCause(error: unknown, secrets: readonly (string | undefined)[] = []): ErrorCause {
  const parts: string[] = []
  let code = 'INTERNAL'
  let details: string | undefined
  const seen = new Set<unknown>()
  for (let at: unknown = error; at !== undefined && at !== null && !seen.has(at); at = (at as { cause?: unknown }).cause) {
    seen.add(at)
    if (at instanceof BaseError) {
      if (code === 'INTERNAL') code = at.code
      parts.push(at.shortMessage)
      const issues = (at as { issues?: unknown }).issues
      if (Array.isArray(issues)) {
        // The issues are the details ("1 issue(s)" says less than they do).
        for (const issue of issues.slice(0, 4) as { path?: unknown[]; message?: string }[]) parts.push(`${issue.path?.length ? issue.path.join('.') : '(options)'}: ${issue.message ?? ''}`)
      } else {
        details = at.details ?? details
      }
    } else if (at instanceof Error) {
      parts.push(at.message.split('\n')[0] ?? at.message)
    } else if (typeof (at as { message?: unknown }).message === 'string') {
      // A JSON-RPC error object ({ code, message }), as viem keeps the node's answer.
      parts.push((at as { message: string }).message)
    } else {
      parts.push(String(at))
    }
  }
  if (details) parts.push(details)
  const unique = parts.map((part) => part.trim().replace(/[.:]$/, '')).filter((part, index, all) => part && all.indexOf(part) === index && !all.some((other, at) => at < index && other.includes(part)))
  return { code, message: redact(`${unique.join(': ')}.`, secrets) }
}
