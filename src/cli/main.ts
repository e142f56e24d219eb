/**
 * The `personhood` command line. `bin/personhood.js` calls {@link main} with `process.argv`; each
 * command loads its modules only when it runs.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander'
import { stringifyJson } from '../utils/json.js'
import { redact, urlSecrets } from '../utils/redact.js'
import { sanitizeTerminal } from '../utils/sanitize.js'
import { tryParseInteger } from '../utils/parse.js'
import { version } from '../version.js'
import { createColours } from '../utils/colour.js'
import { exitCodeFor, exitCodes } from './exit-codes.js'
import { helpFooter, sourceVariables, terminalVariables } from './help.js'
import type { AuditCommandOptions } from './audit.js'
import type { ScoreCommandOptions } from './score.js'
import type { ServeOptions } from '../server/start.js'
import type { VerifyCommandOptions } from './verify.js'

/** `--max-wait`: a duration (`90s`, `15m`, `1h`, `500ms`; a bare number is seconds), in ms. */
function duration(value: string): number {
  const match = /^(\d{1,9})(ms|s|m|h)?$/.exec(value.trim())
  if (!match) throw new InvalidArgumentError('--max-wait must be a duration such as 90s, 15m or 1h (a bare number is seconds).')
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 'ms' | 's' | 'm' | 'h']
  return Number(match[1]) * unit
}

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const parsed = tryParseInteger(value, { min, max, strings: true })
    if (parsed === undefined) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`)
    return parsed
  }
}

function percent(value: string): number {
  const parsed = Number(value)
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0 || parsed > 100) throw new InvalidArgumentError('must be a percentage from 0 to 100.')
  return parsed
}

/** Builds the program (exported for tests: `createProgram().parseAsync(argv)`). */
export function createProgram(): Command {
  const program = new Command()
  // Errors come back to main() as exceptions, which maps them to the documented exit codes.
  program.exitOverride()
  program.name('personhood').description('Sybil-resistant voting for DAOs: typed clients, a reference server and an on-chain verifier.').version(version)

  program
    .command('serve')
    .description('Run the reference server on one port: stamp scores, model scores, the legacy registry, the stamp cache, Human ID verifications, the attestation index and the admin API.')
    .addHelpText('after', helpFooter({
        examples: [['the demo world on port 8787', 'personhood serve'], ['with a local chain, state kept in a file', 'personhood serve --chain --data state.json']],
        variables: [],
        exits: ['ok', 'internal', 'usage', 'input'],
      }))
    .option('--port <port>', 'port to listen on (0: any free port)', integer('--port', 0, 65_535), 8787)
    .option('--host <host>', 'host to bind', '127.0.0.1')
    .option('--seed <seed>', 'initial state: demo (the demo world) or empty', 'demo')
    .option('--data <file>', 'state file: loaded at start if it exists, saved on every change and on exit')
    .option('--latency-ms <ms>', 'artificial latency per request', integer('--latency-ms', 0, 600_000))
    .option('--processing-delay-ms <ms>', 'delay before a v1 submission reads DONE', integer('--processing-delay-ms', 0, 86_400_000))
    .option('--world-now <iso>', 'reference time of the demo world (default: start of the current UTC day; the server clock stays the real one)')
    .option('--wallets <n>', 'wallets in the demo world', integer('--wallets', 50, 100_000))
    .option('--admin-token <token>', 'admin bearer token (default: random, kept in the state)')
    .option('--chain', 'also start a local EVM seeded from the same world (Human ID SBTs, permanent stores, clean-hands attestations, Multicall3) and print its JSON-RPC URL')
    .option('--chain-port <port>', 'port of the local chain\'s JSON-RPC (0: any free port)', integer('--chain-port', 0, 65_535), 8545)
    .action(async (raw: Record<string, unknown>) => {
      if (raw.seed !== 'demo' && raw.seed !== 'empty') throw new InvalidArgumentError('--seed must be demo or empty.')
      const options: ServeOptions = {
        port: raw.port as number,
        host: raw.host as string,
        seed: raw.seed,
        ...(raw.data !== undefined ? { data: raw.data as string } : {}),
        ...(raw.latencyMs !== undefined ? { latencyMs: raw.latencyMs as number } : {}),
        ...(raw.processingDelayMs !== undefined ? { processingDelayMs: raw.processingDelayMs as number } : {}),
        ...(raw.worldNow !== undefined ? { worldNow: raw.worldNow as string } : {}),
        ...(raw.wallets !== undefined ? { wallets: raw.wallets as number } : {}),
        ...(raw.adminToken !== undefined ? { adminToken: raw.adminToken as string } : {}),
        ...(raw.chain ? { chain: { port: raw.chainPort as number } } : {}),
      }
      // Each command loads its modules when it runs, so `serve` starts without the clients.
      const { startServe } = await import('../server/start.js')
      const { describeServe } = await import('./serve.js')
      const { runUntilSignal } = await import('./signals.js')
      // The signal handlers are in place before the URL is printed (src/cli/signals.ts).
      await runUntilSignal({ start: () => startServe(options), describe: describeServe })
    })

  program
    .command('strategy-server')
    .description("Serve this package's strategies to Snapshot through score-api's api-v2 strategy (type api-post or api-get), one endpoint per strategy: answers kept for good on disk, concurrent calls sharing their upstream work. See docs/strategy-server.md.")
    .addHelpText('after', helpFooter({
        examples: [['serve the strategies with a config file', 'personhood strategy-server --config strategy-server.json --port 8788']],
        variables: [...sourceVariables, ['SNAPSHOT_API_STRATEGY_SALT', "score-api's salt (api-get secrets)"]],
        exits: ['ok', 'internal', 'usage', 'input'],
      }))
    .option('--config <file>', 'JSON configuration: rpc per network, passport, humanId, salt, store... (the environment wins over it, flags over both)')
    .option('--port <port>', 'port to listen on (0: any free port; default 8788)', integer('--port', 0, 65_535))
    .option('--host <host>', 'host to bind (default 127.0.0.1; 0.0.0.0 in a container)')
    .option('--store <file>', 'the answer store file, or none for memory only (default personhood-answers.log)')
    .option('--public-url <url>', 'the origin spaces call, when a proxy changes it (api-get secrets cover the whole URL)')
    .option('--quiet', 'no request log lines')
    .action(async (raw: { config?: string; port?: number; host?: string; store?: string; publicUrl?: string; quiet?: boolean }) => {
      const { readStrategyServerConfig, startStrategyServer } = await import('../strategy-server/start.js')
      const config = readStrategyServerConfig({
        file: raw.config,
        env: process.env,
        overrides: { port: raw.port, host: raw.host, store: raw.store, publicUrl: raw.publicUrl },
      })
      const running = await startStrategyServer({ config, ...(raw.quiet ? {} : { log: (line: string) => console.log(line) }) })
      for (const line of running.describe()) console.log(line)
      const stop = (signal: string) => {
        console.log(`${signal}: finishing the calls in flight, then closing the store...`)
        running.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error('personhood: could not close the answer store cleanly:', error instanceof Error ? error.message : String(error))
            process.exit(1)
          },
        )
      }
      process.once('SIGINT', () => stop('SIGINT'))
      process.once('SIGTERM', () => stop('SIGTERM'))
    })

  program
    .command('demo')
    .description('The main job end to end, offline and without keys: the reference server and a local chain seeded from one world, a proposal of a few hundred votes (honest voters and sybil clusters), the audit, and its report in ./personhood-demo/.')
    .addHelpText('after', helpFooter({
        examples: [['the audit of a 300-vote demo proposal, offline', 'personhood demo'], ['a larger one', 'personhood demo --wallets 2000 --voters 1000 --out big-demo']],
        variables: terminalVariables,
        exits: ['ok', 'internal', 'usage'],
      }))
    .option('--out <dir>', 'where the votes, the config and the report go', 'personhood-demo')
    .option('--wallets <n>', 'wallets in the demo world', integer('--wallets', 50, 100_000))
    .option('--voters <n>', 'votes in the demo proposal', integer('--voters', 1, 100_000), 300)
    .option('--world-now <iso>', 'reference time of the demo world (default: start of the current UTC day)')
    .option('--tour', 'instead: a tour of the clients against the reference server (scores, verifications, sign-in)')
    .option('--json', 'with --tour: print the tour as JSON')
    .action(async (raw: { out: string; wallets?: number; voters: number; worldNow?: string; tour?: boolean; json?: boolean }) => {
      if (raw.tour) {
        const { formatDemoReport, runDemo } = await import('./demo.js')
        const report = await runDemo({ wallets: raw.wallets ?? 1000, ...(raw.worldNow ? { worldNow: raw.worldNow } : {}) })
        if (raw.json) console.log(stringifyJson(report, { indent: 2 }))
        else for (const line of formatDemoReport(report)) console.log(line)
        return
      }
      const { runAuditDemo } = await import('./audit-demo.js')
      await runAuditDemo({ out: raw.out, voters: raw.voters, ...(raw.wallets ? { wallets: raw.wallets } : {}), ...(raw.worldNow ? { worldNow: raw.worldNow } : {}) })
    })

  program
    .command('score')
    .description('Run a strategy of this package as score-api runs it, on a list of addresses: a table, or JSON (score-api\'s { address: score }) or CSV.')
    .addHelpText('after', helpFooter({
        examples: [
          ['three addresses on Optimism at the latest block', 'personhood score --strategy human-verification --network 10 --snapshot latest --addresses 0xabc...,0xdef...,0x123...'],
          ['a file of addresses, as JSON', 'personhood score --strategy passport-v2 --network 1 --snapshot 21000000 --addresses voters.txt --options \'{"scorerId":"1234"}\' --json'],
        ],
        variables: sourceVariables,
        exits: ['ok', 'internal', 'usage', 'input', 'source', 'block'],
      }))
    .requiredOption('--strategy <name>', '(required) human-id, passport-v2 or human-verification')
    .requiredOption('--network <id>', "(required) the space's network, a chain id")
    .requiredOption('--snapshot <block>', "(required) a block number of that network, or latest")
    .requiredOption('--addresses <file|list>', '(required) a comma-separated list, or a file with one address per line (or a CSV, first column)')
    .option('--options <json|file>', 'the strategy options, as a space configures them (JSON text or a JSON file)')
    .option('--rpc <url>', "JSON-RPC of the space's network (default: PERSONHOOD_RPC_URL)")
    .option('--hub-chain-rpc <url>', 'JSON-RPC of the Human ID hub chain (Optimism), when the space is on another network')
    .option('--passport-url <url>', 'Passport API host (default: PASSPORT_API_URL, PERSONHOOD_BASE_URL, else the public one)')
    .option('--registry-url <url>', 'Passport v1 registry host')
    .option('--human-id-url <url>', 'Human ID API')
    .option('--index-url <url>', 'attestation index')
    .option('--max-wait <duration>', 'longest wait for rate budget (90s, 15m, 1h); past it the command fails (exit 4) instead of waiting', duration)
    .option('--json', 'print JSON')
    .option('--csv', 'print CSV')
    .option('--output <file>', 'write there instead of printing')
    .action(async (raw: Record<string, unknown>) => {
      const { runScoreCommand } = await import('./score.js')
      const format = raw.json ? 'json' : raw.csv ? 'csv' : 'table'
      await runScoreCommand({ ...(raw as unknown as ScoreCommandOptions), format }, { env: process.env, log: (line) => console.log(line) })
    })

  program
    .command('verify')
    .description('Every source on one address at a snapshot: Human ID on chain, the Human ID API and attestation index, and the Passport score, each verdict with its reason.')
    .addHelpText('after', helpFooter({
        examples: [['one wallet now, on Optimism (the default network)', 'personhood verify 0xabc...'], ['at a past block of Ethereum', 'personhood verify 0xabc... --network 1 --snapshot 21000000 --rpc https://eth.example/...']],
        variables: [...sourceVariables, ...terminalVariables],
        exits: ['ok', 'internal', 'usage', 'input', 'source', 'block'],
      }))
    .argument('<address>', 'the wallet')
    .option('--snapshot <block>', 'a block of the network, or latest', 'latest')
    .option('--network <id>', "the space's network, a chain id (Optimism, where Human ID lives, unless given)", '10')
    .option('--action-id <id>', 'Human ID action id (default 123456789)')
    .option('--rpc <url>', "JSON-RPC of the network (default: PERSONHOOD_RPC_URL)")
    .option('--hub-chain-rpc <url>', 'JSON-RPC of the Human ID hub chain (Optimism), when the network is another')
    .option('--passport-url <url>', 'Passport API host')
    .option('--registry-url <url>', 'Passport v1 registry host')
    .option('--human-id-url <url>', 'Human ID API')
    .option('--index-url <url>', 'attestation index')
    .option('--max-wait <duration>', 'longest wait for rate budget (90s, 15m, 1h); past it the command fails (exit 4) instead of waiting', duration)
    .option('--json', 'print JSON')
    .action(async (address: string, raw: Record<string, unknown>) => {
      const { colourVerifyLine, formatVerifyReport, runVerifyCommand } = await import('./verify.js')
      const report = await runVerifyCommand({ ...(raw as VerifyCommandOptions), address }, { env: process.env })
      if (raw.json) console.log(stringifyJson(report, { indent: 2 }))
      else {
        const colours = createColours({ stream: process.stdout, env: process.env })
        for (const line of formatVerifyReport(report)) console.log(colourVerifyLine(sanitizeTerminal(line, { multiline: false }), colours))
      }
      // A source that could not answer makes the answer incomplete, whatever it says: exit 4.
      if (report.decision === null || report.unanswered.length > 0) process.exitCode = exitCodes.source
    })

  program
    .command('audit')
    .description('Audit a vote: who voted, which voters were unique humans at the snapshot and by what evidence, linked wallets, and the outcome counting only verified voters. Writes audit.json, audit.csv, audit.md and audit.html.')
    .addHelpText('after', helpFooter({
        examples: [
          ['a proposal, its votes read from the Snapshot hub', 'personhood audit --proposal 0x1234... --out report'],
          ['a vote export, in CI: exit 6 past 50% unverified', 'personhood audit --votes votes.csv --network 10 --snapshot 130000000 --choices For,Against --fail-if-unverified-share 50'],
        ],
        variables: [...sourceVariables, ...terminalVariables],
        exits: ['ok', 'internal', 'usage', 'input', 'source', 'block', 'policy'],
      }))
    .option('--votes <file>', '(required: this or --proposal) the votes: a Snapshot vote export (CSV: address, choice, voting_power; or JSON)')
    .option('--proposal <id>', '(required: this or --votes) a proposal id, its votes read from the Snapshot hub (every page)')
    .option('--hub <url>', 'the Snapshot hub GraphQL URL', 'https://hub.snapshot.org/graphql')
    .option('--snapshot <block>', "the snapshot block (default: the proposal's)")
    .option('--network <id>', "the space's network, a chain id (default: the proposal's network, else 1: Ethereum)")
    .option('--config <file>', 'JSON naming the strategy and its options (default: the proposal\'s strategy when it is one of ours, else human-verification)')
    .option('--rpc <url>', "JSON-RPC of the space's network (default: PERSONHOOD_RPC_URL)")
    .option('--hub-chain-rpc <url>', 'JSON-RPC of the Human ID hub chain (Optimism), when the space is on another network')
    .option('--passport-url <url>', 'Passport API host (default: PASSPORT_API_URL, PERSONHOOD_BASE_URL, else the public one)')
    .option('--registry-url <url>', 'Passport v1 registry host (default: the Passport host when set, else the public one)')
    .option('--human-id-url <url>', 'Human ID API (default: HUMAN_ID_API_URL, PERSONHOOD_HUMAN_ID_URL, else the public one)')
    .option('--index-url <url>', 'attestation index (default: ATTESTATION_INDEX_URL, PERSONHOOD_ATTESTATION_INDEX_URL, else the public one)')
    .option('--max-wait <duration>', 'longest wait for rate budget (90s, 15m, 1h); past it the command fails (exit 4) instead of waiting', duration)
    .option('--choices <labels>', 'choice labels of a votes file, comma-separated', (value: string) => value.split(',').map((label) => label.trim()))
    .option('--type <type>', 'voting system of a votes file (single-choice, approval, ranked-choice, weighted, quadratic, basic)')
    .option('--out <dir>', 'where the report goes', 'personhood-audit')
    .option('--cache-dir <dir>', 'disk cache of service answers (default: <out>/cache)')
    .option('--no-cache', 'ask every service again')
    .option('--no-linked-wallets', 'skip the per-voter score history reads behind linked-wallet signals')
    .option('--fail-if-unverified-share <pct>', 'exit 6 when more than this percent of voters are unverified', percent)
    .action(async (raw: Record<string, unknown>) => {
      const { runAuditCommand } = await import('./audit.js')
      const outcome = await runAuditCommand(raw as unknown as AuditCommandOptions, { env: process.env, log: (line) => console.log(line), colours: createColours({ stream: process.stdout, env: process.env }) })
      if (outcome.policyFailed) process.exitCode = exitCodes.policy
    })

  return program
}

/** The URLs a user configures (RPC endpoints carry keys in their paths) and the keys in the environment. */
function commandSecrets(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  const urls: (string | undefined)[] = [env.PERSONHOOD_RPC_URL, env.HUMAN_ID_RPC_URL]
  argv.forEach((argument, index) => {
    for (const flag of ['--rpc', '--hub-chain-rpc']) {
      if (argument === flag) urls.push(argv[index + 1])
      else if (argument.startsWith(`${flag}=`)) urls.push(argument.slice(flag.length + 1))
    }
  })
  return [...urls.flatMap((url) => urlSecrets(url)), env.PASSPORT_API_KEY, env.PERSONHOOD_API_KEY].filter((secret): secret is string => !!secret && secret.length >= 4)
}

/**
 * Runs the CLI.
 *
 * @param argv `process.argv` (node, script, arguments...).
 * @example
 * import { main } from 'personhood/cli'
 * await main(['node', 'personhood', 'serve', '--port', '0'])
 */
export async function main(argv: readonly string[]): Promise<void> {
  const program = createProgram()
  try {
    await program.parseAsync([...argv])
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the usage error (or the help, or the version) already.
      process.exitCode = error.exitCode === 0 ? exitCodes.ok : exitCodes.usage
      return
    }
    console.error(sanitizeTerminal(redact(error instanceof Error ? error.message : String(error), commandSecrets(argv, process.env))))
    process.exitCode = exitCodeFor(error)
  }
}
