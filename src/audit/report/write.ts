/**
 * Writing the report: `audit.json`, `audit.csv`, `audit.md` and `audit.html` from an audit's data,
 * each atomically, the JSON and the CSV voter by voter (a large audit is never one string).
 */
import { randomBytes } from 'node:crypto'
import { closeSync, constants, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { InvalidParameterError } from '../../errors/input.js'
import { stringifyJson } from '../../utils/json.js'
import { auditVoterLine } from '../lines.js'
import { auditTitle } from '../title.js'
import type { AuditResult } from '../types.js'
import { auditCsvChunks, auditHtmlChunks, renderAuditMarkdown } from './render.js'

/** The files {@link writeAuditOutputs} writes. */
export const auditFiles = ['audit.json', 'audit.csv', 'audit.md', 'audit.html'] as const

/**
 * Checks that `dir` can hold the report: a folder, or nothing yet.
 *
 * @throws {InvalidParameterError} (`--out`) when it names a file or anything else that is not a folder.
 */
export function checkOutputFolder(dir: string): void {
  let stats
  try {
    stats = statSync(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw new InvalidParameterError({ parameter: '--out', reason: `${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}).`, cause: error as Error })
  }
  if (!stats.isDirectory()) throw new InvalidParameterError({ parameter: '--out', reason: `${dir} exists and is not a folder: give a folder for the report's files.` })
}

/**
 * Writes `text` (one string, or chunks written one after the other, so a large file never has to
 * be one string) to `path` atomically and without following a link an attacker planted: through a
 * temporary file with a random name beside it, created exclusively (`O_CREAT | O_EXCL`, which
 * never follows a symlink), then renamed over `path` (a rename replaces a link, it does not write
 * through it).
 */
export function writeFileAtomic(path: string, text: string | Iterable<string>): void {
  const temporary = `${path}.${randomBytes(8).toString('hex')}.tmp`
  const descriptor = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o644)
  try {
    if (typeof text === 'string') writeAll(descriptor, Buffer.from(text))
    else writeChunks(descriptor, text)
  } catch (error) {
    closeSync(descriptor)
    unlinkSync(temporary)
    throw error
  }
  closeSync(descriptor)
  renameSync(temporary, path)
}

/** Writes the first `end` bytes: `writeSync` may write fewer than it was given. */
function writeAll(descriptor: number, bytes: Buffer, end = bytes.length): void {
  for (let at = 0; at < end; ) at += writeSync(descriptor, bytes, at, end - at)
}

/**
 * Writes chunks through one 1 MB buffer, encoded into it as they come: few system calls, and no
 * string the size of the buffer. Joining chunks to about 1 MB made a string of that size per
 * write, which V8 keeps in its large-object space until a full collection: writing a 650 MB
 * `audit.json` left hundreds of them, and the heap grew to four times what the audit holds.
 * A chunk that may not fit (3 bytes per UTF-16 unit at most) is written after what is pending, on its own.
 */
function writeChunks(descriptor: number, chunks: Iterable<string>): void {
  const buffer = Buffer.allocUnsafe(1 << 20)
  let used = 0
  for (const chunk of chunks) {
    const most = chunk.length * 3
    if (used + most > buffer.length) {
      writeAll(descriptor, buffer, used)
      used = 0
      if (most > buffer.length) {
        writeAll(descriptor, Buffer.from(chunk))
        continue
      }
    }
    used += buffer.write(chunk, used)
  }
  writeAll(descriptor, buffer, used)
}

/**
 * `audit.json` in chunks, one voter at a time: `title` (what was audited, as the other files title
 * it), `run`, every voter's line with its verdicts' evidence
 * (see `auditVoterLine`), `summary`, `digest` and `gated`, as `stringifyJson(…, { indent: 2 })`
 * writes them, without ever holding the text whole (at 100,000 voters it is near V8's string limit).
 */
export function* auditJsonChunks(result: AuditResult): Generator<string> {
  const indented = (value: unknown, by: string) => stringifyJson(value, { indent: 2 }).replace(/\n/g, `\n${by}`)
  // The audit's own fields, in this order; nothing else a caller carries along (audit()'s stats).
  const { run, voters, summary, digest, gated } = result
  const entries = Object.entries({ title: auditTitle(result), run, voters, summary, digest, gated }).filter(([, value]) => value !== undefined)
  yield '{'
  for (const [index, [key, value]] of entries.entries()) {
    yield `${index ? ',' : ''}\n  ${JSON.stringify(key)}: `
    if (key === 'voters' && voters.length) {
      // Each voter with its verdicts' evidence back in place, one at a time.
      yield '['
      for (let at = 0; at < voters.length; at++) yield `${at ? ',' : ''}\n    ${indented(auditVoterLine(result, at), '    ')}`
      yield '\n  ]'
    } else yield indented(value, '  ')
  }
  yield entries.length ? '\n}\n' : '}\n'
}

/**
 * Writes `audit.json`, `audit.csv`, `audit.md` and `audit.html` into `dir` (created when missing; the
 * JSON and the CSV written voter by voter, the HTML's voter data column by column),
 * each atomically (a reader never sees half a file) through a randomly named temporary file that
 * is created exclusively, so no planted symlink is followed.
 *
 * @throws {InvalidParameterError} when `dir` is a file.
 * @returns the paths written.
 */
export function writeAuditOutputs(dir: string, result: AuditResult): string[] {
  checkOutputFolder(dir)
  mkdirSync(dir, { recursive: true })
  const contents: Record<(typeof auditFiles)[number], string | Iterable<string>> = {
    'audit.json': auditJsonChunks(result),
    'audit.csv': auditCsvChunks(result),
    'audit.md': renderAuditMarkdown(result),
    'audit.html': auditHtmlChunks(result),
  }
  return auditFiles.map((name) => {
    const path = join(dir, name)
    writeFileAtomic(path, contents[name])
    return path
  })
}
