import { maxUint256 } from 'viem'
import { describe, expect, test } from 'vitest'
import { InvalidParameterError } from '../errors/index.js'
import { cleanHandsSbtRecord, hubVerification } from '../../test/fixtures/human-id-records.js'
import { humanIdIssuers } from './constants.js'
import { cleanHandsSbtOf, hubActionIdOf, hubSbtOf } from './hub-state.js'
import type { Verification } from './types.js'

const address = '0x52908400098527886e0f7030069857d2e4169ee7'
const issuedAt = 1_750_000_000

function record(overrides: Partial<Verification> = {}): Verification {
  return hubVerification(issuedAt + 86_400, { address, nullifier: '42', ...overrides })
}

describe('hubSbtOf: a verification record as the Hub holds it', () => {
  test('expiry and the public values [expiry, recipient, actionId, nullifier, issuer]', () => {
    const expiry = BigInt(record().expiresAt!)
    expect(hubSbtOf(record())).toEqual({
      expiry,
      publicValues: [expiry, BigInt(address), 123456789n, 42n, BigInt(humanIdIssuers['gov-id'])],
      revokedAt: undefined,
    })
  })

  test('a record that never expires holds 2^256-1; empty public values hold none; no nullifier or issuer is 0', () => {
    expect(hubSbtOf(record({ expiresAt: null })).expiry).toBe(maxUint256)
    expect(hubSbtOf(record({ expiresAt: null })).publicValues[0]).toBe(maxUint256)
    expect(hubSbtOf(record({ emptyPublicValues: true, issuer: null, nullifier: null })).publicValues).toEqual([])
    expect(hubSbtOf(record({ issuer: null, nullifier: null })).publicValues.slice(3)).toEqual([0n, 0n])
  })

  test('revoked from revokedAt; from its issuance when the time is unknown or earlier; never when not revoked', () => {
    expect(hubSbtOf(record({ revoked: true, revokedAt: issuedAt + 600 })).revokedAt).toBe(issuedAt + 600)
    expect(hubSbtOf(record({ revoked: true, revokedAt: null })).revokedAt).toBe(issuedAt)
    expect(hubSbtOf(record({ revoked: true, revokedAt: issuedAt - 600 })).revokedAt).toBe(issuedAt)
    expect(hubSbtOf(record({ revoked: false, revokedAt: issuedAt + 600 })).revokedAt).toBeUndefined()
  })

  test.each([
    ['an action id that is not decimal', { actionId: '0x75bcd15' }, 'action id "0x75bcd15": expected a uint256 in decimal'],
    ['an action id past 2^256-1', { actionId: (maxUint256 + 1n).toString() }, `action id "${maxUint256 + 1n}": expected a uint256 in decimal`],
    ['a nullifier that is not a number', { nullifier: 'n-42' }, 'nullifier "n-42": expected a uint256 in decimal'],
    ['an issuer without digits', { issuer: '0x' as const }, 'issuer "0x": expected a uint256 in 0x hex'],
  ])('%s cannot be held by the Hub: an InvalidParameterError naming the record', (_name, overrides, reason) => {
    const error = (() => {
      try {
        hubSbtOf(record(overrides), 'verification 3 (gov-id)')
      } catch (caught) {
        return caught
      }
    })() as InvalidParameterError
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe('world')
    expect(error.details).toBe(`verification 3 (gov-id) has ${reason}.`)
  })

  test('the whole message names the record and the field', () => {
    expect(() => hubSbtOf(record({ nullifier: 'n-42' }))).toThrowErrorMatchingInlineSnapshot(`
      [InvalidParameterError: Parameter "world" is invalid.

      Details: the verification of 0x52908400098527886e0f7030069857d2e4169ee7 has nullifier "n-42": expected a uint256 in decimal.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0]
    `)
  })
})

describe('hubActionIdOf: the action id a permanent store or an SBT holds', () => {
  test('decimal digits, read by the one action-id rule', () => {
    expect(hubActionIdOf(record({ actionId: '987654321' }))).toBe(987654321n)
    expect(hubActionIdOf(record({ actionId: maxUint256.toString() }))).toBe(maxUint256)
    expect(() => hubActionIdOf(record({ actionId: 'any' }), 'verification 0')).toThrow('verification 0 has action id "any"')
  })
})

describe('cleanHandsSbtOf: a clean-hands SBT of NEAR or Aptos in the Hub\'s shape', () => {
  const sbt = cleanHandsSbtRecord('near', issuedAt + 86_400, { actionId: '42', expiresAt: issuedAt + 600, kind: 'custom-action' })

  test('its expiry, its action id among public values that hold no recipient or issuer, and its revocation time', () => {
    expect(cleanHandsSbtOf(sbt)).toEqual({ expiry: BigInt(issuedAt + 600), publicValues: [BigInt(issuedAt + 600), 0n, 42n, 0n, 0n], revokedAt: undefined })
    expect(cleanHandsSbtOf({ ...sbt, revoked: true, revokedAt: issuedAt + 60 }).revokedAt).toBe(issuedAt + 60)
    expect(cleanHandsSbtOf({ ...sbt, revoked: true, revokedAt: null }).revokedAt).toBe(issuedAt)
    expect(() => cleanHandsSbtOf({ ...sbt, actionId: 'custom' })).toThrow('the clean-hands SBT of carol-test.near has action id "custom"')
  })
})
