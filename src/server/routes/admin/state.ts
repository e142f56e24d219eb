/** Admin routes of the whole state: dump it, replace it, reset it, load a world. */
import type { Hono } from 'hono'
import { z } from 'zod'
import { InvalidStateError } from '../../../errors/input.js'
import { isoTimestampSchema } from '../../../schemas/common.js'
import { generateWorld } from '../../../world/generate/index.js'
import type { World } from '../../../world/types.js'
import type { ServerContext } from '../../context.js'
import { HttpError } from '../../errors.js'
import { parseBody } from '../../request.js'
import { createEmptyState, parseState } from '../../state/store.js'
import { stateVersion, type ServerState } from '../../state/types.js'
import { stateFromWorld } from '../../state/world.js'

const generateBody = z.strictObject({
  seed: z.string().min(1).optional(),
  wallets: z.number().int().optional(),
  now: isoTimestampSchema.optional(),
})

/** `GET`/`PUT /state`, `POST /reset`, `POST /world`. */
export function addStateRoutes(app: Hono, ctx: ServerContext): void {
  const { store } = ctx
  const keepSecrets = (state: ServerState): ServerState => ({ ...state, secrets: { ...store.state.secrets } })

  app.get('/state', (c) => c.json(store.toJSON()))

  app.put('/state', async (c) => {
    let next: ServerState
    try {
      next = parseState(await parseBody(c, z.looseObject({ version: z.union([z.literal(1), z.literal(stateVersion)]) })))
    } catch (error) {
      if (error instanceof HttpError) throw error
      if (error instanceof InvalidStateError) {
        throw new HttpError(422, error.problems.map((problem) => ({ loc: ['body', problem.path], msg: problem.message, type: 'value_error' })))
      }
      throw error
    }
    store.replace(keepSecrets(next))
    return c.json({ ok: true, revision: store.revision })
  })

  app.post('/reset', (c) => {
    const empty = createEmptyState(store.state.secrets)
    empty.apiKeys = store.state.apiKeys
    store.replace(empty)
    return c.json({ ok: true, revision: store.revision })
  })

  app.post('/world', async (c) => {
    const raw = await parseBody(c, z.union([z.looseObject({ version: z.literal(1), wallets: z.array(z.unknown()) }), generateBody]))
    let world: World
    try {
      if ('version' in raw) world = raw as unknown as World
      else {
        world = generateWorld({
          ...(raw.seed ? { seed: raw.seed } : {}),
          ...(raw.wallets ? { wallets: raw.wallets } : {}),
          now: raw.now ?? new Date(ctx.now()).toISOString(),
        })
      }
      store.replace(stateFromWorld(world, store.state.secrets))
    } catch (error) {
      throw new HttpError(422, [{ loc: ['body'], msg: (error as Error).message.split('\n')[0] ?? 'Invalid world', type: 'value_error' }])
    }
    return c.json({ ok: true, seed: world.seed, now: world.now, wallets: world.wallets.length, apiKeys: store.state.apiKeys })
  })
}
