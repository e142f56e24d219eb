/**
 * Interface A (stamp scoring v2): A1 score, A2 history, A3 stamp list, A4 stamp metadata. Mounted
 * at `/` behind API-key auth and the A/C rate limit.
 */
import { Hono } from 'hono'
import { v2ScoreHistoryQuerySchema } from '../../schemas/passport.js'
import type { ServerContext } from '../context.js'
import { HttpError } from '../errors.js'
import type { ApiKeyVariables } from '../middleware/api-key.js'
import { parseQuery, requireAddress, requireScorerId } from '../request.js'
import { readIncludeMetadata, readStampLimit, stampPage } from './stamp-pages.js'

/**
 * The A1-A4 routes.
 *
 * @example
 * app.route('/', createPassportRoutes(ctx))
 */
export function createPassportRoutes(ctx: ServerContext): Hono<{ Variables: ApiKeyVariables }> {
  const { store } = ctx
  const app = new Hono<{ Variables: ApiKeyVariables }>()

  // A4 (registered before A3, whose `{address}` would match "metadata").
  app.get('/v2/stamps/metadata', (c) => c.json(store.state.stampProviders))

  // A1: rescoring on every read; each read joins the history.
  app.get('/v2/stamps/:scorer_id/score/:address', (c) => {
    const address = requireAddress(c.req.param('address'))
    const scorerId = requireScorerId(c.req.param('scorer_id'))
    return c.json(store.score(address, { scorerId, at: ctx.now(), recordHistory: true }))
  })

  // A2: the latest A1 record at or before created_at; allowlisted keys only.
  app.get('/v2/stamps/:scorer_id/score/:address/history', (c) => {
    if (!c.get('apiKey').historyAllowlisted) {
      throw new HttpError(403, 'This API key is not allowed to read historical scores.')
    }
    const address = requireAddress(c.req.param('address'))
    const scorer = store.scorer(requireScorerId(c.req.param('scorer_id')))
    const { created_at } = parseQuery(c, v2ScoreHistoryQuerySchema)
    const event = store.historyAt(scorer.id, address, created_at.getTime())
    if (!event) throw new HttpError(404, 'No score found for this address at or before created_at.')
    return c.json({ items: [event.record] })
  })

  // A3: newest first, opaque cursor tokens.
  app.get('/v2/stamps/:address', (c) => {
    const address = requireAddress(c.req.param('address'))
    const limit = readStampLimit(c.req.query('limit'))
    const includeMetadata = readIncludeMetadata(c.req.query('include_metadata'))
    const token = c.req.query('token') || undefined
    return c.json(stampPage(store, { address, includeMetadata, ...(limit ? { limit } : {}), ...(token ? { token } : {}) }))
  })

  return app
}
