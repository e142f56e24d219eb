/**
 * A strategy call's defaults, in one object like ky's: the deadline, the requests in flight and the
 * cache's size, used unless the call's context says otherwise.
 *
 * @example
 * import { strategyDefaults } from 'personhood'
 * strategyDefaults.deadlineMs // 20000
 */
export const strategyDefaults = Object.freeze({
  /** The time a strategy call may take, ms: score-api's limit for 500 addresses. */
  deadlineMs: 20_000,
  /** Requests of a call in flight at once. */
  concurrency: 4,
  /** Entries a strategy cache keeps (the least recently used go first). */
  cacheEntries: 200_000,
})
