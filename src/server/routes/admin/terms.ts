/** Admin routes of the terms-of-service acceptances (D10): record one, delete an address's. */
import type { Hono } from 'hono'
import { z } from 'zod'
import { isoTimestampSchema } from '../../../schemas/common.js'
import type { ServerContext } from '../../context.js'
import { HttpError } from '../../errors.js'
import { parseBody } from '../../request.js'
import { lowerAddress, queryAddress } from './common.js'

const termsBody = z.strictObject({
  address: lowerAddress,
  tosType: z.string().min(1).optional(),
  acceptedAt: isoTimestampSchema.optional(),
})

/** `POST`/`DELETE /terms`. */
export function addTermsRoutes(app: Hono, ctx: ServerContext): void {
  const { store } = ctx
  app.post('/terms', async (c) => {
    const input = await parseBody(c, termsBody)
    const acceptance = { tosType: input.tosType ?? 'IST', address: input.address, acceptedAt: input.acceptedAt ?? new Date(ctx.now()).toISOString() }
    store.mutate((state) => {
      state.tosAcceptances = state.tosAcceptances.filter((entry) => !(entry.address === acceptance.address && entry.tosType === acceptance.tosType))
      state.tosAcceptances.push(acceptance)
    })
    return c.json(acceptance, 201)
  })
  app.delete('/terms', (c) => {
    const address = queryAddress(c)
    if (!address) throw new HttpError(422, [{ loc: ['query', 'address'], msg: 'Field required', type: 'missing' }])
    const tosType = c.req.query('tosType')
    const removed = store.mutate((state) => {
      const before = state.tosAcceptances.length
      state.tosAcceptances = state.tosAcceptances.filter((entry) => !(entry.address === address && (!tosType || entry.tosType === tosType)))
      return before - state.tosAcceptances.length
    })
    return c.json({ deleted: removed })
  })
}
