/**
 * `personhood strategy-server`: this package's strategies served to Snapshot through score-api's
 * api-v2 strategy, until SIGINT or SIGTERM (the calls in flight finish, the store is closed).
 */
import { Command } from 'commander'
import { strategyServerVariables } from '../../strategy-server/environment.js'
import { helpFooter } from '../help.js'
import { integer } from './parsers.js'

/** The flags of `strategy-server`. */
export type StrategyServerFlags = { config?: string; port?: number; host?: string; store?: string; publicUrl?: string; quiet?: boolean }

/** The `strategy-server` command. */
export function strategyServerCommand(): Command {
  return new Command('strategy-server')
    .description(
      "Serve this package's strategies to Snapshot through score-api's api-v2 strategy (type api-post or api-get), one endpoint per strategy: answers kept for good on disk, concurrent calls sharing their upstream work. See docs/strategy-server.md.",
    )
    .addHelpText(
      'after',
      helpFooter({
        examples: [['serve the strategies with a config file', 'personhood strategy-server --config strategy-server.json --port 8788']],
        variables: strategyServerVariables.map(([name, meaning]) => [name, meaning]),
        exits: ['ok', 'internal', 'usage', 'input'],
      }),
    )
    .option('--config <file>', 'JSON configuration: rpc per network, passport, humanId, scoreApi, salt, store... (the environment wins over it, flags over both)')
    .option('--port <port>', 'port to listen on (0: any free port; default 8788)', integer('--port', 0, 65_535))
    .option('--host <host>', 'host to bind (default 127.0.0.1; 0.0.0.0 in a container)')
    .option('--store <file>', 'the answer store file, or none for memory only (default personhood-answers.log)')
    .option('--public-url <url>', 'the origin spaces call, when a proxy changes it (api-get secrets cover the whole URL)')
    .option('--quiet', 'no request log lines')
    .action(async (flags: StrategyServerFlags) => {
      const { readStrategyServerConfig, startStrategyServer } = await import('../../strategy-server/start.js')
      const config = readStrategyServerConfig({
        file: flags.config,
        env: process.env,
        overrides: { port: flags.port, host: flags.host, store: flags.store, publicUrl: flags.publicUrl },
      })
      const running = await startStrategyServer({ config, ...(flags.quiet ? {} : { log: (line: string) => console.log(line) }) })
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
      // Ready is said once a signal would close it cleanly: a supervisor may stop it at once.
      for (const line of running.describe()) console.log(line)
    })
}
