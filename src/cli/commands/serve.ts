/**
 * `personhood serve`: the reference server on one port (and the local chain beside it with
 * `--chain`), until SIGINT or SIGTERM.
 */
import { Command } from 'commander'
import type { ServeOptions } from '../../server/start.js'
import { evmNotInstalledMeaning, helpFooter } from '../help.js'
import { integer, oneOf } from './parsers.js'

/** The flags of `serve`, as commander reads them. */
export type ServeFlags = {
  port: number
  host: string
  seed: 'demo' | 'empty'
  data?: string | undefined
  latencyMs?: number | undefined
  processingDelayMs?: number | undefined
  worldNow?: string | undefined
  wallets?: number | undefined
  adminToken?: string | undefined
  chain?: boolean | undefined
  chainPort: number
}

/** `startServe`'s options from the flags. */
export function serveOptions(flags: ServeFlags): ServeOptions {
  return {
    port: flags.port,
    host: flags.host,
    seed: flags.seed,
    ...(flags.data !== undefined ? { data: flags.data } : {}),
    ...(flags.latencyMs !== undefined ? { latencyMs: flags.latencyMs } : {}),
    ...(flags.processingDelayMs !== undefined ? { processingDelayMs: flags.processingDelayMs } : {}),
    ...(flags.worldNow !== undefined ? { worldNow: flags.worldNow } : {}),
    ...(flags.wallets !== undefined ? { wallets: flags.wallets } : {}),
    ...(flags.adminToken !== undefined ? { adminToken: flags.adminToken } : {}),
    ...(flags.chain ? { chain: { port: flags.chainPort } } : {}),
  }
}

/** The `serve` command. */
export function serveCommand(): Command {
  return new Command('serve')
    .description('Run the reference server on one port: stamp scores, model scores, the legacy registry, the stamp cache, Human ID verifications, the attestation index and the admin API.')
    .addHelpText(
      'after',
      helpFooter({
        examples: [
          ['the demo world on any free port (without --port: 8787); it prints its URL', 'personhood serve --port 0'],
          ['with a local chain (without --chain-port: 8545), state kept in a file', 'personhood serve --port 0 --chain --chain-port 0 --data state.json'],
        ],
        variables: [],
        exits: ['ok', 'internal', 'usage', 'input', ['source', `with --chain: ${evmNotInstalledMeaning}`]],
      }),
    )
    .option('--port <port>', 'port to listen on (0: any free port)', integer('--port', 0, 65_535), 8787)
    .option('--host <host>', 'host to bind', '127.0.0.1')
    .option('--seed <seed>', 'initial state: demo (the demo world) or empty', oneOf('--seed', ['demo', 'empty']), 'demo')
    .option('--data <file>', 'state file: loaded at start if it exists, saved on every change and on exit')
    .option('--latency-ms <ms>', 'artificial latency per request', integer('--latency-ms', 0, 600_000))
    .option('--processing-delay-ms <ms>', 'delay before a v1 submission reads DONE', integer('--processing-delay-ms', 0, 86_400_000))
    .option('--world-now <iso>', 'reference time of the demo world (default: start of the current UTC day; the server clock stays the real one)')
    .option('--wallets <n>', 'wallets in the demo world', integer('--wallets', 50, 100_000))
    .option('--admin-token <token>', 'admin bearer token (default: random, kept in the state)')
    .option('--chain', 'also start a local EVM seeded from the same world (Human ID SBTs, permanent stores, clean-hands attestations, Multicall3) and print its JSON-RPC URL')
    .option('--chain-port <port>', "port of the local chain's JSON-RPC (0: any free port)", integer('--chain-port', 0, 65_535), 8545)
    .action(async (flags: ServeFlags) => {
      const options = serveOptions(flags)
      // Each command loads its modules when it runs, so `serve` starts without the clients.
      const { startServe } = await import('../../server/start.js')
      const { describeServe } = await import('../serve.js')
      const { runUntilSignal } = await import('../signals.js')
      // The signal handlers are in place before the URL is printed (src/cli/signals.ts).
      await runUntilSignal({ start: () => startServe(options), describe: describeServe })
    })
}
