/**
 * Interface B (model scoring): B1. Mounted at `/` behind API-key auth and the model rate limit.
 */
import { Hono } from 'hono'
import { defaultModelName, modelNames, type ModelName } from '../../schemas/model.js'
import type { ServerContext } from '../context.js'
import { HttpError } from '../errors.js'
import type { ApiKeyVariables } from '../middleware/api-key.js'
import { requireAddress } from '../request.js'

/**
 * The B1 route: any address scores, -1 when there is no data for the model; an unknown model is 400.
 *
 * @example
 * app.route('/', createModelRoutes(ctx))
 */
export function createModelRoutes(ctx: ServerContext): Hono<{ Variables: ApiKeyVariables }> {
  const app = new Hono<{ Variables: ApiKeyVariables }>()
  app.get('/v2/models/score/:address', (c) => {
    const address = requireAddress(c.req.param('address'))
    // One model, or several separated by commas (as the public service accepts).
    const requested = (c.req.query('model') || defaultModelName).split(',').map((name) => name.trim())
    const models: Partial<Record<ModelName, { score: number }>> = {}
    for (const name of requested) {
      if (!(modelNames as readonly string[]).includes(name)) {
        throw new HttpError(400, `Invalid model "${name.slice(0, 40)}": expected one of ${modelNames.join(', ')}.`)
      }
      models[name as ModelName] = { score: ctx.store.modelScore(address, name as ModelName) }
    }
    return c.json({ address, details: { models } })
  })
  return app
}
