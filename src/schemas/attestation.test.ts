import { describe, expect, test } from 'vitest'
import { attestationPageResponseSchema, attestationPageSchema, attestationRowSchema, type AttestationRow } from './attestation.js'

const row = {
  attestationId: '0x1a2b',
  fullSchemaId: 'onchain_evm_10_0x8',
  schemaId: '0x8',
  attester: '0xB1f50c6C34C72346b1229e5C80587D0D659556Fd',
  recipients: ['0x52908400098527886e0f7030069857d2e4169ee7'],
  isReceiver: true,
  revoked: false,
  validUntil: '1893456000',
  attestTimestamp: 1729883774000,
  chainId: '10',
} satisfies AttestationRow

describe('attestation rows (E8)', () => {
  test('keeps validUntil exactly as sent, "0" included, and unknown keys', () => {
    expect(attestationRowSchema.parse(row)).toEqual(row)
    expect(attestationRowSchema.parse({ ...row, validUntil: '0' }).validUntil).toBe('0')
    expect(attestationRowSchema.parse({ ...row, validUntil: 0 }).validUntil).toBe(0)
    expect(attestationRowSchema.parse(row)['chainId']).toBe('10')
  })

  test('the spec minimum (no optional fields) parses', () => {
    const minimal = { fullSchemaId: 'onchain_evm_10_0x8', attester: row.attester, isReceiver: false, revoked: true, validUntil: 1 }
    expect(attestationRowSchema.parse(minimal)).toEqual(minimal)
  })

  test('missing or mistyped required fields fail', () => {
    const { revoked: _revoked, ...noRevoked } = row
    expect(attestationRowSchema.safeParse(noRevoked).success).toBe(false)
    const { validUntil: _validUntil, ...noValidUntil } = row
    expect(attestationRowSchema.safeParse(noValidUntil).success).toBe(false)
    expect(attestationRowSchema.safeParse({ ...row, isReceiver: 'true' }).success).toBe(false)
    expect(attestationRowSchema.safeParse({ ...row, validUntil: null }).success).toBe(false)
    expect(attestationRowSchema.safeParse({ ...row, recipients: '0x5290' }).success).toBe(false)
  })
})

describe('attestation pages (E8)', () => {
  test('the spec shape { data: { rows } } parses', () => {
    expect(attestationPageSchema.parse({ data: { rows: [row] } })).toEqual({ data: { rows: [row] } })
    expect(attestationPageResponseSchema.parse({ data: { rows: [row] } })).toEqual({ data: { rows: [row] } })
  })

  test("the public index's { data: { page, size, total, rows } } parses, wrapper keys dropped", () => {
    const body = { success: true, statusCode: 200, message: 'ok', data: { page: 1, size: 100, total: '1', rows: [row] } }
    expect(attestationPageResponseSchema.parse(body)).toEqual({ data: { page: 1, size: 100, total: 1, rows: [row] } })
  })

  test('null rows read as empty; missing rows or data fail', () => {
    expect(attestationPageResponseSchema.parse({ data: { rows: null, total: 0 } })).toEqual({ data: { rows: [], total: 0 } })
    expect(attestationPageResponseSchema.safeParse({ data: { total: 0 } }).success).toBe(false)
    expect(attestationPageResponseSchema.safeParse({ rows: [row] }).success).toBe(false)
    expect(attestationPageSchema.safeParse({ data: { rows: null } }).success).toBe(false)
  })
})
