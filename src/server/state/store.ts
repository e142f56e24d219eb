/**
 * The store: the {@link ServerState} plus typed reads and synchronous writes. Every write goes
 * through {@link Store.mutate}, which runs a synchronous change, bumps the revision and tells the
 * listeners (persistence). Nothing awaits between reading and writing, so a write is atomic with
 * respect to concurrent requests (single-threaded JS): two A1 reads racing for one credential end
 * with exactly one owner.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { keccak256, toBytes, type Address, type Hex } from 'viem'
import type { ModelName } from '../../schemas/model.js'
import type { V2Score } from '../../schemas/passport.js'
import type { CachedStamp, SaveStatus } from '../../schemas/stamp-cache.js'
import { InvalidStateError } from '../../errors/input.js'
import { HttpError, UnknownScorerError } from '../errors.js'
import { readAt, recordRead } from './history.js'
import { checkServerState, upgradeState } from './schema.js'
import { stampIssuerDid } from '../../verify/stamp-credential.js'
import { checkStampCredential, type CredentialProblem } from './credentials.js'
import { SubmissionIndex, type SubmissionPage, type SubmissionPageQuery } from './listing.js'
import { computeScore, toSubmissionResult, toV2Score, type ScoreComputation } from '../scoring.js'
import type {
  ApiKey,
  AttestationRow,
  CleanHandsSbt,
  HistoryEvent,
  NonceRecord,
  RoundStake,
  Scorer,
  ServerState,
  Stake,
  StampIssuer,
  StampRecord,
  Submission,
  Verification,
} from './types.js'
import { stateVersion } from './types.js'

/** The nonce books of the state. */
export type NonceKind = 'signing' | 'tos' | 'siwe'

/** Why a nonce could not be consumed. */
export type NonceFailure = 'unknown' | 'used' | 'expired' | 'wrong-address' | 'wrong-purpose'

/** A stamp to write for an address: its provider and credential JSON. */
export type StampWrite = { provider: string; stamp: unknown }

/** Options of {@link Store.score}. */
export type ScoreOptions = {
  /** The scorer; default: the first scorer (the default one). */
  scorerId?: number | string
  /** An alternate scorer (D7/D8 `alternate_scorer_id`); wins over `scorerId`. */
  alternateScorerId?: number | string | null
  /** Unix ms to score at; default: the store's clock. */
  at?: number
  /** Record the record in the A2 history (A1 reads do). Default false. */
  recordHistory?: boolean
}

/** A change listener: called synchronously after every {@link Store.mutate}, with the new revision. */
/**
 * One part of the state a change wrote, as persistence replays it: `set` the value at `path`
 * (`json` undefined: delete it), or `push` one item onto the array at `path`. Values are
 * serialized when the change is made, so replaying the changes in order rebuilds the state.
 */
export type StateChange = { op: 'set'; path: readonly string[]; json: string | undefined } | { op: 'push'; path: readonly string[]; json: string }

/** What a change touched: the changes, or `all` when it did not say (a full save is needed). */
export type ChangeListener = (revision: number, changes: readonly StateChange[] | 'all') => void

/** A part of the state a change names: a path to re-read, or an item pushed onto an array. */
type Touch = { path: readonly (string | number)[]; push?: unknown }

/** Parts of the state that live minutes and are never saved (nonces): a change to them alone writes nothing. */
export const ephemeralStateKeys = ['signingNonces', 'tosNonces', 'siweNonces'] as const

function valueAt(state: unknown, path: readonly string[]): unknown {
  let value = state
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

/** Most stamps one wallet keeps in the cache (a provider holds one: the catalogue has fewer than this). */
export const maxStampsPerWallet = 200

/** Most bytes of stamp JSON one wallet keeps in the cache (a stamp credential is about 1 KB). */
export const maxStampBytesPerWallet = 256 * 1024

const nonceBooks = { signing: 'signingNonces', tos: 'tosNonces', siwe: 'siweNonces' } as const

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest()

/** A random secret: `bytes` random bytes as hex. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('hex')
}

/** Compares two secrets in constant time (both hashed first, so lengths do not leak). */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b))
}

