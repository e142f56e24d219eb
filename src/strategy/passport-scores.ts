/**
 * Passport scores as they stood at a moment (a snapshot's time), for many voters in few requests.
 *
 * The scorer's score listing (C4) keeps one row per address it ever scored, through A1 as well as
 * C2, with `last_score_timestamp`. A row scored at or before the moment is the score at the moment;
 * an address absent from the listing was never scored; only voters rescored after the moment need
 * their history read (A2 at `created_at` = the moment). The listing is read whole (1,000 rows a
 * page) or one voter at a time (C4 with the `address` filter), whichever takes fewer requests: the
 * first page's `count` tells.
 */
import type { Address } from 'viem'
import { AuthenticationError, HttpRequestError, NotFoundError, PermissionDeniedError } from '../errors/http.js'
import { PassportHistoryDeniedError, StrategySourceError } from '../errors/strategy.js'
import { mapWithConcurrency } from '../http/concurrency.js'
import { listedRowCount } from '../rules/listed-rows.js'
import { ConflictingRowsError } from '../rules/rows-error.js'
import { uniqueRowsByAddress } from '../rules/rows.js'
import type { V2Score } from '../schemas/passport.js'
import type { RegistryScore } from '../schemas/registry.js'
import { checksumAddress, isValidAddress } from '../utils/address.js'
import { tryParseIsoTimestamp } from '../utils/parse.js'
import { verdictFromScore, verdictNeverScored, type PassportVerdict } from '../verify/verdict.js'
import type { PassportSources, StrategyRuntime } from './context.js'
import { checkRateBudget, readSource, type SourceContext } from './deadline.js'

/** Rows of one C4 page: the most the public service serves. */
export const passportListingPageSize = 1000

/** How long a listing (and its row count) is kept to plan and answer later calls. */
const listingTtlMs = 10 * 60_000
/** Listings longer than this are not kept whole (memory). */
const maxCachedListingRows = 200_000

/** The sources, in words with their labels (errors and request counts name them). */
export const passportSourceNames = {
  listing: 'Passport score listing (C4)',
  byAddress: 'Passport score listing by address (C4)',
  history: 'Passport score history (A2)',
  live: 'Passport current score (A1)',
} as const

/** Where a voter's answer came from: a record and its origin, or no score at all at the time. */
type ScoreAt = { origin: 'listing'; record: RegistryScore | null } | { origin: 'history'; record: V2Score | null } | { origin: 'live'; record: V2Score }

type CachedListing = { readAt: number; rows: ReadonlyMap<string, RegistryScore> }

/** How a call was answered: from the cache, the whole listing, or one listing read per voter. */
export type PassportPlan = 'cache' | 'listing' | 'per-voter'

/** Parameters of {@link readPassportScoresAt}. */
export type ReadPassportScoresAtParameters = {
  sources: PassportSources
  /** The scorer, a string of digits. */
  scorerId: string
  /** Distinct, EIP-55. */
  addresses: readonly Address[]
  /** The moment, Unix seconds (the snapshot block's timestamp). */
  at: number
  /** A threshold that overrides the scorer's (an exact decimal). */
  threshold?: number | string | undefined
  /** When the key may not read history (A2 answers 403): use the current score (A1) of the voters rescored after the moment. */
  allowLiveScore?: boolean | undefined
  runtime: StrategyRuntime
  /**
   * How to read the listing: `auto` (the default) takes whichever of the whole listing and one read
   * per voter costs fewer requests; `listing` and `per-voter` force one (to measure them, or when
   * the caller knows better). Cached answers are used either way.
   */
  plan?: 'auto' | 'listing' | 'per-voter' | undefined
  /** Rows per listing page. Default 1,000 (the public service's most). */
  pageSize?: number | undefined
  /** Clock difference tolerated between this machine and the service. Default 60 s. */
  clockSkewMs?: number | undefined
}

