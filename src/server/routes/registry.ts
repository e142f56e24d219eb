/**
 * Interface C (legacy registry v1): C1 signing message, C2 submit, C3 score, C4 score list, C5
 * stamps, C6 metadata, C7 stakes. Mounted at `/` behind API-key auth and the A/C rate limit.
 */
import { Hono } from 'hono'
import { verifyMessage, type Hex } from 'viem'
import { compareDecimals, formatDecimal, v1DecimalPlaces } from '../../schemas/common.js'
import {
  registryScoreListQuerySchema,
  submitPassportBodySchema,
  type RegistryScore,
  type RegistryStakeRecord,
} from '../../schemas/registry.js'
import { isValidAddress } from '../../utils/address.js'
import { defaultPassportThreshold } from '../../verify/passport.js'
import type { ServerContext } from '../context.js'
import { HttpError } from '../errors.js'
import type { ApiKeyVariables } from '../middleware/api-key.js'
import { parseInput, parseQuery, readJsonBody, requireAddress, requireScorerId } from '../request.js'
import { toEvidence } from '../scoring.js'
import type { Scorer, Submission } from '../state/types.js'
import { readIncludeMetadata, readStampLimit, stampPage } from './stamp-pages.js'

/** The C1 message text for a nonce: agreement to submit the address for scoring, ending in `Nonce: <nonce>`. */
export function signingMessageText(nonce: string): string {
  return `I hereby agree to submit my address in order to score my associated Passport.\n\nNonce: ${nonce}`
}

/** Detail of C3 for an address never submitted to the scorer (docs/interface.md §2). */
export const notSubmittedDetail = 'Unable to get score for provided scorer.'

/** Largest and default C4 page size. */
export const maxScorePageLimit = 1000

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())

const recommended = new Map<string, boolean>()

/** Whether a 9-decimal threshold is the recommended one (20), which a reader assumes when a row names none. */
function isRecommendedThreshold(threshold: string): boolean {
  let known = recommended.get(threshold)
  if (known === undefined) {
    known = compareDecimals(threshold, defaultPassportThreshold) === 0
    if (recommended.size < 1024) recommended.set(threshold, known)
  }
  return known
}

/**
 * The v1 score record of a submission as of `now`: PROCESSING (nulls) until `doneAt`, then DONE.
 * A binary scorer answers score 1 or 0 and fills `evidence`; the other type answers the sum, and
 * fills `evidence` too when its threshold is not the recommended 20 (the v2 threshold a reader of
 * the row would otherwise take for 20).
 */
export function toRegistryScore(submission: Submission, scorer: Scorer, now: number): RegistryScore {
  if (now < submission.doneAt) {
    return {
      address: submission.address,
      score: null,
      status: 'PROCESSING',
      last_score_timestamp: null,
      expiration_date: null,
      evidence: null,
      error: null,
    }
  }
  const { result } = submission
  const binary = scorer.type === 'binary'
  return {
    address: submission.address,
    score: binary ? formatDecimal(result.passing ? 1 : 0, v1DecimalPlaces) : result.rawScore,
    status: 'DONE',
    last_score_timestamp: iso(submission.submittedAt),
    expiration_date: iso(result.expiresAt),
    evidence: binary || !isRecommendedThreshold(result.threshold) ? toEvidence(result) : null,
    error: result.error,
    stamp_scores: result.stampScores,
  }
}

/** The JSON of each DONE row as last written, per submission object (a write replaces the object). */
const doneRowJson = new WeakMap<Submission, { binary: boolean; json: string }>()

/**
 * The JSON of {@link toRegistryScore}: a DONE row is serialized once and reused until its
 * submission is replaced or its scorer's type changes (a PROCESSING row, which `now` changes, never
 * is kept).
 */
function registryScoreJson(submission: Submission, scorer: Scorer, now: number): string {
  if (now < submission.doneAt) return JSON.stringify(toRegistryScore(submission, scorer, now))
  const binary = scorer.type === 'binary'
  const kept = doneRowJson.get(submission)
  if (kept && kept.binary === binary) return kept.json
  const json = JSON.stringify(toRegistryScore(submission, scorer, now))
  doneRowJson.set(submission, { binary, json })
  return json
}

/** Whether a C4 record passes the `last_score_timestamp` filters (a record without one passes none). */
function passesTimestampFilters(record: RegistryScore, gt: number | undefined, gte: number | undefined): boolean {
  if (gt === undefined && gte === undefined) return true
  if (record.last_score_timestamp === null) return false
  const at = Date.parse(record.last_score_timestamp)
  return (gt === undefined || at > gt) && (gte === undefined || at >= gte)
}

/**
 * The C1-C7 routes.
 *
 * @example
 * app.route('/', createRegistryRoutes(ctx))
 */