/**
 * The typed store around a {@link ServerState}.
 *
 * @example
 * const store = new Store(createEmptyState(), { now: () => Date.now() })
 * store.mutate((state) => { state.scorers.push({ id: 1, name: 'Default', type: 'unique-humanity', threshold: '20', weights: {} }) })
 * store.score('0x...', { scorerId: 1 })
 */
export class Store {
  #state: ServerState
  #revision = 0
  readonly #listeners = new Set<ChangeListener>()
  readonly #now: () => number
  readonly #keyDigests = new Map<string, Buffer>()
  /** Each nonce book's keys in issue order, with the head past the pruned ones (kept beside the state: nonces are not saved). */
  readonly #nonceQueues = new WeakMap<object, { keys: string[]; head: number }>()
  #trusted: { issuers: StampIssuer[]; set: Set<string> } | undefined
  #issuerDids: { issuers: StampIssuer[]; dids: Set<string> } | undefined
  /** The revision of the last change to each top-level part of the state, and of the last whole-state change. */
  readonly #partChanged = new Map<string, number>()
  #allChanged = 0
  /** The C4 index and the revision of `submissions` it reflects. */
  #listing: { index: SubmissionIndex; revision: number } | undefined

  constructor(state: ServerState, options: { now?: () => number } = {}) {
    this.#state = state
    this.#now = options.now ?? Date.now
  }

  // ---- state, changes, serialization ------------------------------------------------------

  /** The live state. Read it freely; write only inside {@link mutate}. */
  get state(): ServerState {
    return this.#state
  }

  /** Increases by one on every change. */
  get revision(): number {
    return this.#revision
  }

  /** Unix ms, from the injected clock. */
  now(): number {
    return this.#now()
  }

