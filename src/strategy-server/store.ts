/**
 * The strategy server's answer store: an append-only log on disk, one checksummed line per batch of
 * answers, fsynced before any of them is acknowledged.
 *
 * Why a log and not a database: the answers are facts that never change (a voter's score at a past
 * block), written once and read by key, so an append-only file holds them exactly; npm here runs no
 * install scripts and downloads nothing at install, so a native database would have to ship its
 * binary for every platform, and `node:sqlite` does not exist in Node 20. A log needs neither, and
 * its two failure modes are easy to tell apart: a torn last line (the process died mid-write, before
 * the answer was acknowledged) is cut off at start; a complete line whose checksum does not match is
 * corruption, and the store refuses to open, naming the file and the line.
 *
 * Line format: `<first 16 hex of sha256(json)> <json>\n`, json = `{"g": group, "a": {address: score}}`.
 * The first line is the header `personhood-strategy-answers 1`.
 */
import { createHash } from 'node:crypto'
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, fstatSync, ftruncateSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { BaseError } from '../errors/base.js'

/** The header line of a store file. */
export const answerStoreHeader = 'personhood-strategy-answers 1'

/** The store file cannot be used: corrupt, foreign, or held by another live process. */
export class AnswerStoreError extends BaseError {
  override name = 'AnswerStoreError' as const
  /** The store file. */
  readonly file: string
  /** The 1-based line at fault, when one is. */
  readonly line: number | undefined
  constructor(parameters: { file: string; line?: number | undefined; reason: string; cause?: unknown }) {
    super(`The answer store ${parameters.file} cannot be used${parameters.line === undefined ? '' : ` (line ${parameters.line})`}.`, {
      details: parameters.reason,
      code: 'ANSWER_STORE_UNUSABLE',
      ...(parameters.cause === undefined ? {} : { cause: parameters.cause }),
      metaMessages: [
        `Store: ${parameters.file}`,
        'Nothing is served from it. Every answer in it can be computed again from the chain at its block:',
        'move the file aside (keep it for inspection) and start again, or point --store elsewhere.',
      ],
    })
    this.file = parameters.file
    this.line = parameters.line
  }
}

/** {@link AnswerStoreError} with its literal `name`: a member of an action's `...ErrorType` union, narrowed by `error.name`. */
export type AnswerStoreErrorType = AnswerStoreError & { name: 'AnswerStoreError' }

/** An answer store: answers by group (strategy, options, network, block) and lower-case address. */
export type AnswerStore = {
  /** The answer kept for `address` in `group`, or undefined. */
  get(group: string, address: string): number | undefined
  /**
   * Keeps answers for good. Resolves once they are durable (written and fsynced); an answer is
   * readable with `get` only then.
   */
  put(group: string, answers: Readonly<Record<string, number>>): Promise<void>
  /** Answers held. */
  readonly size: number
  /** What opening found: lines read, and bytes of a torn last line cut off (never acknowledged). */
  readonly opened: { file: string | undefined; records: number; tornBytes: number }
  /** Waits for pending writes, then closes the file and releases its lock. */
  close(): Promise<void>
}

function checksum(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 16)
}

type Index = Map<string, Map<string, number>>

function remember(index: Index, group: string, answers: Readonly<Record<string, number>>): number {
  let answersOf = index.get(group)
  if (!answersOf) index.set(group, (answersOf = new Map()))
  let added = 0
  for (const [address, score] of Object.entries(answers)) {
    const key = address.toLowerCase()
    if (!answersOf.has(key)) added += 1
    answersOf.set(key, score)
  }
  return added
}

/**
 * An in-memory store (nothing survives the process): for tests and `--store none`.
 *
 * @example
 * const store = createMemoryAnswerStore()
 */
export function createMemoryAnswerStore(): AnswerStore {
  const index: Index = new Map()
  let size = 0
  return {
    get: (group, address) => index.get(group)?.get(address.toLowerCase()),
    async put(group, answers) {
      size += remember(index, group, answers)
    },
    get size() {
      return size
    },
    opened: { file: undefined, records: 0, tornBytes: 0 },
    async close() {},
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Takes `<file>.lock` (this process's pid): one writer per store file. A stale lock (dead pid) is taken over. */
function takeLock(file: string): string {
  const lock = `${file}.lock`
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' })
      return lock
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new AnswerStoreError({ file, reason: `Cannot create its lock file ${lock}.`, cause: error })
      const pid = Number(readFileSync(lock, 'utf8').trim())
      if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new AnswerStoreError({ file, reason: `Process ${pid} holds it (${lock}); each instance needs its own store file.` })
      }
      rmSync(lock, { force: true })
    }
  }
  throw new AnswerStoreError({ file, reason: `Cannot take its lock file ${lock}.` })
}

