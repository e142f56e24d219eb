/**
 * The stamp pages that A3 (`/v2/stamps/{address}`) and C5 (`/registry/stamps/{address}`) share:
 * the parameters, the checks, one page read and the walk over every page. Only a page's token is
 * ever followed, never the host of a link the service sends.
 */
import { InvalidParameterError } from '../errors/input.js'
import { extractPageToken, paginate, type PaginationGuards } from '../http/paginate.js'
import type { RateLimiter } from '../http/rate-limit.js'
import type { Transport } from '../http/transport.js'
import { maxStampPageLimit, stampListPageResponseSchema, type StampListPage } from '../schemas/passport.js'
import { normalizeAddress } from '../utils/address.js'
import { parseInteger } from '../utils/parse.js'
import { checkPaginationGuards } from './shared.js'

/** Parameters of {@link listStamps}. */
export type ListStampsParameters = {
  address: string
  /** Adds `metadata` to each item. Sent only when given (the services default to false). */
  includeMetadata?: boolean | undefined
  /** Stamps per page, 1 to 1,000. Server default when omitted. */
  limit?: number | undefined
  /** The `next` or `prev` of a previous page: a bare token (sent as given) or an absolute link (only its `token` is used). */
  token?: string | null | undefined
  signal?: AbortSignal | undefined
}
/** One page of stamps; `next` and `prev` are bare page tokens (null at the ends). */
export type ListStampsReturnType = StampListPage

/** Parameters of {@link iterateStamps}: those of {@link listStamps} without `token`, plus guards. */
export type IterateStampsParameters = Omit<ListStampsParameters, 'token'> & PaginationGuards
/** The pages of {@link iterateStamps}, in order. */
export type IterateStampsReturnType = AsyncGenerator<ListStampsReturnType, void, undefined>

/** What a stamp-page read needs: the transport and the limiter of its budget. */
export type StampPageContext = { transport: Transport; rateLimiter: RateLimiter | undefined }

function checkStampPageOptions({ includeMetadata, limit }: Pick<ListStampsParameters, 'includeMetadata' | 'limit'>) {
  if (includeMetadata !== undefined && typeof includeMetadata !== 'boolean') {
    throw new InvalidParameterError({ parameter: 'includeMetadata', reason: `Expected a boolean, got ${typeof includeMetadata}.` })
  }
  if (limit !== undefined) parseInteger(limit, 'limit', { min: 1, max: maxStampPageLimit })
}

function readPageToken(token: unknown): string | undefined {
  if (token === undefined || token === null) return undefined
  if (typeof token !== 'string' || token === '') {
    throw new InvalidParameterError({ parameter: 'token', reason: 'Expected a non-empty page token (the next or prev of a page).' })
  }
  // An absolute link (a raw `next` of the service): use only its token, never its host. Anything
  // else is a bare token and is sent as given (a bare token may itself start with "/").
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) return token
  const extracted = extractPageToken(token)
  if (extracted === null || extracted === '') {
    throw new InvalidParameterError({ parameter: 'token', reason: 'The link carries no token query parameter.' })
  }
  return extracted
}

async function fetchStampPage(
  context: StampPageContext,
  basePath: string,
  address: string,
  { includeMetadata, limit, token, signal }: Omit<ListStampsParameters, 'address' | 'token'> & { token: string | undefined },
): Promise<ListStampsReturnType> {
  const { data } = await context.transport.request({
    method: 'GET',
    path: `${basePath}/${address}`,
    query: { include_metadata: includeMetadata, limit, token },
    schema: stampListPageResponseSchema,
    rateLimiter: context.rateLimiter,
    signal,
  })
  // Follow only the token, never the host of a link: the API key stays with the configured base URL.
  return { items: data.items, next: extractPageToken(data.next), prev: extractPageToken(data.prev) }
}

/**
 * Reads one stamp page at `basePath/{address}` (A3 and C5 share everything else).
 *
 * @internal
 */
export async function requestStampPage(
  context: StampPageContext,
  basePath: string,
  { address, includeMetadata, limit, token, signal }: ListStampsParameters,
): Promise<ListStampsReturnType> {
  const normalized = normalizeAddress(address)
  checkStampPageOptions({ includeMetadata, limit })
  return fetchStampPage(context, basePath, normalized, { includeMetadata, limit, token: readPageToken(token), signal })
}

/**
 * Walks every stamp page at `basePath/{address}`; the arguments are checked at once.
 *
 * @internal
 */
export function iterateStampPages(
  context: StampPageContext,
  basePath: string,
  { address, includeMetadata, limit, maxPages, maxItems, signal }: IterateStampsParameters,
): IterateStampsReturnType {
  const normalized = normalizeAddress(address)
  checkStampPageOptions({ includeMetadata, limit })
  const guards = checkPaginationGuards({ maxPages, maxItems })
  return paginate<ListStampsReturnType['items'][number], ListStampsReturnType>(
    (token) => fetchStampPage(context, basePath, normalized, { includeMetadata, limit, token, signal }),
    guards,
  )
}
