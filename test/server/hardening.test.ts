/**
 * Robustness of the reference server against hostile input: deep JSON, scorer ids that only look
 * like numbers.
 */
import { describe, expect, test } from 'vitest'
import { maxJsonDepth, nestingDepth } from '../../src/server/request.js'
import { setup } from './harness.js'

const deep = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels)

describe('JSON nested 5,000 deep', () => {
  test('is a 422 on every JSON route, not a stack overflow', async () => {
    const h = setup()
    const address = h.world.wallets[0]!.address
    const bodies: [string, string][] = [
      ['/stamp-cache/authenticate/v2', `{"message": ${deep(5000)}, "signature": "0x"}`],
      ['/registry/submit-passport', `{"address": "${address}", "scorer_id": "1", "extra": ${deep(5000)}}`],
      ['/admin/stamps', `{"address": "${address}", "provider": "Google", "stamp": ${deep(5000)}}`],
    ]
    for (const [path, body] of bodies) {
      const answer = await h.call(path, { method: 'POST', admin: true, body, headers: { 'content-type': 'application/json' } })
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 422,
        body: { detail: [{ loc: ['body'], msg: `JSON nested deeper than ${maxJsonDepth} levels`, type: 'json_too_deep' }] },
      })
    }
  })

  test('depth is counted outside strings only', () => {
    expect(nestingDepth('{"a": [1, {"b": []}]}')).toBe(4)
    expect(nestingDepth(`{"text": "${'['.repeat(100)}\\" ]]"}`)).toBe(1)
    expect(nestingDepth(deep(64))).toBe(64)
  })
})

describe('scorer ids', () => {
  test('"0x1", "1e0", "1.0", " 1" and "+1" are not scorer 1 on A, C3, C4 and the v1 submit (422); an unknown id is 404 everywhere', async () => {
    const h = setup()
    const address = h.world.wallets[0]!.address
    for (const id of ['0x1', '1e0', '1.0', '%201', '+1']) {
      for (const path of [`/v2/stamps/${id}/score/${address}`, `/registry/score/${id}/${address}`, `/registry/score/${id}`]) {
        const answer = await h.call(path)
        expect({ path, status: answer.status }).toEqual({ path, status: 422 })
      }
      const submit = await h.call('/registry/submit-passport', { method: 'POST', json: { address, scorer_id: decodeURIComponent(id) } })
      expect(submit.status).toBe(422)
    }
    for (const path of [`/v2/stamps/999/score/${address}`, `/registry/score/999/${address}`, '/registry/score/999']) {
      expect({ path, status: (await h.call(path)).status }).toEqual({ path, status: 404 })
    }
    expect((await h.call('/registry/submit-passport', { method: 'POST', json: { address, scorer_id: '999' } })).status).toBe(404)
  })
})
