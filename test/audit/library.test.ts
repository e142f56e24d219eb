/**
 * `personhood/audit` as a DAO tool uses it: `audit()` called from code against the reference server
 * and the local chain seeded from one world gives the same audit as `personhood audit` on the same
 * votes (every voter's line, the summary, the digest), and its writers write the same report.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audit, parseVotes, renderAuditMarkdown, writeAuditOutputs, type AuditReturnType } from '../../src/audit/index.js'
import { runAuditCommand, type AuditCommandResult } from '../../src/cli/audit.js'
import { InvalidParameterError } from '../../src/errors/input.js'
import { startChainWorld } from '../strategies/human-id-serving.js'

type World = Awaited<ReturnType<typeof startChainWorld>>
let world: World
let dir: string
let votesFile: string
const snapshot = 136_566_811
const options = { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'any', scorerId: 1 }
let cli: AuditCommandResult
let library: AuditReturnType

beforeAll(async () => {
  world = await startChainWorld()
  dir = mkdtempSync(join(tmpdir(), 'personhood-audit-library-'))
  votesFile = join(dir, 'votes.csv')
  writeFileSync(votesFile, `address,choice,voting_power\n${world.voters(90).map((voter, index) => `${voter},${(index % 3) + 1},${(index % 5) + 2}`).join('\n')}\n`)
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ strategy: 'human-verification', options }))
  const context = world.context()
  const rpc = context.humanId!.hubChain as string
  const attestationIndex = context.humanId!.attestationIndexBaseUrl!
  cli = await runAuditCommand(
    { votes: votesFile, config: join(dir, 'config.json'), snapshot: String(snapshot), network: '10', out: join(dir, 'cli'), choices: ['For', 'Against', 'Abstain'], cache: false },
    { env: { PERSONHOOD_RPC_URL: rpc, PASSPORT_API_KEY: world.apiKey, PASSPORT_API_URL: world.baseUrl, PASSPORT_API_TIER: '3', ATTESTATION_INDEX_URL: attestationIndex }, log: () => {} },
  )
  // What a DAO tool writes: the votes read from the export, the sources named in the context.
  library = await audit({
    votes: parseVotes({ file: 'votes.csv', text: readFileSync(votesFile, 'utf8') }),
    votesSource: 'votes.csv',
    strategy: 'human-verification',
    options,
    network: '10',
    snapshot,
    choices: ['For', 'Against', 'Abstain'],
    provider: rpc,
    context: { passport: { apiKey: world.apiKey, baseUrl: world.baseUrl, tier: 3 }, humanId: { attestationIndexBaseUrl: attestationIndex } },
  })
}, 240_000)
afterAll(async () => {
  await world?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('audit() as a library', () => {
  it('gives the numbers the CLI gives: every voter, the summary and the digest', () => {
    expect(library.voters).toHaveLength(90)
    expect(library.summary).toEqual(cli.result.summary)
    expect(library.digest).toBe(cli.result.digest)
    expect(library.voters.map((voter) => [voter.address, voter.eligible, voter.method, voter.score, voter.passport?.score ?? null])).toEqual(
      cli.result.voters.map((voter) => [voter.address, voter.eligible, voter.method, voter.score, voter.passport?.score ?? null]),
    )
    // Not a degenerate audit: some voters verified by Human ID, some by Passport, some not at all.
    const methods = new Set(library.voters.map((voter) => voter.method))
    expect(methods.has('passport')).toBe(true)
    expect(methods.has(null)).toBe(true)
    expect([...methods].some((method) => method !== null && method !== 'passport')).toBe(true)
    expect(library.run).toMatchObject({ strategy: 'human-verification', network: '10', snapshot: String(snapshot), votesSource: 'votes.csv', choices: ['For', 'Against', 'Abstain'] })
  })

  it('says what it cost, and its writers write the report the CLI writes', () => {
    expect(library.stats.replacedVotes).toBe(0)
    expect(library.stats.requests.sent).toBeGreaterThan(0)
    expect(library.stats.requests.fromCache).toBe(0)
    const out = join(dir, 'library')
    writeAuditOutputs(out, library)
    expect(readFileSync(join(out, 'audit.json'), 'utf8')).toBe(readFileSync(join(dir, 'cli', 'audit.json'), 'utf8'))
    expect(readFileSync(join(out, 'audit.csv'), 'utf8')).toBe(readFileSync(join(dir, 'cli', 'audit.csv'), 'utf8'))
    expect(renderAuditMarkdown(library)).toBe(readFileSync(join(dir, 'cli', 'audit.md'), 'utf8'))
    // audit()'s stats are the caller's, not the report's.
    expect(JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8'))).not.toHaveProperty('stats')
  })

  it('refuses bad parameters before any request, naming them as the library does', async () => {
    const votes = parseVotes({ file: 'votes.csv', text: readFileSync(votesFile, 'utf8') })
    const refused = (parameters: Partial<Parameters<typeof audit>[0]>) =>
      audit({ votes, network: '10', snapshot, provider: 'http://127.0.0.1:9', context: { fetch: () => Promise.reject(new Error('no request expected')) }, ...parameters }).catch((error: unknown) => error)
    const both = await refused({ proposal: `0x${'ab'.repeat(32)}` })
    expect(both).toBeInstanceOf(InvalidParameterError)
    expect((both as InvalidParameterError).message).toMatchInlineSnapshot(`
      "Parameter "votes" is invalid.

      Details: Give exactly one of votes (the votes, read with parseVotes) and proposal (a proposal id).
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0"
    `)
    const network = await refused({ network: 'optimism' })
    expect((network as InvalidParameterError).message).toMatchInlineSnapshot(`
      "Parameter "network" is invalid.

      Details: Expected a chain id, got "optimism".
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0"
    `)
    const noSnapshot = await refused({ snapshot: undefined })
    expect((noSnapshot as InvalidParameterError).message).toMatchInlineSnapshot(`
      "Parameter "snapshot" is invalid.

      Details: Votes name no snapshot: give snapshot (a block number of the network).
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0"
    `)
    const strategy = await refused({ strategy: 'erc20-balance-of' })
    expect((strategy as InvalidParameterError).message).toMatchInlineSnapshot(`
      "Parameter "strategy" is invalid.

      Details: "erc20-balance-of" is not a strategy of this package (human-id, passport-v2, human-verification, human-gated).
      Docs: https://github.com/personhood-dao/personhood/blob/main/docs/errors.md#invalid-parameter
      Version: personhood@0.1.0"
    `)
  })
})
