/** Admin routes of the API keys: list, create or change one (name, tier, history allowlist), delete one. */
import type { Hono } from 'hono'
import { z } from 'zod'
import type { ServerContext } from '../../context.js'
import { HttpError } from '../../errors.js'
import { parseBody } from '../../request.js'

const apiKeyBody = z.strictObject({
  name: z.string().min(1).optional(),
  tier: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).optional(),
  historyAllowlisted: z.boolean().optional(),
})

/** `/api-keys`: list, `PUT /api-keys/:key`, `DELETE /api-keys/:key`. */
export function addApiKeyRoutes(app: Hono, ctx: ServerContext): void {
  const { store } = ctx
  app.get('/api-keys', (c) => c.json(store.state.apiKeys))
  app.put('/api-keys/:key', async (c) => {
    const key = c.req.param('key')
    const input = await parseBody(c, apiKeyBody)
    const apiKey = store.mutate((state) => {
      let found = state.apiKeys.find((candidate) => candidate.key === key)
      if (!found) {
        found = { key, name: input.name ?? 'key', tier: 1, historyAllowlisted: false }
        state.apiKeys.push(found)
      }
      if (input.name !== undefined) found.name = input.name
      if (input.tier !== undefined) found.tier = input.tier
      if (input.historyAllowlisted !== undefined) found.historyAllowlisted = input.historyAllowlisted
      return found
    })
    return c.json(apiKey)
  })
  app.delete('/api-keys/:key', (c) => {
    const key = c.req.param('key')
    if (!store.state.apiKeys.some((candidate) => candidate.key === key)) throw new HttpError(404, 'No such API key.')
    store.mutate((state) => {
      state.apiKeys = state.apiKeys.filter((candidate) => candidate.key !== key)
    })
    return c.body(null, 204)
  })
}
