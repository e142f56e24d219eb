/** Admin routes of the stakes (D9) and round stakes: add one, delete an address's. */
import type { Hono } from 'hono'
import { z } from 'zod'
import { decimalLikeSchema, isoTimestampSchema } from '../../../schemas/common.js'
import type { ServerContext } from '../../context.js'
import { HttpError } from '../../errors.js'
import { parseBody } from '../../request.js'
import { lowerAddress, nowSeconds, queryAddress } from './common.js'

const stakeBody = z.strictObject({
  chain: z.number().int().positive().optional(),
  staker: lowerAddress,
  stakee: lowerAddress,
  amount: decimalLikeSchema,
  lock_time: isoTimestampSchema.optional(),
  unlock_time: isoTimestampSchema.optional(),
  last_updated_in_block: z.number().int().nonnegative().optional(),
})

const roundStakeBody = z.strictObject({
  address: lowerAddress,
  roundId: z.string().min(1),
  stakes: z.array(z.strictObject({ stake: decimalLikeSchema, round: z.strictObject({ id: z.string() }) })).optional(),
  xstakeAggregates: z.array(z.strictObject({ total: decimalLikeSchema, round: z.strictObject({ id: z.string() }) })).optional(),
})

/** `POST`/`DELETE /stakes`, `POST /round-stakes`. */
export function addStakeRoutes(app: Hono, ctx: ServerContext): void {
  const { store } = ctx
  app.post('/stakes', async (c) => {
    const input = await parseBody(c, stakeBody)
    const lockTime = input.lock_time ?? new Date(ctx.now()).toISOString()
    const stake = {
      chain: input.chain ?? 10,
      staker: input.staker,
      stakee: input.stakee,
      amount: input.amount,
      lock_time: lockTime,
      unlock_time: input.unlock_time ?? new Date(Date.parse(lockTime) + 90 * 86_400_000).toISOString(),
      last_updated_in_block: input.last_updated_in_block ?? Math.max(0, Math.floor((nowSeconds(ctx) - ctx.blockTime().genesisTime) / ctx.blockTime().blockTimeSeconds)),
    }
    store.mutate((state) => {
      state.stakes = state.stakes.filter((entry) => !(entry.chain === stake.chain && entry.staker === stake.staker && entry.stakee === stake.stakee))
      state.stakes.push(stake)
    })
    return c.json(stake, 201)
  })
  app.delete('/stakes', (c) => {
    const address = queryAddress(c)
    if (!address) throw new HttpError(422, [{ loc: ['query', 'address'], msg: 'Field required', type: 'missing' }])
    const removed = store.mutate((state) => {
      const before = state.stakes.length
      state.stakes = state.stakes.filter((entry) => entry.staker !== address && entry.stakee !== address)
      return before - state.stakes.length
    })
    return c.json({ deleted: removed })
  })
  app.post('/round-stakes', async (c) => {
    const input = await parseBody(c, roundStakeBody)
    const record = {
      address: input.address,
      roundId: input.roundId,
      stakes: input.stakes ?? [],
      xstakeAggregates: input.xstakeAggregates ?? [],
    }
    store.mutate((state) => {
      state.roundStakes = state.roundStakes.filter((entry) => !(entry.address === record.address && entry.roundId === record.roundId))
      state.roundStakes.push(record)
    })
    return c.json(record, 201)
  })
}