/** What {@link readPassportScoresAt} returns. */
export type ReadPassportScoresAtReturnType = {
  /** One verdict per address, judged at the moment. */
  verdicts: Map<Address, PassportVerdict>
  plan: PassportPlan
  /** The listing's row count, when a page of it was read or kept. */
  listingCount: number | undefined
  /** The voters rescored after the moment, read from the history (A2), or live (A1) when allowed. */
  rescored: Address[]
}

/**
 * Reads the Passport scores of `addresses` as they stood at `at`, and judges them there with the
 * Passport rule of `verify/` (a score passes when it is at least the threshold and had not expired
 * at `at`). Requests: the listing's pages or one listing read per voter, whichever is fewer, plus one
 * history read per voter rescored after `at`. Answers about a moment safely in the past are cached
 * for good in `runtime.cache`; requests are counted in `runtime.requests` by source.
 *
 * A voter the scorer never scored, or had not scored yet at `at`, gets a `never-scored` verdict. No
 * voter is ever judged without an answer: a source that fails throws.
 *
 * @throws {StrategySourceError} when a source fails (it names the source and the addresses left
 * unanswered); {@link PassportHistoryDeniedError} when the key may not read history and
 * `allowLiveScore` is off.
 * @throws {RateBudgetError} when the key's budget cannot serve the requests before the deadline.
 * @throws {StrategyDeadlineError} when the deadline passes during a read.
 * @example
 * import { createStrategyRuntime, getPassportSources } from './context.js'
 * import { readPassportScoresAt } from './passport-scores.js'
 * const runtime = createStrategyRuntime({ passport: { apiKey: process.env.PASSPORT_API_KEY } })
 * const { verdicts } = await readPassportScoresAt({ sources: getPassportSources(runtime, 'my-tool'), scorerId: '335', addresses, at: 1_735_689_600, runtime })
 */
