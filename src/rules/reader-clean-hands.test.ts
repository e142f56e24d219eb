import { describe, expect, it } from 'vitest'
import { judgeReaderCleanHands } from './reader-clean-hands.js'

const voter = '0x00000000000000000000000000000000000000aa'
const at = 1_700_000_000n

describe('judgeReaderCleanHands', () => {
  const expected = { schemaId: 8n, attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd' }
  // reader.sol's attestation flags: exists (1), schema (2), attester (4), valid until after the block (16), recipient (32).
  const confirmed = { flags: 1 | 2 | 4 | 16 | 32 }
  const judge = (rows: { reason: 'valid' | 'malformed' | 'expired'; attestationId?: string }[], attestations: [bigint, { flags: number }][]) =>
    judgeReaderCleanHands({ rows, checkRow: (row) => row.reason, attestations: new Map(attestations), at, voter, expected })

  it('each row by the row rule, each candidate on chain; the furthest check gives the reason', () => {
    const judged = judge([{ reason: 'malformed' }, { reason: 'expired', attestationId: '0x2' }, { reason: 'valid', attestationId: '0x1' }, { reason: 'valid', attestationId: 'x' }], [[1n, confirmed]])
    expect(judged).toEqual({
      valid: true,
      reason: 'valid',
      expiresAt: at + 1n,
      checks: [
        { checked: 'malformed', row: 'malformed' },
        { checked: 'expired', row: 'expired' },
        { checked: 'valid', row: 'valid', attestationId: 1n, onchain: 'valid', validUntil: at + 1n },
        { checked: 'valid', row: 'malformed' },
      ],
    })
    expect(judge([{ reason: 'valid', attestationId: '1' }], [[1n, { flags: confirmed.flags | 8 }]])).toMatchObject({ valid: false, reason: 'revoked' })
    expect(judge([], [])).toMatchObject({ valid: false, reason: 'none', checks: [] })
  })

  it('an attestation the reader skipped, or a recipient it could not read, is a problem', () => {
    expect(judge([{ reason: 'valid', attestationId: '7' }], [])).toEqual({ problem: 'The reader skipped attestation 7.' })
    expect(judge([{ reason: 'valid', attestationId: '7' }], [[7n, { flags: 64 }]])).toEqual({ problem: 'Attestation 7: recipients[0] is not an ABI string.' })
  })
})
