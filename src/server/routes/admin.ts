/**
 * The admin API (`/admin`, bearer admin token): puts the reference server into any state for tests
 * and demos. One module per resource under `admin/`; bodies are read by the server's one rule
 * (`parseBody`: 422 with a FastAPI-style list for a wrong shape, 400 for a bad value). Documented in
 * docs/server.md.
 */
import { Hono } from 'hono'
import type { ServerContext } from '../context.js'
import { addApiKeyRoutes } from './admin/api-keys.js'
import { addHumanIdRoutes } from './admin/human-id.js'
import { addModelScoreRoutes } from './admin/model-scores.js'
import { addScorerRoutes } from './admin/scorers.js'
import { addStakeRoutes } from './admin/stakes.js'
import { addStampRoutes } from './admin/stamps.js'
import { addStateRoutes } from './admin/state.js'
import { addTermsRoutes } from './admin/terms.js'

/**
 * The admin routes (mount at `/admin`, behind {@link adminAuth}).
 *
 * @example
 * app.use('/admin/*', adminAuth({ token: () => ctx.config.adminToken }))
 * app.route('/admin', createAdminRoutes(ctx))
 */
export function createAdminRoutes(ctx: ServerContext): Hono {
  const app = new Hono()
  addStateRoutes(app, ctx)
  addScorerRoutes(app, ctx)
  addApiKeyRoutes(app, ctx)
  addStampRoutes(app, ctx)
  addHumanIdRoutes(app, ctx)
  addModelScoreRoutes(app, ctx)
  addStakeRoutes(app, ctx)
  addTermsRoutes(app, ctx)
  return app
}