export async function readPassportScoresAt(parameters: ReadPassportScoresAtParameters): Promise<ReadPassportScoresAtReturnType> {
  const { sources, scorerId, addresses, at, runtime } = parameters
  const pageSize = parameters.pageSize ?? passportListingPageSize
  const skewMs = parameters.clockSkewMs ?? 60_000
  const choice = parameters.plan ?? 'auto'
  const atMs = at * 1000
  const cache = runtime.cache
  const scope = `${sources.registryBaseUrl}|${sources.baseUrl}|${scorerId}`
  const answerKey = (address: Address) => `passport-at|${scope}|${at}|${address}`
  const listingKey = `passport-listing|${scope}`
  const countKey = `passport-count|${scope}`

  const known = new Map<Address, ScoreAt>()
  for (const address of addresses) {
    const hit = cache?.get(answerKey(address)) as ScoreAt | undefined
    if (hit !== undefined) known.set(address, hit)
  }
  let plan: PassportPlan = 'cache'
  let listingCount = cache?.get(countKey) as number | undefined
  // The earliest moment the service was read at for this call's answers: an answer is final (the
  // same forever) when the moment judged is safely before it.
  let readAt = Number.POSITIVE_INFINITY
  const rescored: Address[] = []

  const classify = (address: Address, row: RegistryScore | undefined) => {
    if (row === undefined) return void known.set(address, { origin: 'listing', record: null })
    const scoredAt = row.last_score_timestamp === null ? undefined : tryParseIsoTimestamp(row.last_score_timestamp)?.getTime()
    const settled = row.status === 'DONE' || row.status === 'ERROR'
    if (settled && scoredAt !== undefined && scoredAt <= atMs) return void known.set(address, { origin: 'listing', record: row })
    // Rescored after the moment (or being scored now): the listing holds a later score.
    rescored.push(address)
  }

  let pending = addresses.filter((address) => !known.has(address))
  const kept = cache?.get(listingKey) as CachedListing | undefined
  if (pending.length > 0 && choice !== 'per-voter' && kept !== undefined && atMs <= kept.readAt - skewMs) {
    plan = 'listing'
    readAt = kept.readAt
    listingCount = kept.rows.size
    for (const address of pending) classify(address, kept.rows.get(address.toLowerCase()))
    pending = []
  }

  const source = (name: string, affected: readonly Address[]): SourceContext => ({
    source: name,
    addresses: affected,
    deadline: runtime.deadline,
    describe: (error) => describeFailure(error, { scorerId, sources }),
  })
  const budget = (count: number, affected: readonly Address[]) =>
    checkRateBudget({ budget: sources.budget, count, deadline: runtime.deadline, addresses: affected, now: runtime.now })
  const readPage = (page: number, affected: readonly Address[]) => {
    runtime.countRequest(passportSourceNames.listing)
    return readSource(source(passportSourceNames.listing, affected), (signal) =>
      sources.registry.listScores({ scorerId, limit: pageSize, offset: page * pageSize, signal }),
    )
  }
  const readByAddress = async (voters: readonly Address[]) => {
    budget(voters.length, voters)
    await eachWithConcurrency(voters, runtime.concurrency, async (address) => {
      runtime.countRequest(passportSourceNames.byAddress)
      const page = await readSource(source(passportSourceNames.byAddress, [address]), (signal) =>
        sources.registry.listScores({ scorerId, address, signal }),
      )
      classify(address, rowOf(page.items, address, passportSourceNames.byAddress, (row) => compactRow(row)))
    })
  }

  if (pending.length > 0) {
    readAt = Math.min(readAt, runtime.now())
    const pagesFor = (count: number) => Math.max(1, Math.ceil(count / pageSize))
    const perVoterFirst = choice === 'per-voter' || (choice === 'auto' && (listingCount !== undefined ? pagesFor(listingCount) > pending.length : pending.length === 1))
    if (perVoterFirst) {
      plan = 'per-voter'
      await readByAddress(pending)
    } else {
      budget(1, pending)
      const first = await readPage(0, pending)
      listingCount = first.count
      cache?.set(countKey, first.count, listingTtlMs)
      // A page that names one address twice: identical rows collapse, different ones are an error.
      const rows = uniqueRows(first.items.map(compactRow), passportSourceNames.listing, pending)
      const pages = pagesFor(first.count)
      const missing = pending.filter((address) => !rows.has(address.toLowerCase()))
      if (choice === 'listing' || pages - 1 <= missing.length) {
        plan = 'listing'
        budget(pages - 1, pending)
        const rest = await mapWithConcurrency(
          Array.from({ length: pages - 1 }, (_, index) => index + 1),
          runtime.concurrency,
          (page) => readPage(page, missing),
        )
        for (const [index, page] of rest.entries()) {
          const expected = Math.min(pageSize, first.count - (index + 1) * pageSize)
          if (page.items.length < expected) {
            throw new StrategySourceError({
              source: passportSourceNames.listing,
              addresses: missing,
              reason: `The score listing (C4) of scorer ${scorerId} counted ${first.count} rows, but page ${index + 2} holds ${page.items.length} instead of ${expected}: rows went missing while it was read, so an absent voter cannot be taken as never scored.`,
            })
          }
          const unique = uniqueRows(page.items.map(compactRow), passportSourceNames.listing, missing)
          for (const row of unique.values()) {
            const key = row.address.toLowerCase()
            // Offset pages of a listing that shifted while it was read repeat a row and drop another:
            // the dropped voter would read as never scored.
            if (rows.has(key)) {
              throw new StrategySourceError({
                source: passportSourceNames.listing,
                addresses: missing,
                reason: `The score listing (C4) of scorer ${scorerId} lists ${row.address} twice (again on page ${index + 2}): it shifted while it was read, so rows may be missing and an absent voter cannot be taken as never scored.`,
              })
            }
            rows.set(key, row)
          }
        }
        // Rows a page lists again, identical, count in the total (rules/listed-rows.ts's listedRowCount); a
        // row repeated on another page is a shift, refused above.
        const listed = listedRowCount([first.items, ...rest.map((page) => page.items)], (row) => row.address.toLowerCase())
        if (listed < first.count) {
          throw new StrategySourceError({
            source: passportSourceNames.listing,
            addresses: missing,
            reason: `The score listing (C4) of scorer ${scorerId} counted ${first.count} rows, but its ${pages} pages held ${rows.size} distinct addresses${listed > rows.size ? ` (and ${listed - rows.size} identical repeats)` : ''}: rows went missing while it was read.`,
          })
        }
        for (const address of pending) classify(address, rows.get(address.toLowerCase()))
        if (rows.size <= maxCachedListingRows) cache?.set(listingKey, { readAt, rows } satisfies CachedListing, listingTtlMs)
      } else {
        plan = 'per-voter'
        for (const address of pending) if (rows.has(address.toLowerCase())) classify(address, rows.get(address.toLowerCase()))
        await readByAddress(missing)
      }
    }
  }

  if (rescored.length > 0) {
    await readHistory({ ...parameters, rescored, atMs, known, source, budget })
  }

  const verdicts = new Map<Address, PassportVerdict>()
  const final = atMs <= readAt - skewMs
  for (const address of addresses) {
    const answer = known.get(address) as ScoreAt
    if (final && answer.origin !== 'live') cache?.set(answerKey(address), answer)
    verdicts.set(
      address,
      answer.record === null
        ? verdictNeverScored({ address, origin: answer.origin, at, threshold: parameters.threshold })
        : verdictFromScore({ record: answer.record, origin: answer.origin, at, threshold: parameters.threshold }),
    )
  }
  return { verdicts, plan, listingCount, rescored }
}

