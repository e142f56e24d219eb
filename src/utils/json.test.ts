import { describe, expect, it } from 'vitest'
import { stringifyJson, toJson } from './json.js'

describe('stringifyJson', () => {
  it('writes bigints as exact decimal strings, where JSON.stringify throws', () => {
    const value = { blockNumber: 2n ** 64n + 1n, nested: [{ expiry: 1_800_000_000n }] }
    expect(() => JSON.stringify(value)).toThrow(TypeError)
    expect(stringifyJson(value)).toBe('{"blockNumber":"18446744073709551617","nested":[{"expiry":"1800000000"}]}')
  })

  it('indents and sorts keys on request, and writes everything else as JSON.stringify does', () => {
    expect(stringifyJson({ b: 1, a: { d: 1n, c: undefined, e: new Date(0) } }, { sortKeys: true })).toBe('{"a":{"d":"1","e":"1970-01-01T00:00:00.000Z"},"b":1}')
    expect(stringifyJson({ a: 1 }, { indent: 2 })).toBe('{\n  "a": 1\n}')
    expect(stringifyJson([1, 'x', null, true])).toBe(JSON.stringify([1, 'x', null, true]))
  })
})

describe('toJson', () => {
  it('gives the JSON value: bigints as strings, Dates as ISO strings, undefined left out', () => {
    expect(toJson({ expiry: 1_800_000_000n, at: new Date(0), gone: undefined })).toEqual({ expiry: '1800000000', at: '1970-01-01T00:00:00.000Z' })
    expect(toJson(undefined)).toBeUndefined()
  })
})
