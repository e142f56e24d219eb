/**
 * Persistence of the server state (`personhood serve --data state.json`), at a cost that follows the
 * size of each change, not of the state:
 *
 * - `state.json` is a snapshot of the state (without the nonces, which live minutes), written
 *   atomically: a temp file in the same directory, fsync, rename, fsync of the directory.
 * - `state.json.log` holds, one JSON line each, the changes made since that snapshot (the store names
 *   what each change wrote: a wallet's stamps, one dedup claim, one history event...). Each batch
 *   of changes is appended and fsync'd before the requests that made them are answered, so a crash
 *   never loses an acknowledged change.
 * - When the log outgrows the snapshot (and at least 1 MiB), or a change did not say what it wrote
 *   (admin edits), a new snapshot is written and the log starts over. Log lines carry the snapshot's
 *   generation, so a crash between the two leaves nothing replayed twice.
 * - At load the snapshot is read, the log replayed, and the result checked field by field. A torn
 *   last line (text after the last newline: a crash during an append) is dropped with a warning,
 *   and cut off the file before the next append; any other unreadable line refuses the file. Temp
 *   files left by a killed process are removed.
 *
 * Every file is created with mode 0600: the state holds the admin token, the JWT secret, API keys
 * and issuers' private keys.
 */
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs'
import { open, rename, rm, type FileHandle } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { InvalidStateError } from '../errors/input.js'
import { ephemeralStateKeys, parseState, Store, type StateChange } from './state/store.js'
import { stateVersion, type ServerState } from './state/types.js'

/** What the app needs from a persistence: wait until a revision is durable. */
export type Persistence = {
  /** Resolves once a save covering `revision` (or a later one) completed; rejects if that save failed. */
  saved(revision: number): Promise<void>
}

/** A file persistence: {@link Persistence} plus flush and close. */
export type FilePersistence = Persistence & {
  readonly file: string
  /** Saves now if anything changed since the last save; resolves when durable. */
  flush(): Promise<void>
  /** Flushes and stops listening to the store. */
  close(): Promise<void>
  /** The last revision written to disk. */
  readonly savedRevision: number
  /** Snapshots and log appends written so far (for tests and benchmarks). */
  readonly writes: { snapshots: number; appends: number; bytes: number }
}

/** The log of changes beside a snapshot file. */
export function logFileOf(file: string): string {
  return `${file}.log`
}

/** Least log size that triggers a new snapshot; past it, the log is compacted once it outgrows the snapshot. */
export const minCompactionBytes = 1024 * 1024

/**
 * What {@link loadStateFile} found besides the state. `upgraded`: the file holds an older version
 * of the state, converted at load; its log cannot take changes of this version, so the persistence
 * writes a whole snapshot first.
 */
export type LoadedState = { store: Store; generation: number; upgraded: boolean; warnings: string[] }

type Snapshot = ServerState & { logGeneration?: number }
type LogLine = { g: number } & StateChange

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target
  for (const key of path.slice(0, -1)) {
    const next = node[key]
    node = (next && typeof next === 'object' ? next : (node[key] = {})) as Record<string, unknown>
  }
  const last = path[path.length - 1]!
  if (value === undefined) delete node[last]
  else node[last] = value
}

function pushAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target
  for (const key of path.slice(0, -1)) {
    const next = node[key]
    node = (next && typeof next === 'object' ? next : (node[key] = {})) as Record<string, unknown>
  }
  const last = path[path.length - 1]!
  const list = Array.isArray(node[last]) ? (node[last] as unknown[]) : (node[last] = [] as unknown[])
  ;(list as unknown[]).push(value)
}

/** Removes temp files a killed process left beside `file`. */
function removeOrphans(file: string): string[] {
  const prefix = `.${basename(file)}.`
  const removed: string[] = []
  for (const name of readdirSync(dirname(file))) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) {
      rmSync(join(dirname(file), name), { force: true })
      removed.push(name)
    }
  }
  return removed
}

/**
 * Reads a state file and replays its log into a store.
 *
 * @returns undefined when the file does not exist.
 * @throws {InvalidStateError} when the snapshot is not a state of this version, a field has the
 *   wrong type, or a log line other than the last cannot be read (naming the file and the field or line).
 */
