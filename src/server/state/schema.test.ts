import { describe, expect, test } from 'vitest'
import { generateWorld } from '../../world/generate/index.js'
import { checkServerState } from './schema.js'
import { stateFromWorld } from './world.js'

const world = generateWorld({ now: '2025-06-01T00:00:00.000Z', wallets: 60 })

/** The problems of the world's state with one verification record changed. */
function problemsWith(change: Record<string, unknown>) {
  const state = stateFromWorld(world)
  const index = state.verifications.findIndex((record) => record.source === 'hub' && !record.emptyPublicValues)
  state.verifications[index] = { ...state.verifications[index]!, ...change }
  const checked = checkServerState(state)
  return { index, problems: checked.ok ? [] : checked.problems }
}

describe('a saved state holds only verification records the Hub can hold', () => {
  test("the world's own state passes", () => {
    expect(checkServerState(stateFromWorld(world)).ok).toBe(true)
  })

  test.each([
    ['actionId', (2n ** 256n).toString(), 'Expected a decimal action id (a uint256)'],
    ['actionId', '0x75bcd15', 'Expected a decimal action id (a uint256)'],
    ['nullifier', 'n-42', 'Expected a decimal nullifier (a uint256)'],
    ['issuer', '0x', 'Expected an issuer in 0x hex (a uint256)'],
    ['address', '0x52908400098527886e0F7030069857D2E4169EE7', 'Expected an address (0x and 40 hex characters; mixed case a valid EIP-55 checksum)'],
  ])('%s %s is refused, naming the field', (field, value, message) => {
    const { index, problems } = problemsWith({ [field]: value })
    expect(problems).toEqual([{ path: `verifications[${index}].${field}`, message }])
  })
})
