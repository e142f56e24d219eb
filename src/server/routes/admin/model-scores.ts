/** Admin route of the model scores (interface B): set or clear an address's score per model. */
import type { Hono } from 'hono'
import { z } from 'zod'
import { modelNameSchema } from '../../../schemas/model.js'
import type { ServerContext } from '../../context.js'
import { parseBody, requireAddress } from '../../request.js'

const modelScoresBody = z.partialRecord(modelNameSchema, z.number().int().min(-1).max(100).nullable())

/** `PUT /model-scores/:address`. */
export function addModelScoreRoutes(app: Hono, ctx: ServerContext): void {
  const { store } = ctx
  app.put('/model-scores/:address', async (c) => {
    const address = requireAddress(c.req.param('address'))
    const input = await parseBody(c, modelScoresBody)
    const scores = store.mutate((state) => {
      const entry = { ...(state.modelScores[address] ?? {}) }
      for (const [model, score] of Object.entries(input)) {
        if (score === null) delete entry[model as keyof typeof entry]
        else entry[model as keyof typeof entry] = score
      }
      if (Object.keys(entry).length) state.modelScores[address] = entry
      else delete state.modelScores[address]
      return entry
    })
    return c.json(scores)
  })
}
