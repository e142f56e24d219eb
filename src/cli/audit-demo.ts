/**
 * `personhood demo`: the main job end to end, offline and without keys. It starts the reference
 * server with the demo world and the local chain seeded from the same world, writes a proposal's
 * votes from that world (honest voters, and the world's sybil clusters voting as one bloc), runs
 * `personhood audit` on them exactly as a user would (the same command, the same environment
 * variables), and leaves the report in `./personhood-demo/`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { keccak256, toHex, type Address } from 'viem'
import { checksumAddress } from '../utils/address.js'
import { generateWorld } from '../world/generate/index.js'
import type { World } from '../world/types.js'
import { runAuditCommand, type AuditCommandIo, type AuditCommandResult } from './audit.js'
import { startServe } from '../server/start.js'
import { serveEnvironment } from './serve.js'

/** The demo proposal's choices. */
export const demoChoices = ['For', 'Against', 'Abstain'] as const

/** Options of {@link runAuditDemo}. */
export type RunAuditDemoParameters = {
  /** Where the votes, the config and the report go. Default `./personhood-demo`. */
  out?: string | undefined
  /** Wallets of the demo world. Default 400. */
  wallets?: number | undefined
  /** Voters of the proposal (at most the world's wallets). Default 300. */
  voters?: number | undefined
  /** Reference time of the world (ISO 8601). Default: the start of the current UTC day. */
  worldNow?: string | undefined
  now?: (() => number) | undefined
  log?: ((line: string) => void) | undefined
  stderr?: AuditCommandIo['stderr']
}

/** What {@link runAuditDemo} did. */
export type AuditDemoReport = AuditCommandResult & {
  out: string
  votesFile: string
  configFile: string
  /** The command that runs the same audit again, against `personhood serve --seed demo --chain`. */
  command: string
}

/** One vote of the demo proposal. */
export type DemoVote = { voter: Address; choice: number; votingPower: number }

/** A number from 0 to 1 drawn from an address and a purpose, the same on every run. */
function draw(address: string, purpose: string): number {
  return Number(BigInt(keccak256(toHex(`${purpose}:${address.toLowerCase()}`))) % 1_000_000n) / 1_000_000
}

/**
 * The demo proposal's votes, drawn from the world: every demo account, every member of a sybil
 * cluster (they vote Against, as one bloc, with more power each than an honest voter), and honest
 * wallets up to `voters`, whose choices lean For. Deterministic for a world.
 */
export function demoVotes(world: World, voters: number): DemoVote[] {
  const sybils = new Set(world.sybilClusters.flatMap((cluster) => cluster.members.map((member) => member.toLowerCase())))
  const chosen = new Set<string>([...world.demoAccounts.map((account) => account.address.toLowerCase()), ...sybils])
  for (const wallet of world.wallets) {
    if (chosen.size >= voters) break
    chosen.add(wallet.address.toLowerCase())
  }
  return [...chosen].slice(0, Math.max(voters, 1)).map((address) => {
    const sybil = sybils.has(address)
    const lean = draw(address, 'choice')
    const choice = sybil ? 2 : lean < 0.55 ? 1 : lean < 0.9 ? 2 : 3
    const power = sybil ? 40 + Math.round(draw(address, 'power') * 80) : 1 + Math.round(draw(address, 'power') * 60)
    return { voter: checksumAddress(address), choice, votingPower: power }
  })
}

/** A votes file in Snapshot's export shape (CSV: voter, choice, voting power). */
export function demoVotesCsv(votes: readonly DemoVote[]): string {
  return `address,choice,voting_power\n${votes.map((vote) => `${vote.voter},${vote.choice},${vote.votingPower}`).join('\n')}\n`
}

/**
 * Runs the demo: server and local chain up, votes and config written, the audit run through the
 * CLI's own code path, everything stopped.
 *
 * @example
 * import { runAuditDemo } from './audit-demo.js'
 * const { result, out } = await runAuditDemo({ out: 'personhood-demo' })
 * console.log(result.summary.unverifiedShare, out)
 */
export async function runAuditDemo(parameters: RunAuditDemoParameters = {}): Promise<AuditDemoReport> {
  const now = parameters.now ?? Date.now
  const log = parameters.log ?? ((line: string) => console.log(line))
  const out = resolve(parameters.out ?? 'personhood-demo')
  const worldNow = parameters.worldNow ?? new Date(Math.floor(now() / 86_400_000) * 86_400_000).toISOString()
  log(`Generating the demo world (${parameters.wallets ?? 400} wallets at ${worldNow})...`)
  const world = generateWorld({ now: worldNow, wallets: parameters.wallets ?? 400 })
  log('Starting its reference server and a local chain seeded from it...')
  const running = await startServe({ port: 0, host: '127.0.0.1', seed: 'demo', world, now, chain: { port: 0 } })
  try {
    const chain = running.chain!
    const snapshot = chain.blockAt(new Date(now()).toISOString())
    const votes = demoVotes(world, parameters.voters ?? 300)
    mkdirSync(out, { recursive: true })
    // A fresh world and server every run: answers cached by an earlier demo are not this one's.
    rmSync(join(out, 'cache'), { recursive: true, force: true })
    const votesFile = join(out, 'votes.csv')
    const configFile = join(out, 'config.json')
    writeFileSync(votesFile, demoVotesCsv(votes))
    const config = { strategy: 'human-verification', options: { credentials: ['gov-id', 'phone', 'biometrics', 'clean-hands'], match: 'any' } }
    writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`)
    const env: Record<string, string> = Object.fromEntries(serveEnvironment(running).map((variable) => [variable.name, variable.value]))
    // The key serve prints may read score history at tier 3 (2,000 requests per 15 minutes): pace at that.
    const tier = running.app.context.store.state.apiKeys.find((key) => key.key === running.apiKey)?.tier
    if (tier !== undefined) env.PASSPORT_API_TIER = String(tier)
    log(`Demo world of ${world.wallets.length} wallets (${world.sybilClusters.length} sybil clusters) served at ${running.url}, local chain at ${chain.rpcUrl}.`)
    log(`Proposal: ${votes.length} votes written to ${votesFile}; snapshot block ${snapshot} on the local chain (network 10).`)
    log('Auditing the proposal as `personhood audit` does...')
    log('')
    const result = await runAuditCommand(
      { votes: votesFile, config: configFile, snapshot: snapshot.toString(), network: '10', out, choices: [...demoChoices], type: 'single-choice' },
      { env: { ...env, PERSONHOOD_RPC_URL: chain.rpcUrl }, log, stderr: parameters.stderr, now },
    )
    // Every input the demo's audit had, so the same command seals the same digest.
    const command = `npx personhood audit --votes ${votesFile} --config ${configFile} --snapshot ${snapshot} --network 10 --choices ${demoChoices.join(',')} --type single-choice --out ${out}`
    log('')
    log(`Open ${join(out, 'audit.html')} to read the report.`)
    log(`To run the same audit yourself (the same digest), start the same world and export the variables it prints (PERSONHOOD_API_TIER=${env.PASSPORT_API_TIER ?? 1} among them):`)
    log(`  npx personhood serve --seed demo --chain --wallets ${world.wallets.length} --world-now ${worldNow}`)
    log(`  ${command}`)
    return { ...result, out, votesFile, configFile, command }
  } finally {
    await running.close()
  }
}
