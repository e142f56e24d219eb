/**
 * The demo world's stamp proofs outside the server that made them: written to a state file and read
 * back, every proof is checked anew (nothing is trusted from memory) and holds with nothing but the
 * credential, and the scores are the same.
 */
import { describe, expect, test } from 'vitest'
import { createServer } from '../../src/server/app.js'
import { parseState } from '../../src/server/state/store.js'
import { verifyStampCredential } from '../../src/verify/stamp-credential.js'
import { baseUrl, keys, testWorld, worldNowMs } from './harness.js'

describe('world stamp proofs', () => {
  test('read back from a state file, every proof holds by the issuer\'s did:key alone, and scores are unchanged', async () => {
    const { world, state } = testWorld()
    const file = JSON.stringify(state)
    const reloaded = parseState(JSON.parse(file))
    const stamps = Object.values(reloaded.stamps).flat()
    expect(stamps.length).toBeGreaterThan(500)
    const verdicts = stamps.map((record) => verifyStampCredential(record.stamp))
    expect(verdicts.filter((verdict) => !verdict.valid)).toEqual([])

    const apiKey = keys(world).indexer
    const before = createServer({ state: structuredClone(state), now: () => worldNowMs })
    const after = createServer({ state: reloaded, now: () => worldNowMs })
    const passing: string[] = []
    for (const account of world.demoAccounts) {
      const read = async (server: typeof before) =>
        (await server.fetch(new Request(`${baseUrl}/v2/stamps/1/score/${account.address}`, { headers: { 'X-API-KEY': apiKey } }))).json() as Promise<{ passing_score: boolean }>
      const expected = await read(before)
      expect(await read(after)).toEqual(expected)
      if (expected.passing_score) passing.push(account.story)
    }
    expect(passing).toContain('passing-stamps')
  })
})
