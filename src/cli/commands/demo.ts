/**
 * `personhood demo`: the main job end to end, offline and without keys (the audit of a demo world's
 * proposal), or with `--tour` a tour of the clients against the reference server.
 */
import { Command } from 'commander'
import { stringifyJson } from '../../utils/json.js'
import { evmNotInstalledMeaning, helpFooter, terminalVariables } from '../help.js'
import { integer } from './parsers.js'

/** The flags of `demo`. */
export type DemoFlags = { out: string; wallets?: number; voters: number; worldNow?: string; tour?: boolean; json?: boolean }

/** The `demo` command. */
export function demoCommand(): Command {
  return new Command('demo')
    .description(
      'The main job end to end, offline and without keys: the reference server and a local chain seeded from one world, a proposal of a few hundred votes (honest voters and sybil clusters), the audit, and its report in ./personhood-demo/.',
    )
    .addHelpText(
      'after',
      helpFooter({
        examples: [
          ['the audit of a 300-vote demo proposal, offline', 'personhood demo'],
          ['a smaller proposal in a smaller world, the files in small-demo/', 'personhood demo --wallets 200 --voters 100 --out small-demo'],
        ],
        variables: terminalVariables,
        exits: ['ok', 'internal', 'usage', 'input', ['source', `${evmNotInstalledMeaning}; or a read from the demo's own server or chain failed`]],
      }),
    )
    .option('--out <dir>', 'where the votes, the config and the report go', 'personhood-demo')
    .option('--wallets <n>', 'wallets in the demo world', integer('--wallets', 50, 100_000))
    .option('--voters <n>', 'votes in the demo proposal', integer('--voters', 1, 100_000), 300)
    .option('--world-now <iso>', 'reference time of the demo world (default: start of the current UTC day)')
    .option('--tour', 'instead: a tour of the clients against the reference server (scores, verifications, sign-in)')
    .option('--json', 'with --tour: print the tour as JSON')
    .action(async (flags: DemoFlags) => {
      if (flags.tour) {
        const { formatDemoReport, runDemo } = await import('../demo.js')
        const report = await runDemo({ wallets: flags.wallets ?? 1000, ...(flags.worldNow ? { worldNow: flags.worldNow } : {}) })
        if (flags.json) console.log(stringifyJson(report, { indent: 2 }))
        else for (const line of formatDemoReport(report)) console.log(line)
        return
      }
      // Said before the modules load (a second or more on a busy machine), so the run never starts silent.
      console.log(`personhood demo: a world of ${flags.wallets ?? 400} wallets, its reference server and local chain, a proposal of ${flags.voters} votes and its audit (report in ${flags.out}/).`)
      const { runAuditDemo } = await import('../audit-demo.js')
      await runAuditDemo({ out: flags.out, voters: flags.voters, ...(flags.wallets ? { wallets: flags.wallets } : {}), ...(flags.worldNow ? { worldNow: flags.worldNow } : {}) })
    })
}
