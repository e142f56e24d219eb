/**
 * Persistence of the server state to one JSON file (`personhood serve --data state.json`): loaded at
 * start, saved atomically (a temp file in the same directory, fsync, rename) after every batch of
 * changes. Changes made while a save runs are coalesced into the next save. The app waits for the
 * save covering a request's changes before it answers, so a crash never loses an acknowledged
 * change.
 */
import { existsSync, readFileSync } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { Store } from './state/store.js'

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
}

/**
 * Reads a state file into a store.
 *
 * @returns undefined when the file does not exist.
 * @throws {TypeError} when the file is not a state of this version; {@link SyntaxError} when it is not JSON.
 */
export function loadStateFile(file: string, options: { now?: () => number } = {}): Store | undefined {
  if (!existsSync(file)) return undefined
  return Store.fromJSON(readFileSync(file, 'utf8'), { ...options, file })
}

/** Writes `data` to `file` atomically: temp file in the same directory, fsync, rename. */
export async function writeFileAtomic(file: string, data: string): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`)
  const handle = await open(temp, 'w')
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
}

/**
 * Saves `store` to `file` after every batch of changes (changes within one tick, and changes made
 * during a save, go out together).
 *
 * @example
 * const persistence = createFilePersistence({ file: 'state.json', store })
 * const app = createServer({ store, persistence })
 * process.on('SIGTERM', () => void persistence.close().then(() => process.exit(0)))
 */
export function createFilePersistence(options: { file: string; store: Store; onError?: (error: unknown) => void }): FilePersistence {
  const { file, store, onError } = options
  if (!file) throw new TypeError('createFilePersistence needs a file.')
  let savedRevision = -1
  let writing: Promise<void> | undefined
  let scheduled = false
  let lastError: { revision: number; error: unknown } | undefined
  const waiters: Array<{ revision: number; resolve: () => void; reject: (error: unknown) => void }> = []

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

  const save = async (): Promise<void> => {
    const revision = store.revision
    const data = JSON.stringify(store.toJSON())
    try {
      await writeFileAtomic(file, data)
      savedRevision = Math.max(savedRevision, revision)
      lastError = undefined
    } catch (error) {
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

  const unsubscribe = store.onChange(() => schedule())

  return {
    file,
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
      if (store.revision > savedRevision) {
        lastError = undefined
        await pump()
      }
      if (lastError) throw lastError.error
    },
    async close() {
      unsubscribe()
      await this.flush()
    },
  }
}
