import { expect, test } from 'vitest'
import { StrategyOptionsError, StrategySourceError } from '../errors/strategy.js'
import { describeErrorCause } from './error-cause.js'

test('the real cause: the options issues, the cause chain, and no secret', () => {
  const options = new StrategyOptionsError({ strategy: 'passport-v2', issues: [{ path: ['PASSPORT_API_KEY'], message: 'No Passport API key: set PASSPORT_API_KEY.' }] })
  expect(describeErrorCause(options)).toEqual({ code: 'STRATEGY_OPTIONS_INVALID', message: 'The options of strategy "passport-v2" are invalid: PASSPORT_API_KEY: No Passport API key: set PASSPORT_API_KEY.' })
  const source = new StrategySourceError({ source: 'Passport score listing (C4)', addresses: [], cause: new Error('connect ECONNREFUSED https://u:secret@host/key123456789abcdef0') })
  const { code, message } = describeErrorCause(source, ['secret'])
  expect(code).toBe('STRATEGY_SOURCE_FAILED')
  expect(message).toBe('The strategy could not read Passport score listing (C4): connect ECONNREFUSED https://[redacted]@host/[redacted].')
})
