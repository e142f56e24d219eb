/**
 * The strategy server's configuration: a JSON file, the environment over it, flags over both; a bad
 * field or variable is named before anything starts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigFileError } from '../../src/errors/audit.js'
import { InvalidParameterError } from '../../src/errors/input.js'
import { readStrategyServerConfig, startStrategyServer } from '../../src/strategy-server/start.js'

const folder = mkdtempSync(join(tmpdir(), 'strategy-server-config-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function file(content: unknown): string {
  const path = join(folder, `${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

describe('readStrategyServerConfig', () => {
  it('reads the file, then the environment over it, then the flags', () => {
    const config = readStrategyServerConfig({
      file: file({ port: 9000, host: '0.0.0.0', rpc: { '10': 'https://op.example/rpc' }, passport: { tier: 2, scorerId: 7 }, humanId: { hubChainRpc: 'https://op.example/rpc' } }),
      env: { PERSONHOOD_RPC_URL_1: 'https://eth.example/rpc', PASSPORT_API_KEY: 'key-from-env', PASSPORT_SCORER_ID: '335', SNAPSHOT_API_STRATEGY_SALT: 'a-long-salt', PORT: '' },
      overrides: { port: 0, store: 'none', host: undefined },
    })
    expect(config).toEqual({
      port: 0,
      host: '0.0.0.0',
      store: 'none',
      salt: 'a-long-salt',
      rpc: { '10': 'https://op.example/rpc', '1': 'https://eth.example/rpc' },
      passport: { tier: 2, scorerId: '335', apiKey: 'key-from-env' },
      humanId: { hubChainRpc: 'https://op.example/rpc' },
    })
  })

  it('names a bad field of the file, and a bad variable', () => {
    const bad = file({ rpc: { optimism: 'https://op.example/rpc' } })
    const error = (() => {
      try {
        readStrategyServerConfig({ file: bad, env: {} })
      } catch (caught) {
        return caught
      }
    })()
    expect(error).toBeInstanceOf(ConfigFileError)
    expect((error as ConfigFileError).shortMessage).toBe(`Config "${bad}" has an invalid field: rpc.optimism: a network is a chain id (digits).`)
    expect(() => readStrategyServerConfig({ file: file({ passport: { key: 'x' } }), env: {} })).toThrow('has an invalid field: passport: Unrecognized key: "key"')
    expect(() => readStrategyServerConfig({ file: file('{ not json'), env: {} })).toThrow('is not JSON.')
    expect(() => readStrategyServerConfig({ file: join(folder, 'missing.json'), env: {} })).toThrow('cannot be read.')
    expect(() => readStrategyServerConfig({ env: { PASSPORT_API_TIER: '7' } })).toThrow(InvalidParameterError)
    expect(() => readStrategyServerConfig({ env: { PERSONHOOD_RPC_URL_10: 'op.example' } })).toThrow('PERSONHOOD_RPC_URL_10')
    expect(() => readStrategyServerConfig({ env: { SNAPSHOT_API_STRATEGY_SALT: 'short' } })).toThrow('SNAPSHOT_API_STRATEGY_SALT')
  })

  it('refuses to start without a network, before anything is bound or written', async () => {
    const error = await startStrategyServer({ config: { port: 0, store: join(folder, 'never.log') } }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect((error as InvalidParameterError).parameter).toBe('rpc')
  })
})
