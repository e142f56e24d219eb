/**
 * Stamp list pages (A3, C5): an address's cached stamps, newest first, in pages of `limit` with
 * opaque cursor tokens. `next` and `prev` are bare tokens (base64url JSON), null at the ends; a
 * client passes one back as `?token=`.
 */
import type { StampCredentialMetadata, StampListItem, StampListPage } from '../../schemas/passport.js'
import { maxStampPageLimit } from '../../schemas/passport.js'
import { HttpError } from '../errors.js'
import { readCredentialFacts } from '../scoring.js'
import type { Store } from '../state/store.js'
import type { StampProvider, StampRecord } from '../state/types.js'

/** Page size when `limit` is not given (the public service's default). */
export const defaultStampPageLimit = maxStampPageLimit

/** Version of a listed stamp item. */
export const stampItemVersion = '1.0.0'

type Cursor = { d: 'next' | 'prev'; id: number }

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url')
}

function decodeCursor(token: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Cursor>
    if ((value.d === 'next' || value.d === 'prev') && Number.isSafeInteger(value.id)) return { d: value.d, id: value.id! }
  } catch {
    // fall through
  }
  throw new HttpError(400, 'Invalid token.')
}

const metadataCache = new WeakMap<StampProvider[], Map<string, StampCredentialMetadata>>()

/** Stamp name to its metadata (`group`, `platform`, `name`, `description`, `hash`). */
function metadataIndex(providers: StampProvider[]): Map<string, StampCredentialMetadata> {
  let index = metadataCache.get(providers)
  if (!index) {
    index = new Map()
    for (const platform of providers) {
      const { groups, ...platformInfo } = platform
      for (const group of groups) {
        for (const stamp of group.stamps) {
          index.set(stamp.name, { group: group.name, platform: platformInfo, name: stamp.name, description: stamp.description, hash: stamp.hash })
        }
      }
    }
    metadataCache.set(providers, index)
  }
  return index
}

/** Options of {@link stampPage}. */
export type StampPageOptions = {
  /** Lowercase. */
  address: string
  limit?: number
  token?: string
  includeMetadata?: boolean
}

/**
 * One page of an address's stamps. Records whose JSON is not a readable credential are not listed.
 *
 * @throws {HttpError} 400 for a token that is not one of ours.
 */
export function stampPage(store: Store, options: StampPageOptions): StampListPage {
  const limit = options.limit ?? defaultStampPageLimit
  const records = store
    .stampRecords(options.address)
    .filter((record) => readCredentialFacts(record.stamp) !== undefined)
    .sort((a, b) => b.id - a.id)
  let page: StampRecord[]
  if (!options.token) page = records.slice(0, limit)
  else {
    const cursor = decodeCursor(options.token)
    if (cursor.d === 'next') page = records.filter((record) => record.id < cursor.id).slice(0, limit)
    else page = records.filter((record) => record.id > cursor.id).slice(-limit)
  }
  const first = page[0]
  const last = page[page.length - 1]
  const next = last && records.some((record) => record.id < last.id) ? encodeCursor({ d: 'next', id: last.id }) : null
  const prev = first && records.some((record) => record.id > first.id) ? encodeCursor({ d: 'prev', id: first.id }) : null
  const metadata = options.includeMetadata ? metadataIndex(store.state.stampProviders) : undefined
  const items = page.map((record): StampListItem => {
    const item = { version: stampItemVersion, credential: record.stamp as StampListItem['credential'] }
    const found = metadata?.get(record.provider)
    return metadata ? { ...item, metadata: found ?? { name: record.provider } } : item
  })
  return { next, prev, items }
}

/**
 * Reads `limit` for a stamp page.
 *
 * @throws {HttpError} 400 unless it is an integer from 1 to 1000.
 */
export function readStampLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > maxStampPageLimit) {
    throw new HttpError(400, `Invalid limit: expected an integer from 1 to ${maxStampPageLimit}.`)
  }
  return Number(value)
}

/**
 * Reads `include_metadata` (true/false/1/0, any case).
 *
 * @throws {HttpError} 400 for anything else.
 */
export function readIncludeMetadata(value: string | undefined): boolean {
  if (value === undefined || value === '') return false
  if (/^(true|1)$/i.test(value)) return true
  if (/^(false|0)$/i.test(value)) return false
  throw new HttpError(400, 'Invalid include_metadata: expected true or false.')
}
