/**
 * The in-process cache strategies share across calls. An answer about a past snapshot never
 * changes, so it is kept for good (until the cache is full); an answer about a moment that may still
 * change is kept briefly or not at all.
 */
import { strategyDefaults } from './defaults.js'
import { InvalidParameterError } from '../errors/input.js'

/**
 * A key-value store for strategy answers. `ttlMs` undefined means "for good"; the store may still
 * drop any entry (it is a cache: a miss only costs a request).
 */
export type StrategyCache = {
  get(key: string): unknown
  set(key: string, value: unknown, ttlMs?: number): void
  /** Entries held now. */
  readonly size: number
}

/** Parameters of {@link createStrategyCache}. */
export type CreateStrategyCacheParameters = {
  /** Most entries kept; the least recently used go first. Default 200,000. */
  maxEntries?: number | undefined
  /** The clock of `ttlMs`, Unix ms. Default Date.now. */
  now?: (() => number) | undefined
}

/**
 * Creates an in-memory {@link StrategyCache}: least recently used entries are dropped past
 * `maxEntries`, entries with a `ttlMs` expire.
 *
 * @throws {InvalidParameterError} when `maxEntries` is not a positive integer.
 * @example
 * import { createStrategyCache } from 'personhood'
 * const cache = createStrategyCache({ maxEntries: 50_000 })
 */
export function createStrategyCache({ maxEntries = strategyDefaults.cacheEntries, now = Date.now }: CreateStrategyCacheParameters = {}): StrategyCache {
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new InvalidParameterError({ parameter: 'maxEntries', reason: `Expected a positive integer, got ${String(maxEntries)}.` })
  }
  const entries = new Map<string, { value: unknown; expiresAt: number }>()
  return {
    get(key) {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      if (entry.expiresAt <= now()) {
        entries.delete(key)
        return undefined
      }
      // Most recently used last.
      entries.delete(key)
      entries.set(key, entry)
      return entry.value
    },
    set(key, value, ttlMs) {
      if (ttlMs !== undefined && !(ttlMs > 0)) return
      entries.delete(key)
      entries.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : now() + ttlMs })
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
    },
    get size() {
      return entries.size
    },
  }
}
