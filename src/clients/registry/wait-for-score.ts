/** C3 polled: one address's score, once it is done. */
import { ScoreTimeoutError, ScoringError } from '../../errors/scoring.js'
import { defaultSleep } from '../../http/sleep.js'
import type { RegistryScore } from '../../schemas/registry.js'
import { normalizeAddress } from '../../utils/address.js'
import { parseDuration, parseInteger, parsePositiveIntegerId } from '../../utils/parse.js'
import type { RegistryContext } from './context.js'
import { getRegistryScore, type GetRegistryScoreErrorType } from './get-registry-score.js'
import type { ScoreTimeoutErrorType, ScoringErrorType } from '../../errors/index.js'

/** Parameters of {@link waitForScore}. */
export type WaitForScoreParameters = {
  scorerId: number | string
  address: string
  /** Reads of the score, the first one included. Default 10. */
  maxAttempts?: number | undefined
  /** Wait before the second read; doubled before each further one. Default 1,000 ms. */
  intervalMs?: number | undefined
  /** Cap of one wait. Default 10,000 ms. */
  maxIntervalMs?: number | undefined
  /** Aborts the current read or wait; the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined
}
/** The record once its status is `DONE`. */
export type WaitForScoreReturnType = RegistryScore

/** What {@link waitForScore} throws (see its `@throws`). */
export type WaitForScoreErrorType = GetRegistryScoreErrorType | ScoringErrorType | ScoreTimeoutErrorType

/**
 * Reads a submitted address's score (C3) until its status is `DONE`, waiting `intervalMs`,
 * then twice as long before each further read, up to `maxIntervalMs` (no jitter: one caller,
 * one address). `PROCESSING`, `BULK_PROCESSING` and any status it does not know keep it polling
 * (an unknown status is taken as not finished yet; `maxAttempts` bounds the wait and the
 * {@link ScoreTimeoutError} names the last status seen).
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one); its `sleep` and `now` are used.
 * @param parameters `scorerId`, `address`, and optional `maxAttempts`, `intervalMs`, `maxIntervalMs`, `signal`.
 * @throws {ScoringError} when the status becomes `ERROR`.
 * @throws {ScoreTimeoutError} when the score is not `DONE` after `maxAttempts` reads.
 * @throws {InvalidAddressError} or {@link InvalidParameterError} on bad arguments (no request is sent).
 * @throws The errors of {@link getRegistryScore} for each read.
 * @example
 * import { createRegistryClient, waitForScore } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * await registry.submitPassport({ address: '0x52908400098527886e0f7030069857d2e4169ee7', scorerId: 335 })
 * const { score } = await waitForScore(registry, { scorerId: 335, address: '0x52908400098527886e0f7030069857d2e4169ee7' })
 */
export async function waitForScore(
  client: RegistryContext,
  { scorerId, address, maxAttempts = 10, intervalMs = 1000, maxIntervalMs = 10_000, signal }: WaitForScoreParameters,
): Promise<WaitForScoreReturnType> {
  const id = parsePositiveIntegerId(scorerId, 'scorerId')
  const normalized = normalizeAddress(address)
  parseInteger(maxAttempts, 'maxAttempts', { min: 1 })
  parseDuration(intervalMs, 'intervalMs')
  parseDuration(maxIntervalMs, 'maxIntervalMs')
  const { now = Date.now, sleep = defaultSleep } = client
  const started = now()
  let lastStatus = ''
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (attempt > 1) await sleep(Math.min(maxIntervalMs, intervalMs * 2 ** (attempt - 2)), signal)
    const record = await getRegistryScore(client, { scorerId: id, address: normalized, signal })
    if (record.status === 'DONE') return record
    if (record.status === 'ERROR') throw new ScoringError({ address: normalized, scorerId: id, error: record.error })
    lastStatus = record.status
  }
  throw new ScoreTimeoutError({ address: normalized, scorerId: id, attempts: maxAttempts, elapsedMs: now() - started, lastStatus })
}
