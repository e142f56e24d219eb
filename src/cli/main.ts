/**
 * The `personhood` command line. `bin/personhood.js` calls {@link main} with `process.argv`; each
 * command loads its modules only when it runs.
 */
import { Command, InvalidArgumentError } from 'commander'
import { stringifyJson } from '../utils/json.js'
import { tryParseInteger } from '../utils/parse.js'
import { version } from '../version.js'
import type { ServeOptions } from './serve.js'

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const parsed = tryParseInteger(value, { min, max, strings: true })
    if (parsed === undefined) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`)
    return parsed
  }
}

/** Builds the program (exported for tests: `createProgram().parseAsync(argv)`). */
export function createProgram(): Command {
  const program = new Command()
  program.name('personhood').description('Sybil-resistant voting for DAOs: typed clients, a reference server and an on-chain verifier.').version(version)

  program
    .command('serve')
    .description('Run the reference server on one port: stamp scores, model scores, the legacy registry, the stamp cache, Human ID verifications, the attestation index and the admin API.')
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
      const { describeServe, startServe } = await import('./serve.js')
      const running = await startServe(options)
      for (const line of describeServe(running)) console.log(line)
      const stop = (signal: string) => {
        console.log(`\n${signal}: saving and stopping...`)
        running.close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error('personhood: could not save state on exit:', error)
            process.exit(1)
          },
        )
      }
      process.once('SIGINT', () => stop('SIGINT'))
      process.once('SIGTERM', () => stop('SIGTERM'))
    })

  program
    .command('demo')
    .description('Run the whole loop offline: the reference server with the demo world, driven through the clients.')
    .option('--wallets <n>', 'wallets in the demo world', integer('--wallets', 50, 100_000), 1000)
    .option('--world-now <iso>', 'reference time of the demo world (default: start of the current UTC day)')
    .option('--json', 'print the report as JSON')
    .action(async (raw: { wallets: number; worldNow?: string; json?: boolean }) => {
      const { formatDemoReport, runDemo } = await import('./demo.js')
      const report = await runDemo({ wallets: raw.wallets, ...(raw.worldNow ? { worldNow: raw.worldNow } : {}) })
      if (raw.json) console.log(stringifyJson(report, { indent: 2 }))
      else for (const line of formatDemoReport(report)) console.log(line)
    })

  return program
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
  await createProgram().parseAsync([...argv])
}
