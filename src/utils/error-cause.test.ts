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

test("a reverted read through viem: viem's short details, never its raw call arguments or an object's [object Object]", async () => {
  const { CallExecutionError, RpcRequestError } = await import('viem')
  const { ChainReadError } = await import('../errors/chain.js')
  const rpc = new RpcRequestError({ body: { method: 'eth_call' }, error: { code: 3, message: 'execution reverted' }, url: 'http://127.0.0.1:8545' })
  const viemError = new CallExecutionError(rpc, { data: `0x6080${'ab'.repeat(2_000)}`, to: undefined })
  const read = new ChainReadError({ blockNumber: 1000n, addresses: ['0x52908400098527886E0F7030069857D2E4169EE7'], cause: viemError })
  expect(read.details).toBe('execution reverted')
  const source = new StrategySourceError({ source: 'Human ID contracts on chain', addresses: [], cause: read })
  expect(describeErrorCause(source).message).toMatchInlineSnapshot(`"The strategy could not read Human ID contracts on chain: The on-chain read failed: RPC Request failed: execution reverted."`)
  expect(describeErrorCause(new Error('outer', { cause: { code: 3, message: 'execution reverted' } })).message).toBe('outer: execution reverted.')
})
