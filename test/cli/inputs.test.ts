/**
 * What the strategy commands read from the command line: address lists, options, config files,
 * and the exit code each kind of failure maps to.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { readAuditConfig } from '../../src/cli/audit.js'
import { readAddressList, readOptionsArgument } from '../../src/cli/context.js'
import { exitCodeFor, exitCodes } from '../../src/cli/exit-codes.js'
import { main } from '../../src/cli/main.js'
import { ConfigFileError } from '../../src/errors/audit.js'
import { InvalidParameterError } from '../../src/errors/input.js'

const dir = mkdtempSync(join(tmpdir(), 'personhood-cli-inputs-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

const a = '0x52908400098527886E0F7030069857D2E4169EE7'
const b = '0x8617E340B3D01FA5F11F306F4090FD50E238070D'

describe('--addresses', () => {
  it('reads a comma-separated list, checksummed and each once', () => {
    expect(readAddressList(`${a.toLowerCase()}, ${b},${a}`)).toEqual([a, b])
  })

  it('reads a file: one per line or a CSV first column, skipping a header, blank lines and comments', () => {
    const path = file('voters.csv', `address,choice\n${a.toLowerCase()},1\n\n# a comment\n${b},2\n`)
    expect(readAddressList(path)).toEqual([a, b])
  })

  it('names the line of a malformed address, and refuses an empty list', () => {
    const path = file('bad.txt', `${a}\n0x1234\n`)
    expect(() => readAddressList(path)).toThrow(/bad\.txt, line 2: "0x1234" is not an address/)
    expect(() => readAddressList(file('empty.txt', '\n# nothing\n'))).toThrow(InvalidParameterError)
  })
})

describe('--options', () => {
  it('reads JSON text or a JSON file', () => {
    expect(readOptionsArgument('{"match":"all"}')).toEqual({ match: 'all' })
    expect(readOptionsArgument(file('options.json', '{"score": 2}'))).toEqual({ score: 2 })
  })

  it('refuses what is neither', () => {
    expect(() => readOptionsArgument('{not json')).toThrow(/Not JSON/)
    expect(() => readOptionsArgument('missing.json')).toThrow(/Expected JSON or the path of a JSON file/)
  })
})

describe('--config', () => {
  it('reads a strategy and its options, or a Snapshot strategy entry', () => {
    expect(readAuditConfig(file('c1.json', '{"strategy":"human-verification","options":{"match":"all"}}'))).toEqual({ strategy: 'human-verification', options: { match: 'all' } })
    expect(readAuditConfig(file('c2.json', '{"name":"passport-v2","params":{"mode":"weighted"}}'))).toEqual({ strategy: 'passport-v2', options: { mode: 'weighted' } })
  })

  it.each([
    ['missing', undefined, /cannot be read \(ENOENT\)/],
    ['not JSON', '{', /is not JSON/],
    ['an array', '[]', /must be a JSON object/],
    ['no strategy', '{"options":{}}', /names no strategy/],
    ['an unknown strategy', '{"strategy":"erc20-balance-of"}', /names the strategy "erc20-balance-of", which this package does not have \(.*human-verification/],
    ['options not an object', '{"strategy":"human-id","options":[1]}', /"options" must be an object/],
    ['an unknown field', '{"strategy":"human-id","option":{}}', /unknown fields: option/],
  ])('refuses %s, naming the file', (_case, text, message) => {
    const path = text === undefined ? join(dir, 'nope.json') : file(`config-${_case.replace(/ /g, '-')}.json`, text)
    let caught: unknown
    try {
      readAuditConfig(path)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ConfigFileError)
    expect((caught as ConfigFileError).message).toContain(path)
    expect((caught as ConfigFileError).message).toMatch(message)
    expect(exitCodeFor(caught)).toBe(exitCodes.input)
  })
})

describe('exit codes of the command line', () => {
  it('a usage error is 2, a bad input 3, and the message is printed without a stack', async () => {
    const errors: string[] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    const previous = process.exitCode
    try {
      await main(['node', 'personhood', 'audit', '--no-such-flag'])
      expect(process.exitCode).toBe(exitCodes.usage)
      process.exitCode = undefined
      await main(['node', 'personhood', 'audit', '--votes', join(dir, 'absent.csv'), '--snapshot', '1', '--rpc', 'http://127.0.0.1:9'])
      expect(process.exitCode).toBe(exitCodes.input)
      expect(errors.join('\n')).toMatch(/absent\.csv cannot be read \(ENOENT\)/)
      expect(errors.join('\n')).not.toMatch(/\n\s+at /)
      process.exitCode = undefined
      await main(['node', 'personhood', 'audit', '--votes', join(dir, 'absent.csv'), '--fail-if-unverified-share', '120'])
      expect(process.exitCode).toBe(exitCodes.usage)
    } finally {
      process.exitCode = previous
      spy.mockRestore()
      stderr.mockRestore()
    }
  })
})
