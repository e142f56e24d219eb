import { ResponseValidationError } from '../errors/http.js'
import { PaginationLimitError } from '../errors/input.js'
import { redactUrl } from '../utils/redact.js'

/** Guards that stop a paginated read from following a server forever. */
export type PaginationGuards = {
  /** Most pages to fetch. Default 1,000. */
  maxPages?: number
  /** Most items to yield. Default 100,000. */
  maxItems?: number
}

/** One page as the iterator sees it: its items and the cursor of the next page (null at the end). */
export type Page<T> = { items: T[]; next: string | null }

/**
 * Follows cursors from `fetchPage(undefined)` until a page has no next cursor, yielding each page.
 * Throws a {@link PaginationLimitError} when a guard trips or a cursor repeats (a looping server).
 *
 * @example
 * import { paginate } from './paginate.js'
 * for await (const page of paginate((cursor) => fetchStampPage(cursor))) console.log(page.items.length)
 */
export async function* paginate<T, P extends Page<T>>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  { maxPages = 1000, maxItems = 100_000 }: PaginationGuards = {},
): AsyncGenerator<P, void, undefined> {
  const seen = new Set<string>()
  let cursor: string | undefined
  let items = 0
  for (let pages = 0; ; ) {
    if (pages >= maxPages) throw new PaginationLimitError({ kind: 'pages', limit: maxPages })
    const page = await fetchPage(cursor)
    pages++
    items += page.items.length
    if (items > maxItems) throw new PaginationLimitError({ kind: 'items', limit: maxItems })
    yield page
    if (page.next === null || page.next === '') return
    if (seen.has(page.next)) throw new PaginationLimitError({ kind: 'repeated-token', limit: pages })
    seen.add(page.next)
    cursor = page.next
  }
}

/**
 * Reads the page token out of a `next`/`prev` value, which the services send either as a bare
 * token or as a link carrying `?token=` (absolute, or relative to the API). Only the token is
 * followed, never the link's host, so a response cannot redirect the client (and its API key)
 * elsewhere. Null or empty means there is no such page.
 *
 * @throws {ResponseValidationError} when the value is a link without a `token` parameter: ending
 * the pagination there would silently drop the rest of the data.
 * @example
 * import { extractPageToken } from './paginate.js'
 * extractPageToken('https://api.passport.xyz/v2/stamps/0xabc?token=eyJ') // 'eyJ'
 */
export function extractPageToken(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
  // A bare base64 token may start with "/", so only a value that carries a token= parameter is
  // read as a relative link.
  const relative = !absolute && /^[/?][^\s]*[?&]token=/.test(value)
  if (!absolute && !relative) return value
  const token = new URL(value, 'http://localhost').searchParams.get('token')
  if (token === null || token === '') {
    throw new ResponseValidationError({
      method: 'GET',
      url: redactUrl(value),
      issues: [{ path: ['next'], message: 'The page link has no token parameter; the next page cannot be followed.' }],
    })
  }
  return token
}