/** Reads a store file into the index; cuts a torn last line. */
function load(file: string, index: Index): { records: number; tornBytes: number; size: number } {
  const fd = openSync(file, 'r+')
  try {
    const length = fstatSync(fd).size
    const buffer = Buffer.alloc(length)
    let read = 0
    while (read < length) read += readSync(fd, buffer, read, length - read, read)
    const lastNewline = buffer.lastIndexOf(0x0a)
    const complete = buffer.subarray(0, lastNewline + 1).toString('utf8')
    const tornBytes = length - (lastNewline + 1)
    const lines = complete.split('\n').slice(0, -1)
    if (lines.length === 0 || lines[0] !== answerStoreHeader) {
      // A file that never got its whole header is a store that never acknowledged anything.
      if (lines.length === 0 && answerStoreHeader.startsWith(buffer.toString('utf8'))) {
        ftruncateSync(fd, 0)
        writeHeader(fd)
        return { records: 0, tornBytes, size: 0 }
      }
      throw new AnswerStoreError({ file, line: 1, reason: `Not an answer store: the first line is not "${answerStoreHeader}".` })
    }
    let size = 0
    for (let number = 2; number <= lines.length; number += 1) {
      const line = lines[number - 1] as string
      const space = line.indexOf(' ')
      const json = line.slice(space + 1)
      if (space !== 16 || checksum(json) !== line.slice(0, 16)) throw new AnswerStoreError({ file, line: number, reason: 'The line does not match its checksum: the file is corrupt.' })
      let record: { g?: unknown; a?: unknown }
      try {
        record = JSON.parse(json) as { g?: unknown; a?: unknown }
      } catch (error) {
        throw new AnswerStoreError({ file, line: number, reason: 'The line matches its checksum but is not JSON.', cause: error })
      }
      if (typeof record.g !== 'string' || typeof record.a !== 'object' || record.a === null || Object.values(record.a).some((score) => typeof score !== 'number' || !Number.isFinite(score))) {
        throw new AnswerStoreError({ file, line: number, reason: 'The line is not an answer record.' })
      }
      size += remember(index, record.g, record.a as Record<string, number>)
    }
    if (tornBytes > 0) {
      ftruncateSync(fd, lastNewline + 1)
      fsyncSync(fd)
    }
    return { records: lines.length - 1, tornBytes, size }
  } finally {
    closeSync(fd)
  }
}

function writeHeader(fd: number): void {
  const header = Buffer.from(`${answerStoreHeader}\n`)
  let written = 0
  while (written < header.length) written += writeSync(fd, header, written, header.length - written, written)
  fsyncSync(fd)
}

/**
 * Opens (or creates) the store file: reads every answer into memory, checks every line's checksum,
 * cuts a torn last line, and takes the file's lock.
 *
 * @throws {AnswerStoreError} when a line is corrupt, the file is not a store, or another live
 * process holds it; nothing is served from it then.
 * @example
 * const store = await openAnswerStore('/data/answers.log')
 */
export async function openAnswerStore(path: string): Promise<AnswerStore> {
  const file = resolve(path)
  mkdirSync(dirname(file), { recursive: true })
  const lock = takeLock(file)
  const index: Index = new Map()
  let opened: { records: number; tornBytes: number; size: number }
  let handle: FileHandle
  try {
    if (!existsSync(file)) {
      const fd = openSync(file, 'wx')
      try {
        writeHeader(fd)
      } finally {
        closeSync(fd)
      }
      // The new file's directory entry is durable too.
      const dir = openSync(dirname(file), 'r')
      try {
        fsyncSync(dir)
      } finally {
        closeSync(dir)
      }
    }
    opened = load(file, index)
    handle = await open(file, 'a')
  } catch (error) {
    rmSync(lock, { force: true })
    throw error instanceof AnswerStoreError ? error : new AnswerStoreError({ file, reason: 'It cannot be read or written.', cause: error })
  }
  let size = opened.size
  // Group commit: lines queued while a write is in flight go out together, with one fsync.
  let queue: { line: string; group: string; answers: Readonly<Record<string, number>>; done: () => void; fail: (error: unknown) => void }[] = []
  let writing: Promise<void> | undefined
  let closed = false
  const flush = async (): Promise<void> => {
    while (queue.length) {
      const batch = queue
      queue = []
      try {
        await handle.write(batch.map((item) => item.line).join(''))
        await handle.datasync()
      } catch (error) {
        const failure = new AnswerStoreError({ file, reason: 'Writing answers failed; they were not acknowledged.', cause: error })
        for (const item of batch) item.fail(failure)
        continue
      }
      for (const item of batch) {
        size += remember(index, item.group, item.answers)
        item.done()
      }
    }
    writing = undefined
  }
  return {
    get: (group, address) => index.get(group)?.get(address.toLowerCase()),
    put(group, answers) {
      if (closed) return Promise.reject(new AnswerStoreError({ file, reason: 'The store is closed.' }))
      const lower = Object.fromEntries(Object.entries(answers).map(([address, score]) => [address.toLowerCase(), score]))
      const json = JSON.stringify({ g: group, a: lower })
      return new Promise<void>((done, fail) => {
        queue.push({ line: `${checksum(json)} ${json}\n`, group, answers: lower, done, fail })
        writing ??= flush()
      })
    },
    get size() {
      return size
    },
    opened: { file, records: opened.records, tornBytes: opened.tornBytes },
    async close() {
      if (closed) return
      closed = true
      while (writing) await writing
      await handle.close()
      rmSync(lock, { force: true })
    },
  }
}
