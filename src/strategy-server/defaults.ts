/**
 * The strategy server's defaults, in one object like ky's: its limits and its timings, used unless
 * `createStrategyServer` (or the server's config file) says otherwise.
 *
 * @example
 * import { strategyServerDefaults } from 'personhood/strategy-server'
 * strategyServerDefaults.maxAddresses // 20000
 */
export const strategyServerDefaults = Object.freeze({
  /** Most addresses a call (more: 413); also the most in one run. */
  maxAddresses: 20_000,
  /** The longest a call waits for its answer, ms: 18 s, inside the 20 s api-v2 gives a call. */
  answerWithinMs: 18_000,
  /** Seconds a caller is told to wait (Retry-After) when its answer is still being computed. */
  stillScoringRetrySeconds: 5,
  /** A snapshot older than this (by its block's time) is final and its answers are kept for good, ms: 15 minutes. */
  finalityMs: 15 * 60 * 1000,
  /** A run starts once no new address has joined it for this long, ms. */
  batchWindowMs: 5,
  /** The longest a run waits for more addresses after its first, ms. */
  maxBatchWaitMs: 250,
  /** Most addresses in one run of the scorer on its own. */
  maxBatch: 10_000,
  /** A run's deadline when the server's config names none, ms. */
  deadlineMs: 60_000,
})