export function createRegistryRoutes(ctx: ServerContext): Hono<{ Variables: ApiKeyVariables }> {
  const { store } = ctx
  const app = new Hono<{ Variables: ApiKeyVariables }>()

  // C1: a single-use nonce embedded in the text to sign.
  app.get('/registry/signing-message', (c) => {
    const nonce = store.issueNonce('signing', { ttlMs: ctx.config.nonceTtlMs })
    return c.json({ message: signingMessageText(nonce), nonce })
  })

  // C2: score now; the record reads PROCESSING until the processing delay has passed.
  app.post('/registry/submit-passport', async (c) => {
    const body = await readJsonBody(c.req.raw)
    const raw = body as { address?: unknown } | null
    if (raw && typeof raw === 'object' && typeof raw.address === 'string' && !isValidAddress(raw.address)) {
      throw new HttpError(400, 'Invalid address.')
    }
    const { address, scorer_id: scorerId, signature, nonce } = parseInput(submitPassportBodySchema, body, 'body')
    const scorer = store.scorer(requireScorerId(scorerId, 'body'))
    if (signature) {
      if (!nonce) throw new HttpError(400, 'A nonce is required with a signature.')
      // Consumed before the (async) signature check: a nonce can never be used twice.
      const failure = store.consumeNonce('signing', nonce)
      if (failure) throw new HttpError(400, `Invalid nonce (${failure}).`)
      let valid = false
      try {
        valid = await verifyMessage({ address, message: signingMessageText(nonce), signature: signature as Hex })
      } catch {
        valid = false
      }
      if (!valid) throw new HttpError(400, 'Address does not match signature.')
    }
    const submission = store.submit(scorer.id, address, { at: ctx.now(), delayMs: ctx.config.processingDelayMs })
    return c.json(toRegistryScore(submission, scorer, ctx.now()))
  })

  // C3: the submitted record of one address.
  app.get('/registry/score/:scorer_id/:address', (c) => {
    const scorer = store.scorer(requireScorerId(c.req.param('scorer_id')))
    const address = requireAddress(c.req.param('address'))
    const submission = store.submission(scorer.id, address)
    if (!submission) throw new HttpError(400, notSubmittedDetail)
    // Both readings at once: the spec's `{ items: [record] }`, and the record's fields at the top as
    // the public service answers (the `passport-gated` validation reads `status` there).
    const record = toRegistryScore(submission, scorer, ctx.now())
    return c.json({ ...record, items: [record] })
  })

  // C4: every submission to the scorer, with both spellings of the timestamp filters.
  app.get('/registry/score/:scorer_id', (c) => {
    const scorer = store.scorer(requireScorerId(c.req.param('scorer_id')))
    const query = parseQuery(c, registryScoreListQuerySchema)
    const limit = query.limit ?? maxScorePageLimit
    if (limit > maxScorePageLimit) throw new HttpError(400, `Invalid limit: expected an integer from 1 to ${maxScorePageLimit}.`)
    const offset = query.offset ?? 0
    const now = ctx.now()
    const gt = query.last_score_timestamp_gt?.getTime()
    const gte = query.last_score_timestamp_gte?.getTime()
    if (query.address !== undefined) {
      // One address: its row, when it passes the timestamp filters.
      const submission = store.submission(scorer.id, query.address)
      const record = submission && toRegistryScore(submission, scorer, now)
      const kept = record !== undefined && passesTimestampFilters(record, gt, gte)
      return c.json({ items: kept && offset === 0 ? [record] : [], count: kept ? 1 : 0 })
    }
    const page = store.submissionPage(scorer.id, { offset, limit, gt, gte, now })
    // The body c.json would write, from each row's kept JSON.
    const items = page.rows.map((submission) => registryScoreJson(submission, scorer, now)).join(',')
    return c.body(`{"items":[${items}],"count":${page.count}}`, 200, { 'content-type': 'application/json' })
  })

  // C5: like A3.
  app.get('/registry/stamps/:address', (c) => {
    const address = requireAddress(c.req.param('address'))
    const limit = readStampLimit(c.req.query('limit'))
    const includeMetadata = readIncludeMetadata(c.req.query('include_metadata'))
    const token = c.req.query('token') || undefined
    return c.json(stampPage(store, { address, includeMetadata, ...(limit ? { limit } : {}), ...(token ? { token } : {}) }))
  })

  // C6: like A4.
  app.get('/registry/stamp-metadata', (c) => c.json(store.state.stampProviders))

  // C7 (deprecated), at the spec's path, the public service's path, and the overview's path without a round.
  const stake = (address: string, roundId: string | undefined): RegistryStakeRecord => {
    const owner = requireAddress(address)
    const records = store.state.roundStakes.filter(
      (entry) => entry.address === owner && (roundId === undefined || entry.roundId === roundId),
    )
    if (!records.length) return { users: [] }
    return {
      users: [
        {
          stakes: records.flatMap((entry) => entry.stakes),
          xstakeAggregates: records.flatMap((entry) => entry.xstakeAggregates),
        },
      ],
    }
  }
  for (const path of ['/registry/token-stake', '/registry/gtc-stake']) {
    app.get(`${path}/:address/:round_id`, (c) => c.json(stake(c.req.param('address'), c.req.param('round_id'))))
    app.get(`${path}/:address`, (c) => c.json(stake(c.req.param('address'), undefined)))
  }

  return app
}
