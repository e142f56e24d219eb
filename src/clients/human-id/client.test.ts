import { describe, expect, test } from 'vitest'
import { InvalidParameterError } from '../../errors/index.js'
import { createHumanIdClient } from './index.js'

describe('getVerification and getCleanHandsSbt inputs', () => {
  test('an http(s) base URL is required', () => {
    expect(() => createHumanIdClient({ baseUrl: 'ftp://api.holonym.io' })).toThrow(InvalidParameterError)
    expect(createHumanIdClient().transport.baseUrl).toBe('https://api.holonym.io')
  })
})