export function loadStateFile(file: string, options: { now?: () => number } = {}): LoadedState | undefined {
  if (!existsSync(file)) return undefined
  const warnings: string[] = []
  const orphans = removeOrphans(file)
  if (orphans.length) warnings.push(`removed ${orphans.length} temp file(s) left by an interrupted save: ${orphans.join(', ')}`)
  const mode = statSync(file).mode & 0o777
  if (mode & 0o077) warnings.push(`${file} is readable by other users (mode ${mode.toString(8)}); it holds secrets: chmod 600 it.`)

  let snapshot: Snapshot
  try {
    snapshot = JSON.parse(readFileSync(file, 'utf8')) as Snapshot
  } catch (error) {
    throw new InvalidStateError({ file, problems: [{ path: '(root)', message: `Not JSON: ${(error as Error).message}` }], cause: error })
  }
  const generation = typeof snapshot?.logGeneration === 'number' ? snapshot.logGeneration : 0
  const upgraded = Boolean(snapshot && typeof snapshot === 'object' && (snapshot as { version?: unknown }).version !== stateVersion)
  if (snapshot && typeof snapshot === 'object') delete snapshot.logGeneration

  const log = logFileOf(file)
  if (existsSync(log) && snapshot && typeof snapshot === 'object') {
    // Every append ends with a newline and is fsync'd before its answer: text after the last
    // newline is an append a crash cut short, never acknowledged (the persistence cuts it off).
    const text = readFileSync(log, 'utf8')
    const complete = text.lastIndexOf('\n') + 1
    if (complete < text.length) warnings.push(`dropped a torn last line of ${log} (a save interrupted by a crash; that change was never acknowledged)`)
    const lines = text.slice(0, complete).split('\n')
    lines.pop()
    lines.forEach((text, index) => {
      let line: LogLine
      try {
        line = JSON.parse(text) as LogLine
      } catch {
        throw new InvalidStateError({ file: log, problems: [{ path: `line ${index + 1}`, message: 'Not a JSON line.' }] })
      }
      if (line.g !== generation) return
      if (!Array.isArray(line.path) || line.path.length === 0) throw new InvalidStateError({ file: log, problems: [{ path: `line ${index + 1}`, message: 'A change without a path.' }] })
      const value = line.json === undefined ? undefined : (JSON.parse(line.json) as unknown)
      if (line.op === 'push') pushAt(snapshot as unknown as Record<string, unknown>, line.path, value)
      else setAt(snapshot as unknown as Record<string, unknown>, line.path, value)
    })
  }
  const state = parseState(snapshot, file)
  if (upgraded) warnings.push(`${file} holds state version ${String((snapshot as { version?: unknown }).version)}; converted to version ${stateVersion} (written at the first save)`)
  return { store: new Store(state, options), generation, upgraded, warnings }
}

/**
 * Cuts a torn last line (text after the last newline, left by a crash during an append) off the
 * log, so the next append starts on a line of its own. Reads backwards from the end only as far
 * as the last newline.
 */
function cutTornTail(log: string): void {
  if (!existsSync(log)) return
  const fd = openSync(log, 'r+')
  try {
    const size = fstatSync(fd).size
    const chunk = Buffer.alloc(64 * 1024)
    let end = size
    while (end > 0) {
      const start = Math.max(0, end - chunk.length)
      readSync(fd, chunk, 0, end - start, start)
      const newline = chunk.subarray(0, end - start).lastIndexOf(0x0a)
      if (newline !== -1) {
        end = start + newline + 1
        break
      }
      end = start
    }
    if (end < size) {
      ftruncateSync(fd, end)
      fsyncSync(fd)
    }
  } finally {
    closeSync(fd)
  }
}