/** A2 for the voters rescored after the moment; A1 instead when allowed and the key may not read A2. */
async function readHistory(parameters: ReadPassportScoresAtParameters & {
  rescored: readonly Address[]
  atMs: number
  known: Map<Address, ScoreAt>
  source: (name: string, affected: readonly Address[]) => SourceContext
  budget: (count: number, affected: readonly Address[]) => void
}): Promise<void> {
  const { sources, scorerId, runtime, rescored, atMs, known, source, budget } = parameters
  const createdAt = new Date(atMs)
  const denied: Address[] = []
  let refusal: unknown
  const readOne = async (address: Address) => {
    runtime.countRequest(passportSourceNames.history)
    try {
      const { items } = await sources.passport.getScoreHistory({ scorerId, address, createdAt, signal: runtime.deadline.signal })
      const record = rowOf(items, address, passportSourceNames.history, compactRecord) ?? null
      const scoredAt = record?.last_score_timestamp == null ? undefined : tryParseIsoTimestamp(record.last_score_timestamp)?.getTime()
      if (scoredAt !== undefined && scoredAt > atMs) {
        throw new StrategySourceError({
          source: passportSourceNames.history,
          addresses: [address],
          reason: `Asked for the score of ${address} at ${createdAt.toISOString()}, the score history (A2) answered one computed at ${record?.last_score_timestamp}.`,
        })
      }
      known.set(address, { origin: 'history', record: record && compactRecord(record) })
    } catch (error) {
      // No score at or before the moment: the voter was first scored after it.
      if (error instanceof NotFoundError) return void known.set(address, { origin: 'history', record: null })
      if (!(error instanceof PermissionDeniedError)) throw error
      denied.push(address)
      refusal = error
    }
  }
  budget(rescored.length, rescored)
  // One voter first: a key that may not read history is then told by one request, not many.
  const [first, ...others] = rescored as [Address, ...Address[]]
  await readSource(source(passportSourceNames.history, rescored), () => readOne(first))
  if (denied.length === 0) await readSource(source(passportSourceNames.history, others), () => eachWithConcurrency(others, runtime.concurrency, readOne))
  else denied.push(...others)
  if (denied.length === 0) return
  if (!parameters.allowLiveScore) {
    throw new PassportHistoryDeniedError({
      source: passportSourceNames.history,
      addresses: denied,
      cause: refusal,
      reason:
        `The API key may not read score history (A2 answered 403: it needs a key Passport has allowlisted). ${denied.length} voter(s) ` +
        `were rescored after ${createdAt.toISOString()}, and their score at that time can only be read there. Ask Passport to allowlist ` +
        'the key, or set allowLiveScore to count their current score instead.',
    })
  }
  budget(denied.length, denied)
  await readSource(source(passportSourceNames.live, denied), () =>
    eachWithConcurrency(denied, runtime.concurrency, async (address) => {
      runtime.countRequest(passportSourceNames.live)
      const record = await sources.passport.getScore({ scorerId, address, signal: runtime.deadline.signal })
      known.set(address, { origin: 'live', record: compactRecord(record) })
    }),
  )
}

