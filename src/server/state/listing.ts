/**
 * The C4 listing index: each scorer's submissions in order of first submission, and a log of their
 * scoring times, kept as the store writes them. A page costs what its rows cost, whatever the
 * number of rows: the order is an array of addresses (a page is a slice), an address is a key, and
 * a timestamp filter reads only the rows scored after the bound (a suffix of the time log, found by
 * binary search). A filtered listing is kept until the next write, so paging through it costs one
 * page a request.
 */
import type { Submission } from './types.js'

/** A C4 read: page bounds and the optional filters, times in Unix ms. */
export type SubmissionPageQuery = {
  offset: number
  limit: number
  /** Only rows scored strictly after this time. */
  gt?: number | undefined
  /** Only rows scored at or after this time. */
  gte?: number | undefined
  /** The store's clock: a row still processing at `now` has no scoring time and no filter keeps it. */
  now: number
}

/** A page of submissions and the number of rows the filters keep. */
export type SubmissionPage = { rows: Submission[]; count: number }

/** One write of the time log: the address's submission as scored at `at`. A later write of the address supersedes it. */
type TimeEntry = { address: string; at: number }

/** The rows of one scorer. */
class ScorerListing {
  /** Addresses in order of first submission (ascending `seq`). */
  readonly order: string[] = []
  /** Each write, ascending `at` while `sorted`; superseded entries stay until compaction. */
  log: TimeEntry[] = []
  /** The live entry of each address. */
  readonly latest = new Map<string, TimeEntry>()
  /** Whether `log` is in ascending `at` (false after a write earlier than the last one). */
  sorted = true
  /** The last filtered listing read, until the next write. */
  filtered: { gt: number | undefined; gte: number | undefined; validUntil: number; rows: string[] } | undefined

  constructor(readonly book: Record<string, Submission>) {}

  /** Records a write of `submission` (`first`: the address's first submission to the scorer). */
  write(submission: Submission, first: boolean): void {
    if (first) this.order.push(submission.address)
    const entry: TimeEntry = { address: submission.address, at: submission.submittedAt }
    const last = this.log.at(-1)
    if (last && last.at > entry.at) this.sorted = false
    this.log.push(entry)
    this.latest.set(submission.address, entry)
    this.filtered = undefined
    // Compaction keeps the log under twice the live rows.
    if (this.log.length > 1024 && this.log.length > 2 * this.latest.size) this.log = this.log.filter((item) => this.latest.get(item.address) === item)
  }

  /** The page of `query`: a slice of the order when no timestamp filter is given. */
  page(query: SubmissionPageQuery): SubmissionPage {
    const { offset, limit } = query
    if (query.gt === undefined && query.gte === undefined) {
      return { rows: this.order.slice(offset, offset + limit).map((address) => this.book[address]!), count: this.order.length }
    }
    const matching = this.#filter(query)
    return { rows: matching.slice(offset, offset + limit).map((address) => this.book[address]!), count: matching.length }
  }

  /** Addresses scored after the bounds and done at `now`, in order of first submission. */
  #filter(query: SubmissionPageQuery): string[] {
    const { gt, gte, now } = query
    const kept = this.filtered
    if (kept && kept.gt === gt && kept.gte === gte && now < kept.validUntil) return kept.rows
    if (!this.sorted) {
      this.log = [...this.latest.values()].sort((a, b) => a.at - b.at)
      this.sorted = true
    }
    // The first entry inside both bounds.
    const low = Math.max(gt === undefined ? -Infinity : gt + 1, gte ?? -Infinity)
    let start = 0
    let end = this.log.length
    while (start < end) {
      const middle = (start + end) >>> 1
      if (this.log[middle]!.at < low) start = middle + 1
      else end = middle
    }
    // A row processing at `now` reads no timestamp: left out until it is done.
    let validUntil = Infinity
    const found: Submission[] = []
    for (let index = start; index < this.log.length; index++) {
      const entry = this.log[index]!
      if (this.latest.get(entry.address) !== entry) continue
      const submission = this.book[entry.address]!
      if (now < submission.doneAt) {
        validUntil = Math.min(validUntil, submission.doneAt)
        continue
      }
      found.push(submission)
    }
    const rows = found.sort((a, b) => a.seq - b.seq).map((submission) => submission.address)
    this.filtered = { gt, gte, validUntil, rows }
    return rows
  }
}

/**
 * The listing index of every scorer, over one `submissions` book of the state (scorer id ->
 * address -> submission). Build it from the book with {@link SubmissionIndex.build}; then tell it
 * every write with {@link SubmissionIndex.written}.
 */
export class SubmissionIndex {
  readonly #scorers = new Map<string, ScorerListing>()

  private constructor(readonly submissions: Record<string, Record<string, Submission>>) {}

  /** The index of a `submissions` book: each scorer's rows sorted by `seq` and by scoring time once. */
  static build(submissions: Record<string, Record<string, Submission>>): SubmissionIndex {
    const index = new SubmissionIndex(submissions)
    for (const [scorerId, book] of Object.entries(submissions)) {
      const listing = new ScorerListing(book)
      const rows = Object.values(book)
      for (const submission of rows.sort((a, b) => a.seq - b.seq)) listing.order.push(submission.address)
      for (const submission of rows.sort((a, b) => a.submittedAt - b.submittedAt)) {
        const entry = { address: submission.address, at: submission.submittedAt }
        listing.log.push(entry)
        listing.latest.set(submission.address, entry)
      }
      index.#scorers.set(scorerId, listing)
    }
    return index
  }

  /** Records that `submission` was written for `scorerId` (`first`: the address was not listed before). */
  written(scorerId: number | string, submission: Submission, first: boolean): void {
    const key = String(scorerId)
    let listing = this.#scorers.get(key)
    const book = this.submissions[key]
    if (!book) return
    if (!listing || listing.book !== book) {
      listing = new ScorerListing(book)
      this.#scorers.set(key, listing)
    }
    listing.write(submission, first)
  }

  /** A page of the scorer's rows (none when the scorer has no submission). */
  page(scorerId: number | string, query: SubmissionPageQuery): SubmissionPage {
    const listing = this.#scorers.get(String(scorerId))
    return listing ? listing.page(query) : { rows: [], count: 0 }
  }

  /** Every submission of the scorer in order of first submission. */
  all(scorerId: number | string): Submission[] {
    const listing = this.#scorers.get(String(scorerId))
    return listing ? listing.order.map((address) => listing.book[address]!) : []
  }
}
