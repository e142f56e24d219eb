/** Admin routes of the scorers: create or change one (name, type, threshold, weights, default), delete one. */
import type { Hono } from 'hono'
import { z } from 'zod'
import { decimalLikeSchema } from '../../../schemas/common.js'
import type { ServerContext } from '../../context.js'
import { HttpError } from '../../errors.js'
import { parseBody } from '../../request.js'

const scorerBody = z.strictObject({
  name: z.string().min(1).optional(),
  type: z.enum(['unique-humanity', 'binary']).optional(),
  threshold: decimalLikeSchema.optional(),
  /** Replaces the weights; `weightsPatch` merges (null removes a weight). */
  weights: z.record(z.string(), decimalLikeSchema).optional(),
  weightsPatch: z.record(z.string(), decimalLikeSchema.nullable()).optional(),
  /** Make this scorer the default (first). */
  default: z.boolean().optional(),
})

/** `/scorers`: list, `PUT /scorers/:id`, `DELETE /scorers/:id`. */
export function addScorerRoutes(app: Hono, ctx: ServerContext): void {
  const { store } = ctx
  app.get('/scorers', (c) => c.json(store.state.scorers))
  app.put('/scorers/:id{[0-9]+}', async (c) => {
    const id = Number(c.req.param('id'))
    const input = await parseBody(c, scorerBody)
    const scorer = store.mutate((state) => {
      let found = state.scorers.find((candidate) => candidate.id === id)
      if (!found) {
        found = { id, name: `Scorer ${id}`, type: 'unique-humanity', threshold: '20', weights: {} }
        state.scorers.push(found)
      }
      if (input.name !== undefined) found.name = input.name
      if (input.type !== undefined) found.type = input.type
      if (input.threshold !== undefined) found.threshold = input.threshold
      // Replace the weights object (never edit it in place: the engine caches by identity).
      if (input.weights !== undefined) found.weights = { ...input.weights }
      if (input.weightsPatch !== undefined) {
        const weights = { ...found.weights }
        for (const [name, weight] of Object.entries(input.weightsPatch)) {
          if (weight === null) delete weights[name]
          else weights[name] = weight
        }
        found.weights = weights
      }
      if (input.default) state.scorers = [found, ...state.scorers.filter((candidate) => candidate !== found)]
      return found
    })
    return c.json(scorer)
  })
  app.delete('/scorers/:id{[0-9]+}', (c) => {
    const id = Number(c.req.param('id'))
    if (!store.findScorer(id)) throw new HttpError(404, `No scorer ${id}.`)
    store.mutate((state) => {
      state.scorers = state.scorers.filter((scorer) => scorer.id !== id)
      delete state.claims[id]
      delete state.history[id]
      delete state.submissions[id]
    })
    return c.body(null, 204)
  })
}
