import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { createProgram } from '../../src/cli/main.js'
import { exitCodeFor, exitCodes } from '../../src/cli/exit-codes.js'
import { EvmNotInstalledError, InvalidParameterError, LocalChainError } from '../../src/errors/index.js'
import { defaultNetwork } from '../../src/utils/parse.js'

/** A command's whole `--help` text, as commander prints it (the text after the options included). */
function helpOf(name: string): string {
  const program = createProgram()
  const command = program.commands.find((item) => item.name() === name)!
  let text = ''
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: (chunk) => (text += chunk) })
  command.outputHelp()
  return text
}

describe('every command’s --help', () => {
  for (const name of ['serve', 'strategy-server', 'demo', 'score', 'verify', 'audit']) {
    test(`${name}: examples, environment, exit codes`, () => {
      const help = helpOf(name)
      expect(help).toContain('Examples:')
      expect(help).toMatch(new RegExp(`\\$ personhood ${name}\\b`))
      expect(help).toContain('Environment:')
      expect(help).toContain('Exit codes:')
      expect(help).toMatch(/^ {2}0 {2}done/m)
    })
  }

  test('audit lists every exit code it can end with, as exit-codes.ts numbers them', () => {
    const codes = [...helpOf('audit').matchAll(/^ {2}(\d) {2}/gm)].map((match) => Number(match[1]))
    expect(codes).toEqual(Object.values(exitCodes))
  })

  test('demo and serve list exit 4 for a missing EVM, demo exit 3 for a wrong input, each as exit-codes.ts numbers them', () => {
    const listed = (name: string) => [...helpOf(name).matchAll(/^ {2}(\d) {2}/gm)].map((match) => Number(match[1]))
    const evmMissing = exitCodeFor(new EvmNotInstalledError({ packageName: '@nomicfoundation/edr', packageVersion: '0.13.0' }))
    const portTaken = exitCodeFor(new LocalChainError({ shortMessage: 'The local chain could not start: port 8545 is taken.' }))
    expect(evmMissing).toBe(4)
    expect(portTaken).toBe(4)
    for (const name of ['demo', 'serve']) expect(listed(name)).toContain(evmMissing)
    expect(helpOf('demo')).toMatch(/^ {2}4 {2}the local chain could not start: its EVM \(@nomicfoundation\/edr, an optional peer dependency\) is not installed/m)
    expect(listed('demo')).toContain(exitCodeFor(new InvalidParameterError({ parameter: 'now', reason: 'not a date' })))
  })

  test('required options are marked', () => {
    const score = helpOf('score')
    for (const flag of ['--strategy', '--snapshot', '--addresses']) expect(score).toMatch(new RegExp(`${flag} <[^>]+>\\s+\\(required\\)`))
    expect(helpOf('audit')).toContain('(required: this or --proposal)')
  })

  test('one default network, said by every command that takes --network: 10 (Optimism), the proposal\'s first for audit', () => {
    const said = (name: string) => helpOf(name).replace(/\s+/g, ' ')
    for (const name of ['score', 'verify']) {
      expect(said(name)).toContain("--network <id> the space's network, a chain id (default: 10, Optimism, where Human ID lives)")
      expect(said(name).match(/\(default: [^)]*\)/g)!.filter((text) => text.includes('10'))).toEqual(['(default: 10, Optimism, where Human ID lives)'])
      const option = createProgram().commands.find((command) => command.name() === name)!.options.find((item) => item.long === '--network')!
      expect(option.defaultValue).toBe(defaultNetwork)
    }
    expect(said('audit')).toContain("(default: the proposal's network, else 10: Optimism, where Human ID lives)")
    expect(defaultNetwork).toBe('10')
  })

  test('commands that print a summary name NO_COLOR', () => {
    for (const name of ['verify', 'audit']) expect(helpOf(name)).toContain('NO_COLOR')
  })
})

describe('strategy-server --help says what the command reads', () => {
  const environment = (help: string) => {
    const section = help.split('Environment:\n')[1]!.split('\n\n')[0]!
    return section.split('\n').map((line) => line.trim().split(/\s{2,}/)[0]!)
  }
  const valueFor = (name: string) =>
    name === 'PORT' ? '9999' : name === 'PASSPORT_API_TIER' ? '2' : name === 'STRATEGY_DEADLINE_MS' ? '1234' : /URL/.test(name) ? 'https://somewhere.example/x' : 'a-value-of-this-test'

  test('every variable it lists changes the configuration the server starts with, and the audit’s are not listed', async () => {
    const { readStrategyServerConfig } = await import('../../src/strategy-server/start.js')
    const names = environment(helpOf('strategy-server'))
    expect(names).not.toContain('PERSONHOOD_RPC_URL')
    expect(helpOf('strategy-server')).not.toMatch(/--rpc\b|--hub-chain-rpc/)
    const base = readStrategyServerConfig({ env: {} })
    for (const listed of names) {
      const name = listed.replace('<chainId>', '10')
      expect(readStrategyServerConfig({ env: { [name]: valueFor(name) } }), name).not.toEqual(base)
    }
  })

  test('every variable the configuration reader reads is listed', () => {
    const source = readFileSync(new URL('../../src/strategy-server/start.ts', import.meta.url), 'utf8')
    const read = [...source.matchAll(/first\(env, '([A-Z_]+)'\)|integerFrom\(env, '([A-Z_]+)'\)/g)].map((match) => match[1] ?? match[2])
    expect(read.length).toBeGreaterThan(10)
    const names = environment(helpOf('strategy-server'))
    for (const name of new Set(read)) expect(names, name).toContain(name)
    expect(names).toContain('PERSONHOOD_RPC_URL_<chainId>')
  })
})
