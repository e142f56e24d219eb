/**
 * The messages a user reads when a command is refused, whole: what went wrong, what to do, where the
 * docs are, and the exit code. Each runs the CLI in-process as `personhood` would run it, before
 * any source is reached (or against an address where nothing listens).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { main } from '../../src/cli/main.js'

const dir = mkdtempSync(join(tmpdir(), 'personhood-cli-messages-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const votes = join(dir, 'votes.csv')
writeFileSync(votes, 'address,choice,voting_power\n0x52908400098527886E0F7030069857D2E4169EE7,1,1\n')
const a = '0x52908400098527886E0F7030069857D2E4169EE7'
/** Nothing listens on port 9 (discard): the connection is refused at once. */
const unreachable = 'http://127.0.0.1:9'

/** Runs the CLI in-process without the sources' environment; what it printed to stderr (the temp folder as <dir>) and its exit code. */
async function run(...argv: string[]): Promise<{ message: string; exitCode: number | string | undefined }> {
  const printed: string[] = []
  const error = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void printed.push(String(line)))
  const log = vi.spyOn(console, 'log').mockImplementation(() => {})
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => (printed.push(String(chunk).trimEnd()), true))
  // The commands read their sources from the environment: none here (empty is unset).
  for (const name of ['PERSONHOOD_RPC_URL', 'HUMAN_ID_RPC_URL', 'PASSPORT_API_KEY', 'PERSONHOOD_API_KEY']) vi.stubEnv(name, '')
  const previous = process.exitCode
  process.exitCode = undefined
  try {
    await main(['node', 'personhood', ...argv])
    return { message: printed.join('\n').replaceAll(dir, '<dir>'), exitCode: process.exitCode }
  } finally {
    process.exitCode = previous
    for (const spy of [error, log, stderr]) spy.mockRestore()
    vi.unstubAllEnvs()
  }
}

describe('what the CLI says when it refuses', () => {
  it('audit: a votes file without --snapshot (exit 2)', async () => {
    expect(await run('audit', '--votes', votes, '--network', '10', '--out', join(dir, 'a'))).toMatchInlineSnapshot(`
      {
        "exitCode": 2,
        "message": "Option --snapshot is missing.

      Details: A votes file names no snapshot: give --snapshot <block>.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#usage
      Version: personhood@0.1.0",
      }
    `)
  })

  it('audit: no RPC for the network (exit 3)', async () => {
    expect(await run('audit', '--votes', votes, '--network', '10', '--snapshot', '100', '--out', join(dir, 'b'))).toMatchInlineSnapshot(`
      {
        "exitCode": 3,
        "message": "Parameter "--rpc" is invalid.

      Details: The snapshot is a block of network 10: give that network's JSON-RPC URL with --rpc (or PERSONHOOD_RPC_URL); any provider's endpoint for that chain works (Alchemy, Infura, QuickNode... have free tiers), with archive access for a past snapshot.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0",
      }
    `)
  })

  it('audit: a cache folder anyone may write in (exit 3), before any request', async () => {
    const open = join(dir, 'open-cache')
    mkdirSync(open)
    chmodSync(open, 0o777)
    expect(await run('audit', '--votes', votes, '--network', '10', '--snapshot', '100', '--rpc', unreachable, '--out', join(dir, 'c'), '--cache-dir', open)).toMatchInlineSnapshot(`
      {
        "exitCode": 3,
        "message": "Parameter "--cache-dir" is invalid.

      Details: <dir>/open-cache is writable by every user: its answers could be planted by someone else. Give a folder of your own (mode 700), or --no-cache.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0",
      }
    `)
  })

  it('audit: an RPC that does not answer (exit 4)', async () => {
    expect(await run('audit', '--votes', votes, '--network', '10', '--snapshot', '100', '--rpc', unreachable, '--out', join(dir, 'd'), '--no-cache')).toMatchInlineSnapshot(`
      {
        "exitCode": 4,
        "message": "The on-chain read failed.

      Chain: 10
      Block: latest
      Addresses (0): 

      Details: --rpc (http://127.0.0.1:9) did not answer eth_chainId.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#chain-read-failed
      Version: personhood@0.1.0",
      }
    `)
  })

  it('audit: a share that is not a percentage (exit 2)', async () => {
    expect(await run('audit', '--votes', votes, '--fail-if-unverified-share', '150')).toMatchInlineSnapshot(`
      {
        "exitCode": 2,
        "message": "error: option '--fail-if-unverified-share <pct>' argument '150' is invalid. must be a percentage from 0 to 100.",
      }
    `)
  })

  it('verify: an address that is not one (exit 3)', async () => {
    expect(await run('verify', '0x1234')).toMatchInlineSnapshot(`
      {
        "exitCode": 3,
        "message": "Address "0x1234" is invalid.

      Details: The address must be 0x followed by 40 hex characters.
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-address
      Version: personhood@0.1.0",
      }
    `)
  })

  it('score: a network that is not a chain id (exit 3)', async () => {
    expect(await run('score', '--strategy', 'human-id', '--network', 'optimism', '--snapshot', '1', '--addresses', a)).toMatchInlineSnapshot(`
      {
        "exitCode": 3,
        "message": "Parameter "--network" is invalid.

      Details: Expected a chain id, got "optimism".
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0",
      }
    `)
  })

  it('score: a required option missing (exit 2)', async () => {
    expect(await run('score', '--network', '10', '--snapshot', '1', '--addresses', a)).toMatchInlineSnapshot(`
      {
        "exitCode": 2,
        "message": "error: required option '--strategy <name>' not specified",
      }
    `)
  })

  it('serve: an unknown seed (exit 2)', async () => {
    expect(await run('serve', '--seed', 'mainnet')).toMatchInlineSnapshot(`
      {
        "exitCode": 2,
        "message": "error: option '--seed <seed>' argument 'mainnet' is invalid. --seed must be demo or empty.",
      }
    `)
  })
})