/** fsyncs a directory, so a rename in it survives a crash. */
function syncDirectory(directory: string): void {
  let fd: number | undefined
  try {
    fd = openSync(directory, 'r')
    fsyncSync(fd)
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** Writes `data` to `file` atomically (mode 0600): temp file in the same directory, fsync, rename, fsync of the directory. */
export async function writeFileAtomic(file: string, data: string): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`)
  const handle = await open(temp, 'w', 0o600)
  try {
    await handle.writeFile(data, 'utf8')
    await handle.sync()
  } catch (error) {
    await handle.close()
    await rm(temp, { force: true })
    throw error
  }
  await handle.close()
  await rename(temp, file)
  syncDirectory(dirname(file))
}

/** The state as saved: without the nonces, with the log generation it starts. */
function snapshotText(store: Store, generation: number): string {
  const state = store.toJSON()
  const saved: Record<string, unknown> = { ...state, logGeneration: generation }
  for (const key of ephemeralStateKeys) saved[key] = {}
  return JSON.stringify(saved)
}

/**
 * Saves `store` to `file` (a snapshot) and `file.log` (the changes since), after every batch of
 * changes. Changes within one tick, and changes made during a save, go out together.
 *
 * @param generation the log generation of the loaded snapshot ({@link LoadedState.generation}); 0 for a new file.
 * @param upgraded the loaded file was of an older version ({@link LoadedState.upgraded}): the first save is a whole snapshot.
 * @example
 * const persistence = createFilePersistence({ file: 'state.json', store })
 * const app = createServer({ store, persistence })
 * process.on('SIGTERM', () => void persistence.close().then(() => process.exit(0)))
 */
export function createFilePersistence(options: { file: string; store: Store; generation?: number; upgraded?: boolean; onError?: (error: unknown) => void }): FilePersistence {
  const { file, store, onError } = options
  if (!file) throw new InvalidStateError({ problems: [{ path: 'file', message: 'createFilePersistence needs a file.' }] })
  const log = logFileOf(file)
  cutTornTail(log)
  let generation = options.generation ?? 0
  let savedRevision = -1
  let writing: Promise<void> | undefined
  let scheduled = false
  let lastError: { revision: number; error: unknown } | undefined
  const waiters: Array<{ revision: number; resolve: () => void; reject: (error: unknown) => void }> = []
  // What the next save writes: the changes since the last one, or a whole snapshot.
  let pending: StateChange[] = []
  let needSnapshot = !existsSync(file) || Boolean(options.upgraded)
  let logBytes = existsSync(log) ? statSync(log).size : 0
  let snapshotBytes = existsSync(file) ? statSync(file).size : 0
  let logHandle: FileHandle | undefined
  const writes = { snapshots: 0, appends: 0, bytes: 0 }

  const settle = () => {
    for (let index = waiters.length - 1; index >= 0; index--) {
      const waiter = waiters[index]!
      if (waiter.revision <= savedRevision) {
        waiters.splice(index, 1)
        waiter.resolve()
      } else if (lastError && waiter.revision <= lastError.revision) {
        waiters.splice(index, 1)
        waiter.reject(lastError.error)
      }
    }
  }

  /** Opens the log (mode 0600); a log it creates gets its directory entry fsync'd too. */
  const openLog = async (flags: 'w' | 'a'): Promise<FileHandle> => {
    const created = !existsSync(log)
    const handle = await open(log, flags, 0o600)
    if (created) syncDirectory(dirname(log))
    return handle
  }

  const writeSnapshot = async () => {
    const next = generation + 1
    const text = snapshotText(store, next)
    await writeFileAtomic(file, text)
    // The snapshot is durable: the old log's lines (older generation) are never replayed again.
    generation = next
    await logHandle?.close()
    logHandle = await openLog('w')
    await logHandle.sync()
    logBytes = 0
    snapshotBytes = Buffer.byteLength(text)
    writes.snapshots++
    writes.bytes += snapshotBytes
  }

  const appendChanges = async (changes: StateChange[]) => {
    if (changes.length === 0) return
    const text = changes.map((change) => JSON.stringify({ g: generation, ...change })).join('\n') + '\n'
    logHandle ??= await openLog('a')
    await logHandle.write(text)
    await logHandle.sync()
    logBytes += Buffer.byteLength(text)
    writes.appends++
    writes.bytes += Buffer.byteLength(text)
  }

  const save = async (): Promise<void> => {
    const revision = store.revision
    const changes = pending
    const snapshot = needSnapshot || logBytes > Math.max(minCompactionBytes, snapshotBytes)
    pending = []
    needSnapshot = false
    try {
      if (snapshot) await writeSnapshot()
      else await appendChanges(changes)
      savedRevision = Math.max(savedRevision, revision)
      lastError = undefined
    } catch (error) {
      // Nothing of this batch is known to be on disk: the next save writes a whole snapshot.
      needSnapshot = true
      lastError = { revision, error }
      onError?.(error)
    }
    settle()
  }

  const pump = (): Promise<void> => {
    if (writing) return writing
    writing = (async () => {
      while (store.revision > savedRevision) {
        await save()
        if (lastError) break
      }
    })().finally(() => {
      writing = undefined
      if (store.revision > savedRevision && waiters.length) schedule()
    })
    return writing
  }

  function schedule(): void {
    if (scheduled) return
    scheduled = true
    setImmediate(() => {
      scheduled = false
      void pump()
    })
  }

  const unsubscribe = store.onChange((_revision, changes) => {
    if (changes === 'all') {
      needSnapshot = true
      pending = []
    } else if (!needSnapshot) pending.push(...changes)
    schedule()
  })

  return {
    file,
    writes,
    get savedRevision() {
      return savedRevision
    },
    saved(revision: number) {
      if (revision <= savedRevision) return Promise.resolve()
      return new Promise<void>((resolve, reject) => {
        waiters.push({ revision, resolve, reject })
        schedule()
      })
    },
    async flush() {
      if (writing) await writing
      if (store.revision > savedRevision || needSnapshot) {
        lastError = undefined
        if (needSnapshot && store.revision <= savedRevision) await save()
        else await pump()
      }
      if (lastError) throw lastError.error
    },
    async close() {
      unsubscribe()
      await this.flush()
      await logHandle?.close()
      logHandle = undefined
    },
  }
}
