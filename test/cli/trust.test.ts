/**
 * What the CLI prints is safe to land in a CI log or a terminal: an RPC key in a URL's path or
 * query never appears in a message, and text from outside reaches the terminal without its escape
 * sequences.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { exitCodes } from '../../src/cli/exit-codes.js'
import { main } from '../../src/cli/main.js'
import { redact, urlSecrets } from '../../src/utils/redact.js'
import { escapeMarkdown, sanitizeTerminal } from '../../src/utils/sanitize.js'

const dir = mkdtempSync(join(tmpdir(), 'personhood-cli-trust-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const a = '0x52908400098527886E0F7030069857D2E4169EE7'

/** Runs the CLI in-process; returns what it printed to stderr and its exit code. */
async function run(argv: string[]): Promise<{ errors: string; exitCode: number | string | undefined }> {
  const errors: string[] = []
  const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)))
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  const previous = process.exitCode
  process.exitCode = undefined
  try {
    await main(['node', 'personhood', ...argv])
    return { errors: errors.join('\n'), exitCode: process.exitCode }
  } finally {
    process.exitCode = previous
    spy.mockRestore()
    log.mockRestore()
    stderr.mockRestore()
  }
}

describe('one redaction for URLs', () => {
  it('removes credentials, key-like path segments and query values, and keeps what helps to read a message', () => {
    expect(redact('GET https://u:p@rpc.example/v3/0123456789abcdef0123456789abcdef failed.')).toBe('GET https://[redacted]@rpc.example/v3/[redacted] failed.')
    expect(redact('https://eth.example/rpc?apikey=SECRET123&network=1')).toBe('https://eth.example/rpc?apikey=[redacted]&network=1')
    expect(redact(`https://api.passport.xyz/v2/stamps/1/score/${a}/history?created_at=2025-01-01`)).toBe(
      `https://api.passport.xyz/v2/stamps/1/score/${a}/history?created_at=2025-01-01`,
    )
    expect(redact('see http://host/v3/SECRETKEY.', urlSecrets('http://host/v3/SECRETKEY'))).toBe('see http://host[redacted].')
  })

  for (const command of ['audit', 'score'] as const) {
    it(`${command}: an RPC key in the path or the query of --rpc is never printed`, async () => {
      const votes = join(dir, 'votes.csv')
      writeFileSync(votes, `address,choice,voting_power\n${a},1,1\n`)
      for (const rpc of ['http://127.0.0.1:9/v3/SECRETKEY', 'http://127.0.0.1:9/?key=SECRETKEY']) {
        const argv =
          command === 'audit'
            ? ['audit', '--votes', votes, '--snapshot', '100', '--network', '10', '--rpc', rpc, '--out', join(dir, 'out'), '--no-cache']
            : ['score', '--strategy', 'passport-v2', '--network', '10', '--snapshot', '100', '--addresses', a, '--rpc', rpc]
        const { errors, exitCode } = await run(argv)
        expect(errors).not.toBe('')
        expect(errors).not.toContain('SECRETKEY')
        expect(exitCode).toBe(exitCodes.source)
      }
    }, 60_000)
  }
})

describe('text from outside', () => {
  it('reaches the terminal without escape sequences: OSC 8 links, screen clears, window titles', () => {
    const hostile = 'Yes\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007\u001b[2J\u001b]0;owned\u0007\u009b31m\r'
    expect(sanitizeTerminal(hostile)).toBe('Yesclick')
    expect(sanitizeTerminal('two\nlines', { multiline: false })).toBe('two lines')
  })

  it('a quoted field of a hostile votes file reaches the terminal without its escape sequences', async () => {
    const votes = join(dir, 'hostile.csv')
    writeFileSync(votes, `address,choice,voting_power\n${a},"[1\u001b]0;owned\u0007\u001b[2J",1\n`)
    const { errors, exitCode } = await run(['audit', '--votes', votes, '--snapshot', '100', '--network', '10', '--rpc', 'http://127.0.0.1:9', '--out', join(dir, 'hostile-out')])
    expect(exitCode).toBe(exitCodes.input)
    expect(errors).toMatch(/line 2/)
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(errors).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
  })

  it('is escaped for Markdown: no raw HTML, no link, no heading', () => {
    expect(escapeMarkdown('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert\\(1\\)&gt;')
    expect(escapeMarkdown('[x](javascript:alert(1))')).toBe('\\[x\\]\\(javascript:alert\\(1\\)\\)')
    expect(escapeMarkdown('title\n# Owned | cell')).toBe('title \\# Owned \\| cell')
  })
})