  /**
   * Applies a synchronous change to the state and notifies the listeners. Never pass an async
   * function: the change must not await between its reads and writes.
   */
  mutate<T>(change: (state: ServerState) => T, touched?: (state: ServerState, result: T) => readonly Touch[]): T {
    const result = change(this.#state)
    if (result instanceof Promise) throw new TypeError('Store.mutate takes a synchronous change.')
    this.#changed(
      touched
        ? touched(this.#state, result).map((touch): StateChange => {
            const path = touch.path.map(String)
            return 'push' in touch ? { op: 'push', path, json: JSON.stringify(touch.push) } : { op: 'set', path, json: JSON.stringify(valueAt(this.#state, path)) }
          })
        : 'all',
    )
    return result
  }

  /** Replaces the whole state (admin reset, world load). */
  replace(state: ServerState): void {
    this.#state = state
    this.#changed('all')
  }

  /** Registers a listener of changes; returns a function that removes it. */
  onChange(listener: ChangeListener): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** The state as JSON-ready data (the state object itself: serialize it right away). */
  toJSON(): ServerState {
    return this.#state
  }

  /** A store from serialized state (the parsed JSON of {@link toJSON}). */
  static fromJSON(json: unknown, options: { now?: () => number; file?: string } = {}): Store {
    return new Store(parseState(json, options.file), options)
  }

  /**
   * The revision of the last change to one top-level part of the state (`submissions`,
   * `attestations`, ...): indexes over that part are current while it stays the same.
   */
  partRevision(part: keyof ServerState): number {
    return Math.max(this.#allChanged, this.#partChanged.get(part) ?? 0)
  }

  #changed(changes: readonly StateChange[] | 'all'): void {
    this.#revision += 1
    this.#trusted = undefined
    if (changes === 'all') this.#allChanged = this.#revision
    else for (const change of changes) if (change.path[0] !== undefined) this.#partChanged.set(change.path[0], this.#revision)
    for (const listener of this.#listeners) listener(this.#revision, changes)
  }

  // ---- scorers, keys, issuers, metadata --------------------------------------------------

  /** The scorer with this id, or undefined. */
  findScorer(id: number | string): Scorer | undefined {
    // Digits only: "0x1", "1e0", "1.0", " 1" and "+1" are not scorer 1.
    const wanted = typeof id === 'number' ? id : /^\d{1,15}$/.test(id) ? Number(id) : Number.NaN
    return this.#state.scorers.find((scorer) => scorer.id === wanted)
  }

  /**
   * The scorer with this id (default: the first scorer).
   *
   * @throws {UnknownScorerError} (404) when there is no such scorer.
   */
  scorer(id?: number | string | null): Scorer {
    const scorer = id === undefined || id === null ? this.#state.scorers[0] : this.findScorer(id)
    if (!scorer) throw new UnknownScorerError(id ?? 'default')
    return scorer
  }

  /** D5: the scorer's weights as numbers (stamp name to weight). */
  weights(scorerId?: number | string | null): Record<string, number> {
    const scorer = this.scorer(scorerId)
    return Object.fromEntries(Object.entries(scorer.weights).map(([name, weight]) => [name, Number(weight)]))
  }

  /** The API key record for a presented key (compared by sha256 digest in constant time), or undefined. */
  findApiKey(presented: string): ApiKey | undefined {
    const digest = sha256(presented)
    let found: ApiKey | undefined
    for (const apiKey of this.#state.apiKeys) {
      let known = this.#keyDigests.get(apiKey.key)
      if (!known) {
        known = sha256(apiKey.key)
        this.#keyDigests.set(apiKey.key, known)
      }
      if (timingSafeEqual(known, digest)) found = apiKey
    }
    return found
  }

  /**
   * Checks a stamp credential: its issuer is one of this server's (trusted or not), and its proof
   * holds by the key of the issuer's `did:key` (`checkStampCredential`, memoized per stamp object).
   *
   * @returns undefined when the proof holds, else why not.
   */
  checkStampProof(stamp: unknown): CredentialProblem | undefined {
    const issuers = this.#state.stampIssuers
    if (!this.#issuerDids || this.#issuerDids.issuers !== issuers) {
      this.#issuerDids = { issuers, dids: new Set(issuers.map((issuer) => issuer.did)) }
    }
    const issuer = stamp && typeof stamp === 'object' ? (stamp as { issuer?: unknown }).issuer : undefined
    if (typeof issuer === 'string' && !this.#issuerDids.dids.has(issuer)) return 'unknown-issuer'
    return checkStampCredential(stamp)
  }

  /** DIDs of the trusted stamp issuers. */
  trustedIssuers(): ReadonlySet<string> {
    const issuers = this.#state.stampIssuers
    if (!this.#trusted || this.#trusted.issuers !== issuers) {
      this.#trusted = { issuers, set: new Set(issuers.filter((issuer) => issuer.trusted).map((issuer) => issuer.did)) }
    }
    return this.#trusted.set
  }

  // ---- stamps -------------------------------------------------------------------------------

  /** The address's stamp records, oldest first. */
  stampRecords(address: string): readonly StampRecord[] {
    return this.#state.stamps[address.toLowerCase()] ?? []
  }

  /** The address's stamps as the cache interface shows them (`{ id, address, provider, stamp }`). */
  cachedStamps(address: string): CachedStamp[] {
    return this.stampRecords(address).map(toCachedStamp)
  }

  /**
   * D1: writes stamps for an address. A stamp of a provider the address already holds replaces it
   * (the new record gets a new id). Returns the address's stamps after the write.
   */
  addStamps(address: string, stamps: readonly StampWrite[]): CachedStamp[] {
    const owner = address.toLowerCase() as Address
    this.mutate((state) => {
      const at = this.#now()
      let records = state.stamps[owner] ?? []
      // The wallet's quota, checked on what it would hold after the write (nothing is written when over).
      const replaced = new Set(stamps.map((write) => write.provider))
      const after = [...records.filter((record) => !replaced.has(record.provider)).map((record) => record.stamp), ...stamps.map((write) => write.stamp)]
      if (after.length > maxStampsPerWallet) {
        throw new HttpError(422, `Stamp quota: a wallet keeps at most ${maxStampsPerWallet} stamps; this write would leave ${after.length}.`)
      }
      const bytes = after.reduce<number>((total, stamp) => total + Buffer.byteLength(JSON.stringify(stamp) ?? ''), 0)
      if (bytes > maxStampBytesPerWallet) {
        throw new HttpError(422, `Stamp quota: a wallet keeps at most ${maxStampBytesPerWallet} bytes of stamps; this write would leave ${bytes}.`)
      }
      for (const { provider, stamp } of stamps) {
        records = records.filter((record) => record.provider !== provider)
        records.push({
          id: state.nextStampId++,
          address: owner,
          provider,
          stamp: stamp as StampRecord['stamp'],
          store_save_status: 'pending',
          store_stream_id: null,
          createdAt: at,
        })
      }
      state.stamps[owner] = records
    }, () => [{ path: ['stamps', owner] }, { path: ['nextStampId'] }])
    return this.cachedStamps(owner)
  }

  /**
   * D2: items with a `stamp` replace the provider's stamp; items without one delete it. Returns
   * the address's stamps after the write. Dedup claims are untouched: an owner keeps its claim.
   */
  patchStamps(address: string, items: ReadonlyArray<{ provider: string; stamp?: unknown }>): CachedStamp[] {
    const owner = address.toLowerCase() as Address
    const writes = items.filter((item) => item.stamp !== undefined && item.stamp !== null) as StampWrite[]
    const deletions = items.filter((item) => item.stamp === undefined || item.stamp === null).map((item) => item.provider)
    // The two inner changes name what they touched.
    this.mutate(
      () => {
        this.deleteStamps(owner, deletions)
        this.addStamps(owner, writes)
      },
      () => [],
    )
    return this.cachedStamps(owner)
  }

  /** D3: deletes the address's stamps of these providers; returns the deleted records. */
  deleteStamps(address: string, providers: readonly string[]): CachedStamp[] {
    const owner = address.toLowerCase()
    const drop = new Set(providers)
    return this.mutate((state) => {
      const records = state.stamps[owner] ?? []
      const deleted = records.filter((record) => drop.has(record.provider))
      if (deleted.length) {
        const kept = records.filter((record) => !drop.has(record.provider))
        if (kept.length) state.stamps[owner] = kept
        else delete state.stamps[owner]
      }
      return deleted.map(toCachedStamp)
    }, () => [{ path: ['stamps', owner] }])
  }

  /** D4: sets the save status of the address's own records; returns the ids it updated. */
  updateSaveStatus(
    address: string,
    updates: ReadonlyArray<{ id: number; store_save_status: SaveStatus; store_stream_id?: string | null }>,
  ): number[] {
    const records = this.#state.stamps[address.toLowerCase()] ?? []
    return this.mutate(() => {
      const updated: number[] = []
      for (const update of updates) {
        const record = records.find((candidate) => candidate.id === update.id)
        if (!record) continue
        record.store_save_status = update.store_save_status
        if (update.store_stream_id !== undefined) record.store_stream_id = update.store_stream_id
        updated.push(record.id)
      }
      return updated
    }, () => [{ path: ['stamps', address.toLowerCase()] }])
  }

  // ---- scoring ------------------------------------------------------------------------------

  /**
   * Scores an address (v2 record; D7/D8 use it as the InternalScore) and writes the dedup claims
   * it makes, in one synchronous step. With `recordHistory` (an A1 read), the record joins the A2
   * history and becomes the scorer's score row of the address (read by C3 and C4).
   *
   * @throws {UnknownScorerError} (404) for an unknown scorer.
   */
  score(address: string, options: ScoreOptions = {}): V2Score {
    const scorer = this.scorer(options.alternateScorerId ?? options.scorerId)
    const owner = address.toLowerCase() as Address
    const touched: Touch[] = []
    const listed = this.#currentListing()
    let listedRow: { submission: Submission; first: boolean } | undefined
    const record = this.mutate(
      (state) => {
        const result = this.#compute(state, scorer, owner, options.at ?? this.#now())
        touched.push(...claimTouches(scorer.id, result))
        const record = toV2Score(result)
        if (options.recordHistory) {
          // An A1 read writes the scorer's score row of the address, as a v1 submit does, so C3
          // and C4 see every address the scorer has scored (field notes, section 2).
          const rows = (state.submissions[scorer.id] ??= {})
          const first = rows[owner] === undefined
          rows[owner] = {
            address: owner,
            seq: rows[owner]?.seq ?? state.nextSubmissionSeq++,
            submittedAt: result.at,
            doneAt: result.at,
            result: toSubmissionResult(result),
          }
          listedRow = { submission: rows[owner], first }
          touched.push({ path: ['submissions', scorer.id, owner] }, { path: ['nextSubmissionSeq'] })
          touched.push(recordHistory(state, scorer.id, owner, result.at, record))
        }
        return record
      },
      () => touched,
    )
    if (listedRow) this.#listed(listed, scorer.id, listedRow.submission, listedRow.first)
    return record
  }

  /** The C4 index when it reflects the state as it is, else undefined (it is rebuilt when next read). */
  #currentListing(): SubmissionIndex | undefined {
    const listing = this.#listing
    return listing && listing.revision === this.partRevision('submissions') && listing.index.submissions === this.#state.submissions ? listing.index : undefined
  }

  /** Tells the C4 index of a write made while it was current (`index`), so it stays current. */
  #listed(index: SubmissionIndex | undefined, scorerId: number, submission: Submission, first: boolean): void {
    if (!index || this.#listing?.index !== index) return
    index.written(scorerId, submission, first)
    this.#listing = { index, revision: this.partRevision('submissions') }
  }

  /** The C4 index, built from the state when a change it was not told of touched the submissions. */
  #submissionIndex(): SubmissionIndex {
    const current = this.#currentListing()
    if (current) return current
    const index = SubmissionIndex.build(this.#state.submissions)
    this.#listing = { index, revision: this.partRevision('submissions') }
    return index
  }

  /** Scores and writes the claims the score makes (name them with {@link claimTouches}). */
  #compute(state: ServerState, scorer: Scorer, address: Address, at: number): ScoreComputation {
    const claims = (state.claims[scorer.id] ??= {})
    const stamps = (state.stamps[address] ?? []).map((record) => record.stamp)
    const result = computeScore({ address, stamps, scorer, trustedIssuers: this.trustedIssuers(), claims, at, checkProof: (stamp) => this.checkStampProof(stamp) })
    Object.assign(claims, result.claims)
    return result
  }

  /** The dedup claim of a credential hash in a scorer, or undefined. */
  claim(scorerId: number | string, hash: string): { owner: Address; expiresAt: number } | undefined {
    return this.#state.claims[Number(scorerId)]?.[hash]
  }

  /** A2: the latest history event of (scorer, address) at or before `at` (Unix ms), or undefined. */
  historyAt(scorerId: number | string, address: string, at: number): HistoryEvent | undefined {
    return readAt(this.#state.history[Number(scorerId)]?.[address.toLowerCase()], at)
  }

  /**
   * C2: scores the address now (claims written now) and records the submission, which reads
   * PROCESSING until `at + delayMs`, then DONE. A resubmission refreshes the record. The score joins
   * the A2 history at `at`, as an A1 read's does.
   *
   * @throws {UnknownScorerError} (404) for an unknown scorer.
   */
  submit(scorerId: number | string, address: string, options: { at?: number; delayMs?: number } = {}): Submission {
    const scorer = this.scorer(scorerId)
    const owner = address.toLowerCase() as Address
    const touched: Touch[] = [{ path: ['submissions', scorer.id, owner] }, { path: ['nextSubmissionSeq'] }]
    const listed = this.#currentListing()
    let first = false
    const written = this.mutate((state) => {
      const at = options.at ?? this.#now()
      const computed = this.#compute(state, scorer, owner, at)
      touched.push(...claimTouches(scorer.id, computed))
      const result = toSubmissionResult(computed)
      const book = (state.submissions[scorer.id] ??= {})
      const previous = book[owner]
      const submission: Submission = {
        address: owner,
        seq: previous?.seq ?? state.nextSubmissionSeq++,
        submittedAt: at,
        doneAt: at + Math.max(0, options.delayMs ?? 0),
        result,
      }
      first = previous === undefined
      book[owner] = submission
      // A v1 submit is a score update too: A2 answers it, as the public service records it.
      touched.push(recordHistory(state, scorer.id, owner, at, toV2Score(computed)))
      return submission
    }, () => touched)
    this.#listed(listed, scorer.id, written, first)
    return written
  }

  /** The submission of (scorer, address), or undefined. */
  submission(scorerId: number | string, address: string): Submission | undefined {
    return this.#state.submissions[Number(scorerId)]?.[address.toLowerCase()]
  }

  /** Every submission to a scorer, in order of first submission. */
  submissions(scorerId: number | string): Submission[] {
    return this.#submissionIndex().all(Number(scorerId))
  }

  /**
   * C4: one page of a scorer's submissions in order of first submission, optionally only those
   * scored after a time (`gt`, `gte`; a row still processing at `now` is left out), with the number
   * of rows kept. Answered from an index kept as the store writes: a page costs its rows.
   */
  submissionPage(scorerId: number | string, query: SubmissionPageQuery): SubmissionPage {
    return this.#submissionIndex().page(Number(scorerId), query)
  }

  // ---- nonces -------------------------------------------------------------------------------

  /**
   * Issues a single-use nonce in one of the nonce books. `nonce` defaults to 60 lowercase hex
   * characters (the C1 format); pass your own for other formats.
   */
  issueNonce(
    kind: NonceKind,
    options: { nonce?: string; ttlMs?: number | null; address?: string | null; purpose?: string } = {},
  ): string {
    const nonce = options.nonce ?? randomBytes(30).toString('hex')
    this.mutate((state) => {
      const book = state[nonceBooks[kind]]
      this.#pruneNonces(book)
      this.#nonceQueues.get(book)!.keys.push(nonce)
      const issuedAt = this.#now()
      book[nonce] = {
        issuedAt,
        expiresAt: options.ttlMs === undefined || options.ttlMs === null ? null : issuedAt + options.ttlMs,
        usedAt: null,
        ...(options.address ? { address: options.address.toLowerCase() as Address } : {}),
        ...(options.purpose !== undefined ? { purpose: options.purpose } : {}),
      }
    }, () => [])
    return nonce
  }

  /**
   * Keeps a nonce book small in O(1) amortized time: nonces sit in issue order (their keys are
   * never array indices), so the expired ones are at the head; past {@link maxNoncesPerBook} (with
   * room for the one being issued), the oldest go.
   */
  #pruneNonces(book: Record<string, NonceRecord>): void {
    const now = this.#now()
    let queue = this.#nonceQueues.get(book)
    if (!queue) {
      // Built once per book: nonces in issue order, the oldest first.
      queue = { keys: Object.keys(book), head: 0 }
      this.#nonceQueues.set(book, queue)
    }
    while (queue.head < queue.keys.length) {
      const nonce = queue.keys[queue.head]!
      const record = Object.hasOwn(book, nonce) ? book[nonce] : undefined
      const live = queue.keys.length - queue.head
      if (record && !(record.expiresAt !== null && record.expiresAt <= now) && live < maxNoncesPerBook) break
      if (record) delete book[nonce]
      queue.head++
    }
    if (queue.head > 1024 && queue.head * 2 > queue.keys.length) {
      queue.keys = queue.keys.slice(queue.head)
      queue.head = 0
    }
  }


  /** The record of a nonce, or undefined. */
  nonce(kind: NonceKind, nonce: string): NonceRecord | undefined {
    return Object.hasOwn(this.#state[nonceBooks[kind]], nonce) ? this.#state[nonceBooks[kind]][nonce] : undefined
  }

  /**
   * Checks a nonce (known, unused, not expired, and for this address/purpose when it was issued
   * for one) without consuming it.
   */
  checkNonce(kind: NonceKind, nonce: string, expect: { address?: string; purpose?: string } = {}): NonceFailure | null {
    const record = this.nonce(kind, nonce)
    if (!record) return 'unknown'
    if (record.usedAt !== null) return 'used'
    if (record.expiresAt !== null && record.expiresAt <= this.#now()) return 'expired'
    if (record.address && expect.address !== undefined && record.address !== expect.address.toLowerCase()) return 'wrong-address'
    if (record.purpose !== undefined && expect.purpose !== undefined && record.purpose !== expect.purpose) return 'wrong-purpose'
    return null
  }

  /** Consumes a nonce: null when it was valid (and is now used), otherwise why it was refused. */
  consumeNonce(kind: NonceKind, nonce: string, expect: { address?: string; purpose?: string } = {}): NonceFailure | null {
    const failure = this.checkNonce(kind, nonce, expect)
    if (failure) return failure
    this.mutate(
      () => {
        this.nonce(kind, nonce)!.usedAt = this.#now()
      },
      () => [],
    )
    return null
  }

  // ---- models, stakes, terms, verifications ---------------------------------------------------

  /** B1: the address's score for a model; -1 when there is no data. */
  modelScore(address: string, model: ModelName): number {
    return this.#state.modelScores[address.toLowerCase()]?.[model] ?? -1
  }

  /** D9: token stakes where the address is the staker or the stakee. */
  stakes(address: string): Stake[] {
    const owner = address.toLowerCase()
    return this.#state.stakes.filter((stake) => stake.staker === owner || stake.stakee === owner)
  }

  /** C7: the address's stake record in a round, or undefined. */
  roundStake(address: string, roundId: string): RoundStake | undefined {
    const owner = address.toLowerCase()
    return this.#state.roundStakes.find((stake) => stake.address === owner && stake.roundId === roundId)
  }

  /** D10: whether the address accepted the terms of this type. */
  tosAccepted(tosType: string, address: string): boolean {
    const owner = address.toLowerCase()
    return this.#state.tosAcceptances.some((entry) => entry.tosType === tosType && entry.address === owner)
  }

  /** D12: records an acceptance (idempotent). */
  acceptTos(tosType: string, address: string, at = this.#now()): void {
    if (this.tosAccepted(tosType, address)) return
    const owner = address.toLowerCase() as Address
    this.mutate((state) => {
      state.tosAcceptances.push({ tosType, address: owner, acceptedAt: new Date(at).toISOString() })
    }, (state) => [{ path: ['tosAcceptances'], push: state.tosAcceptances.at(-1) }])
  }

  /** E1-E6: the address's Human ID verifications (every kind; the routes judge them). */
  verifications(address: string): Verification[] {
    const owner = address.toLowerCase()
    return this.#state.verifications.filter((verification) => verification.address === owner)
  }

  /** E8: the index rows listed on the address's page (with the world's `address` and `kind`). */
  attestations(address: string): AttestationRow[] {
    const owner = address.toLowerCase()
    return this.#state.attestations.filter((row) => row.address === owner)
  }

  /** E7: clean-hands SBTs held by an address on a non-EVM chain (compared as given, case-insensitively). */
  cleanHandsSbts(address: string): CleanHandsSbt[] {
    const wanted = address.toLowerCase()
    return this.#state.cleanHandsSbts.filter((sbt) => sbt.address.toLowerCase() === wanted)
  }
}

function toCachedStamp(record: StampRecord): CachedStamp {
  return { id: record.id, address: record.address, provider: record.provider, stamp: record.stamp as CachedStamp['stamp'] }
}

/**
 * Records a score in the A2 history of (scorer, address) at `at` and names the part it wrote. The
 * common cases, a read of an unchanged score and a new latest score, are one pushed number or run;
 * a read out of order rewrites the address's runs.
 */
function recordHistory(state: ServerState, scorerId: number, owner: Address, at: number, record: V2Score): Touch {
  const book = (state.history[scorerId] ??= {})
  const runs = (book[owner] ??= [])
  const written = recordRead(runs, at, record)
  const path = ['history', scorerId, owner]
  return written.kind === 'offset'
    ? { path: [...path, written.index, 'offsets'], push: written.offset }
    : written.kind === 'run'
      ? { path, push: written.run }
      : { path }
}

/** The claims a score wrote, as touched paths. */
function claimTouches(scorerId: number, result: ScoreComputation): Touch[] {
  return Object.keys(result.claims).map((hash) => ({ path: ['claims', scorerId, hash] }))
}

/** Most nonces one book holds; past it the oldest are dropped (nonces are issued without a key). */
export const maxNoncesPerBook = 50_000

/**
 * Reads serialized state, checking its version and filling books a newer field may lack. A version 1
 * state is converted (its A2 history, one event per read, becomes runs).
 *
 * @throws {InvalidStateError} when it is not JSON, not a state of this version, or a field has the wrong type (naming the file and the field).
 */
export function parseState(json: unknown, file?: string): ServerState {
  let value = json
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json) as unknown
    } catch (error) {
      throw new InvalidStateError({ file, problems: [{ path: '(root)', message: `Not JSON: ${(error as Error).message}` }], cause: error })
    }
  }
  const version = value && typeof value === 'object' ? (value as { version?: unknown }).version : undefined
  if (version !== stateVersion && version !== 1) {
    throw new InvalidStateError({ file, problems: [{ path: 'version', message: `Not a personhood server state (expected "version": ${stateVersion}, or 1 to convert).` }] })
  }
  const upgraded = upgradeState(value as Record<string, unknown>)
  if (!upgraded.ok) throw new InvalidStateError({ file, problems: upgraded.problems })
  const base = createEmptyState()
  const checked = checkServerState({ ...base, ...(upgraded.value as Partial<ServerState>) })
  if (!checked.ok) throw new InvalidStateError({ file, problems: checked.problems })
  return checked.state
}

/** The default time base when no world gives one: Optimism, 2-second blocks, genesis 2021-11-11. */
export const defaultChain = { chainId: 10, genesisTime: 1636588800, blockTimeSeconds: 2 }

/**
 * An empty state: no scorers, keys, stamps or records; fresh random secrets; one trusted stamp
 * issuer (with a fixed demo key) so the admin API can issue stamps.
 */
export function createEmptyState(options: { adminToken?: string; jwtSecret?: string } = {}): ServerState {
  return {
    version: stateVersion,
    secrets: { adminToken: options.adminToken ?? randomSecret(24), jwtSecret: options.jwtSecret ?? randomSecret(32) },
    origin: { seed: null, worldNow: null },
    chain: { ...defaultChain },
    stampProviders: [],
    stampIssuers: [referenceIssuer],
    scorers: [],
    apiKeys: [],
    stamps: {},
    nextStampId: 1,
    claims: {},
    history: {},
    submissions: {},
    nextSubmissionSeq: 1,
    signingNonces: {},
    tosNonces: {},
    siweNonces: {},
    modelScores: {},
    stakes: [],
    roundStakes: [],
    tosAcceptances: [],
    verifications: [],
    attestations: [],
    cleanHandsSbts: [],
    onchainPassports: [],
    demoAccounts: [],
  }
}

/**
 * The reference server's own stamp issuer (trusted in an empty state). Its key is fixed and public:
 * demo only.
 */
export const referenceIssuer: StampIssuer & { privateKey: Hex } = issuerFromKey(keccak256(toBytes('personhood:reference-server:stamp-issuer')))

/** A trusted stamp issuer whose DID is the `did:key` of its Ed25519 key (32 bytes). */
export function issuerFromKey(privateKey: Hex, trusted = true): StampIssuer & { privateKey: Hex } {
  return { did: stampIssuerDid(privateKey), trusted, privateKey }
}
