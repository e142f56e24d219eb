/** C4 of the registry, every page: the scores of a scorer. */
import { paginate, type PaginationGuards } from '../../http/paginate.js'
import type { RegistryScore, RegistryScorePage } from '../../schemas/registry.js'
import { parseInteger, parsePositiveIntegerId } from '../../utils/parse.js'
import { checkPaginationGuards } from '../shared.js'
import type { RegistryContext } from './context.js'
import { listScores, scoreFilterQuery, type ListScoresErrorType, type ScoreFilters } from './list-scores.js'
import type { PaginationLimitErrorType } from '../../errors/index.js'

/** Parameters of {@link iterateScores}: the filters, the page size and guards. */
export type IterateScoresParameters = ScoreFilters & { limit?: number | undefined } & PaginationGuards
/** One page of {@link iterateScores}: the records, the total `count` and the page's `offset`. */
export type IterateScoresPage = RegistryScorePage & { offset: number }
/** The pages of {@link iterateScores}, in order. */
export type IterateScoresReturnType = AsyncGenerator<IterateScoresPage, void, undefined>

/** What {@link iterateScores} throws (see its `@throws`). */
export type IterateScoresErrorType = ListScoresErrorType | PaginationLimitErrorType

/**
 * Iterates over every score of a scorer (C4) by offset: from 0, each page starts where the last
 * one ended, until the offset reaches `count` or a page is empty. Arguments are checked when it
 * is called, before any request.
 *
 * @param client A {@link RegistryContext} (a {@link RegistryClient} is one).
 * @param parameters The filters of {@link listScores}, `limit`, `maxPages` (default 1,000) and `maxItems` (default 100,000).
 * @throws {InvalidParameterError} at once on bad arguments.
 * @throws {PaginationLimitError} (while iterating) when a guard trips.
 * @throws The errors of {@link listScores} for each page.
 * @example
 * import { createRegistryClient, iterateScores } from 'personhood'
 * const registry = createRegistryClient({ apiKey: process.env.PASSPORT_API_KEY! })
 * for await (const page of iterateScores(registry, { scorerId: 335, limit: 500 })) {
 *   for (const record of page.items) console.log(record.address, record.score)
 * }
 */
export function iterateScores(client: RegistryContext, parameters: IterateScoresParameters): IterateScoresReturnType {
  const { maxPages, maxItems, limit, ...filters } = parameters
  const scorerId = parsePositiveIntegerId(filters.scorerId, 'scorerId')
  scoreFilterQuery(filters) // checks the timestamps now
  if (limit !== undefined) parseInteger(limit, 'limit', { min: 1 })
  const guards = checkPaginationGuards({ maxPages, maxItems })
  const pages = paginate<RegistryScore, IterateScoresPage & { next: string | null }>(async (cursor) => {
    const offset = cursor === undefined ? 0 : Number(cursor)
    const page = await listScores(client, { ...filters, scorerId, limit, offset })
    const end = offset + page.items.length
    return { ...page, offset, next: page.items.length === 0 || end >= page.count ? null : String(end) }
  }, guards)
  return (async function* () {
    for await (const { items, count, offset } of pages) yield { items, count, offset }
  })()
}