/**
 * One row per address of a source's answer, by the one rule for duplicated rows (src/rules/rows.ts):
 * rows that say the same thing (`compact` of them) collapse; rows that differ about one address are
 * a {@link StrategySourceError} naming the source and that address, never a score taken from
 * whichever came first or last.
 */
function uniqueRows<R extends { address: string }>(rows: readonly R[], source: string, affected: readonly Address[]): Map<string, R> {
  try {
    return uniqueRowsByAddress(rows, { source, addressOf: (row) => row.address })
  } catch (error) {
    if (!(error instanceof ConflictingRowsError)) throw error
    throw new StrategySourceError({
      source,
      addresses: affected.some((address) => address.toLowerCase() === error.address.toLowerCase()) ? [shown(error.address)] : [...affected],
      reason: `${source} answered two different rows for ${shown(error.address)}: which one is true cannot be told, so no score is given.`,
      cause: error,
    })
  }
}

/**
 * The one row of `address` in a by-address answer (C4 with `address`, A2): undefined when it holds
 * none. Duplicates follow {@link uniqueRows}; a row about another address means the service did not
 * apply the filter, and is an error rather than a score read from someone else's row.
 */
function rowOf<R extends { address: string }>(items: readonly R[], address: Address, source: string, compact: (row: R) => R): R | undefined {
  const rows = uniqueRows(items.map(compact), source, [address])
  const other = [...rows.keys()].find((key) => key !== address.toLowerCase())
  if (other !== undefined) {
    throw new StrategySourceError({
      source,
      addresses: [address],
      reason: `Asked for the row of ${address}, ${source} answered one for ${shown(other)}: the address filter was not applied, so no score is given.`,
    })
  }
  return rows.get(address.toLowerCase())
}

/** An address as EIP-55 when it is one, else as the source wrote it. */
function shown(address: string): string {
  return isValidAddress(address) ? checksumAddress(address) : address
}

/** Runs `fn` on each item, `concurrency` at a time; after a failure no new item starts (no request is wasted). */
async function eachWithConcurrency<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let failed = false
  await mapWithConcurrency(items, concurrency, async (item) => {
    if (failed) return
    try {
      await fn(item)
    } catch (error) {
      failed = true
      throw error
    }
  })
}

/** A listing row without its per-stamp scores (kept in the cache: a verdict does not read them). */
function compactRow({ stamp_scores: _stampScores, ...row }: RegistryScore): RegistryScore {
  return row
}

/** A v2 record without its per-stamp scores (kept in the cache: a verdict does not read them). */
function compactRecord(record: V2Score): V2Score {
  return { ...record, stamps: {} }
}

function describeFailure(error: unknown, { scorerId, sources }: { scorerId: string; sources: PassportSources }): string | undefined {
  if (error instanceof AuthenticationError) return 'The Passport service refused the API key (401): check PASSPORT_API_KEY.'
  if (error instanceof NotFoundError) return `Scorer ${scorerId} is not known at ${sources.registryBaseUrl} (404): check the scorerId.`
  if (error instanceof HttpRequestError && error.status === 429) return 'The Passport service is rate limiting the API key (429) even after retries.'
  return undefined
}
