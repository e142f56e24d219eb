/**
 * Interface B of the reference server (B1) through the foundation passport client and raw requests.
 */
import { describe, expect, test } from 'vitest'
import { modelScoreSchema } from '../../src/schemas/model.js'
import { setup } from './harness.js'

describe('B1 model score', () => {
  test('answers the stored score of the requested model, aggregate by default', async () => {
    const h = setup()
    const entry = h.world.modelScores.find((score) => score.model === 'aggregate' && score.score >= 0)!
    const client = h.passport()
    expect(await client.getModelScore({ address: entry.address })).toEqual({ address: entry.address, model: 'aggregate', score: entry.score })
    const other = h.world.modelScores.find((score) => score.model !== 'aggregate')!
    expect(await client.getModelScore({ address: other.address, model: other.model })).toMatchObject({ score: other.score })
    const { body } = await h.call(`/v2/models/score/${entry.address}`)
    expect(modelScoreSchema.parse(body)).toEqual({ address: entry.address, details: { models: { aggregate: { score: entry.score } } } })
  })

  test('-1 for an address with no data; several models at once; changes through the admin API', async () => {
    const h = setup()
    const address = '0x00000000000000000000000000000000000000f1'
    expect(await h.passport().getModelScore({ address, model: 'nft' })).toEqual({ address, model: 'nft', score: -1 })
    await h.call(`/v2/models/score/${address}`)
    expect((await h.call(`/admin/model-scores/${address}`, { method: 'PUT', admin: true, json: { nft: 42, base: 7 } })).status).toBe(200)
    expect((await h.call(`/v2/models/score/${address}?model=nft,base,zksync`)).body).toEqual({
      address,
      details: { models: { nft: { score: 42 }, base: { score: 7 }, zksync: { score: -1 } } },
    })
  })

  test('400 for an unknown model or an invalid address; 401 without key', async () => {
    const h = setup()
    const address = h.world.demoAccounts[0]!.address
    const unknown = await h.call(`/v2/models/score/${address}?model=reputation`)
    expect({ status: unknown.status, body: unknown.body }).toMatchInlineSnapshot(`
      {
        "body": {
          "detail": "Invalid model "reputation": expected one of aggregate, ethereum_activity, nft, arbitrum, base, optimism, polygon, zksync.",
        },
        "status": 400,
      }
    `)
    expect(await h.call('/v2/models/score/0xabc')).toMatchObject({ status: 400, body: { detail: 'Invalid address.' } })
    expect((await h.call(`/v2/models/score/${address}`, { apiKey: null })).status).toBe(401)
  })
})
